/* 10_two_bone: a CMU leg reaching targets with two-bone IK.
 *
 *     example_10_two_bone [FILE.bvh] [--plot fade|soft]
 *
 * Loads the capture (default: Debian's CMU 01_01.bvh, scaled to metres),
 * finds LeftUpLeg -> LeftLeg -> LeftFoot by name, and at several frames puts
 * the foot on targets around it (a step up, forward, out of reach),
 * printing the reach error and the bone lengths before and after; it fails
 * (exit 1) when a reachable target is missed by more than 0.1 mm or a bone
 * changes length by more than 0.01 mm. Then it fades the IK in and out
 * while the clip plays and prints the foot's distance to a target that
 * follows the hip.
 *
 * --plot fade prints that fade as a table (frame, weight, distance without
 * IK, distance with IK); --plot soft prints reached distance against target
 * distance for three softness values. docs/plots/ik_two_bone.gp draws both. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sinew/ik/ik.h"
#include "sinew/sinew.h"
#include "sinew/tools/readers/bvh.h"

typedef struct character {
    const sw_skeleton* skel;
    const sw_clip* clip;
    sw_xform4* pose;
    sw_mat4* model;
} character;

static sw_vec3 pos(const character* c, uint32_t j) {
    return sw_vec3_make(c->model[j].m[12], c->model[j].m[13], c->model[j].m[14]);
}
static float dist(sw_vec3 a, sw_vec3 b) {
    return sw_vec3_length(sw_vec3_sub(a, b));
}

/* Samples the clip at t and computes model matrices. */
static sw_result pose_at(character* c, float t) {
    const sw_sample_job sample = {.clip = c->clip,
                                  .skeleton = c->skel,
                                  .time = t,
                                  .out = c->pose,
                                  .out_count = c->skel->packets_count};
    sw_result r = sw_sample_job_run(&sample);
    const sw_local_to_model_job l2m = {.skeleton = c->skel,
                                       .local = c->pose,
                                       .local_count = c->skel->packets_count,
                                       .out = c->model,
                                       .out_count = c->skel->joints_count};
    if (r == SW_RESULT_OK) r = sw_local_to_model_job_run(&l2m);
    return r;
}

/* Two-bone IK on the leg, then local-to-model for the leg's sub-tree. */
static sw_result solve_leg(character* c, const uint32_t leg[3], sw_vec3 target, float weight,
                           float softness, bool* reached) {
    const sw_ik_two_bone_job job = {
        .skeleton = c->skel,
        .model = c->model,
        .model_count = c->skel->joints_count,
        .start_joint = leg[0],
        .mid_joint = leg[1],
        .end_joint = leg[2],
        .target = target,
        /* the knee bends towards the front of the character (+Z in CMU files) */
        .pole_mode = SW_IK_POLE_MODE_DIRECTION,
        .pole = sw_vec3_make(0, 0, 1),
        .weight = weight,
        .softness = softness,
        .pose = c->pose,
        .pose_count = c->skel->packets_count,
        .reached = reached};
    sw_result r = sw_ik_two_bone_job_run(&job);
    const sw_local_to_model_job l2m = {.skeleton = c->skel,
                                       .local = c->pose,
                                       .local_count = c->skel->packets_count,
                                       .subtree = true,
                                       .subtree_root = leg[0],
                                       .out = c->model,
                                       .out_count = c->skel->joints_count};
    if (r == SW_RESULT_OK) r = sw_local_to_model_job_run(&l2m);
    return r;
}

static float smoothstep(float e0, float e1, float x) {
    float t = (x - e0) / (e1 - e0);
    t = t < 0.0f ? 0.0f : (t > 1.0f ? 1.0f : t);
    return t * t * (3.0f - 2.0f * t);
}

/* The table: four targets at four times, each checked (error, bone
 * lengths, a straight leg when out of reach). */
