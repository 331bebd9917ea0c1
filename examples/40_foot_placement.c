/* 40_foot_placement: CMU legs on a step, a hole and a slope, then walking
 * down a step.
 *
 *     example_40_foot_placement [FILE.bvh] [--plot]
 *
 * Loads the capture (default: Debian's CMU 01_01.bvh, in metres), takes the
 * standing pose of its first frame and places the feet with sw_foot_job on
 * analytic ground: a 12 cm step under the left foot, a 15 cm hole under it,
 * and a 20 degree slope facing up it (the feet 9 cm below the floor). For
 * each it prints how far each ankle is from its animated height above the
 * ground (must be < 1 mm), the leg's reach against its length (never
 * over-extended), the pelvis drop and the foot tilt.
 *
 * Then a synthetic walk cycle on the same legs (hips swinging, knees bending)
 * carried forward at 1.2 m/s walks off a 15 cm step: it prints the largest
 * change of the pelvis offset per frame with the springs and without them
 * (a pop of the full step). Exit status 1 when a check fails.
 *
 * --plot prints the walk as a table instead (time, ground and ankle height of
 * each foot, animated ankle heights, pelvis offset); docs/plots/walker_plots.sh
 * draws docs/img/foot_step.png from it. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sinew/ik/foot.h"
#include "sinew/ik/ik.h"
#include "sinew/sinew.h"
#include "sinew/tools/readers/bvh.h"

#define PI_F 3.14159265f

/* ---- ground: a height field for vertical rays ---- */

typedef struct ground {
    float step_z;  /* z beyond which the ground is at `step` (step under all x) */
    float split_x; /* when finite: only x > split_x is at `step` */
    float step;    /* height of the step (negative: a hole) */
    float slope;   /* radians, rising along +Z from z = slope_z (used when step == 0) */
    float slope_z;
} ground;

static float ground_height(const ground* g, float x, float z) {
    if (g->step != 0.0f) return (z >= g->step_z && !(x <= g->split_x)) ? g->step : 0.0f;
    return tanf(g->slope) * (z - g->slope_z);
}

static bool ground_ray(void* user, sw_vec3 from, sw_vec3 dir, float max_distance, sw_vec3* point,
                       sw_vec3* normal) {
    const ground* g = user;
    (void)dir; /* always straight down here */
    const float h = ground_height(g, from.x, from.z);
    if (h > from.y || from.y - h > max_distance) return false;
    *point = sw_vec3_make(from.x, h, from.z);
    *normal = g->step != 0.0f ? sw_vec3_make(0, 1, 0)
                              : sw_vec3_normalize(sw_vec3_make(0, 1, -tanf(g->slope)));
    return true;
}

/* ---- the character ---- */

typedef struct character {
    const sw_skeleton* skel;
    sw_xform4* pose;
    sw_mat4* model;
    uint32_t hips;
    sw_foot_leg legs[2];
    float length[2];
} character;

static sw_vec3 pos(const character* c, uint32_t j) {
    return sw_vec3_make(c->model[j].m[12], c->model[j].m[13], c->model[j].m[14]);
}
static float dist(sw_vec3 a, sw_vec3 b) {
    return sw_vec3_length(sw_vec3_sub(a, b));
}

static sw_result model_of(character* c, const sw_mat4* root) {
    const sw_local_to_model_job l2m = {.skeleton = c->skel,
                                       .local = c->pose,
                                       .local_count = c->skel->packets_count,
                                       .root_transform = root,
                                       .out = c->model,
                                       .out_count = c->skel->joints_count};
    return sw_local_to_model_job_run(&l2m);
}

static sw_foot_job foot_job(character* c, ground* g, sw_foot_state* st) {
    return (sw_foot_job){.skeleton = c->skel,
                         .model = c->model,
                         .model_count = c->skel->joints_count,
                         .pelvis = c->hips,
                         .legs = c->legs,
                         .legs_count = 2,
                         .ray = ground_ray,
                         .ray_user = g,
                         .dt = 1.0f / 60.0f,
                         .weight = 1.0f,
                         .state = st,
                         .pose = c->pose,
                         .pose_count = c->skel->packets_count};
}

