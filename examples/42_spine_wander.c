/* 42_spine_wander: three hit reactions on the CMU spine that never look the
 * same twice.
 *
 *     example_42_spine_wander [FILE.bvh] [--plot]
 *
 * Plays the capture (default: Debian's CMU 01_01.bvh, in metres) and, from
 * 1 s on, three "hits" of 2 s each, each with its own seed: the head's
 * target wanders around where the animation puts it (4 cm sideways and
 * forward, 1.5 cm up and down) and the chain LowerBack, Spine, Spine1,
 * Neck1, Head follows it with FABRIK, faded in over 0.15 s and out over
 * 0.5 s. It checks and prints: the head never leaves the range around its
 * FK position, frames at weight 0 are bit-identical to the animation,
 * replaying a hit with its seed gives the same bits, and the three hits
 * differ. Exit status 1 when a check fails.
 *
 * --plot prints the head's offset from FK per frame instead (time, weight,
 * x, y, z of the offset for the hits as played, then x, z for the same
 * times replayed with seed 100); docs/plots/walker_plots.sh draws
 * docs/img/walker_spine_wander.png from it. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sinew/procedural/spine.h"
#include "sinew/sinew.h"
#include "sinew/tools/readers/bvh.h"

typedef struct character {
    const sw_skeleton* skel;
    const sw_clip* clip;
    sw_xform4* pose;
    sw_xform4* fk;
    sw_mat4* model;
    uint32_t chain[5];
} character;

static sw_vec3 head_pos(const character* c) {
    const sw_mat4* m = &c->model[c->chain[4]];
    return sw_vec3_make(m->m[12], m->m[13], m->m[14]);
}

static sw_result model_of(character* c) {
    const sw_local_to_model_job l2m = {.skeleton = c->skel,
                                       .local = c->pose,
                                       .local_count = c->skel->packets_count,
                                       .out = c->model,
                                       .out_count = c->skel->joints_count};
    return sw_local_to_model_job_run(&l2m);
}

static float smoothstep(float x) {
    x = x < 0.0f ? 0.0f : (x > 1.0f ? 1.0f : x);
    return x * x * (3.0f - 2.0f * x);
}

#define HIT_START 1.0f
#define HIT_LENGTH 2.0f
#define HITS 3

/* Weight and seed of the hit playing at clip time t (weight 0 outside). */
static float hit_at(float t, uint32_t* seed, float* since) {
    const float u = t - HIT_START;
    if (u < 0.0f || u >= HIT_LENGTH * HITS) return 0.0f;
    const int k = (int)(u / HIT_LENGTH);
    *seed = 1u + (uint32_t)k;
    *since = u - (float)k * HIT_LENGTH;
    return smoothstep(*since / 0.15f) * smoothstep((HIT_LENGTH - *since) / 0.5f);
}

static const sw_vec3 range = {0.04f, 0.015f, 0.04f};

/* Samples the clip at t, applies the wander (seed override when not 0), and
 * returns the head's offset from its FK position. */
