/* Animator runs baked into clips: root motion summed into a placement of the
 * root joint, poses recorded with the clip recorder. */
#include <math.h>
#include <string.h>

#include "shared/fail.h"
#include "sinew/sinew.h"
#include "sinew/tools/builders/animator_bake.h"
#include "sinew/tools/builders/clip_recorder.h"

struct sw_animator_bake {
    sw_allocator alloc;
    const sw_skeleton* skeleton;
    double fps;
    sw_clip_recorder* recorder;
    sw_xform4* pose; /* the frame's pose with the placement applied */
    int32_t root;    /* the first joint without a parent */
    float x, z, yaw; /* the character's placement so far */
};

sw_result sw_animator_bake_create(const sw_skeleton* skeleton, double fps,
                                  const sw_allocator* alloc, sw_animator_bake** out,
                                  sw_error* err) {
    if (out) *out = NULL;
    if (!skeleton || !out) {
        return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "arguments not NULL", 0, -1);
    }
    if (!isfinite(fps) || !(fps > 0.0) || fps > 3.4e38) {
        return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "fps finite and > 0", 0, -1);
    }
    sw_animator_bake* b = (sw_animator_bake*)sw_alloc(alloc, sizeof *b, 16);
    if (!b) return sw__fail(err, SW_RESULT_OUT_OF_MEMORY, "bake", 0, -1);
    memset(b, 0, sizeof *b);
    if (alloc) b->alloc = *alloc;
    b->skeleton = skeleton;
    b->fps = fps;
    b->root = -1;
    for (uint32_t j = 0; j < skeleton->joints_count && b->root < 0; ++j) {
        if (sw_skeleton_parents(skeleton)[j] < 0) b->root = (int32_t)j;
    }
    b->pose = (sw_xform4*)sw_alloc(alloc, sizeof(sw_xform4) * skeleton->packets_count, 16);
    if (!b->pose) {
        sw_animator_bake_destroy(b);
        return sw__fail(err, SW_RESULT_OUT_OF_MEMORY, "bake", 0, -1);
    }
    const sw_result r =
        sw_clip_recorder_create(skeleton, (float)fps, NULL, alloc, &b->recorder, err);
    if (r != SW_RESULT_OK) {
        sw_animator_bake_destroy(b);
        return r;
    }
    *out = b;
    return SW_RESULT_OK;
}

sw_result sw_animator_bake_append(sw_animator_bake* bake, const sw_xform4* pose,
                                  uint32_t pose_count, const sw_animator_root_motion* root_motion,
                                  sw_error* err) {
    if (!bake || !pose || !root_motion) {
        return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "arguments not NULL", 0, -1);
    }
    const sw_skeleton* s = bake->skeleton;
    if (pose_count < s->packets_count) {
        return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "pose_count >= packets", 0, -1);
    }
    const sw_vec3 t = root_motion->translation;
    const float c = cosf(bake->yaw), sn = sinf(bake->yaw);
    bake->x += c * t.x + sn * t.z;
    bake->z += -sn * t.x + c * t.z;
    bake->yaw += root_motion->yaw;
    memcpy(bake->pose, pose, sizeof(sw_xform4) * s->packets_count);
    if (bake->root >= 0 && (bake->x != 0.0f || bake->z != 0.0f || bake->yaw != 0.0f)) {
        sw_xform place = sw_xform_identity();
        place.t = sw_vec3_make(bake->x, 0.0f, bake->z);
        place.r = sw_quat_from_axis_angle(sw_vec3_make(0.0f, 1.0f, 0.0f), bake->yaw);
        const uint32_t root = (uint32_t)bake->root;
        sw_pose_set(bake->pose, root, sw_xform_mul(place, sw_pose_get(bake->pose, root)));
    }
    return sw_clip_recorder_append(bake->recorder, bake->pose, s->packets_count, err);
}

sw_result sw_animator_bake_build(const sw_animator_bake* bake, const sw_allocator* alloc,
                                 const sw_clip** out, sw_error* err) {
    if (!bake) return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "arguments not NULL", 0, -1);
    const uint32_t frames = sw_clip_recorder_frames(bake->recorder);
    const sw_clip_recorder_clip clip = {
        .name = "baked",
        .duration = frames > 0u ? (float)((double)(frames - 1u) / bake->fps) : 0.0f,
    };
    return sw_clip_recorder_build(bake->recorder, &clip, alloc, out, err);
}

void sw_animator_bake_destroy(sw_animator_bake* bake) {
    if (!bake) return;
    const sw_allocator alloc = bake->alloc;
    sw_clip_recorder_destroy(bake->recorder);
    sw_free(&alloc, bake->pose, sizeof(sw_xform4) * bake->skeleton->packets_count);
    sw_free(&alloc, bake, sizeof *bake);
}
