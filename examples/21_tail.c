/* 21_tail: follow-the-leader. A 12-point chain hangs behind a head that
 * runs a figure eight; the points drive a joint chain (a tail) through
 * sw_chain_aim_job.
 *
 *     example_21_tail [DATA_FILE]
 *
 * Checks, every frame: the segment lengths are kept within 1e-5 m and the
 * tail joints land on the points within 1e-4 m; after the first loop the
 * tail retraces the same loop every period. With DATA_FILE, writes the head
 * path, the tail path and chain snapshots for docs/plots/motion_tail.gp.
 * Exit code 0 when every check passes. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sinew/core/local_to_model.h"
#include "sinew/procedural/chain.h"

enum { POINTS = 12, FRAMES_PER_LOOP = 240, LOOPS = 3 };
static const float SEGMENT = 0.08f;

static float dist(sw_vec3 a, sw_vec3 b) {
    return sw_vec3_length(sw_vec3_sub(a, b));
}

/* The rig: a base joint (moved by the game) and 11 tail joints below it. */
static const sw_skeleton* tail_skeleton(void) {
    sw_skeleton_joint joints[POINTS];
    char names[POINTS][16];
    for (int i = 0; i < POINTS; ++i) {
        snprintf(names[i], sizeof names[i], "tail%d", i);
        joints[i].name = names[i];
        joints[i].parent = i - 1;
        joints[i].rest.t = i == 0 ? sw_vec3_make(0, 0, 0) : sw_vec3_make(0, -SEGMENT, 0);
        joints[i].rest.r = sw_quat_identity();
        joints[i].rest.s = sw_vec3_make(1, 1, 1);
    }
    const sw_skeleton_desc desc = {joints, POINTS};
    const sw_skeleton* skel = NULL;
    sw_error err = {0};
    if (sw_skeleton_create(&desc, NULL, &skel, &err) != SW_RESULT_OK) {
        fprintf(stderr, "skeleton: %s\n", err.check);
        return NULL;
    }
    return skel;
}

/* The head's figure eight (2 m x 1 m) at frame f. */
static sw_vec3 head_at(int f) {
    const float t = 6.2831853f * (float)f / FRAMES_PER_LOOP;
    return sw_vec3_make(sinf(t), 0.5f * sinf(2.0f * t), 0.0f);
}

/* The chain's points follow the head. */
static sw_result follow_head(sw_vec3 head, const float* lengths, sw_vec3* points) {
    const sw_chain_follow_job follow = {
        .head = head,
        .lengths = lengths,
        .lengths_count = POINTS - 1,
        .points = points,
        .points_count = POINTS,
    };
    return sw_chain_follow_job_run(&follow);
}

/* Frame f: the game moves the base joint to the head; the points follow
 * it and the tail joints aim along them; model holds the result. */
static sw_result tail_frame(const sw_skeleton* skel, const sw_local_to_model_job* l2m,
                            sw_xform4* pose, sw_mat4* model, const uint32_t* chain,
                            const float* lengths, sw_vec3* points, sw_vec3 head) {
    memcpy(pose, sw_skeleton_rest_pose(skel), sizeof(sw_xform4) * skel->packets_count);
    sw_xform base = sw_pose_get(pose, 0);
    base.t = head;
    sw_pose_set(pose, 0, base);
    sw_local_to_model_job_run(l2m);
    const sw_chain_aim_job aim = {
        .skeleton = skel,
        .model = model,
        .model_count = POINTS,
        .joints = chain,
        .joints_count = POINTS,
        .points = points,
        .points_count = POINTS,
        .weight = 1.0f,
        .pose = pose,
        .pose_count = skel->packets_count,
    };
    sw_result r = follow_head(head, lengths, points);
    if (r == SW_RESULT_OK) r = sw_chain_aim_job_run(&aim);
    if (r == SW_RESULT_OK) r = sw_local_to_model_job_run(l2m);
    return r;
}

/* The data file's tail path over the last loop, then snapshots of the
 * whole chain: one more loop, 6 of its frames written. */
