/* Ragdoll test fixture: the built-in humanoid and RobotExpressive with a
 * walking clip sampled in a loop, their ragdoll descriptions, and model-space
 * joint positions through the local-to-model job (an implementation the
 * ragdoll code does not use). Header-only, static functions. */
#ifndef SINEW_TEST_RAGDOLL_FIXTURE_H
#define SINEW_TEST_RAGDOLL_FIXTURE_H

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sinew/core/local_to_model.h"
#include "sinew/core/sample.h"
#include "sinew/physics/ragdoll.h"
#include "sinew/showcase/character.h"
#include "sinew/tools/builders/ragdoll.h"
#include "sinew/tools/readers/asset.h"
#include "test_util.h"

typedef struct rd_character {
    const char* name;
    sw_scene scene; /* the built-in humanoid */
    sw_asset asset; /* RobotExpressive */
    bool is_asset;
    const sw_skeleton* skel;
    const sw_clip* walk;
    sw_vec3 loop_offset; /* Hips displacement over one cycle (root motion) */
    sw_ragdoll_humanoid_joints joints;
    sw_ragdoll_desc desc;
    sw_ragdoll_part parts[SW_RAGDOLL_MAX_BODIES];
    sw_xform4* pose; /* packets_count, 16-byte aligned */
    sw_xform4* pose2;
    sw_mat4* model; /* joints_count */
    sw_mat4* model2;
} rd_character;

static inline sw_xform4* rd_pose_alloc(uint32_t packets) {
    sw_xform4* p = (sw_xform4*)aligned_alloc(16, sizeof(sw_xform4) * packets);
    assert_non_null(p);
    return p;
}

static inline void rd_finish(rd_character* c) {
    sw_error err;
    memset(&err, 0, sizeof err);
    sw_result r = sw_ragdoll_humanoid_find(c->skel, &c->joints, &err);
    if (r != SW_RESULT_OK) fail_msg("%s: find: %s (%s)", c->name, sw_result_str(r), err.check);
    r = sw_ragdoll_desc_humanoid(c->skel, &c->joints, NULL, &c->desc, c->parts, &err);
    if (r != SW_RESULT_OK)
        fail_msg("%s: desc: %s (%s %lld)", c->name, sw_result_str(r), err.check,
                 (long long)err.index);
    c->pose = rd_pose_alloc(c->skel->packets_count);
    c->pose2 = rd_pose_alloc(c->skel->packets_count);
    c->model = (sw_mat4*)malloc(sizeof(sw_mat4) * c->skel->joints_count);
    c->model2 = (sw_mat4*)malloc(sizeof(sw_mat4) * c->skel->joints_count);
}

/* Samples the walk at time t looping: pose at fmod(t, duration), with
 * *root moved by the cycles done (so root motion continues). */
static inline void rd_sample(rd_character* c, float t, sw_xform4* out, sw_xform* root) {
    const float d = c->walk->duration;
    const float cycles = floorf(t / d);
    const sw_sample_job job = {
        .clip = c->walk,
        .skeleton = c->skel,
        .time = t - cycles * d,
        .out = out,
        .out_count = c->skel->packets_count,
    };
    assert_int_equal(sw_sample_job_run(&job), SW_RESULT_OK);
    *root = sw_xform_identity();
    root->t = sw_vec3_scale(c->loop_offset, cycles);
}

static inline void rd_loop_offset(rd_character* c) {
    sw_xform root;
    int32_t hips = c->joints.hips;
    rd_sample(c, 0.0f, c->pose, &root);
    sw_vec3 a = sw_pose_get(c->pose, (uint32_t)hips).t;
    const sw_sample_job job = {
        .clip = c->walk,
        .skeleton = c->skel,
        .time = c->walk->duration,
        .out = c->pose,
        .out_count = c->skel->packets_count,
    };
    assert_int_equal(sw_sample_job_run(&job), SW_RESULT_OK);
    sw_vec3 b = sw_pose_get(c->pose, (uint32_t)hips).t;
    /* The hips' local displacement, carried into model space through the
     * rest transforms of the joints above the hips (they are not animated
     * in these clips). */
    c->loop_offset = sw_vec3_sub(b, a);
    const int16_t* parents = sw_skeleton_parents(c->skel);
    if (parents[hips] >= 0) {
        /* Carry the local displacement into model space through the parent. */
        sw_xform4* rest = rd_pose_alloc(c->skel->packets_count);
        memcpy(rest, sw_skeleton_rest_pose(c->skel), sizeof(sw_xform4) * c->skel->packets_count);
        sw_xform pm = sw_pose_get(rest, (uint32_t)parents[hips]);
        for (int32_t p = parents[parents[hips]]; p >= 0; p = parents[p])
            pm = sw_xform_mul(sw_pose_get(rest, (uint32_t)p), pm);
        c->loop_offset = sw_xform_vector(pm, c->loop_offset);
        free(rest);
    }
    c->loop_offset.y = 0.0f;
}

