"""The animator from Python against the same run in C, bit for bit: poses
and root motion per frame (tests/python/reference.c, mode animator)."""
import json
import os

import numpy as np
import pytest

import sinew
from conftest import CMU, DATA, EXAMPLES, ROBOT, need, reference

ROBOT_JSON = os.path.join(EXAMPLES, "robot.json")
CMU_JSON = os.path.join(DATA, "animator_cmu.json")


def run(animator, frames, dt, changes):
    """Poses and root motions of a run, as the reference program records
    them: the changes of frame f set before its update, the first update 0."""
    out = []
    for f in range(frames):
        for name, value in changes.get(f, {}).items():
            animator[name] = value
        _, motion = animator.update(dt if f else 0.0)
        pose = animator.evaluate()
        rm = np.array(list(motion["translation"]) + [motion["yaw"]], dtype=np.float32)
        out.append(pose.tobytes() + rm.tobytes())
    return b"".join(out)


def c_args(changes):
    return ["%d:%s=%r" % (f, k, v) for f, c in sorted(changes.items()) for k, v in c.items()]


def test_robot_run_matches_c(robot):
    need(ROBOT_JSON)
    changes = {0: {"speed": 0.0}, 10: {"speed": 1.5}, 25: {"speed": 4.0, "wave": 1.0},
               40: {"punch": 1.0}, 55: {"nod": 0.5, "wave": 0.0}}
    with open(ROBOT_JSON) as f:
        definition = json.load(f)  # a dict: the binding writes it back as JSON
    anim = sinew.Animator(definition, robot.skeleton, robot.clips)
    got = run(anim, 70, 1 / 30, changes)
    want = reference("animator", ROBOT, ROBOT_JSON, 70, repr(np.float32(1 / 30).item()), *c_args(changes))
    assert len(got) == want.nbytes
    assert got == want.tobytes()


def test_cmu_root_motion_matches_c(cmu):
    anim = sinew.Animator(need(CMU_JSON), cmu.skeleton, cmu.clips)  # a path
    got = run(anim, 40, 1 / 60, {})
    want = reference("animator", CMU, CMU_JSON, 40, repr(np.float32(1 / 60).item()))
    assert got == want.tobytes()
    # root motion moves: the walk covers ground
    frames = np.frombuffer(got, np.float32).reshape(40, -1)
    assert np.abs(frames[1:, -4:-1]).sum() > 0


def test_parameters_states_and_events(robot):
    anim = sinew.Animator(open(need(ROBOT_JSON)).read(), robot.skeleton, robot.clips)  # JSON text
    assert anim.param_names == ("speed", "punch", "wave", "nod", "grounded")
    assert anim["grounded"] == 1.0
    params = anim.params  # a view of the animator's own parameters
    params[0] = 2.0
    assert anim["speed"] == 2.0
    anim.update(0.0)
    assert anim.current_state("Base") == "Locomotion"
    anim.trigger("punch")
    events, _ = anim.update(1 / 30)
    assert anim["punch"] == 0.0  # consumed by the transition
    assert any(e["kind"] == "enter" and e["state"] == "Punch" for e in events)
    assert anim.current_state("Base") == "Punch"
    finished = []
    for _ in range(200):
        events, _ = anim.update(1 / 30)
        finished += [e for e in events if e["kind"] == "finished"]
    assert [e["state"] for e in finished] == ["Punch"]
    weights = sum(c["weight"] for c in anim.contributions() if c["layer"] == 0)
    assert weights == pytest.approx(1.0, abs=1e-5)
    anim.play("Jump", 0.1)
    assert anim.current_state("Base") == "Jump"
    anim.evaluate()
    assert not anim.pose_changed
    with pytest.raises(sinew.InvalidArgumentError):  # the pose changed since: evaluate
        anim.update(1 / 30)
        anim.reuse_pose()


def test_animator_errors(robot, cmu):
    with pytest.raises(sinew.ParseError) as e:
        sinew.Animator({"layers": [{"name": "base", "machine": "Main", "typo": 1}]},
                       robot.skeleton, robot.clips)
    assert e.value.check
    with pytest.raises(sinew.NotFoundError) as e:
        sinew.Animator(need(ROBOT_JSON), cmu.skeleton, cmu.clips)  # no robot clips in a BVH
    with pytest.raises(sinew.NotFoundError):
        sinew.Animator(need(ROBOT_JSON), robot.skeleton, robot.clips)["sped"]


def test_keeping_keys_gives_the_same_run(robot):
    """The robot's clips quantized: an animator keeping their decoded keys
    runs bit for bit as one keeping cursors (the default)."""
    need(ROBOT_JSON)
    clips = [sinew.compress_clip(robot.skeleton, c, precision=0.001)[0] for c in robot.clips]
    changes = {0: {"speed": 0.5}, 20: {"speed": 3.0, "wave": 1.0}, 45: {"speed": 1.2, "wave": 0.0}}
    runs = [run(sinew.Animator(need(ROBOT_JSON), robot.skeleton, clips, **kw), 70, 1 / 30, changes)
            for kw in ({}, {"keep": "cursors"}, {"keep": "keys"})]
    assert runs[0] == runs[1] == runs[2]
    with pytest.raises(ValueError):
        sinew.Animator(need(ROBOT_JSON), robot.skeleton, clips, keep="all")


def test_bake_records_the_run(cmu):
    anim = sinew.Animator(need(CMU_JSON), cmu.skeleton, cmu.clips)
    bake = sinew.AnimatorBake(cmu.skeleton, 30.0)
    for f in range(31):
        _, motion = anim.update(1 / 30 if f else 0.0)
        bake.append(anim.evaluate(), motion)
    clip = bake.build()
    assert clip.name == "baked" and clip.duration == pytest.approx(1.0)