static void write_tail(FILE* data, const sw_vec3* tail_path, const float* lengths,
                       sw_vec3* points) {
    fprintf(data, "\n\n# tail path over the last loop: x y\n");
    for (int f = FRAMES_PER_LOOP * (LOOPS - 1) + 1; f <= FRAMES_PER_LOOP * LOOPS; ++f)
        fprintf(data, "%.5f %.5f\n", (double)tail_path[f].x, (double)tail_path[f].y);
    for (int f = 1; f <= FRAMES_PER_LOOP; ++f) {
        follow_head(head_at(f), lengths, points);
        if (f % (FRAMES_PER_LOOP / 6) == 0) {
            fprintf(data, "\n\n# chain at loop fraction %.3f: x y\n", (double)f / FRAMES_PER_LOOP);
            for (int i = 0; i < POINTS; ++i)
                fprintf(data, "%.5f %.5f\n", (double)points[i].x, (double)points[i].y);
        }
    }
}

/* Prints the checks; returns 1 when one fails. */
static int report(float worst_len, float worst_joint, float worst_loop) {
    printf("figure eight 2 m x 1 m, %d points %.2f m apart, %d frames per loop, %d loops\n", POINTS,
           (double)SEGMENT, FRAMES_PER_LOOP, LOOPS);
    int failed = 0;
    printf("check: segment lengths kept within %.3g m (limit 1e-5): %s\n", (double)worst_len,
           worst_len <= 1e-5f ? "ok" : "FAILED");
    failed |= !(worst_len <= 1e-5f);
    printf("check: tail joints on the points within %.3g m (limit 1e-4): %s\n", (double)worst_joint,
           worst_joint <= 1e-4f ? "ok" : "FAILED");
    failed |= !(worst_joint <= 1e-4f);
    printf("check: the tail retraces its loop every period within %.3g m (limit 1e-3): %s\n",
           (double)worst_loop, worst_loop <= 1e-3f ? "ok" : "FAILED");
    failed |= !(worst_loop <= 1e-3f);
    return failed;
}

int main(int argc, char** argv) {
    FILE* data = argc > 1 ? fopen(argv[1], "w") : NULL;
    if (argc > 1 && !data) {
        fprintf(stderr, "cannot write %s\n", argv[1]);
        return 1;
    }
    const sw_skeleton* skel = tail_skeleton();
    if (!skel) return 1;
    sw_xform4* pose = aligned_alloc(16, sizeof(sw_xform4) * skel->packets_count);
    sw_mat4 model[POINTS];
    uint32_t chain[POINTS];
    for (uint32_t i = 0; i < POINTS; ++i)
        chain[i] = i;
    sw_vec3 points[POINTS];
    float lengths[POINTS - 1];
    memcpy(pose, sw_skeleton_rest_pose(skel), sizeof(sw_xform4) * skel->packets_count);
    const sw_local_to_model_job l2m = {
        .skeleton = skel,
        .local = pose,
        .local_count = skel->packets_count,
        .out = model,
        .out_count = POINTS,
    };
    sw_local_to_model_job_run(&l2m);
    sw_chain_points_from_model(model, POINTS, chain, POINTS, points, lengths);

    static sw_vec3 tail_path[FRAMES_PER_LOOP * LOOPS + 1];
    float worst_len = 0.0f, worst_joint = 0.0f, worst_loop = 0.0f;
    if (data) fprintf(data, "# head path: x y\n");
    for (int f = 1; f <= FRAMES_PER_LOOP * LOOPS; ++f) {
        const sw_vec3 head = head_at(f);
        const sw_result r = tail_frame(skel, &l2m, pose, model, chain, lengths, points, head);
        if (r != SW_RESULT_OK) {
            fprintf(stderr, "job failed: %s\n", sw_result_str(r));
            return 1;
        }
        for (int i = 0; i < POINTS; ++i) {
            const sw_vec3 joint = {model[i].m[12], model[i].m[13], model[i].m[14]};
            worst_joint = fmaxf(worst_joint, dist(joint, points[i]));
            if (i > 0)
                worst_len = fmaxf(worst_len, fabsf(dist(points[i], points[i - 1]) - SEGMENT));
        }
        tail_path[f] = points[POINTS - 1];
        if (f > FRAMES_PER_LOOP * (LOOPS - 1))
            worst_loop = fmaxf(worst_loop, dist(tail_path[f], tail_path[f - FRAMES_PER_LOOP]));
        if (data && f > FRAMES_PER_LOOP * (LOOPS - 1))
            fprintf(data, "%.5f %.5f\n", (double)head.x, (double)head.y);
    }
    if (data) {
        write_tail(data, tail_path, lengths, points);
        fclose(data);
    }
    const int failed = report(worst_len, worst_joint, worst_loop);
    free(pose);
    sw_skeleton_destroy(skel, NULL);
    return failed;
}
