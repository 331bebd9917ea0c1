"""Assets, skeletons, clips and the per-frame jobs against the C results,
bit for bit (tests/python/reference.c runs the same jobs in C)."""
import gc
import os
import sys

import numpy as np
import pytest

import sinew
from conftest import CMU, ROBOT, need, reference, storage


def test_asset_skeleton_and_clip(cmu):
    s = cmu.skeleton
    assert cmu.format == "bvh"
    assert s.joints_count == 31 and len(s.names) == 31
    assert s.packets_count == 8
    assert s.parents[0] == -1 and all(s.parents[j] < j for j in range(31))
    assert s.names[s.find_joint("Hips")] == "Hips"
    clip = cmu.clips[0]
    assert clip.name == "motion" and clip.codec == "raw" and not clip.additive
    assert clip.duration == pytest.approx(2751 * 0.0083333, rel=1e-6)  # Frame Time: 0.0083333
    assert cmu.clip("motion").name == cmu.clip(0).name == "motion"


def test_views_are_sinews_memory_and_keep_it_alive():
    rest = sinew.Asset(need(CMU)).skeleton.rest_pose  # asset and skeleton dropped
    gc.collect()
    assert not rest.flags.writeable and not rest.flags.owndata
    assert rest.shape == (8, 10, 4)
    rows = sinew.pose_to_joints(rest, 31)
    # unit rest rotations, unit scales, identity padding lanes
    assert np.allclose(np.linalg.norm(rows[:, 3:7], axis=1), 1.0, atol=1e-3)
    pad = sinew.pose_to_joints(rest)[31:]
    assert np.array_equal(pad, np.tile([0, 0, 0, 0, 0, 0, 1, 1, 1, 1], (1, 1)).astype(np.float32))


def test_an_asset_is_freed_when_dropped():
    """Nothing the asset hands out is kept by it (no reference cycle): only
    the name `a` and getrefcount's argument refer to a fresh asset, and a
    skeleton taken from it gives its reference back when dropped."""
    a = sinew.Asset(need(CMU))
    assert sys.getrefcount(a) == 2
    s, clips = a.skeleton, a.clips
    assert sys.getrefcount(a) == 2 + 1 + len(clips)
    del s, clips
    assert sys.getrefcount(a) == 2


def test_errors_carry_the_report(tmp_path):
    with pytest.raises(sinew.FileError) as e:
        sinew.Asset(str(tmp_path / "missing.bvh"))
    assert e.value.check == "open file" and e.value.errno != 0
    assert "missing.bvh" in str(e.value)
    with pytest.raises(sinew.FileError) as e:  # a file name that is not UTF-8
        sinew.Asset(os.fsdecode(bytes(tmp_path) + b"/\xff.bvh"))
    assert "\ufffd.bvh" in str(e.value)
    bad = tmp_path / "bad.bvh"
    bad.write_text("HIERARCHY\nROOT Hips\n{\n OFFSET 0 0\n")
    with pytest.raises(sinew.Error) as e:
        sinew.Asset(str(bad))
    assert isinstance(e.value, (sinew.ParseError, sinew.TruncatedError))
    assert e.value.index > 0  # the line


def test_missing_clip_names_the_clips(cmu):
    with pytest.raises(sinew.NotFoundError) as e:
        cmu.clip("motoin")
    assert "motion" in e.value.detail


@pytest.mark.parametrize("time", [0.0, 1.234, 7.5, 1e9])
def test_sample_model_matches_c(cmu, time):
    s = cmu.skeleton
    ref = reference("pose", CMU, "motion", repr(time))
    pose = sinew.sample(s, cmu.clips[0], time)
    model = sinew.local_to_model(s, pose)
    n = pose.size
    assert pose.dtype == np.float32 and pose.shape == (8, 10, 4)
    assert pose.tobytes() == ref[:n].tobytes()
    assert storage(model) == ref[n : n + 16 * 31].tobytes()


