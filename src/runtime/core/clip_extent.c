/* A bound on how far a clip can carry joints in model space. */
#include <math.h>
#include <stdio.h>

#include "runtime/codecs/codec_frames.h"
#include "runtime/codecs/codec_quantized.h"
#include "runtime/core/internal.h"
#include "sinew/core/sample.h"

/* Largest size a track's interpolation can reach: per key the 1-norm of
 * its components (`sum`) or the largest one, over its values, plus for
 * cubic keys the Hermite tangents' pull over the longest interval (|h10|,
 * |h11| <= 4/27, rounded up to 1). */
static double sw__track_reach(const sw_clip* c, const sw_clip_track* t, bool sum) {
    const float* v = sw_clip_track_values(c, t);
    const uint32_t n = t->components;
    const bool cubic = t->interp == SW_INTERP_CUBIC;
    double value = 0.0, tangent = 0.0, span = 0.0;
    for (uint32_t k = 0; k < t->keys_count; ++k) {
        const float* key = v + (size_t)k * n * (cubic ? 3u : 1u);
        double size[3] = {0.0, 0.0, 0.0}; /* in, value, out */
        for (uint32_t part = 0; part < (cubic ? 3u : 1u); ++part) {
            for (uint32_t i = 0; i < n; ++i) {
                const double a = fabs((double)key[part * n + i]);
                size[part] = sum ? size[part] + a : fmax(size[part], a);
            }
        }
        value = fmax(value, cubic ? size[1] : size[0]);
        if (cubic) tangent = fmax(tangent, fmax(size[0], size[2]));
        if (k > 0) {
            span = fmax(span, (double)sw_clip_track_key_time(c, t, k) -
                                  (double)sw_clip_track_key_time(c, t, k - 1u));
        }
    }
    return value + span * tangent;
}

void sw__joint_extent_raise(sw__joint_extent* x, uint32_t slot, const float* v) {
    if (slot == 0u) {
        x->move = fmax(x->move, fabs((double)v[0]) + fabs((double)v[1]) + fabs((double)v[2]));
    } else if (slot == 1u) {
        const double m2 =
            (double)v[0] * v[0] + (double)v[1] * v[1] + (double)v[2] * v[2] + (double)v[3] * v[3];
        x->turn = fmax(x->turn, m2 > 1.0 ? 2.0 * m2 - 1.0 : 1.0);
    } else {
        x->scale =
            fmax(x->scale, fmax(fabs((double)v[0]), fmax(fabs((double)v[1]), fabs((double)v[2]))));
    }
}

/* The joints of a raw clip: the tracks' reach replaces the rest value
 * (rotations are normalized by the sampler). */
static void sw__raw_extent(const sw_clip* clip, sw__joint_extent* e) {
    for (uint32_t j = 0; j < clip->joints_count; ++j) {
        const uint32_t* tracks = sw_clip_joint_tracks(clip, j);
        if (tracks[0] != SW_CLIP_NO_TRACK)
            e[j].move = sw__track_reach(clip, &sw_clip_tracks(clip)[tracks[0]], true);
        if (tracks[2] != SW_CLIP_NO_TRACK)
            e[j].scale = sw__track_reach(clip, &sw_clip_tracks(clip)[tracks[2]], false);
    }
}

sw_result sw_clip_check_extent(const sw_clip* clip, const sw_skeleton* skeleton, sw_error* err) {
    if (!clip || !skeleton) {
        return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "clip and skeleton not NULL", 0, -1);
    }
    if (clip->joints_count != skeleton->joints_count) {
        return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "clip joints == skeleton joints", 0, -1);
    }
    /* Untracked joints hold the rest pose (identity for additive clips). */
    sw__joint_extent e[SW_SKELETON_MAX_JOINTS];
    const bool additive = (clip->flags & SW_CLIP_FLAG_ADDITIVE) != 0u;
    for (uint32_t j = 0; j < skeleton->joints_count; ++j) {
        const sw_xform x =
            additive ? sw_xform_identity() : sw_pose_get(sw_skeleton_rest_pose(skeleton), j);
        const float t[3] = {x.t.x, x.t.y, x.t.z}, r[4] = {x.r.x, x.r.y, x.r.z, x.r.w};
        const float s[3] = {x.s.x, x.s.y, x.s.z};
        e[j] = (sw__joint_extent){0.0, 0.0, 1.0};
        sw__joint_extent_raise(&e[j], 0u, t);
        sw__joint_extent_raise(&e[j], 1u, r);
        sw__joint_extent_raise(&e[j], 2u, s);
    }
    if (clip->codec == SW_CLIP_CODEC_QUANTIZED) {
        sw__codec_quantized_extent(clip, e);
    } else if (clip->codec == SW_CLIP_CODEC_FRAMES) {
        sw__codec_frames_extent(clip, e);
    } else {
        sw__raw_extent(clip, e);
    }
    /* Along the hierarchy (parents first), in place: scale becomes the
     * bound on the model-space linear part, move the model-space reach. */
    const int16_t* parents = sw_skeleton_parents(skeleton);
    for (uint32_t j = 0; j < skeleton->joints_count; ++j) {
        const int32_t p = parents[j];
        const double parent_scale = p < 0 ? 1.0 : e[p].scale;
        e[j].move = (p < 0 ? 0.0 : e[p].move) + parent_scale * e[j].move;
        e[j].scale = parent_scale * e[j].scale * e[j].turn;
        if (!(e[j].scale <= (double)SW__MODEL_BOUND) || !(e[j].move <= (double)SW__MODEL_BOUND)) {
            return sw__fail_detail(err, SW_RESULT_BAD_DATA, "clip finite in model space",
                                   (int64_t)j,
                                   "clip \"%s\" can carry joint \"%s\" to %.3g (scale %.3g) in "
                                   "model space, past %.3g",
                                   sw_clip_name(clip), sw_skeleton_joint_name(skeleton, j),
                                   e[j].move, e[j].scale, (double)SW__MODEL_BOUND);
        }
    }
    return SW_RESULT_OK;
}
