"""IK, foot placement and springs from Python against the same calls in C,
bit for bit (tests/python/reference.c, modes ik and springs), plus their
geometric promises."""
import numpy as np
import pytest

import sinew
from conftest import CMU, reference

F = np.float32


def pos(model, j):
    return model[j, :3, 3].copy()


def step_ray(origin, direction, max_distance):
    """2 units high where x > 0, flat elsewhere (as step_ray in reference.c)."""
    return (origin[0], 2.0 if F(origin[0]) > 0 else 0.0, origin[2]), (0.0, 1.0, 0.0)


def test_solvers_match_c(cmu):
    s = cmu.skeleton
    want = reference("ik", CMU, "motion", "3.5")
    pose = sinew.sample(s, cmu.clips[0], 3.5)
    model = sinew.local_to_model(s, pose)
    got = []
    target = pos(model, s.find_joint("LeftFoot")) + F([2, 3, 1])
    reached = sinew.ik_two_bone(s, model, pose, "LeftUpLeg", "LeftLeg", "LeftFoot", target,
                                pole=(0, 0, 1))
    assert reached
    model = sinew.local_to_model(s, pose)
    assert np.allclose(pos(model, s.find_joint("LeftFoot")), target, atol=1e-3)
    got.append(pose.tobytes())
    spine = ["Spine", "Spine1", "Neck1", "Head"]
    up = pos(model, s.find_joint("Head")) + F([3, -1, 2])
    sinew.ik_fabrik(s, model, pose, spine, up, pole=(0, 0, 1), weight=0.75)
    model = sinew.local_to_model(s, pose)
    got.append(pose.tobytes())
    arm = ["RightArm", "RightForeArm", "RightHand", "RFingers"]
    limits = [{"type": "cone", "cone_angle": 1.2}, None, None, None]
    sinew.ik_ccd(s, model, pose, arm, pos(model, s.find_joint("RightArm")) + F([-4, 6, 5]),
                 limits=limits, iterations=20)
    model = sinew.local_to_model(s, pose)
    got.append(pose.tobytes())
    sinew.ik_look_at(s, model, pose, [("Neck1", 0.5), ("Head", 1.0)], (0, 0, 1), (20, 30, 40),
                     limit_angle=1.0)
    model = sinew.local_to_model(s, pose)
    got.append(pose.tobytes())
    state = sinew.FootState()
    legs = [("LeftUpLeg", "LeftLeg", "LeftFoot"), ("RightUpLeg", "RightLeg", "RightFoot", (0, 0, 1))]
    for _ in range(3):
        sinew.foot_placement(s, model, pose, "Hips", legs, step_ray, state, 1 / 30,
                             max_step_up=5.0, max_step_down=5.0)
        got.append(pose.tobytes())
    got.append(np.ascontiguousarray(model.transpose(0, 2, 1)).tobytes())  # updated in place
    assert b"".join(got) == want.tobytes()
    assert state.legs[0]["grounded"]


def test_weight_zero_leaves_the_pose(cmu):
    s = cmu.skeleton
    pose = sinew.sample(s, cmu.clips[0], 1.0)
    before = pose.copy()
    model = sinew.local_to_model(s, pose)
    sinew.ik_two_bone(s, model, pose, "LeftUpLeg", "LeftLeg", "LeftFoot", (0, 0, 0), weight=0.0)
    sinew.ik_fabrik(s, model, pose, ["Spine", "Spine1", "Neck1"], (0, 50, 0), weight=0.0)
    assert pose.tobytes() == before.tobytes()


def test_ik_refuses_bad_input(cmu):
    s = cmu.skeleton
    pose = sinew.sample(s, cmu.clips[0], 1.0)
    model = sinew.local_to_model(s, pose)
    with pytest.raises(sinew.InvalidArgumentError):  # not in ancestor order
        sinew.ik_two_bone(s, model, pose, "LeftFoot", "LeftLeg", "LeftUpLeg", (0, 0, 0))
    with pytest.raises(sinew.NotFoundError):
        sinew.ik_ccd(s, model, pose, ["Spine", "Nope"], (0, 0, 0))
    with pytest.raises(sinew.BadDataError):  # Neck sits on Spine1: a bone of length 0
        sinew.ik_fabrik(s, model, pose, ["Spine", "Spine1", "Neck"], (0, 50, 0))
    with pytest.raises(ValueError):  # a copy cannot be edited in place
        sinew.ik_look_at(s, model, pose.astype(np.float64), ["Head"], (0, 0, 1), (0, 0, 9))
    with pytest.raises(ZeroDivisionError):  # the ray's exception comes through
        sinew.foot_placement(s, model, pose, "Hips", [("LeftUpLeg", "LeftLeg", "LeftFoot")],
                             lambda o, d, m: 1 / 0, sinew.FootState(), 0.1)


def test_springs_match_c(cmu):
    want = reference("springs", CMU)
    got = []
    f, fv = 0.0, 0.0
    v, vv = (0.0, 0.0, 0.0), (1.0, 0.0, 0.0)
    q, qv = (0.0, 0.0, 0.0, 1.0), (0.0, 0.0, 0.0)
    goal = (0.0, 0.6, 0.0, 0.8)
    d = 0.0
    for _ in range(30):
        f, fv = sinew.spring_update(f, fv, 1.0, 0.2, 1 / 60)
        v, vv = sinew.spring_update(v, vv, (1, 2, 3), 0.3, 1 / 60, goal_velocity=(0.5, 0, 0))
        q, qv = sinew.spring_quat_update(q, qv, goal, 0.25, 1 / 60)
        d = sinew.damp(d, 5.0, 0.1, 1 / 60)
        got.append(np.array([f, fv, *v, *vv, *q, *qv, d], dtype=F).tobytes())
    assert abs(f - 1.0) < 0.5 and d > 0
    assert b"".join(got) == want.tobytes()


def test_chains_match_c(cmu):
    s = cmu.skeleton
    want = reference("chains", CMU, "motion", "5.0")
    pose = sinew.sample(s, cmu.clips[0], 5.0)
    model = sinew.local_to_model(s, pose)
    arm = ["LeftArm", "LeftForeArm", "LeftHand", "LFingers"]
    points, lengths = sinew.chain_points(s, model, arm)
    got = []
    start = points[0].copy()
    for i in range(1, 6):
        head = points[0] + F([0.5 * i, 0.0, 0.25])
        sinew.chain_follow(points, head, lengths)
        got.append(points.tobytes())
        # each link keeps its length behind the head
        assert np.allclose(np.linalg.norm(np.diff(points, axis=0), axis=1), lengths, rtol=1e-4)
    assert not np.array_equal(points[0], start)
    sinew.chain_aim(s, model, pose, arm, points)
    model = sinew.local_to_model(s, pose)
    got.append(pose.tobytes())
    state = sinew.JiggleState()
    for _ in range(10):
        sinew.jiggle(s, model, pose, arm, state, 1 / 60, stiffness=50.0, damping=5.0,
                     gravity=(0, -9.8, 0), colliders=[((0, 0, 0), (0, 30, 0), 8.0)])
        got.append(pose.tobytes())
    assert b"".join(got) == want.tobytes()
    assert np.isfinite(state.positions[:4]).all()
