/* 11_fabrik: FABRIK and CCD on a six-bone arm built in code, with and
 * without joint limits.
 *
 *     example_11_fabrik [--plot chain|converge]
 *
 * The arm lies in the XY plane, its root at the origin. The program solves
 * towards a reachable target with FABRIK and CCD (printing the distance left
 * after 1, 2, 5, 10 and 50 iterations, bone lengths and the root), towards
 * a target out of reach (the chain ends straight), and with hinge limits
 * about +Z (each joint folds at most 40 degrees, one way), checking every
 * limit on the recomputed model matrices. Exit 1 when a check fails.
 *
 * --plot chain prints the chain's joints (x y) after 0, 1, 2, 3 and 10
 * FABRIK iterations, one gnuplot block each, then the target;
 * --plot converge prints iteration, FABRIK distance, CCD distance.
 * docs/plots/ik_fabrik.gp draws both. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sinew/ik/ik.h"
#include "sinew/sinew.h"

#define BONES 6
#define JOINTS (BONES + 1)

typedef struct arm {
    const sw_skeleton* skel;
    SINEW_ALIGN16 sw_xform4 pose[2];
    SINEW_ALIGN16 sw_mat4 model[JOINTS];
    uint32_t chain[JOINTS];
} arm;

static sw_vec3 pos(const arm* a, uint32_t j) {
    return sw_vec3_make(a->model[j].m[12], a->model[j].m[13], a->model[j].m[14]);
}
static float dist(sw_vec3 a, sw_vec3 b) {
    return sw_vec3_length(sw_vec3_sub(a, b));
}

/* Rest pose again, and its model matrices. */
static sw_result reset(arm* a) {
    memcpy(a->pose, sw_skeleton_rest_pose(a->skel), sizeof(a->pose));
    const sw_local_to_model_job l2m = {.skeleton = a->skel,
                                       .local = a->pose,
                                       .local_count = 2,
                                       .out = a->model,
                                       .out_count = JOINTS};
    return sw_local_to_model_job_run(&l2m);
}

/* One solve from the rest pose; model matrices recomputed after. */
static sw_result solve(arm* a, bool ccd, sw_vec3 target, uint32_t iterations,
                       const sw_ik_limit* limits, float* distance) {
    sw_result r = reset(a);
    sw_mat4 input[JOINTS];
    memcpy(input, a->model, sizeof(input));
    if (r != SW_RESULT_OK) return r;
    if (ccd) {
        const sw_ik_ccd_job job = {.skeleton = a->skel,
                                   .model = input,
                                   .model_count = JOINTS,
                                   .joints = a->chain,
                                   .joints_count = JOINTS,
                                   .limits = limits,
                                   .target = target,
                                   .weight = 1.0f,
                                   .iterations = iterations,
                                   .tolerance = 1e-6f,
                                   .pose = a->pose,
                                   .pose_count = 2,
                                   .distance = distance};
        r = sw_ik_ccd_job_run(&job);
    } else {
        const sw_ik_fabrik_job job = {.skeleton = a->skel,
                                      .model = input,
                                      .model_count = JOINTS,
                                      .joints = a->chain,
                                      .joints_count = JOINTS,
                                      .limits = limits,
                                      .target = target,
                                      .weight = 1.0f,
                                      .iterations = iterations,
                                      .tolerance = 1e-6f,
                                      .pose = a->pose,
                                      .pose_count = 2,
                                      .distance = distance};
        r = sw_ik_fabrik_job_run(&job);
    }
    const sw_local_to_model_job l2m = {.skeleton = a->skel,
                                       .local = a->pose,
                                       .local_count = 2,
                                       .out = a->model,
                                       .out_count = JOINTS};
    if (r == SW_RESULT_OK) r = sw_local_to_model_job_run(&l2m);
    return r;
}

/* A gently curled arm: each bone 0.2 m, turned 12 degrees about +Z. */
static sw_result arm_create(arm* a) {
    sw_skeleton_joint joints[JOINTS];
    const char* names[JOINTS] = {"j0", "j1", "j2", "j3", "j4", "j5", "tip"};
    for (uint32_t j = 0; j < JOINTS; ++j) {
        joints[j] = (sw_skeleton_joint){
            .name = names[j],
            .parent = (int32_t)j - 1,
            .rest = {.t = j == 0 ? sw_vec3_make(0, 0, 0) : sw_vec3_make(0.2f, 0, 0),
                     .r = sw_quat_from_axis_angle(sw_vec3_make(0, 0, 1), j == 0 ? 0.0f : 0.21f),
                     .s = sw_vec3_make(1, 1, 1)}};
    }
    const sw_skeleton_desc desc = {.joints = joints, .joints_count = JOINTS};
    sw_error err = {0};
    sw_result r = sw_skeleton_create(&desc, NULL, &a->skel, &err);
    if (r != SW_RESULT_OK) {
        fprintf(stderr, "skeleton: %s (%s)\n", sw_result_str(r), err.check);
        return r;
    }
    for (uint32_t j = 0; j < JOINTS; ++j)
        a->chain[j] = j;
    return SW_RESULT_OK;
}

