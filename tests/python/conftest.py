"""Fixtures of the sinew Python tests: where the C reference program, the
CLI and the test files are (set by CTest, see tests/CMakeLists.txt), and the
files opened by several tests. A test whose files are absent skips, saying
which."""
import os
import subprocess

import numpy as np
import pytest

import sinew

MODELS = os.environ.get("SINEW_TEST_MODELS", "/usr/share/assimp/models")
DATA = os.environ.get("SINEW_TEST_DATA", os.path.join(os.path.dirname(__file__), "..", "data"))
EXAMPLES = os.environ.get("SINEW_EXAMPLES", os.path.join(os.path.dirname(__file__), "..", "..", "examples"))
ASSETS = os.environ.get("SINEW_ASSETS") or os.environ.get("SINEW_TEST_ASSETS", "")

CMU = os.path.join(MODELS, "BVH", "01_01.bvh")
ROBOT = os.path.join(ASSETS, "RobotExpressive.glb") if ASSETS else ""
SIMPLE_SKIN = os.path.join(MODELS, "glTF2", "simple_skin", "simple_skin.gltf")


def need(path):
    """The path, or a skip naming it when it is absent."""
    if not path or not os.path.exists(path):
        pytest.skip("test file absent: %s" % (path or "(no assets folder: set SINEW_ASSETS)"))
    return path


def tool(name):
    """The path of a program CTest passes in the environment (skip without)."""
    path = os.environ.get(name)
    if not path or not os.path.exists(path):
        pytest.skip("%s not set (run the suite through ctest)" % name)
    return path


def reference(*args):
    """The raw float32 output of tests/python/reference.c for these arguments."""
    exe = tool("SINEW_PY_REFERENCE")
    out = subprocess.run([exe] + [str(a) for a in args], check=True, capture_output=True).stdout
    return np.frombuffer(out, dtype=np.float32)


def cli(*args):
    """Runs the sinew CLI; returns the completed process (checked)."""
    exe = tool("SINEW_CLI")
    return subprocess.run([exe] + [str(a) for a in args], check=True, capture_output=True, text=True)


def storage(matrices):
    """The bytes sinew holds for matrices returned as [i, row, col] views."""
    return np.ascontiguousarray(np.asarray(matrices).transpose(0, 2, 1)).tobytes()


@pytest.fixture(scope="session")
def cmu():
    return sinew.Asset(need(CMU))


@pytest.fixture(scope="session")
def robot():
    return sinew.Asset(need(ROBOT))