static inline void rd_load_humanoid(rd_character* c) {
    memset(c, 0, sizeof *c);
    c->name = "sinew_humanoid";
    sw_error err;
    memset(&err, 0, sizeof err);
    sw_result r = sw_showcase_humanoid(NULL, &c->scene, NULL, &err);
    if (r != SW_RESULT_OK) fail_msg("humanoid: %s (%s)", sw_result_str(r), err.check);
    c->skel = c->scene.skeleton;
    c->walk = c->scene.clips[1]; /* idle, walk, jog, run */
    rd_finish(c);
    rd_loop_offset(c);
}

/* False (test skipped, with a message) when the asset is absent. */
static inline bool rd_load_robot(rd_character* c) {
    memset(c, 0, sizeof *c);
    c->name = "RobotExpressive";
    char path[512];
    if (!sw_test_asset_path(path, sizeof path, "RobotExpressive.glb")) return false;
    sw_error err;
    memset(&err, 0, sizeof err);
    sw_result r = sw_asset_open(path, NULL, &c->asset, &err);
    if (r != SW_RESULT_OK) fail_msg("robot: %s (%s)", sw_result_str(r), err.check);
    c->is_asset = true;
    c->skel = c->asset.skeleton;
    int32_t walk = sw_asset_find_clip(&c->asset, "Walking");
    assert_true(walk >= 0);
    c->walk = c->asset.clips[walk];
    rd_finish(c);
    rd_loop_offset(c);
    return true;
}

static inline void rd_free(rd_character* c) {
    free(c->pose);
    free(c->pose2);
    free(c->model);
    free(c->model2);
    if (c->is_asset)
        sw_asset_free(&c->asset);
    else
        sw_scene_free(&c->scene, NULL);
    memset(c, 0, sizeof *c);
}

/* Model matrices of a local pose under root (model -> world). */
static inline void rd_model(const rd_character* c, const sw_xform4* pose, sw_xform root,
                            sw_mat4* out) {
    const sw_mat4 rm = sw_mat4_from_xform(root);
    const sw_local_to_model_job job = {
        .skeleton = c->skel,
        .local = pose,
        .local_count = c->skel->packets_count,
        .root_transform = &rm,
        .out = out,
        .out_count = c->skel->joints_count,
    };
    assert_int_equal(sw_local_to_model_job_run(&job), SW_RESULT_OK);
}

/* The rigid frame (rotation and origin, scale dropped) of a model matrix:
 * the ragdoll's "joint space". */
static inline sw_xform rd_rigid(const sw_mat4* m) {
    sw_xform x;
    assert_true(sw_mat4_decompose(m, &x));
    x.s = sw_vec3_make(1.0f, 1.0f, 1.0f);
    return x;
}

static inline sw_vec3 rd_mat_pos(const sw_mat4* m) {
    return sw_vec3_make(m->m[12], m->m[13], m->m[14]);
}

/* Largest distance between the joints' world positions of two poses
 * (joints with a body and their children: every joint the ragdoll moves). */
static inline float rd_max_joint_error(const rd_character* c, const sw_xform4* a,
                                       const sw_xform4* b, sw_xform root, sw_mat4* ma,
                                       sw_mat4* mb) {
    rd_model(c, a, root, ma);
    rd_model(c, b, root, mb);
    float worst = 0.0f;
    for (uint32_t j = 0; j < c->skel->joints_count; ++j) {
        float e = sw_vec3_length(sw_vec3_sub(rd_mat_pos(&ma[j]), rd_mat_pos(&mb[j])));
        if (!(e <= worst)) worst = e;
    }
    return worst;
}

/* Random unit vector (uniform enough for tests). */
static inline sw_vec3 rd_rand_dir(uint32_t* s) {
    for (;;) {
        sw_vec3 v =
            sw_vec3_make(sw_test_rand(s, -1, 1), sw_test_rand(s, -1, 1), sw_test_rand(s, -1, 1));
        float l = sw_vec3_length(v);
        if (l > 0.1f && l <= 1.0f) return sw_vec3_scale(v, 1.0f / l);
    }
}

#endif
