"""Hit effects, spine wander and the walker from Python against the same
calls in C, bit for bit (tests/python/reference.c, mode effects)."""
import numpy as np
import pytest

import sinew
from conftest import CMU, reference

F = np.float32
SHAKE = dict(position_amplitude=(0.1, 0.1, 0.0), rotation_amplitude=(0.02, 0.02, 0.02),
             fov_amplitude=0.05, fade_in=0.05, hold=0.2, fade_out=0.3, seed=3)
PULSE = dict(amount=0.1, attack=0.1, hold=0.1, release=0.2)


def walker_ray(origin, direction, max_distance):
    """Ground 0.3 high where x > 1, nothing overhead (as walker_ray in C)."""
    if direction[1] > 0:
        return None
    return (origin[0], 0.3 if F(origin[0]) > 1 else 0.0, origin[2]), (0.0, 1.0, 0.0)


def test_effects_match_c(cmu):
    s = cmu.skeleton
    got = []
    for t in (0.0, 0.05, 0.1, 0.3):
        k = sinew.shake(F(t), **SHAKE)
        got.append(F([*k["position"], *k["rotation"], k["fov"], k["envelope"],
                      sinew.fov_pulse(F(t), **PULSE)]).tobytes())
        assert abs(k["position"][0]) <= 0.1 + 1e-7 and 0 <= k["envelope"] <= 1
    pause = sinew.HitPause()
    pause.start(0.2, 0.1)
    got.append(F([pause.scale_dt(1 / 60) for _ in range(15)]).tobytes())
    assert not pause.active
    pose = sinew.sample(s, cmu.clips[0], 6.0)
    spine = ["Spine", "Spine1", "Neck1", "Head"]
    sinew.pose_shake(s, pose, spine[1:], 0.1, amplitude=0.2, frequency=6.0, half_life=0.3,
                     seed=9)
    model = sinew.local_to_model(s, pose)
    got.append(pose.tobytes())
    target = sinew.spine_wander(s, model, pose, spine, 1.3, (2.0, 1.0, 2.0), seed=5)
    got.append(pose.tobytes() + F(target).tobytes())
    walker = sinew.Walker([(2.0, 0.0, 0), (-2.0, 0.0, 1)], 15.0, 3.0, walker_ray)
    for _ in range(60):
        walker.update((0.0, 0.0, 4.0), 0.0, 1 / 30)
        body = walker.body_matrix()
        got.append(np.ascontiguousarray(body.T).tobytes())
        got.append(F([walker.feet[0]["position"], walker.feet[1]["position"]]).tobytes())
    assert walker.position[2] > 5 and all(f["steps"] > 0 for f in walker.feet)
    rows = sinew.pose_to_joints(pose, s)
    rows[s.find_joint("Hips"), 0:3] = 0
    pose = sinew.pose_from_joints(rows)
    model = sinew.local_to_model(s, pose, root=walker.body_matrix())
    legs = [(["LeftUpLeg", "LeftLeg", "LeftFoot"], None, (0, 0, 1)),
            (["RightUpLeg", "RightLeg", "RightFoot"], None, (0, 0, 1))]
    walker.pose(s, model, pose, legs)
    got.append(pose.tobytes())
    assert b"".join(got) == reference("effects", CMU, "motion", "6.0").tobytes()
    # the feet stand where the walker put them
    model = sinew.local_to_model(s, pose, root=walker.body_matrix())
    for name, foot in (("LeftFoot", 0), ("RightFoot", 1)):
        assert np.allclose(model[s.find_joint(name), :3, 3], walker.feet[foot]["position"],
                           atol=1e-2)


def test_walker_ray_errors_come_through():
    with pytest.raises(ZeroDivisionError):
        sinew.Walker([(1.0, 0.0)], 1.0, 0.5, lambda o, d, m: 1 / 0)
