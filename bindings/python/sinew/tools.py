"""sinew's offline tools as Python functions, the same steps as the CLI's
verbs (docs/cli.md) composed from the binding's calls: each opens its input
through the asset opener, checks the output before any work (the output
policy: the format follows the extension, never an input), and writes
through a temporary file renamed into place. Each returns the report the
CLI prints with --json, as a dict, and raises a sinew.Error subclass on
failure.

Asset options, accepted by every tool for its input: scale, clips,
end_sites, isolate, in_process, timeout_ms, max_size (see sinew.Asset).
"""

import os

from . import _sinew

__all__ = ["import_file", "export", "compress", "mirror", "retarget", "bake"]


def _written(source, fmt, output, skeleton, clips, meshes):
    """The fields every written-file report starts with (cli_json_written)."""
    return {
        "file": os.fspath(source),
        "format": fmt,
        "output": os.fspath(output),
        "output_format": os.path.splitext(os.fspath(output))[1][1:].lower(),
        "joints_count": skeleton.joints_count,
        "clips_count": len(clips),
        "meshes_count": len(meshes),
    }


def _refuse_non_raw(verb, path, asset):
    """Tools that rebuild clips from their keys need raw clips."""
    for i, clip in enumerate(asset.clips):
        if clip.codec != "raw":
            err = _sinew.InvalidArgumentError(
                "%s: %s: clip %d (%s) is stored with the %s codec; %s works on raw clips: give "
                "it the source file" % (verb, os.fspath(path), i, clip.name, clip.codec, verb))
            raise err


def import_file(input, output, **asset_options):
    """Imports any file sinew reads (skeleton, clips, meshes) into `output`
    (.sinew, .glb or .gltf by its extension), as `sinew import IN -o OUT`.
    Returns the report of `sinew import --json`."""
    _sinew.check_output(output, [input])
    asset = _sinew.Asset(input, **asset_options)
    _sinew.write_scene(output, asset.skeleton, asset.clips, asset.meshes)
    return _written(input, asset.format, output, asset.skeleton, asset.clips, asset.meshes)


def export(input, output, **asset_options):
    """Writes a file's skeleton, skinned meshes and clips as glTF 2.0 (.glb,
    or .gltf with its .bin) or a .sinew archive, as `sinew export`."""
    return import_file(input, output, **asset_options)


def compress(input, output, *, precision=0.01, shell=3.0, rate=0.0, **asset_options):
    """Error-bounded compression of every clip into a .sinew archive, as
    `sinew compress IN -o OUT.sinew`. Returns its error report (the dict of
    `sinew compress --json`): per clip the sizes, ratio, max and p99 error,
    worst joint and time, and the total. A clip whose bound cannot be held
    raises LimitError with the figures of the last attempt as .stats."""
    _sinew.check_output(output, [input], sinew_only=True)
    asset = _sinew.Asset(input, **asset_options)
    _refuse_non_raw("compress", input, asset)
    packed, stats = [], []
    for clip in asset.clips:
        c, s = _sinew.compress_clip(asset.skeleton, clip, precision=precision, shell=shell,
                                    rate=rate)
        packed.append(c)
        stats.append(s)
    _sinew.write_scene(output, asset.skeleton, packed, asset.meshes)
    raw = sum(s["raw_bytes"] for s in stats)
    small = sum(s["compressed_bytes"] for s in stats)
    total = {
        "raw_bytes": raw,
        "compressed_bytes": small,
        "ratio": raw / small if small else 0.0,
        "max_error": max((s["max_error"] for s in stats), default=0.0),
        "p99_error": max((s["p99_error"] for s in stats), default=0.0),
        "seconds": sum(s["seconds"] for s in stats),
    }
    return {"file": os.fspath(input), "output": os.fspath(output), "precision": precision,
            "shell": shell, "clips": stats, "total": total}


def mirror(input, output, *, axis=None, pairs=None, **asset_options):
    """Every clip mirrored (Left/Right twins from names, or `pairs` of joint
    names; the plane's normal `axis` "x", "y", "z" or detected), written
    with the skeleton and meshes as they are, as `sinew mirror`. The meshes'
    bind pose is the mirror's reference when there are skinned meshes."""
    _sinew.check_output(output, [input])
    asset = _sinew.Asset(input, **asset_options)
    frames = None
    if asset.meshes:
        try:
            frames = _sinew.mirror_bind_frames(asset.skeleton, asset.meshes)
        except _sinew.Error:
            frames = None  # the rest pose is the reference then, as in the CLI
    m = _sinew.Mirror(asset.skeleton, pairs=pairs, axis=axis, frames=frames)
    _refuse_non_raw("mirror", input, asset)
    clips = [m.bake(c) for c in asset.clips]
    _sinew.write_scene(output, asset.skeleton, clips, asset.meshes)
    report = _written(input, asset.format, output, asset.skeleton, clips, asset.meshes)
    report.update({"axis": m.axis.upper(), "pairs_count": m.pairs_count})
    return report


