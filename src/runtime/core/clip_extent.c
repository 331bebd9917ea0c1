/* A bound on how far a clip can carry joints in model space. */
#include <math.h>
#include <stdio.h>

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

/* Bound on joint j's local translation (1-norm) and scale (largest
 * component) while `clip` plays: its tracks', else the rest pose's. */
static void sw__joint_reach(const sw_clip* clip, const sw_skeleton* s, uint32_t j, double* move,
                            double* scale) {
    const uint32_t* tracks = sw_clip_joint_tracks(clip, j);
    const sw_xform rest = sw_pose_get(sw_skeleton_rest_pose(s), j);
    const bool additive = (clip->flags & SW_CLIP_FLAG_ADDITIVE) != 0u;
    if (tracks[0] != SW_CLIP_NO_TRACK) {
        *move = sw__track_reach(clip, &sw_clip_tracks(clip)[tracks[0]], true);
    } else {
        *move = additive ? 0.0
                         : fabs((double)rest.t.x) + fabs((double)rest.t.y) + fabs((double)rest.t.z);
    }
    if (tracks[2] != SW_CLIP_NO_TRACK) {
        *scale = sw__track_reach(clip, &sw_clip_tracks(clip)[tracks[2]], false);
    } else {
        *scale = additive ? 1.0
                          : fmax(fabs((double)rest.s.x),
                                 fmax(fabs((double)rest.s.y), fabs((double)rest.s.z)));
    }
}

sw_result sw_clip_check_extent(const sw_clip* clip, const sw_skeleton* skeleton, sw_error* err) {
    if (!clip || !skeleton) {
        return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "clip and skeleton not NULL", 0, -1);
    }
    if (clip->joints_count != skeleton->joints_count) {
        return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "clip joints == skeleton joints", 0, -1);
    }
    if (clip->codec != SW_CLIP_CODEC_RAW) return SW_RESULT_OK;
    const int16_t* parents = sw_skeleton_parents(skeleton);
    double scale[SW_SKELETON_MAX_JOINTS], reach[SW_SKELETON_MAX_JOINTS];
    for (uint32_t j = 0; j < skeleton->joints_count; ++j) {
        double move = 0.0, s = 1.0;
        sw__joint_reach(clip, skeleton, j, &move, &s);
        const int32_t p = parents[j];
        scale[j] = (p < 0 ? 1.0 : scale[p]) * s;
        reach[j] = (p < 0 ? 0.0 : reach[p]) + (p < 0 ? 1.0 : scale[p]) * move;
        if (!(scale[j] <= (double)SW__MODEL_BOUND) || !(reach[j] <= (double)SW__MODEL_BOUND)) {
            return sw__fail_detail(err, SW_RESULT_BAD_DATA, "clip finite in model space",
                                   (int64_t)j,
                                   "clip \"%s\" can carry joint \"%s\" to %.3g (scale %.3g) in "
                                   "model space, past %.3g",
                                   sw_clip_name(clip), sw_skeleton_joint_name(skeleton, j),
                                   reach[j], scale[j], (double)SW__MODEL_BOUND);
        }
    }
    return SW_RESULT_OK;
}