static sw_result reach_table(character* cp, const uint32_t leg[3], const char* path,
                             int* failures) {
    character c = *cp;
    const float duration = c.clip->duration;
    sw_result r = SW_RESULT_OK;
    printf("two-bone IK on %s: LeftUpLeg -> LeftLeg -> LeftFoot\n", path);
    printf("%6s  %-22s %9s %8s  %-17s %-17s\n", "time", "target", "error mm", "reached",
           "thigh cm (before)", "shin cm (before)");
    const char* names[4] = {"step up 15 cm", "forward 20 cm", "inward 10 cm, up 5",
                            "down 1 m (too far)"};
    const sw_vec3 offsets[4] = {
        {0, 0.15f, 0.05f}, {0, 0.05f, 0.2f}, {-0.1f, 0.05f, 0}, {0, -1.0f, 0}};
    for (int f = 0; f < 4 && r == SW_RESULT_OK; ++f) {
        const float t = duration * (float)f / 4.0f;
        for (int k = 0; k < 4 && r == SW_RESULT_OK; ++k) {
            r = pose_at(&c, t);
            if (r != SW_RESULT_OK) break;
            const float l1 = dist(pos(&c, leg[0]), pos(&c, leg[1]));
            const float l2 = dist(pos(&c, leg[1]), pos(&c, leg[2]));
            const sw_vec3 target = sw_vec3_add(pos(&c, leg[2]), offsets[k]);
            bool reached = false;
            r = solve_leg(&c, leg, target, 1.0f, 0.0f, &reached);
            if (r != SW_RESULT_OK) break;
            const float e = dist(pos(&c, leg[2]), target);
            const float n1 = dist(pos(&c, leg[0]), pos(&c, leg[1]));
            const float n2 = dist(pos(&c, leg[1]), pos(&c, leg[2]));
            printf("%5.2fs  %-22s %9.4f %8s  %7.3f (%7.3f) %7.3f (%7.3f)\n", (double)t, names[k],
                   (double)(e * 1000.0f), reached ? "yes" : "no", (double)(n1 * 100.0f),
                   (double)(l1 * 100.0f), (double)(n2 * 100.0f), (double)(l2 * 100.0f));
            if ((reached && e > 1e-4f) || fabsf(n1 - l1) > 1e-5f || fabsf(n2 - l2) > 1e-5f)
                ++*failures;
            if (!reached) {
                /* Out of reach: straight, pointing at the target. */
                const sw_vec3 a = pos(&c, leg[0]);
                const sw_vec3 u = sw_vec3_normalize(sw_vec3_sub(target, a));
                const sw_vec3 expect = sw_vec3_add(a, sw_vec3_scale(u, l1 + l2));
                const float off = dist(pos(&c, leg[2]), expect);
                printf("        out of reach: foot %.4f mm from the straight leg's end\n",
                       (double)(off * 1000.0f));
                if (off > 1e-4f) ++*failures;
            }
        }
    }
    return r;
}

/* The fade: the IK weight in and out while the clip plays (--plot fade:
 * the curve). */
static sw_result fade(character* cp, const uint32_t leg[3], const char* plot, int* failures) {
    character c = *cp;
    sw_result r = SW_RESULT_OK;
    /* Fade in over frames 20..40, out over 70..90, while the clip plays;
     * the target follows the hip joint (the capture travels): 70 cm
     * below it, 15 cm forward, as if the foot were held on a pedal. */
    const sw_vec3 offset = sw_vec3_make(0.05f, -0.7f, 0.15f);
    if (plot) printf("# frame weight distance_without_ik distance_with_ik\n");
    float worst_jump = 0.0f, last = -1.0f, held = 0.0f;
    for (int f = 0; f <= 110 && r == SW_RESULT_OK; ++f) {
        const float t = 1.0f + (float)f / 30.0f;
        const float w = smoothstep(20, 40, (float)f) * (1.0f - smoothstep(70, 90, (float)f));
        r = pose_at(&c, t);
        if (r != SW_RESULT_OK) break;
        const sw_vec3 target = sw_vec3_add(pos(&c, leg[0]), offset);
        const float before = dist(pos(&c, leg[2]), target);
        r = solve_leg(&c, leg, target, w, 0.0f, NULL);
        const float after = dist(pos(&c, leg[2]), target);
        if (plot) printf("%d %.4f %.5f %.5f\n", f, (double)w, (double)before, (double)after);
        if (last >= 0.0f && fabsf(after - last) > worst_jump) worst_jump = fabsf(after - last);
        last = after;
        if (w == 1.0f && after > held) held = after;
    }
    if (!plot)
        printf("fade in/out over 110 frames at 30 fps: foot on the target at full weight "
               "(%.4f mm), largest frame-to-frame change of its distance %.1f mm\n",
               (double)(held * 1000.0f), (double)(worst_jump * 1000.0f));
    if (held > 1e-4f) ++*failures;
    return r;
}

