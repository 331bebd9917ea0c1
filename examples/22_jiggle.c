/* 22_jiggle: a tail that sways. A body sways sideways for 2.5 s, then stands
 * still; its tail is a jiggle chain (Verlet, stiffness towards the animated
 * pose, damping, gravity, a bar (capsule) under it that moves with the body),
 * run at 30 and at 240 frames per second side by side. The simulation runs in
 * world space: the body's world transform is the root transform.
 *
 *     example_22_jiggle [DATA_FILE]
 *
 * Checks: the two frame rates agree within 5 mm at every 30 fps frame; the
 * simulated segment lengths hold within 1e-3 m; no point enters the
 * bar; the tail comes to rest after the body stops; a 10 s hitch keeps
 * every number finite. With DATA_FILE, writes the tip's motion for
 * docs/plots/motion_jiggle.gp. Exit code 0 when every check passes. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sinew/core/local_to_model.h"
#include "sinew/procedural/chain.h"

enum { JOINTS = 6, CHAIN = 5 };

typedef struct character {
    const sw_skeleton* skel;
    sw_xform4* pose;
    sw_mat4 model[JOINTS];
    sw_jiggle_point points[CHAIN];
    sw_jiggle_state state;
} character;

static const uint32_t tail[CHAIN] = {1, 2, 3, 4, 5};

/* Sideways sway (along Z, across the tail) for 2.5 s, then still. */
static sw_xform body_at(float t) {
    const float s = t < 2.5f ? t : 2.5f;
    const sw_xform b = {{0, 0, 0.3f * sinf(6.2831853f * 0.7f * s)}, {0, 0, 0, 1}, {1, 1, 1}};
    return b;
}

/* A bar (capsule) across under the middle of the tail, fixed to the body. */
static sw_jiggle_collider bar_at(float t) {
    const sw_vec3 body = body_at(t).t;
    const sw_jiggle_collider bar = {sw_vec3_add(body, sw_vec3_make(-0.55f, 0.78f, -1.0f)),
                                    sw_vec3_add(body, sw_vec3_make(-0.55f, 0.78f, 1.0f)), 0.2f};
    return bar;
}

/* One frame: the animated pose (rest), model matrices in world space, jiggle,
 * model matrices of the result. */
static sw_result frame(character* c, float t, float dt) {
    const sw_mat4 root = sw_mat4_from_xform(body_at(t));
    const sw_jiggle_collider bar = bar_at(t);
    memcpy(c->pose, sw_skeleton_rest_pose(c->skel), sizeof(sw_xform4) * c->skel->packets_count);
    const sw_local_to_model_job l2m = {
        .skeleton = c->skel,
        .local = c->pose,
        .local_count = c->skel->packets_count,
        .root_transform = &root,
        .out = c->model,
        .out_count = JOINTS,
    };
    sw_result r = sw_local_to_model_job_run(&l2m);
    const sw_jiggle_job job = {
        .skeleton = c->skel,
        .model = c->model,
        .model_count = JOINTS,
        .root_transform = &root,
        .joints = tail,
        .joints_count = CHAIN,
        .dt = dt,
        .stiffness = 300.0f,
        .damping = 8.0f,
        .gravity = {0, -9.81f, 0},
        .colliders = &bar,
        .colliders_count = 1,
        .weight = 1.0f,
        .state = &c->state,
        .pose = c->pose,
        .pose_count = c->skel->packets_count,
    };
    if (r == SW_RESULT_OK) r = sw_jiggle_job_run(&job);
    if (r == SW_RESULT_OK) r = sw_local_to_model_job_run(&l2m);
    return r;
}

static sw_vec3 tip(const character* c) {
    const sw_mat4* m = &c->model[tail[CHAIN - 1]];
    return sw_vec3_make(m->m[12], m->m[13], m->m[14]);
}