/* --plot chain: the joints after 0, 1, 2, 3 and 10 FABRIK iterations. */
static sw_result plot_chain(arm* a, sw_vec3 target) {
    const uint32_t its[5] = {0, 1, 2, 3, 10};
    sw_result r = SW_RESULT_OK;
    for (int k = 0; k < 5 && r == SW_RESULT_OK; ++k) {
        r = its[k] ? solve(a, false, target, its[k], NULL, NULL) : reset(a);
        printf("# after %u iterations\n", its[k]);
        for (uint32_t j = 0; j < JOINTS; ++j)
            printf("%.5f %.5f\n", (double)pos(a, j).x, (double)pos(a, j).y);
        printf("\n\n");
    }
    printf("# target\n%.5f %.5f\n", (double)target.x, (double)target.y);
    return r;
}

/* --plot converge: FABRIK's and CCD's distance left per iteration count. */
static sw_result plot_converge(arm* a, sw_vec3 target) {
    sw_result r = SW_RESULT_OK;
    printf("# iterations fabrik_distance ccd_distance\n");
    for (uint32_t it = 1; it <= 40 && r == SW_RESULT_OK; ++it) {
        float df = 0.0f, dc = 0.0f;
        r = solve(a, false, target, it, NULL, &df);
        if (r == SW_RESULT_OK) r = solve(a, true, target, it, NULL, &dc);
        printf("%u %.9f %.9f\n", it, (double)df, (double)dc);
    }
    return r;
}

/* The distance table, then converged FABRIK: on target, bone lengths
 * kept, root in place (*failures counts what fails). */
static sw_result check_reachable(arm* a, sw_vec3 target, int* failures) {
    sw_result r = reset(a);
    float lengths[BONES];
    for (uint32_t i = 0; i < BONES; ++i)
        lengths[i] = dist(pos(a, i), pos(a, i + 1));
    printf("six-bone arm, 1.2 m, target (%.2f, %.2f, %.2f)\n", (double)target.x, (double)target.y,
           (double)target.z);
    printf("%10s %14s %14s\n", "iterations", "FABRIK mm", "CCD mm");
    const uint32_t its[5] = {1, 2, 5, 10, 50};
    for (int k = 0; k < 5 && r == SW_RESULT_OK; ++k) {
        float df = 0.0f, dc = 0.0f;
        r = solve(a, false, target, its[k], NULL, &df);
        if (r == SW_RESULT_OK) r = solve(a, true, target, its[k], NULL, &dc);
        printf("%10u %14.4f %14.4f\n", its[k], (double)(df * 1000.0f), (double)(dc * 1000.0f));
    }
    float d = 0.0f, worst_len = 0.0f;
    if (r == SW_RESULT_OK) r = solve(a, false, target, 50, NULL, &d);
    for (uint32_t i = 0; i < BONES; ++i) {
        const float e = fabsf(dist(pos(a, i), pos(a, i + 1)) - lengths[i]);
        if (e > worst_len) worst_len = e;
    }
    const float tip_err = dist(pos(a, BONES), target);
    printf("FABRIK, 50 iterations: tip %.5f mm from target, bone lengths within %.2g mm, "
           "root moved %.2g mm\n",
           (double)(tip_err * 1000.0f), (double)(worst_len * 1000.0f),
           (double)(sw_vec3_length(pos(a, 0)) * 1000.0f));
    if (tip_err > 1e-4f || worst_len > 1e-5f || sw_vec3_length(pos(a, 0)) > 1e-6f) ++*failures;
    return r;
}

