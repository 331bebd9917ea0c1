"""The batch pipeline on Dask distributed (sinew.batch, issue 21).

The batch, on a local cluster of 2 worker processes it starts, converts the
CMU BVH files and animated assimp test models (Collada, X, FBX) plus one
broken file; one worker is killed while its CLI process is writing an
output. Every
output must then exist, pass `sinew validate`, and be byte-equal to the CLI's
output for the same file run directly; the broken file is reported, not
fatal; a re-run skips everything up to date and redoes exactly what changed.

Needs SINEW_CLI (the build's CLI; ctest sets it) and the models under
$SINEW_TEST_MODELS or /usr/share/assimp/models (skipped, saying so, when absent).
"""

import json
import os
import shutil
import signal
import subprocess
import sys
import time

import pytest

distributed = pytest.importorskip("distributed", reason="python3-distributed not installed")

from sinew import batch  # noqa: E402

# tornado (under distributed 2022.12) warns about its own event loop set-up.
pytestmark = pytest.mark.filterwarnings("ignore:make_current is deprecated:DeprecationWarning")

MODELS = os.environ.get("SINEW_TEST_MODELS", "/usr/share/assimp/models")
# Animated models the CLI imports (sinew info lists a clip for each); SMALL
# ones compress in well under a second.
ANIMATED = ["Collada/anims_with_full_rotations_between_keys.DAE", "X/Testwuson.X",
            "FBX/huesitos.fbx"]
SMALL = ["FBX/animation_with_skeleton.fbx", "Collada/box_nested_animation.dae"]
BVH = ["BVH/01_03.bvh", "BVH/Boxing_Toes.bvh", "BVH/01_01.bvh"]


@pytest.fixture(scope="module")
def cli():
    try:
        return batch.find_cli()
    except batch.UsageError as e:
        pytest.skip(str(e))


@pytest.fixture(scope="module")
def inputs(tmp_path_factory):
    """Copies of the models (so that the test may touch them) and a broken
    BVH file; returns (good paths, broken path, small paths)."""
    missing = [m for m in BVH + ANIMATED + SMALL if not os.path.isfile(os.path.join(MODELS, m))]
    if missing:
        pytest.skip("assimp test models not found under %s (%s): install "
                    "assimp-testmodels or set SINEW_TEST_MODELS" % (MODELS, ", ".join(missing)))
    folder = tmp_path_factory.mktemp("inputs")
    paths = []
    for m in BVH + ANIMATED + SMALL:
        dst = folder / os.path.basename(m)
        shutil.copyfile(os.path.join(MODELS, m), dst)
        paths.append(str(dst))
    broken = folder / "broken.bvh"
    broken.write_text("HIERARCHY\nROOT Hips\n{\n  OFFSET 0 0\n")
    return paths[:-len(SMALL)], str(broken), paths[-len(SMALL):]


@pytest.fixture(scope="module")
def scheduler():
    """A cluster for --scheduler runs: 2 workers as threads of this process
    (quick to start; the worker processes are the batch's own, above)."""
    from distributed import LocalCluster

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                      dashboard_address=None) as c:
        yield c.scheduler_address


def _children(pid):
    """The child processes of pid (every thread's), from /proc."""
    kids = []
    try:
        for tid in os.listdir("/proc/%d/task" % pid):
            with open("/proc/%d/task/%s/children" % (pid, tid)) as f:
                kids += [int(k) for k in f.read().split()]
    except OSError:
        pass
    return kids


def _argv(pid):
    try:
        with open("/proc/%d/cmdline" % pid, "rb") as f:
            return [a.decode() for a in f.read().split(b"\0") if a]
    except OSError:
        return []


def _alive(pid):
    """True while pid runs (a zombie waiting for its reaper counts as dead)."""
    try:
        with open("/proc/%d/stat" % pid) as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def _batch_cmd(verb, files, out, *extra):
    return [sys.executable, "-m", "sinew.batch", verb, *files, "-o", str(out), "--json", *extra]


def _descendants(pid):
    kids = _children(pid)
    return kids + [d for k in kids for d in _descendants(k)]


def _kill_a_worker_mid_task(proc, cli):
    """Waits until one of the batch's worker processes (a process under the
    batch whose child is the CLI) runs the CLI, then SIGKILLs the worker.
    Returns (worker pid, CLI pid, CLI argv) or None if the batch ended first."""
    while proc.poll() is None:
        for w in _descendants(proc.pid):
            for c in _children(w):
                argv = _argv(c)
                if argv and argv[0] == cli and "-o" in argv:
                    os.kill(w, signal.SIGKILL)
                    return w, c, argv
        time.sleep(0.005)
    return None


