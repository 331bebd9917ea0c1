/* Prints the tables behind docs/img/character_walk.png: the default
 * humanoid's walk (or the clip named in argv[1]) over two cycles.
 *   character_table [clip] heights   t, left ankle y, right ankle y, hips y,
 *                                    left/right planted (1/0 from the events)
 *   character_table [clip] sticks    side view (z, y) of every bone at 8
 *                                    phases of one cycle, blank-line separated
 * Built by docs/plots/character_plots.sh against a build folder. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sinew/showcase/character.h"
#include "sinew/sinew.h"

static _Alignas(16) sw_xform4 local[16];
static sw_mat4 model[64];

static void pose(const sw_scene* s, const sw_clip* c, float t) {
    const sw_sample_job sample = {
        .clip = c, .skeleton = s->skeleton, .time = t, .out = local, .out_count = 16};
    const sw_local_to_model_job l2m = {
        .skeleton = s->skeleton, .local = local, .local_count = 16, .out = model, .out_count = 64};
    if (sw_sample_job_run(&sample) != SW_RESULT_OK ||
        sw_local_to_model_job_run(&l2m) != SW_RESULT_OK) {
        fprintf(stderr, "sampling failed\n");
        exit(1);
    }
}

static float event(const sw_clip* c, const char* name) {
    for (uint32_t k = 0; k < c->events_count; ++k)
        if (strcmp(sw_clip_event_name(c, k), name) == 0) return sw_clip_events(c)[k].time;
    return -1.0f;
}

int main(int argc, char** argv) {
    const char* clip_name = argc > 1 ? argv[1] : "walk";
    const char* what = argc > 2 ? argv[2] : "heights";
    sw_scene s;
    float speeds[SW_SHOWCASE_HUMANOID_CLIPS];
    if (sw_showcase_humanoid(NULL, &s, speeds, NULL) != SW_RESULT_OK) return 1;
    const sw_clip* c = NULL;
    float speed = 0.0f;
    for (uint32_t i = 0; i < s.clips_count; ++i)
        if (strcmp(sw_clip_name(s.clips[i]), clip_name) == 0) c = s.clips[i], speed = speeds[i];
    if (!c) return 1;
    const float T = c->duration;
    const int lf = sw_skeleton_find_joint(s.skeleton, "LeftFoot");
    const int rf = sw_skeleton_find_joint(s.skeleton, "RightFoot");
    if (strcmp(what, "heights") == 0) {
        const float ld = event(c, "LeftFootDown"), lu = event(c, "LeftFootUp");
        const float rd = event(c, "RightFootDown"), ru = event(c, "RightFootUp");
        printf("# t left_ankle_y right_ankle_y hips_y left_planted right_planted\n");
        for (int i = 0; i <= 240; ++i) {
            const float t = 2.0f * T * (float)i / 240.0f;
            const float tc = t >= T ? t - T : t;
            pose(&s, c, tc);
            printf("%.4f %.5f %.5f %.5f %d %d\n", (double)t, (double)model[lf].m[13],
                   (double)model[rf].m[13], (double)model[0].m[13], tc >= ld && tc <= lu,
                   tc >= rd && tc <= ru);
        }
    } else {
        const int16_t* parents = sw_skeleton_parents(s.skeleton);
        for (int k = 0; k < 8; ++k) {
            const float t = T * (float)k / 8.0f;
            pose(&s, c, t);
            /* spread the figures out: 0.45 m apart plus their own progress */
            const float shift = 0.45f * (float)k - speed * t;
            for (uint32_t j = 1; j < s.skeleton->joints_count; ++j) {
                const int p = parents[j];
                printf("%.4f %.4f %d\n%.4f %.4f %d\n\n", (double)(model[p].m[14] + shift),
                       (double)model[p].m[13], k, (double)(model[j].m[14] + shift),
                       (double)model[j].m[13], k);
            }
        }
    }
    sw_scene_free(&s, NULL);
    return 0;
}
