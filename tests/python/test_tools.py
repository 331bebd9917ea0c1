"""The tools as Python functions against the CLI's verbs: the same input
and options give the same output file, byte for byte, and the report holds
what `--json` prints."""
import filecmp
import json
import os

import pytest

import sinew
from conftest import CMU, DATA, EXAMPLES, MODELS, ROBOT, SIMPLE_SKIN, cli, need

MIXED = os.path.join(DATA, "mixed_orders.bvh")
BOXING = os.path.join(MODELS, "BVH", "Boxing_Toes.bvh")
WUSON = os.path.join(MODELS, "X", "Testwuson.X")


def same(tmp_path, name, python_call, *cli_args):
    """Runs the tool both ways into files of one name in two folders;
    returns (report, the CLI's --json report or None for play)."""
    (tmp_path / "py").mkdir(exist_ok=True)
    (tmp_path / "cli").mkdir(exist_ok=True)
    ours, theirs = tmp_path / "py" / name, tmp_path / "cli" / name
    report = python_call(str(ours))
    if cli_args[0] == "play":  # play prints frames; --bake names the output
        cli(*cli_args, str(theirs))
        printed = None
    else:
        printed = json.loads(cli(*cli_args, "-o", str(theirs), "--json").stdout)
    assert filecmp.cmp(ours, theirs, shallow=False), "%s differs from the CLI's" % name
    if name.endswith(".gltf"):  # and the buffer beside it
        assert filecmp.cmp(str(ours)[:-5] + ".bin", str(theirs)[:-5] + ".bin", shallow=False)
    return report, printed


def test_import_assimp_and_export_gltf(tmp_path):
    r, c = same(tmp_path, "wuson.sinew", lambda o: sinew.import_file(need(WUSON), o),
                "import", WUSON)
    assert r["format"] == c["format"] == "assimp"
    assert (r["joints_count"], r["clips_count"]) == (c["joints_count"], c["clips_count"])
    r, c = same(tmp_path, "skin.gltf", lambda o: sinew.export(need(SIMPLE_SKIN), o),
                "export", SIMPLE_SKIN)
    assert r["meshes_count"] == c["meshes_count"] == 1
    # what was written reads back with the same skeleton
    back = sinew.Asset(str(tmp_path / "py" / "skin.gltf"))
    assert back.skeleton.names == sinew.Asset(SIMPLE_SKIN).skeleton.names


def test_compress_report(tmp_path):
    r, c = same(tmp_path, "mixed.sinew",
                lambda o: sinew.compress(need(MIXED), o, precision=0.005, shell=2.0),
                "compress", MIXED, "--precision", "0.005", "--shell", "2")
    ours, theirs = r["clips"][0], c["clips"][0]
    for key in ("name", "joints", "samples", "raw_bytes", "compressed_bytes", "worst_joint",
                "tracks"):
        assert ours[key] == theirs[key], key
    for key in ("rate", "ratio", "max_error", "p99_error", "worst_time"):
        assert ours[key] == pytest.approx(theirs[key], rel=1e-7), key
    assert ours["max_error"] <= 0.005
    assert r["total"]["compressed_bytes"] == c["total"]["compressed_bytes"]
    packed = sinew.Asset(str(tmp_path / "py" / "mixed.sinew")).clips[0]
    assert packed.codec == "quantized"


def test_compress_robot_clips(tmp_path):
    same(tmp_path, "robot.sinew",
         lambda o: sinew.compress(need(ROBOT), o, clips=["Yes", "Punch"]),
         "compress", ROBOT, "--clips", "Yes,Punch")


def test_compress_refuses(tmp_path):
    with pytest.raises(sinew.InvalidArgumentError) as e:  # the output policy, before any work
        sinew.compress(need(MIXED), str(tmp_path / "out.glb"))
    assert e.value.check == "output format allowed"
    with pytest.raises(sinew.OverlapError):
        sinew.export(need(MIXED), MIXED)
    with pytest.raises(sinew.LimitError) as e:  # a bound no rate can hold
        sinew.compress(need(MIXED), str(tmp_path / "tight.sinew"), precision=1e-12)
    assert e.value.stats["max_error"] > 1e-12
    assert not (tmp_path / "tight.sinew").exists()


def test_mirror(tmp_path):
    r, c = same(tmp_path, "cmu.glb", lambda o: sinew.mirror(need(CMU), o), "mirror", CMU)
    assert (r["axis"], r["pairs_count"]) == (c["axis"], c["pairs_count"])
    same(tmp_path, "robot.sinew",
         lambda o: sinew.mirror(need(ROBOT), o, clips=["Wave", "Yes"], axis="x"),
         "mirror", ROBOT, "--clips", "Wave,Yes", "--axis", "x")


def test_retarget(tmp_path):
    r, c = same(tmp_path, "boxing.sinew", lambda o: sinew.retarget(need(BOXING), "default", o),
                "retarget", BOXING, "--to", "default")
    for key in ("mapped", "foot_ik", "foot_lock", "joints_count", "clips_count"):
        assert r[key] == c[key], key
    assert r["scale"] == pytest.approx(c["scale"], rel=1e-7)
    same(tmp_path, "cmu_robot.glb",
         lambda o: sinew.retarget(need(CMU), need(ROBOT), o, ik=False, foot_lock=False),
         "retarget", CMU, "--to", ROBOT, "--no-ik", "--no-foot-lock")


def test_bake_animator_run(tmp_path):
    robot_json = need(os.path.join(EXAMPLES, "robot.json"))
    script = os.path.join(EXAMPLES, "walk_run.txt")
    # examples/walk_run.txt, line by line
    steps = [(0.0, {"speed": 0}), (0.5, {"speed": 0.75}), (1.0, {"speed": 1.5}),
             (1.5, {"speed": 2.75}), (2.0, {"speed": 4.0}), (3.0, {"trigger": "punch"}),
             (4.5, {"wave": 1}), (5.5, {"speed": 0.75, "wave": 0})]
    same(tmp_path, "walk_run.sinew",
         lambda o: sinew.bake(need(ROBOT), robot_json, o, 6.0, fps=30, script=steps),
         "play", ROBOT, "--animator", robot_json, "--script", script, "--seconds", "6",
         "--fps", "30", "--bake")


def test_tools_on_threads(tmp_path):
    """Reading, baking, compressing and writing release the GIL: two threads
    running tools at once write what one thread writes."""
    from concurrent.futures import ThreadPoolExecutor

    need(MIXED)
    jobs = [("compress", MIXED, "a.sinew"), ("mirror", CMU, "b.sinew"),
            ("compress", MIXED, "c.sinew"), ("mirror", CMU, "d.sinew")]

    def run(job, folder):
        verb, src, name = job
        getattr(sinew, verb)(src, str(folder / name))

    (tmp_path / "serial").mkdir()
    (tmp_path / "threads").mkdir()
    for job in jobs:
        run(job, tmp_path / "serial")
    with ThreadPoolExecutor(2) as pool:
        list(pool.map(lambda j: run(j, tmp_path / "threads"), jobs))
    for _, _, name in jobs:
        assert filecmp.cmp(tmp_path / "serial" / name, tmp_path / "threads" / name, shallow=False)