def _main(capsys, verb, files, out, *extra):
    """sinew.batch run in this process (its --json document on stdout):
    returns (exit status, document)."""
    capsys.readouterr()
    status = batch.main([verb, *files, "-o", str(out), "--json", *extra])
    return status, json.loads(capsys.readouterr().out)


def _direct(cli, verb, src, out, *args):
    """The CLI run directly on one file: the completed process."""
    return subprocess.run([cli, verb, src, "-o", str(out), *args], check=True,
                          capture_output=True, text=True, timeout=300)


def test_kill_a_worker_rerun_and_stale_inputs(cli, inputs, scheduler, tmp_path, capsys):
    good, broken, _ = inputs
    out = tmp_path / "out"
    cmd = _batch_cmd("convert", good + [broken], out, "--workers", "2")
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    killed = _kill_a_worker_mid_task(proc, cli)
    stdout, stderr = proc.communicate(timeout=300)
    assert killed, "the batch ended before a worker could be killed mid-task:\n" + stderr
    worker, cli_pid, cli_argv = killed
    deadline = time.monotonic() + 10
    while _alive(cli_pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _alive(cli_pid), "the CLI outlived its killed worker"
    assert proc.returncode == 1, stderr  # the broken file fails, nothing else
    doc = json.loads(stdout)
    by_input = {r["input"]: r for r in doc["files"]}
    assert len(doc["files"]) == len(good) + 1 and doc["ok"] == len(good) and doc["failed"] == 1
    assert doc["cluster"] == {"scheduler": "local cluster", "workers": 2}

    bad = by_input[broken]
    assert bad["status"] == "fail" and bad["exit_status"] == 1
    assert "broken.bvh" in bad["error"] and "(check " in bad["error"]

    # The interrupted file was redone by another worker process.
    interrupted = by_input[cli_argv[2]]
    assert interrupted["status"] == "ok"
    assert not interrupted["worker"].endswith(":%d" % worker)

    names = {os.path.basename(r["output"]) for r in doc["files"] if r["status"] == "ok"}
    kept = {batch.RESULTS_NAME, batch.MANIFEST_NAME, batch.LOCK_NAME}
    assert set(os.listdir(out)) == names | kept  # no temporary, nothing for the broken file

    direct = tmp_path / "direct"
    direct.mkdir()
    for src in good:
        r = by_input[src]
        assert r["status"] == "ok" and r["exit_status"] == 0, r
        assert r["report"]["file"] == src and r["report"]["output_format"] == "sinew"
        v = subprocess.run([cli, "validate", r["output"], "--json"], capture_output=True,
                           text=True, timeout=120)
        assert v.returncode == 0 and json.loads(v.stdout)["ok"] is True, v.stderr
        mine = direct / os.path.basename(r["output"])
        said = _direct(cli, "convert", src, mine).stderr.splitlines()
        assert r["warnings"] == said  # the CLI's warnings, kept per file
        with open(r["output"], "rb") as a, open(mine, "rb") as b:
            assert a.read() == b.read(), "%s differs from the CLI's own output" % r["output"]
        assert r["output_bytes"] == os.path.getsize(mine)

    assert any(r["warnings"] for r in doc["files"])  # huesitos.fbx: weights renormalized

    # The same command again: every output is up to date, the broken file
    # is tried (and fails) again.
    status, doc2 = _main(capsys, "convert", good + [broken], out, "--scheduler", scheduler)
    assert status == 1
    assert doc2["up_to_date"] == len(good) and doc2["failed"] == 1 and doc2["ok"] == 0
    stamps = {p: os.stat(by_input[p]["output"]).st_mtime_ns for p in good}

    # A newer input is redone, the rest skipped; without the broken file
    # nothing fails.
    touched = good[-1]
    os.utime(touched)  # now: after its output was written
    status, doc3 = _main(capsys, "convert", good, out, "--scheduler", scheduler)
    assert status == 0
    assert doc3["ok"] == 1 and doc3["up_to_date"] == len(good) - 1
    for p in good:
        changed = os.stat(by_input[p]["output"]).st_mtime_ns != stamps[p]
        assert changed == (p == touched), p

    # Only up-to-date outputs: no cluster is started at all.
    status, doc4 = _main(capsys, "convert", good, out)
    assert status == 0 and doc4["cluster"]["scheduler"] is None


def test_compress_figures_and_gltf_pairs(cli, inputs, scheduler, tmp_path, capsys):
    """Options after -- reach the CLI; the ratio and error gathered are the
    CLI's own report; a .gltf output comes with its .bin, both as the CLI
    writes them."""
    _, _, small = inputs
    out = tmp_path / "out"
    status, doc = _main(capsys, "compress", small, out, "--scheduler", scheduler,
                        "--", "--precision", "0.001")
    assert status == 0
    assert doc["args"] == ["--precision", "0.001"] and doc["ok"] == len(small)
    for r in doc["files"]:
        direct = subprocess.run([cli, "compress", r["input"], "-o", str(tmp_path / "d.sinew"),
                                 "--precision", "0.001", "--json"],
                                capture_output=True, text=True, check=True, timeout=300)
        total = json.loads(direct.stdout)["total"]
        assert r["report"]["precision"] == pytest.approx(0.001)
        assert (r["ratio"], r["max_error"]) == (total["ratio"], total["max_error"])
        with open(r["output"], "rb") as a, open(tmp_path / "d.sinew", "rb") as b:
            assert a.read() == b.read()

    gl = tmp_path / "gltf"
    status, doc = _main(capsys, "export", small[:1], gl, "--format", "gltf", "--scheduler",
                        scheduler)
    assert status == 0
    r = doc["files"][0]
    stem = os.path.splitext(r["output"])[0]
    _direct(cli, "export", small[0], tmp_path / os.path.basename(r["output"]))
    for ext in (".gltf", ".bin"):
        with open(stem + ext, "rb") as a, open(tmp_path / (os.path.basename(stem) + ext), "rb") as b:
            assert a.read() == b.read(), ext
    assert r["output_bytes"] == os.path.getsize(stem + ".gltf") + os.path.getsize(stem + ".bin")


def test_command_line_and_names(tmp_path, cli):
    """Bad command lines are refused before any work; output names stay
    unique; the manifest's record goes stale with the options or the CLI."""
    for argv, words in ((["convert", "a.bvh", "-o", "o", "--scale", "2"], "go after --"),
                        (["convert", "a.bvh", "-o", "o", "--", "-o", "x"], "sets -o itself"),
                        (["compress", "a.bvh", "-o", "o", "--format", "glb"], "compress"),
                        (["convert", "a.bvh", "-o", "o", "--scheduler", "x", "--workers", "2"],
                         "--workers")):
        with pytest.raises(batch.UsageError, match=words):
            batch.parse_args(argv)
    args, rest = batch.parse_args(["export", "a.bvh", "-o", "o", "--", "--clips", "Idle"])
    assert (args.format, rest) == ("glb", ["--clips", "Idle"])

    names = batch.output_names(["/m/BVH/walk.bvh", "/m/FBX/walk.fbx", "/m/X/run.x"], "sinew")
    assert names == ["BVH_walk.bvh.sinew", "FBX_walk.fbx.sinew", "run.sinew"]
    with pytest.raises(batch.UsageError, match="same output name"):
        batch.output_names(["/m/a_b/c.bvh", "/m/a/b_c.bvh", "/m/c.x", "/m/b_c.x"], "glb")

    src, out = tmp_path / "in.bvh", tmp_path / "in.sinew"
    src.write_text("x")
    out.write_text("y")
    os.utime(src, ns=(1, 10**18))
    os.utime(out, ns=(1, 2 * 10**18))
    job = {"input": str(src), "output": str(out), "verb": "convert", "args": ["--scale", "2"]}
    identity = {"version": "sinew 0.1.0", "sha256": "ab"}
    entry = batch.manifest_entry(job, identity, {"status": "ok"})
    assert batch.up_to_date(entry, job, identity)
    assert not batch.up_to_date(entry, dict(job, args=["--scale", "3"]), identity)
    assert not batch.up_to_date(entry, job, dict(identity, sha256="cd"))
    os.utime(out, ns=(1, 10**18 - 1))  # older than its input
    assert not batch.up_to_date(batch.manifest_entry(job, identity, {}), job, identity)
    assert cli


def test_time_limit_fails_the_file_only(inputs, scheduler, tmp_path, capsys):
    """A file over --timeout is killed (with the CLI's reader child) and
    reported; it leaves no output."""
    good = inputs[0]
    status, doc = _main(capsys, "convert", good[:1], tmp_path, "--timeout", "0.001",
                        "--scheduler", scheduler)
    r = doc["files"][0]
    assert status == 1 and r["status"] == "fail" and r["exit_status"] == -signal.SIGKILL
    assert "timed out after 0.001 s" in r["error"] and not os.path.exists(r["output"])