def retarget(input, to, output, *, map=None, to_scale=0.0, ik=True, foot_lock=True, rate=0.0,
             **asset_options):
    """Carries every clip of `input` onto the skeleton of `to` (a file, or
    "default" for the built-in humanoid), as `sinew retarget IN --to TO -o
    OUT`: the automatic joint map edited by `map` (a file of source=target
    lines), leg IK unless ik=False, planted feet locked unless
    foot_lock=False, keys at `rate` (0: the source's). Writes the target's
    skeleton, meshes and the retargeted clips; returns the --json report."""
    inputs = [input] + ([to] if to != "default" else []) + ([map] if map else [])
    _sinew.check_output(output, inputs)
    src = _sinew.Asset(input, **asset_options)
    if not src.clips:
        raise _sinew.NotFoundError("retarget: %s: no clips to retarget" % os.fspath(input))
    if to == "default":
        target, target_clips = _sinew.Asset.default_humanoid(), ()
    else:
        target = _sinew.Asset(to, scale=to_scale)
        target_clips = target.clips
    text = None
    if map:
        with open(map, "rb") as f:
            text = f.read().decode("utf-8")
    rmap = _sinew.RetargetMap(src.skeleton, target.skeleton, map=text, ik=ik,
                              source_meshes=src.meshes, source_clips=src.clips,
                              target_meshes=target.meshes, target_clips=target_clips)
    baked = []
    for clip in src.clips:
        rmap.source_ground = 0.0
        try:
            rmap.source_ground = rmap.fit_ground(clip)
        except _sinew.Error:
            pass  # no feet mapped: the grounds stay at 0, as in the CLI
        baked.append(rmap.bake(clip, rate=rate, ik_weight=1.0 if ik else 0.0,
                               foot_lock=foot_lock))
    _sinew.write_scene(output, target.skeleton, baked, target.meshes)
    report = _written(input, src.format, output, target.skeleton, baked, target.meshes)
    report.update({"target": os.fspath(to), "mapped": len(rmap.pairs), "scale": rmap.root_scale,
                   "foot_ik": bool(rmap.limbs_count and ik), "foot_lock": foot_lock})
    return report


def bake(input, animator, output, seconds, *, fps=30.0, script=(), **asset_options):
    """Runs an animator over the file's clips for `seconds` at `fps` and
    writes the motion as one clip "baked" with the file's skeleton and
    meshes, as `sinew play FILE --animator DEF --seconds S --fps F --bake
    OUT`. animator: a dict, JSON text or a JSON file. script: (time,
    changes) pairs applied at the first frame at or after time, changes a
    dict of parameter values, "trigger": name, "play": "State" or
    "State:fade". Returns the written-file report."""
    if seconds <= 0 or fps <= 0:
        raise ValueError("bake: seconds and fps must be > 0")
    inputs = [input] + ([animator] if isinstance(animator, (str, os.PathLike)) and
                        os.path.exists(animator) else [])
    _sinew.check_output(output, inputs)
    asset = _sinew.Asset(input, **asset_options)
    anim = _sinew.Animator(animator, asset.skeleton, asset.clips)
    changes = [(t, k, v) for t, c in script for k, v in c.items()]
    done = [False] * len(changes)
    recorder = _sinew.AnimatorBake(asset.skeleton, fps)
    frames = int(seconds * fps + 0.5) + 1
    dt = 1.0 / fps
    for f in range(frames):
        now = f / fps
        for i, (t, key, value) in enumerate(changes):
            if done[i] or t > now + 1e-9:
                continue
            done[i] = True
            if key == "trigger":
                anim.trigger(value)
            elif key == "play":
                state, _, fade = str(value).partition(":")
                anim.play(state, float(fade) if fade else 0.0)
            else:
                anim[key] = float(value)
        anim.idle_update(0.0 if f == 0 else dt)
        _, motion = anim.update(0.0 if f == 0 else dt)
        recorder.append(anim.evaluate(), motion)
    clip = recorder.build()
    _sinew.write_scene(output, asset.skeleton, [clip], asset.meshes)
    return _written(input, asset.format, output, asset.skeleton, [clip], asset.meshes)