int main(int argc, char** argv) {
    FILE* data = argc > 1 ? fopen(argv[1], "w") : NULL;
    if (argc > 1 && !data) {
        fprintf(stderr, "cannot write %s\n", argv[1]);
        return 1;
    }
    const sw_vec3 one = {1, 1, 1};
    const sw_quat id = {0, 0, 0, 1};
    const sw_skeleton_joint joints[JOINTS] = {
        {"body", -1, {{0, 1, 0}, id, one}},      {"tail0", 0, {{-0.2f, 0, 0}, id, one}},
        {"tail1", 1, {{-0.15f, 0, 0}, id, one}}, {"tail2", 2, {{-0.15f, 0, 0}, id, one}},
        {"tail3", 3, {{-0.15f, 0, 0}, id, one}}, {"tail4", 4, {{-0.15f, 0, 0}, id, one}},
    };
    const sw_skeleton_desc desc = {joints, JOINTS};
    character c30 = {0}, c240 = {0};
    character* both[2] = {&c30, &c240};
    for (int k = 0; k < 2; ++k) {
        if (sw_skeleton_create(&desc, NULL, &both[k]->skel, NULL) != SW_RESULT_OK) return 1;
        both[k]->pose = aligned_alloc(16, sizeof(sw_xform4) * both[k]->skel->packets_count);
        both[k]->state.points = both[k]->points;
        both[k]->state.points_count = CHAIN;
    }

    float worst_rate = 0.0f, worst_len = 0.0f, deepest = 0.0f, last_motion = 0.0f;
    sw_result r = frame(&c30, 0.0f, 0.0f);
    if (r == SW_RESULT_OK) r = frame(&c240, 0.0f, 0.0f);
    if (data) fprintf(data, "# t body_z tip_z_30 tip_y_30 tip_z_240 tip_y_240\n");
    const int frames = 6 * 30;
    for (int f = 1; f <= frames && r == SW_RESULT_OK; ++f) {
        const sw_vec3 before = tip(&c30);
        r = frame(&c30, (float)f / 30.0f, 1.0f / 30.0f);
        for (int k = 1; k <= 8 && r == SW_RESULT_OK; ++k)
            r = frame(&c240, (float)(f - 1) / 30.0f + (float)k / 240.0f, 1.0f / 240.0f);
        const sw_vec3 a = tip(&c30), b = tip(&c240);
        worst_rate = fmaxf(worst_rate, sw_vec3_length(sw_vec3_sub(a, b)));
        for (int k = 0; k < 2; ++k) {
            const sw_jiggle_point* p = both[k]->points;
            for (int i = 1; i < CHAIN; ++i) {
                const float want = 0.15f;
                const float len = sw_vec3_length(sw_vec3_sub(p[i].position, p[i - 1].position));
                worst_len = fmaxf(worst_len, fabsf(len - want));
                /* Distance to the bar's axis (along Z, so only x and y count). */
                const sw_jiggle_collider bar = bar_at((float)f / 30.0f);
                const float dx = p[i].position.x - bar.a.x, dy = p[i].position.y - bar.a.y;
                deepest = fmaxf(deepest, bar.radius - sqrtf(dx * dx + dy * dy));
            }
        }
        if (f == frames) last_motion = sw_vec3_length(sw_vec3_sub(a, before));
        if (data)
            fprintf(data, "%.4f %.5f %.5f %.5f %.5f %.5f\n", (double)f / 30.0,
                    (double)body_at((float)f / 30.0f).t.z, (double)a.z, (double)a.y, (double)b.z,
                    (double)b.y);
    }
    if (data) fclose(data);
    if (r != SW_RESULT_OK) {
        fprintf(stderr, "job failed: %s\n", sw_result_str(r));
        return 1;
    }
    /* A 10-second hitch. */
    r = frame(&c30, 16.0f, 10.0f);
    bool finite = r == SW_RESULT_OK;
    for (int i = 0; i < JOINTS; ++i)
        for (int e = 0; e < 16; ++e)
            finite = finite && isfinite(c30.model[i].m[e]);

    printf("tail of 5 joints (0.15 m), stiffness 300/s^2, damping 8/s, gravity, a bar under it\n");
    printf("tip at rest: (%.4f, %.4f, %.4f)\n", (double)tip(&c30).x, (double)tip(&c30).y,
           (double)tip(&c30).z);
    int failed = 0;
    printf("check: 30 vs 240 fps tip distance at most %.3g m (limit 5e-3): %s\n",
           (double)worst_rate, worst_rate <= 5e-3f ? "ok" : "FAILED");
    failed |= !(worst_rate <= 5e-3f);
    printf("check: segment lengths within %.3g m (limit 1e-3): %s\n", (double)worst_len,
           worst_len <= 1e-3f ? "ok" : "FAILED");
    failed |= !(worst_len <= 1e-3f);
    printf("check: deepest point inside the bar %.3g m (limit 1e-5): %s\n", (double)deepest,
           deepest <= 1e-5f ? "ok" : "FAILED");
    failed |= !(deepest <= 1e-5f);
    printf("check: at rest 3.5 s after the body stops, tip moved %.3g m in the last frame "
           "(limit 1e-4): %s\n",
           (double)last_motion, last_motion <= 1e-4f ? "ok" : "FAILED");
    failed |= !(last_motion <= 1e-4f);
    printf("check: a 10 s hitch keeps the pose finite: %s\n", finite ? "ok" : "FAILED");
    failed |= !finite;
    for (int k = 0; k < 2; ++k) {
        free(both[k]->pose);
        sw_skeleton_destroy(both[k]->skel, NULL);
    }
    return failed ? 1 : 0;
}
