"""docs/python.md's examples: each ```python block followed by "prints" and
a ```text block runs (in a temporary folder) and prints exactly that."""
import contextlib
import io
import os
import re

import pytest

from conftest import ASSETS

DOC = os.path.join(os.path.dirname(__file__), "..", "..", "docs", "python.md")
EXAMPLE = re.compile(r"```python\n(.*?)```\nprints\n```text\n(.*?)```", re.S)


def examples():
    with open(DOC) as f:
        return EXAMPLE.findall(f.read())


@pytest.mark.parametrize("code,printed", examples())
def test_example_prints_what_the_doc_says(code, printed, tmp_path, monkeypatch):
    if "RobotExpressive" in code and not os.path.exists(os.path.join(ASSETS or "", "RobotExpressive.glb")):
        pytest.skip("RobotExpressive.glb absent (set SINEW_ASSETS)")
    monkeypatch.chdir(tmp_path)
    if ASSETS:
        monkeypatch.setenv("SINEW_ASSETS", ASSETS)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, "docs/python.md", "exec"), {"__name__": "__doc_example__"})
    assert out.getvalue() == printed


def test_the_doc_has_examples():
    assert len(examples()) >= 4
