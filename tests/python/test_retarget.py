"""Mirroring and retargeting poses at run time against the same jobs in C,
bit for bit (tests/python/reference.c, modes mirror and retarget)."""
import numpy as np
import pytest

import sinew
from conftest import CMU, ROBOT, need, reference


def test_mirror_pose_matches_c(cmu):
    s = cmu.skeleton
    m = sinew.Mirror(s)
    assert m.axis == "x" and m.pairs_count > 0
    left, right = s.find_joint("LeftFoot"), s.find_joint("RightFoot")
    assert m.twins[left] == right and m.twins[right] == left
    pose = sinew.sample(s, cmu.clips[0], 4.2)
    mirrored = m.apply(pose)
    assert mirrored.tobytes() == reference("mirror", CMU, "motion", "4.2").tobytes()
    # the left foot goes where the right foot's reflection was
    a = sinew.local_to_model(s, pose)
    b = sinew.local_to_model(s, mirrored)
    assert np.allclose(b[left, :3, 3] * [-1, 1, 1], a[right, :3, 3], atol=1e-3)
    # mirroring twice gives the pose back
    assert np.allclose(m.apply(mirrored), pose, atol=1e-5)


def test_mirror_pairs_and_errors(cmu):
    s = cmu.skeleton
    with pytest.raises(sinew.NotFoundError):
        sinew.Mirror(s, pairs=[("LeftFoot", "Nope")])
    with pytest.raises(ValueError):
        sinew.Mirror(s, axis="w")
    with pytest.raises(sinew.BadDataError) as e:  # the hands' parents are no twins then
        sinew.Mirror(s, pairs=[("LeftHand", "RightHand")], patterns=False)
    assert e.value.check == "twin of parent is parent of twin"
    m = sinew.Mirror(s, pairs=[("LeftHand", "RightHand")])
    assert m.pairs_count == sinew.Mirror(s).pairs_count


def test_retarget_pose_matches_c(cmu):
    target = sinew.Asset(need(ROBOT))
    rmap = sinew.RetargetMap(cmu.skeleton, target.skeleton)
    assert rmap.pairs["Hips"] == "Hips" and rmap.root_scale > 0
    pose = sinew.sample(cmu.skeleton, cmu.clips[0], 2.5)
    out = rmap.apply(pose, 1.0)
    want = reference("retarget", CMU, "motion", "2.5", ROBOT)
    assert out.shape == (target.skeleton.packets_count, 10, 4)
    assert out.tobytes() == want.tobytes()


def test_retarget_map_text_and_thin_maps(cmu):
    human = sinew.Asset.default_humanoid()
    rmap = sinew.RetargetMap(cmu.skeleton, human.skeleton, map="LeftHand=Head\n")
    assert rmap.pairs["Head"] == "LeftHand" and rmap.limbs_count == 2  # the legs
    assert rmap.missing_roles == ""
    with pytest.raises(sinew.Error) as e:  # nothing of the target mapped
        sinew.RetargetMap(cmu.skeleton, human.skeleton,
                          map="".join("=%s\n" % n for n in human.skeleton.names))
    assert "target joints mapped" in e.value.detail