def test_matrices_read_row_col(cmu):
    s = cmu.skeleton
    pose = sinew.sample(s, cmu.clips[0], 2.0)
    model = sinew.local_to_model(s, pose)
    rows = sinew.pose_to_joints(pose, s)
    hips = s.find_joint("Hips")
    # a root's model matrix is its local transform: translation in the last column
    assert np.array_equal(model[hips, :3, 3], rows[hips, 0:3])
    assert np.array_equal(model[hips, 3], np.array([0, 0, 0, 1], np.float32))


def test_skinning_palette_matches_c(robot):
    s = robot.skeleton
    ref = reference("pose", ROBOT, "Running", "0.4")
    pose = sinew.sample(s, robot.clip("Running"), 0.4)
    model = sinew.local_to_model(s, pose)
    at = pose.size + 16 * s.joints_count
    assert storage(model) == ref[pose.size : at].tobytes()
    for mesh in robot.meshes:
        pal = sinew.skinning_palette(model, mesh)
        n = 16 * mesh.palette_count if hasattr(mesh, "palette_count") else pal.size
        assert storage(pal) == ref[at : at + n].tobytes()
        at += n
        # the same through explicit inverse binds and joints
        again = sinew.skinning_palette(model, inverse_binds=mesh.inverse_binds, joints=mesh.palette)
        assert storage(again) == storage(pal)
    assert at == ref.size


def test_pose_round_trip(cmu):
    pose = sinew.sample(cmu.skeleton, cmu.clips[0], 3.0)
    again = sinew.pose_from_joints(sinew.pose_to_joints(pose, 31))
    assert again.tobytes() == pose.tobytes()


def test_sample_into_out_and_floats(robot):
    s = robot.skeleton
    out = sinew.empty_pose(s)
    clip = robot.clip("Yes")
    got, floats = sinew.sample(s, clip, 0.5, out=out, floats=True)
    assert got is out
    assert floats.shape == (len(clip.float_tracks),)
    with pytest.raises(ValueError):
        sinew.sample(s, clip, 0.5, out=np.zeros((s.packets_count, 10, 4)))  # float64


def test_record_clip_from_poses(cmu, tmp_path):
    """Poses sampled at 120 Hz recorded into a clip and sampled back at the
    same times give the same model space; the clip writes and reads back."""
    s, src = cmu.skeleton, cmu.clips[0]
    times = np.arange(121, dtype=np.float32) / np.float32(120)
    poses = np.stack([sinew.sample(s, src, t) for t in times])
    clip = sinew.record_clip(s, poses, 120.0, name="first second", events=[(0.5, "half")])
    assert clip.name == "first second" and clip.codec == "raw"
    assert clip.duration == pytest.approx(1.0) and clip.events == [(0.5, "half")]
    for i in (0, 37, 120):
        a = sinew.local_to_model(s, poses[i])
        b = sinew.local_to_model(s, sinew.sample(s, clip, float(times[i])))
        assert np.allclose(a, b, atol=1e-4)
    folded = sinew.record_clip(s, poses, 120.0, fold="constant")
    assert folded.size < clip.size  # the joints CMU leaves still
    sinew.write_scene(str(tmp_path / "rec.sinew"), s, [clip])
    back = sinew.Asset(str(tmp_path / "rec.sinew")).clip("first second")
    assert back.size == clip.size
    with pytest.raises(ValueError):
        sinew.record_clip(s, poses[0], 120.0)  # one pose, not frames of poses


def test_everything_public_has_a_docstring():
    import inspect

    missing = []
    for name in dir(sinew):
        obj = getattr(sinew, name)
        if name.startswith("_") or inspect.ismodule(obj) or isinstance(obj, (int, str)):
            continue
        if not (obj.__doc__ or "").strip():
            missing.append(name)
        if isinstance(obj, type) and not issubclass(obj, BaseException):
            missing += ["%s.%s" % (name, m) for m in dir(obj) if not m.startswith("_")
                        and not (getattr(getattr(obj, m), "__doc__", "") or "").strip()]
    assert missing == []