/* One placement on the standing pose; returns the number of failed checks. */
static int place(character* c, const sw_xform4* standing, const char* name, ground g) {
    memcpy(c->pose, standing, sizeof(sw_xform4) * c->skel->packets_count);
    if (model_of(c, NULL) != SW_RESULT_OK) return 1;
    sw_vec3 anim[2];
    sw_quat anim_rot[2];
    for (int i = 0; i < 2; ++i) {
        anim[i] = pos(c, c->legs[i].ankle);
        anim_rot[i] = sw_quat_from_mat4(&c->model[c->legs[i].ankle]);
    }
    const float hips0 = pos(c, c->hips).y;
    sw_foot_state st = {0};
    const sw_foot_job job = foot_job(c, &g, &st);
    const sw_result r = sw_foot_job_run(&job);
    if (r != SW_RESULT_OK) {
        printf("%s: %s\n", name, sw_result_str(r));
        return 1;
    }
    int failures = 0;
    printf("%-28s pelvis %+.4f m\n", name, (double)(pos(c, c->hips).y - hips0));
    for (int i = 0; i < 2; ++i) {
        const sw_vec3 a = pos(c, c->legs[i].ankle);
        const float want = ground_height(&g, a.x, a.z) + anim[i].y;
        const float err = fabsf(a.y - want);
        const float reach = dist(pos(c, c->legs[i].hip), a);
        const sw_quat q = sw_quat_from_mat4(&c->model[c->legs[i].ankle]);
        const sw_quat d = sw_quat_mul(q, sw_quat_conjugate(anim_rot[i]));
        const float tilt = 2.0f * atan2f(sqrtf(d.x * d.x + d.y * d.y + d.z * d.z), fabsf(d.w));
        const bool ok = err < 1e-3f && reach <= c->length[i] + 1e-5f;
        printf("  %s foot: ground %+.3f m, ankle off by %.2e m, reach %.4f of %.4f m, tilt %.1f "
               "deg  %s\n",
               i == 0 ? "left " : "right", (double)ground_height(&g, a.x, a.z), (double)err,
               (double)reach, (double)c->length[i], (double)(tilt * 180.0f / PI_F),
               ok ? "ok" : "FAILED");
        failures += ok ? 0 : 1;
    }
    return failures;
}

/* The synthetic walk: the standing pose with swinging hips and bending knees,
 * moved forward at 1.2 m/s and lifted by `lift`. */
static sw_result walk_pose(character* c, const sw_xform4* rest, float t, float lift,
                           sw_mat4* root) {
    memcpy(c->pose, rest, sizeof(sw_xform4) * c->skel->packets_count);
    const float w = 2.0f * PI_F * 0.9f;
    for (int i = 0; i < 2; ++i) {
        const float ph = w * t + (float)i * PI_F;
        sw_xform hip = sw_pose_get(c->pose, c->legs[i].hip);
        hip.r =
            sw_quat_mul(hip.r, sw_quat_from_axis_angle(sw_vec3_make(1, 0, 0), -0.35f * sinf(ph)));
        sw_pose_set(c->pose, c->legs[i].hip, hip);
        sw_xform knee = sw_pose_get(c->pose, c->legs[i].knee);
        knee.r = sw_quat_mul(knee.r, sw_quat_from_axis_angle(sw_vec3_make(1, 0, 0),
                                                             0.15f + 0.6f * fmaxf(0.0f, sinf(ph))));
        sw_pose_set(c->pose, c->legs[i].knee, knee);
    }
    *root = sw_mat4_from_xform(
        (sw_xform){.t = sw_vec3_make(0, lift, 1.2f * t), .r = sw_quat_identity(), .s = {1, 1, 1}});
    return model_of(c, root);
}

/* Walks 2.5 s off a 15 cm step at z = 1; returns the largest pelvis change
 * per frame, or -1 on failure. With `plot`, prints the table. */
static float walk(character* c, float half_life, bool plot, int* failures) {
    const sw_xform4* rest = sw_skeleton_rest_pose(c->skel);
    sw_mat4 root;
    float low = 1e9f;
    for (int k = 0; k < 120; ++k) {
        if (walk_pose(c, rest, (float)k / 120.0f / 0.9f, 0.0f, &root) != SW_RESULT_OK) return -1;
        for (int i = 0; i < 2; ++i)
            low = fminf(low, pos(c, c->legs[i].ankle).y);
    }
    const float lift = 0.08f - low; /* lowest ankle 8 cm above the floor */
    ground g = {.step_z = 1.0f, .split_x = NAN, .step = -0.15f};
    sw_foot_state st = {0};
    float prev = 0.0f, worst = 0.0f;
    if (plot) printf("# t ground_l ankle_l anim_l ground_r ankle_r anim_r pelvis\n");
    for (int f = 0; f <= 150; ++f) {
        const float t = (float)f / 60.0f;
        if (walk_pose(c, rest, t, lift, &root) != SW_RESULT_OK) return -1;
        const sw_vec3 anim[2] = {pos(c, c->legs[0].ankle), pos(c, c->legs[1].ankle)};
        const float hip_anim = pos(c, c->hips).y;
        sw_foot_job job = foot_job(c, &g, &st);
        job.root_transform = &root;
        job.pelvis_half_life = half_life;
        job.foot_half_life = half_life;
        if (sw_foot_job_run(&job) != SW_RESULT_OK) return -1;
        const float pelvis = pos(c, c->hips).y - hip_anim;
        if (f > 0) worst = fmaxf(worst, fabsf(pelvis - prev));
        prev = pelvis;
        for (int i = 0; i < 2; ++i)
            if (dist(pos(c, c->legs[i].hip), pos(c, c->legs[i].ankle)) > c->length[i] + 1e-5f)
                ++*failures;
        if (plot) {
            printf("%.4f", (double)t);
            for (int i = 0; i < 2; ++i) {
                const sw_vec3 a = pos(c, c->legs[i].ankle);
                printf(" %.5f %.5f %.5f", (double)ground_height(&g, a.x, a.z), (double)a.y,
                       (double)anim[i].y);
            }
            printf(" %.5f\n", (double)pelvis);
        }
    }
    return worst;
}

