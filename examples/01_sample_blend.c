/* 01_sample_blend: load a BVH, sample its clip at two times, blend the two
 * poses half and half, and print where a joint ends up in model space.
 *
 *     example_01_sample_blend [FILE.bvh] [JOINT]
 *
 * Defaults: Debian's CMU capture 01_01.bvh and its "LeftHand" joint. */
#include <stdio.h>
#include <stdlib.h>

#include "sinew/sinew.h"
#include "sinew/tools/readers/bvh.h"

int main(int argc, char** argv) {
    const char* path = argc > 1 ? argv[1] : "/usr/share/assimp/models/BVH/01_01.bvh";
    const char* joint_name = argc > 2 ? argv[2] : "LeftHand";

    sw_bvh_result bvh = {0};
    sw_error err = {0};
    sw_result r = sw_bvh_read_file(path, NULL, NULL, &bvh, &err);
    if (r != SW_RESULT_OK) {
        fprintf(stderr, "%s: %s (check \"%s\", line %lld)\n", path, sw_result_str(r),
                err.check ? err.check : "", (long long)err.index);
        return 1;
    }
    const sw_skeleton* skel = bvh.skeleton;
    int32_t joint = sw_skeleton_find_joint(skel, joint_name);
    if (joint < 0) {
        fprintf(stderr, "no joint named %s\n", joint_name);
        sw_bvh_result_free(&bvh, NULL);
        return 1;
    }

    /* Caller-owned buffers: two sampled poses, the blend, model matrices. */
    uint32_t packets = skel->packets_count;
    sw_xform4* poses = aligned_alloc(16, sizeof(sw_xform4) * packets * 3u);
    sw_mat4* model = malloc(sizeof(sw_mat4) * skel->joints_count);
    if (!poses || !model) return 1;
    sw_xform4* a = poses;
    sw_xform4* b = poses + packets;
    sw_xform4* blended = poses + 2u * packets;

    const float times[2] = {1.0f, 2.0f};
    sw_xform4* outs[2] = {a, b};
    for (int i = 0; i < 2; ++i) {
        const sw_sample_job sample = {.clip = bvh.clip,
                                      .skeleton = skel,
                                      .time = times[i],
                                      .out = outs[i],
                                      .out_count = packets};
        r = sw_sample_job_run(&sample);
        if (r != SW_RESULT_OK) break;
    }

    const sw_blend_layer layers[2] = {{.pose = a, .weight = 0.5f}, {.pose = b, .weight = 0.5f}};
    const sw_blend_job blend = {.layers = layers,
                                .layers_count = 2,
                                .rest_pose = sw_skeleton_rest_pose(skel),
                                .packets_count = packets,
                                .out = blended,
                                .out_count = packets};
    if (r == SW_RESULT_OK) r = sw_blend_job_run(&blend);

    const sw_local_to_model_job l2m = {.skeleton = skel,
                                       .local = blended,
                                       .local_count = packets,
                                       .out = model,
                                       .out_count = skel->joints_count};
    if (r == SW_RESULT_OK) r = sw_local_to_model_job_run(&l2m);

    if (r == SW_RESULT_OK) {
        sw_vec3 p = sw_mat4_point(&model[joint], sw_vec3_make(0, 0, 0));
        printf("%s between t=%.1fs and t=%.1fs: (%.4f, %.4f, %.4f) file units\n", joint_name,
               (double)times[0], (double)times[1], (double)p.x, (double)p.y, (double)p.z);
    } else {
        fprintf(stderr, "job failed: %s\n", sw_result_str(r));
    }
    free(model);
    free(poses);
    sw_bvh_result_free(&bvh, NULL);
    return r == SW_RESULT_OK ? 0 : 1;
}