/* Out of reach: a straight line from the root towards the target. */
static sw_result check_out_of_reach(arm* a, int* failures) {
    const sw_vec3 far = sw_vec3_make(2.0f, 1.0f, 0.5f);
    float d = 0.0f;
    const sw_result r = solve(a, false, far, 10, NULL, &d);
    float off_line = 0.0f;
    const sw_vec3 u = sw_vec3_normalize(far);
    for (uint32_t j = 0; j < JOINTS; ++j) {
        const sw_vec3 p = pos(a, j);
        const float e = sw_vec3_length(sw_vec3_sub(p, sw_vec3_scale(u, sw_vec3_dot(p, u))));
        if (e > off_line) off_line = e;
    }
    printf("out of reach: %.4f m short (reach 1.2 m, target %.4f m away), joints within "
           "%.2g mm of the line\n",
           (double)d, (double)sw_vec3_length(far), (double)(off_line * 1000.0f));
    if (off_line > 1e-5f || fabsf(d - (sw_vec3_length(far) - 1.2f)) > 1e-5f) ++*failures;
    return r;
}

/* Hinge limits about +Z: each joint folds 0..40 degrees (left only), the
 * root turns freely; checked on the solved chain for FABRIK and CCD. */
static sw_result check_hinges(arm* a, int* failures) {
    sw_ik_limit limits[JOINTS];
    for (uint32_t j = 0; j < JOINTS; ++j)
        limits[j] = (sw_ik_limit){.type = SW_IK_LIMIT_TYPE_HINGE,
                                  .axis = {0, 0, 1},
                                  .min_angle = 0.0f,
                                  .max_angle = 0.698f};
    limits[0].min_angle = -3.14159f;
    limits[0].max_angle = 3.14159f;
    const sw_vec3 targets[3] = {{0.35f, 0.7f, 0}, {0.2f, -0.8f, 0}, {-0.3f, 0.3f, 0.2f}};
    sw_result r = SW_RESULT_OK;
    for (int t = 0; t < 3 && r == SW_RESULT_OK; ++t) {
        for (int ccd = 0; ccd < 2 && r == SW_RESULT_OK; ++ccd) {
            float d = 0.0f;
            r = solve(a, ccd != 0, targets[t], 100, limits, &d);
            /* Fold of joint i: signed angle about +Z from bone i-1 to bone i. */
            float lo = 10.0f, hi = -10.0f, out_of_plane = 0.0f;
            for (uint32_t i = 1; i < BONES; ++i) {
                const sw_vec3 b0 = sw_vec3_sub(pos(a, i), pos(a, i - 1));
                const sw_vec3 b1 = sw_vec3_sub(pos(a, i + 1), pos(a, i));
                const float fold = atan2f(sw_vec3_cross(b0, b1).z, sw_vec3_dot(b0, b1));
                lo = fminf(lo, fold);
                hi = fmaxf(hi, fold);
            }
            for (uint32_t j = 0; j < JOINTS; ++j)
                out_of_plane = fmaxf(out_of_plane, fabsf(pos(a, j).z));
            printf("%s, hinge 0..40 deg, target (%.2f, %.2f, %.2f): %.4f mm left, folds "
                   "%.2f..%.2f deg, off the plane %.2g mm\n",
                   ccd ? "CCD   " : "FABRIK", (double)targets[t].x, (double)targets[t].y,
                   (double)targets[t].z, (double)(d * 1000.0f), (double)(lo * 57.29578f),
                   (double)(hi * 57.29578f), (double)(out_of_plane * 1000.0f));
            if (lo < -1e-4f || hi > 0.698f + 1e-4f || out_of_plane > 1e-5f) ++*failures;
        }
    }
    return r;
}

int main(int argc, char** argv) {
    const char* plot = argc > 2 && strcmp(argv[1], "--plot") == 0 ? argv[2] : NULL;
    arm a = {0};
    sw_result r = arm_create(&a);
    if (r != SW_RESULT_OK) return 1;
    const sw_vec3 target = sw_vec3_make(0.35f, 0.7f, 0.0f);
    int failures = 0;
    if (plot && strcmp(plot, "chain") == 0) {
        r = plot_chain(&a, target);
    } else if (plot && strcmp(plot, "converge") == 0) {
        r = plot_converge(&a, target);
    } else {
        r = check_reachable(&a, target, &failures);
        if (r == SW_RESULT_OK) r = check_out_of_reach(&a, &failures);
        if (r == SW_RESULT_OK) r = check_hinges(&a, &failures);
        printf("%s\n", failures || r != SW_RESULT_OK ? "FAILED" : "all checks passed");
    }
    if (r != SW_RESULT_OK) fprintf(stderr, "job failed: %s\n", sw_result_str(r));
    sw_skeleton_destroy(a.skel, NULL);
    return r == SW_RESULT_OK && failures == 0 ? 0 : 1;
}
