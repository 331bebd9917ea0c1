/* 24_hit_reaction: a hit on a playing capture. At t = 1 s the character is
 * hit: a hit pause slows the clip's time for 0.12 s, and a pose shake turns
 * the spine, neck and head by a decaying seeded wobble on top of the
 * animation.
 *
 *     example_24_hit_reaction [FILE.bvh]
 *
 * Default: Debian's CMU capture 01_01.bvh. Checks: the clip time lost to the
 * pause is exactly 0.12 s * (1 - scale); only the shaken joints differ from
 * the plain animation; their extra turn stays under the decaying amplitude
 * and is gone (below 1e-3 rad) a second later. Exit code 0 when every check
 * passes. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sinew/procedural/hit.h"
#include "sinew/sinew.h"
#include "sinew/tools/readers/bvh.h"

/* Angle of the rotation between two unit quaternions (atan2 keeps small
 * angles accurate, where acos of the dot product would not). */
static float angle_between(sw_quat a, sw_quat b) {
    const sw_quat d = sw_quat_mul(a, sw_quat_conjugate(b));
    const float s = sqrtf(d.x * d.x + d.y * d.y + d.z * d.z);
    return 2.0f * atan2f(s, fabsf(d.w));
}

int main(int argc, char** argv) {
    const char* path = argc > 1 ? argv[1] : "/usr/share/assimp/models/BVH/01_01.bvh";
    sw_bvh_result bvh = {0};
    sw_error err = {0};
    sw_result r = sw_bvh_read_file(path, NULL, NULL, &bvh, &err);
    if (r != SW_RESULT_OK) {
        fprintf(stderr, "%s: %s (%s)\n", path, sw_result_str(r), err.check ? err.check : "");
        return 1;
    }
    const sw_skeleton* skel = bvh.skeleton;
    const char* names[4] = {"Spine1", "Neck", "Neck1", "Head"};
    uint32_t shaken[4];
    for (int i = 0; i < 4; ++i) {
        const int32_t j = sw_skeleton_find_joint(skel, names[i]);
        if (j < 0) {
            fprintf(stderr, "no joint named %s\n", names[i]);
            sw_bvh_result_free(&bvh, NULL);
            return 1;
        }
        shaken[i] = (uint32_t)j;
    }
    const uint32_t packets = skel->packets_count;
    sw_xform4* plain = aligned_alloc(16, sizeof(sw_xform4) * packets);
    sw_xform4* pose = aligned_alloc(16, sizeof(sw_xform4) * packets);

    const float dt = 1.0f / 60.0f, hit_at = 1.0f, pause_len = 0.12f, pause_scale = 0.1f;
    const float amplitude = 0.15f, half_life = 0.1f;
    sw_hit_pause pause = {0};
    float clip_time = 0.0f, real_time = 0.0f, hit_time = -1.0f;
    float worst_excess = 0.0f, late_turn = 0.0f, peak_turn = 0.0f;
    bool others_untouched = true;
    for (int f = 0; f < 150; ++f) {
        if (hit_time < 0.0f && real_time >= hit_at - 1e-6f) {
            sw_hit_pause_start(&pause, pause_len, pause_scale);
            hit_time = real_time;
        }
        clip_time += sw_hit_pause_scale_dt(&pause, dt);
        real_time += dt;
        const sw_sample_job sample = {
            .clip = bvh.clip,
            .skeleton = skel,
            .time = clip_time,
            .out = plain,
            .out_count = packets,
        };
        r = sw_sample_job_run(&sample);
        if (r != SW_RESULT_OK) break;
        memcpy(pose, plain, sizeof(sw_xform4) * packets);
        if (hit_time >= 0.0f) {
            const sw_pose_shake_job shake = {
                .joints = shaken,
                .joints_count = 4,
                .amplitude = amplitude,
                .frequency = 9.0f,
                .half_life = half_life,
                .time = real_time - hit_time,
                .seed = 7u,
                .pose = pose,
                .pose_count = packets,
            };
            r = sw_pose_shake_job_run(&shake);
            if (r != SW_RESULT_OK) break;
            const float bound = amplitude * exp2f(-(real_time - hit_time) / half_life);
            for (uint32_t j = 0; j < skel->joints_count; ++j) {
                const sw_xform a = sw_pose_get(pose, j), b = sw_pose_get(plain, j);
                const bool listed =
                    j == shaken[0] || j == shaken[1] || j == shaken[2] || j == shaken[3];
                if (!listed) {
                    others_untouched = others_untouched && memcmp(&a, &b, sizeof a) == 0;
                    continue;
                }
                const float turn = angle_between(a.r, b.r);
                worst_excess = fmaxf(worst_excess, turn - bound);
                peak_turn = fmaxf(peak_turn, turn);
                if (real_time - hit_time > 1.0f) late_turn = fmaxf(late_turn, turn);
            }
        }
    }
    if (r != SW_RESULT_OK) {
        fprintf(stderr, "job failed: %s\n", sw_result_str(r));
        sw_bvh_result_free(&bvh, NULL);
        return 1;
    }
    const float lost = real_time - clip_time, expect = pause_len * (1.0f - pause_scale);
    printf("%s: hit at %.2f s, pause %.2f s at %.2f, shake %.2f rad halving every %.2f s on "
           "Spine1, Neck, Neck1, Head\n",
           path, (double)hit_time, (double)pause_len, (double)pause_scale, (double)amplitude,
           (double)half_life);
    int failed = 0;
    printf("check: clip time lost to the pause %.6f s (expected %.6f): %s\n", (double)lost,
           (double)expect, fabsf(lost - expect) <= 1e-5f ? "ok" : "FAILED");
    failed |= !(fabsf(lost - expect) <= 1e-5f);
    printf("check: joints other than the shaken ones untouched: %s\n",
           others_untouched ? "ok" : "FAILED");
    failed |= !others_untouched;
    printf("check: extra turn under the decaying amplitude (peak %.4f rad, worst excess %.2g): "
           "%s\n",
           (double)peak_turn, (double)worst_excess, worst_excess <= 1e-5f ? "ok" : "FAILED");
    failed |= !(worst_excess <= 1e-5f) || !(peak_turn > 0.02f);
    printf("check: a second later the wobble is %.2g rad (limit 1e-3): %s\n", (double)late_turn,
           late_turn <= 1e-3f ? "ok" : "FAILED");
    failed |= !(late_turn <= 1e-3f);
    free(plain);
    free(pose);
    sw_bvh_result_free(&bvh, NULL);
    return failed ? 1 : 0;
}