int main(int argc, char** argv) {
    const char* path = "/usr/share/assimp/models/BVH/01_01.bvh";
    bool plot = false;
    for (int i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--plot") == 0)
            plot = true;
        else
            path = argv[i];
    }
    sw_bvh_result bvh = {0};
    sw_error err = {0};
    const sw_bvh_options opt = {.scale = 0.056444f}; /* CMU units to metres */
    sw_result r = sw_bvh_read_file(path, &opt, NULL, &bvh, &err);
    if (r != SW_RESULT_OK) {
        fprintf(stderr, "%s: %s (check \"%s\")\n", path, sw_result_str(r), err.check);
        return 1;
    }
    character c = {.skel = bvh.skeleton};
    uint32_t l[3], rr[3];
    const int32_t hips = sw_skeleton_find_joint(c.skel, "Hips");
    if (hips < 0 ||
        sw_ik_find_two_bone(c.skel, "LeftUpLeg", "LeftLeg", "LeftFoot", l) != SW_RESULT_OK ||
        sw_ik_find_two_bone(c.skel, "RightUpLeg", "RightLeg", "RightFoot", rr) != SW_RESULT_OK) {
        fprintf(stderr, "%s: no Hips and CMU leg joints\n", path);
        sw_bvh_result_free(&bvh, NULL);
        return 1;
    }
    c.hips = (uint32_t)hips;
    c.legs[0] = (sw_foot_leg){.hip = l[0], .knee = l[1], .ankle = l[2]};
    c.legs[1] = (sw_foot_leg){.hip = rr[0], .knee = rr[1], .ankle = rr[2]};
    c.pose = aligned_alloc(16, sizeof(sw_xform4) * c.skel->packets_count);
    c.model = aligned_alloc(16, sizeof(sw_mat4) * c.skel->joints_count);
    sw_xform4* standing = aligned_alloc(16, sizeof(sw_xform4) * c.skel->packets_count);
    if (!c.pose || !c.model || !standing) return 1;
    const sw_sample_job sample = {.clip = bvh.clip,
                                  .skeleton = c.skel,
                                  .time = 0.0f,
                                  .out = standing,
                                  .out_count = c.skel->packets_count};
    int failures = 0;
    if (sw_sample_job_run(&sample) != SW_RESULT_OK) failures++;
    memcpy(c.pose, standing, sizeof(sw_xform4) * c.skel->packets_count);
    if (model_of(&c, NULL) != SW_RESULT_OK) failures++;
    for (int i = 0; i < 2; ++i)
        c.length[i] = dist(pos(&c, c.legs[i].hip), pos(&c, c.legs[i].knee)) +
                      dist(pos(&c, c.legs[i].knee), pos(&c, c.legs[i].ankle));

    if (plot) {
        if (walk(&c, 0.0f, true, &failures) < 0.0f) failures++;
    } else {
        const float mid_x = 0.5f * (pos(&c, c.legs[0].ankle).x + pos(&c, c.legs[1].ankle).x);
        const float mid_z = 0.5f * (pos(&c, c.legs[0].ankle).z + pos(&c, c.legs[1].ankle).z);
        printf("CMU %s, standing pose of frame 0, legs %.3f and %.3f m\n", path,
               (double)c.length[0], (double)c.length[1]);
        failures += place(&c, standing, "12 cm step under the left:",
                          (ground){.step_z = -10.0f, .split_x = mid_x, .step = 0.12f});
        failures += place(&c, standing, "15 cm hole under the left:",
                          (ground){.step_z = -10.0f, .split_x = mid_x, .step = -0.15f});
        failures += place(
            &c, standing, "20 degree slope:",
            (ground){.split_x = NAN, .slope = 20.0f * PI_F / 180.0f, .slope_z = mid_z + 0.25f});
        const float smooth = walk(&c, 0.0f, false, &failures);
        const float snap = walk(&c, -1.0f, false, &failures);
        const bool ok = smooth >= 0.0f && smooth < 0.02f && snap > 0.1f;
        printf("walking off a 15 cm step at 1.2 m/s, 60 fps: pelvis moves at most %.4f m per frame "
               "with springs, %.4f m without  %s\n",
               (double)smooth, (double)snap, ok ? "ok" : "FAILED");
        failures += ok ? 0 : 1;
        printf("%s\n", failures ? "FAILED" : "all checks passed");
    }
    free(standing);
    free(c.pose);
    free(c.model);
    sw_bvh_result_free(&bvh, NULL);
    return failures ? 1 : 0;
}