static sw_result frame(character* c, float t, uint32_t seed_override, float* weight,
                       sw_vec3* offset) {
    const sw_sample_job sample = {.clip = c->clip,
                                  .skeleton = c->skel,
                                  .time = t,
                                  .out = c->pose,
                                  .out_count = c->skel->packets_count};
    sw_result r = sw_sample_job_run(&sample);
    if (r == SW_RESULT_OK) r = model_of(c);
    if (r != SW_RESULT_OK) return r;
    memcpy(c->fk, c->pose, sizeof(sw_xform4) * c->skel->packets_count);
    const sw_vec3 fk = head_pos(c);
    uint32_t seed = 0;
    float since = 0.0f;
    *weight = hit_at(t, &seed, &since);
    const sw_spine_wander_job job = {.skeleton = c->skel,
                                     .model = c->model,
                                     .model_count = c->skel->joints_count,
                                     .joints = c->chain,
                                     .joints_count = 5,
                                     .range = range,
                                     .frequency = 0.9f,
                                     .seed = seed_override ? seed_override : seed,
                                     .time = since,
                                     .iterations = 30,
                                     .weight = *weight,
                                     .pose = c->pose,
                                     .pose_count = c->skel->packets_count};
    r = sw_spine_wander_job_run(&job);
    if (r == SW_RESULT_OK) r = model_of(c);
    *offset = sw_vec3_sub(head_pos(c), fk);
    return r;
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
    const sw_bvh_options opt = {.scale = 0.056444f};
    sw_result r = sw_bvh_read_file(path, &opt, NULL, &bvh, &err);
    if (r != SW_RESULT_OK) {
        fprintf(stderr, "%s: %s (check \"%s\")\n", path, sw_result_str(r), err.check);
        return 1;
    }
    character c = {.skel = bvh.skeleton, .clip = bvh.clip};
    /* Neck sits on Spine1 with a zero offset: it stays off the chain. */
    static const char* const names[5] = {"LowerBack", "Spine", "Spine1", "Neck1", "Head"};
    for (int i = 0; i < 5; ++i) {
        const int32_t j = sw_skeleton_find_joint(c.skel, names[i]);
        if (j < 0) {
            fprintf(stderr, "%s: no joint %s\n", path, names[i]);
            sw_bvh_result_free(&bvh, NULL);
            return 1;
        }
        c.chain[i] = (uint32_t)j;
    }
    c.pose = aligned_alloc(16, sizeof(sw_xform4) * c.skel->packets_count);
    c.fk = aligned_alloc(16, sizeof(sw_xform4) * c.skel->packets_count);
    c.model = aligned_alloc(16, sizeof(sw_mat4) * c.skel->joints_count);
    if (!c.pose || !c.fk || !c.model) return 1;

    const float dt = 1.0f / 60.0f;
    const int frames = (int)((HIT_START + HIT_LENGTH * HITS + 0.5f) / dt);
    int failures = 0;
    uint32_t outside = 0, changed_at_zero = 0, replay_faults = 0;
    float largest = 0.0f;
    static sw_vec3 per_hit[HITS][128]; /* offsets by frame since each hit */
    sw_xform4* first = aligned_alloc(16, sizeof(sw_xform4) * c.skel->packets_count);
    if (!first) return 1;
    if (plot) printf("# t weight dx dy dz dx_seed100 dz_seed100\n");
    for (int f = 0; f < frames && failures == 0; ++f) {
        const float t = (float)f * dt;
        float w;
        sw_vec3 o;
        if (frame(&c, t, 0, &w, &o) != SW_RESULT_OK) {
            failures++;
            break;
        }
        if (fabsf(o.x) > range.x + 1e-3f || fabsf(o.y) > range.y + 1e-3f ||
            fabsf(o.z) > range.z + 1e-3f)
            outside++;
        largest = fmaxf(largest, sw_vec3_length(o));
        if (w == 0.0f && memcmp(c.pose, c.fk, sizeof(sw_xform4) * c.skel->packets_count) != 0)
            changed_at_zero++;
        uint32_t seed = 0;
        float since = 0.0f;
        if (hit_at(t, &seed, &since) > 0.0f) {
            const int k = (int)lroundf(since / dt);
            if (k >= 0 && k < 128) per_hit[seed - 1][k] = o;
        }
        /* replay: the same frame again gives the same bits */
        memcpy(first, c.pose, sizeof(sw_xform4) * c.skel->packets_count);
        float w2;
        sw_vec3 o2;
        if (frame(&c, t, 0, &w2, &o2) != SW_RESULT_OK ||
            memcmp(first, c.pose, sizeof(sw_xform4) * c.skel->packets_count) != 0)
            replay_faults++;
        if (plot) {
            float w3;
            sw_vec3 o3;
            if (frame(&c, t, 100u, &w3, &o3) != SW_RESULT_OK) failures++;
            printf("%.4f %.4f %.5f %.5f %.5f %.5f %.5f\n", (double)t, (double)w, (double)o.x,
                   (double)o.y, (double)o.z, (double)o3.x, (double)o3.z);
        }
    }
    if (!plot) {
        printf("CMU %s: %d frames, 3 hits of %.1f s (seeds 1, 2, 3), range (%.3f, %.3f, %.3f) m\n",
               path, frames, (double)HIT_LENGTH, (double)range.x, (double)range.y, (double)range.z);
        /* the hits compared at the same time since their start */
        float least_apart = INFINITY;
        for (int a = 0; a < HITS; ++a)
            for (int b = a + 1; b < HITS; ++b) {
                float apart = 0.0f;
                for (int k = 0; k < 128; ++k)
                    apart = fmaxf(apart, sw_vec3_length(sw_vec3_sub(per_hit[a][k], per_hit[b][k])));
                least_apart = fminf(least_apart, apart);
            }
        printf(
            "  head moved at most %.4f m from FK; the closest two hits still differ by %.4f m at "
            "one time since the hit\n",
            (double)largest, (double)least_apart);
        const bool differ = least_apart > 0.01f;
        const struct {
            bool ok;
            const char* what;
        } checks[4] = {
            {outside == 0, "head within the range of its FK position (+1 mm)"},
            {changed_at_zero == 0, "weight 0 frames bit-identical to the animation"},
            {replay_faults == 0, "replaying a frame with its seed gives the same bits"},
            {differ && largest > 0.01f, "the three hits wander differently"},
        };
        for (int i = 0; i < 4; ++i) {
            printf("  %-56s %s\n", checks[i].what, checks[i].ok ? "ok" : "FAILED");
            failures += checks[i].ok ? 0 : 1;
        }
        printf("%s\n", failures ? "FAILED" : "all checks passed");
    }
    free(first);
    free(c.pose);
    free(c.fk);
    free(c.model);
    sw_bvh_result_free(&bvh, NULL);
    return failures ? 1 : 0;
}
