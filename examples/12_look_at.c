/* 12_look_at: a CMU character turns its head towards a point that circles
 * around it, spread over spine, neck and head, limited to 70 degrees.
 *
 *     example_12_look_at [FILE.bvh] [--plot]
 *
 * The face's forward axis is measured once from the rest pose (model +Z,
 * where CMU characters face, expressed in the head's space). For targets at
 * every 10 degrees around the character, 2 m away at eye height, it prints
 * the angle to the target, how far the face turned, and what is left; it
 * fails (exit 1) when the face turns past the limit, misses a target within
 * the limit by more than 0.01 degree, or tilts its up axis out of the
 * vertical plane. --plot prints the table alone for docs/plots/ik_look_at.gp. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sinew/ik/ik.h"
#include "sinew/sinew.h"
#include "sinew/tools/readers/bvh.h"

#define DEG 57.2957795f

static float angle_between(sw_vec3 a, sw_vec3 b) {
    return atan2f(sw_vec3_length(sw_vec3_cross(a, b)), sw_vec3_dot(a, b));
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
    const sw_skeleton* skel = bvh.skeleton;
    const char* names[4] = {"Spine1", "Neck", "Neck1", "Head"};
    const float shares[4] = {0.25f, 0.3f, 0.4f, 1.0f}; /* of what is left at each joint */
    sw_ik_look_at_joint chain[4];
    for (int i = 0; i < 4; ++i) {
        const int32_t j = sw_skeleton_find_joint(skel, names[i]);
        if (j < 0) {
            fprintf(stderr, "no joint %s\n", names[i]);
            sw_bvh_result_free(&bvh, NULL);
            return 1;
        }
        chain[i] = (sw_ik_look_at_joint){.joint = (uint32_t)j, .share = shares[i]};
    }
    const uint32_t head = chain[3].joint;
    const uint32_t packets = skel->packets_count, joints = skel->joints_count;
    sw_xform4* pose = aligned_alloc(16, sizeof(sw_xform4) * packets);
    sw_mat4* model = aligned_alloc(16, sizeof(sw_mat4) * joints);
    sw_mat4* input = aligned_alloc(16, sizeof(sw_mat4) * joints);
    if (!pose || !model || !input) return 1;
    const sw_local_to_model_job l2m = {
        .skeleton = skel, .local = pose, .local_count = packets, .out = model, .out_count = joints};

    /* Forward and up of the face in the head's space, from the rest pose. */
    memcpy(pose, sw_skeleton_rest_pose(skel), sizeof(sw_xform4) * packets);
    r = sw_local_to_model_job_run(&l2m);
    const sw_quat rest_head = sw_quat_conjugate(sw_quat_from_mat4(&model[head]));
    const sw_vec3 forward = sw_quat_rotate(rest_head, sw_vec3_make(0, 0, 1));
    const sw_vec3 up = sw_quat_rotate(rest_head, sw_vec3_make(0, 1, 0));
    const sw_vec3 bone = sw_ik_forward_from_rest(skel, chain[2].joint, head);
    if (!plot)
        printf("look-at over Spine1, Neck, Neck1, Head (shares 0.25, 0.3, 0.4, 1), limit 70 deg; "
               "Neck1->Head bone in Neck1's space (%.3f, %.3f, %.3f)\n",
               (double)bone.x, (double)bone.y, (double)bone.z);

    const float limit = 70.0f / DEG;
    const sw_sample_job sample = {
        .clip = bvh.clip, .skeleton = skel, .time = 2.0f, .out = pose, .out_count = packets};
    int failures = 0;
    if (plot)
        printf("# target_deg turned_deg left_deg\n");
    else
        printf("%10s %10s %10s\n", "target deg", "turned deg", "left deg");
    for (int deg = -180; deg <= 180 && r == SW_RESULT_OK; deg += 5) {
        r = sw_sample_job_run(&sample);
        if (r == SW_RESULT_OK) r = sw_local_to_model_job_run(&l2m);
        if (r != SW_RESULT_OK) break;
        memcpy(input, model, sizeof(sw_mat4) * joints);
        const sw_vec3 eye = sw_vec3_make(model[head].m[12], model[head].m[13], model[head].m[14]);
        const sw_vec3 f0 =
            sw_vec3_normalize(sw_quat_rotate(sw_quat_from_mat4(&model[head]), forward));
        /* Around the vertical from the face's current heading. */
        sw_vec3 flat = sw_vec3_normalize(sw_vec3_make(f0.x, 0.0f, f0.z));
        flat =
            sw_quat_rotate(sw_quat_from_axis_angle(sw_vec3_make(0, 1, 0), (float)deg / DEG), flat);
        const sw_vec3 target = sw_vec3_add(eye, sw_vec3_scale(flat, 2.0f));
        const sw_ik_look_at_job job = {.skeleton = skel,
                                       .model = input,
                                       .model_count = joints,
                                       .joints = chain,
                                       .joints_count = 4,
                                       .forward = forward,
                                       .up = up,
                                       .target = target,
                                       .limit_angle = limit,
                                       .weight = 1.0f,
                                       .pose = pose,
                                       .pose_count = packets};
        r = sw_ik_look_at_job_run(&job);
        if (r == SW_RESULT_OK) r = sw_local_to_model_job_run(&l2m);
        if (r != SW_RESULT_OK) break;
        const sw_quat rh = sw_quat_from_mat4(&model[head]);
        const sw_vec3 f1 = sw_vec3_normalize(sw_quat_rotate(rh, forward));
        const sw_vec3 u1 = sw_quat_rotate(rh, up);
        const sw_vec3 eye1 = sw_vec3_make(model[head].m[12], model[head].m[13], model[head].m[14]);
        const sw_vec3 to_target = sw_vec3_sub(target, eye1);
        const float wanted = angle_between(f0, to_target);
        const float turned = angle_between(f0, f1);
        const float left = angle_between(f1, to_target);
        const float tilt =
            sw_vec3_dot(u1, sw_vec3_normalize(sw_vec3_cross(f1, sw_vec3_make(0, 1, 0))));
        if (plot)
            printf("%d %.4f %.4f\n", deg, (double)(turned * DEG), (double)(left * DEG));
        else if (deg % 30 == 0)
            printf("%10d %10.3f %10.3f\n", deg, (double)(turned * DEG), (double)(left * DEG));
        if (turned > limit + 1e-4f) ++failures;
        if (wanted < limit && left > 0.01f / DEG) ++failures;
        if (fabsf(tilt) > 1e-4f) ++failures;
    }
    if (r != SW_RESULT_OK) fprintf(stderr, "job failed: %s\n", sw_result_str(r));
    if (!plot) printf("%s\n", failures || r != SW_RESULT_OK ? "FAILED" : "all checks passed");
    free(pose);
    free(model);
    free(input);
    sw_bvh_result_free(&bvh, NULL);
    return r == SW_RESULT_OK && failures == 0 ? 0 : 1;
}
