"""sinew for Python: real-time character animation from Python scripts.

Everything here calls sinew's C library through the extension module
``sinew._sinew``; nothing is computed in Python but array reshaping.

Data:
  * Asset(path, ...) opens any file sinew reads (.sinew, BVH, glTF natively,
    FBX/Collada/X/... through assimp in a child process) with its Skeleton,
    Clips and Meshes.
  * A local pose is a float32 numpy array of shape (packets, 10, 4): sinew's
    SoA layout, 4 joints per packet, rows tx ty tz rx ry rz rw sx sy sz.
    pose_to_joints / pose_from_joints convert to and from one row per joint.
  * Model matrices and skinning palettes are float32 (n, 4, 4) arrays indexed
    [i, row, col] (views of sinew's column-major storage, no copy).
  * Attributes of sinew objects (parents, rest poses, mesh arrays, animator
    parameters) are numpy views of sinew's memory that keep their owner alive.

Tools (sinew.tools, also at the top level): import_file, export, compress
(returning its error report), mirror, retarget and bake, with keyword
arguments, doing what the CLI's verbs do.

Failures raise a subclass of sinew.Error (NotFoundError, ParseError, ...)
carrying sinew's error report (result, check, offset, index, detail).

See docs/python.md for examples.
"""

import numpy as _np

from ._sinew import *  # noqa: F401,F403  (the extension's types and functions)
from ._sinew import Error  # noqa: F401
from .tools import bake, compress, export, import_file, mirror, retarget  # noqa: F401

__version__ = "%d.%d.%d" % (VERSION_MAJOR, VERSION_MINOR, VERSION_PATCH)  # noqa: F405


def pose_to_joints(pose, joints_count=None):
    """One row per joint of a SoA pose: a new float32 array (joints, 10) with
    columns tx ty tz rx ry rz rw sx sy sz. joints_count (a number or a
    Skeleton) drops the padding lanes of the last packet."""
    p = _np.asarray(pose, dtype=_np.float32)
    rows = p.transpose(0, 2, 1).reshape(-1, 10)
    if joints_count is not None:
        rows = rows[: getattr(joints_count, "joints_count", joints_count)]
    return _np.array(rows, dtype=_np.float32)


def pose_from_joints(rows):
    """A SoA pose (packets, 10, 4) from one row per joint (joints, 10) with
    columns tx ty tz rx ry rz rw sx sy sz; padding lanes hold identity."""
    r = _np.asarray(rows, dtype=_np.float32)
    if r.ndim != 2 or r.shape[1] != 10:
        raise ValueError("pose_from_joints: rows of 10 values (tx ty tz rx ry rz rw sx sy sz)")
    packets = (r.shape[0] + 3) // 4
    full = _np.zeros((packets * 4, 10), dtype=_np.float32)
    full[:, 6] = 1.0  # identity rotation w
    full[:, 7:10] = 1.0  # unit scale
    full[: r.shape[0]] = r
    pose = empty_pose(packets)
    pose[...] = full.reshape(packets, 4, 10).transpose(0, 2, 1)
    return pose


def empty_pose(skeleton_or_packets):
    """A zeroed pose array (packets, 10, 4), 16-byte aligned as sinew's jobs
    need, for a Skeleton or a number of packets."""
    packets = getattr(skeleton_or_packets, "packets_count", skeleton_or_packets)
    return sample_buffer(int(packets))  # noqa: F405