/* Softness: the distance reached against the target's (--plot soft: the
 * curves). */
static sw_result softness(character* cp, const uint32_t leg[3], const char* plot, int* failures) {
    character c = *cp;
    sw_result r = SW_RESULT_OK;
    /* Reached distance against target distance, softness 0, 0.1, 0.3. */
    r = pose_at(&c, 1.0f);
    const sw_vec3 a = pos(&c, leg[0]);
    const float L = dist(a, pos(&c, leg[1])) + dist(pos(&c, leg[1]), pos(&c, leg[2]));
    const sw_vec3 down = sw_vec3_normalize(sw_vec3_make(0.1f, -1.0f, 0.2f));
    const float soft[3] = {0.0f, 0.1f, 0.3f};
    if (plot) printf("# target_over_reach reached_over_reach(softness 0, 0.1, 0.3)\n");
    float prev[3] = {0, 0, 0};
    bool monotonic = true;
    for (int i = 0; i <= 80 && r == SW_RESULT_OK; ++i) {
        const float d = L * (0.6f + 0.8f * (float)i / 80.0f);
        float got[3];
        for (int s = 0; s < 3 && r == SW_RESULT_OK; ++s) {
            r = pose_at(&c, 1.0f);
            if (r == SW_RESULT_OK)
                r = solve_leg(&c, leg, sw_vec3_add(a, sw_vec3_scale(down, d)), 1.0f, soft[s], NULL);
            got[s] = dist(a, pos(&c, leg[2])) / L;
            if (got[s] < prev[s] - 1e-6f) monotonic = false;
            prev[s] = got[s];
        }
        if (plot)
            printf("%.4f %.5f %.5f %.5f\n", (double)(d / L), (double)got[0], (double)got[1],
                   (double)got[2]);
    }
    if (!plot)
        printf("softness 0 / 0.1 / 0.3 at 1.4x the reach: leg at %.4f / %.4f / %.4f of full "
               "extension (%s)\n",
               (double)prev[0], (double)prev[1], (double)prev[2],
               monotonic ? "monotonic" : "NOT monotonic");
    if (!monotonic) ++*failures;
    return r;
}

int main(int argc, char** argv) {
    const char* path = "/usr/share/assimp/models/BVH/01_01.bvh";
    const char* plot = NULL;
    for (int i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--plot") == 0 && i + 1 < argc)
            plot = argv[++i];
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
    uint32_t leg[3];
    r = sw_ik_find_two_bone(bvh.skeleton, "LeftUpLeg", "LeftLeg", "LeftFoot", leg);
    if (r != SW_RESULT_OK) {
        fprintf(stderr, "no LeftUpLeg -> LeftLeg -> LeftFoot chain: %s\n", sw_result_str(r));
        sw_bvh_result_free(&bvh, NULL);
        return 1;
    }
    character c = {.skel = bvh.skeleton, .clip = bvh.clip};
    c.pose = aligned_alloc(16, sizeof(sw_xform4) * c.skel->packets_count);
    c.model = aligned_alloc(16, sizeof(sw_mat4) * c.skel->joints_count);
    if (!c.pose || !c.model) return 1;
    int failures = 0;

    if (!plot) r = reach_table(&c, leg, path, &failures);
    if (r == SW_RESULT_OK && (!plot || strcmp(plot, "fade") == 0))
        r = fade(&c, leg, plot, &failures);
    if (r == SW_RESULT_OK && (!plot || strcmp(plot, "soft") == 0))
        r = softness(&c, leg, plot, &failures);

    if (r != SW_RESULT_OK) fprintf(stderr, "job failed: %s\n", sw_result_str(r));
    if (!plot) printf("%s\n", failures || r != SW_RESULT_OK ? "FAILED" : "all checks passed");
    free(c.pose);
    free(c.model);
    sw_bvh_result_free(&bvh, NULL);
    return r == SW_RESULT_OK && failures == 0 ? 0 : 1;
}
