/* bench_ik: two-bone IK on RobotExpressive's arms (UpperArm -> LowerArm -> Palm2).
 *
 *     bench_ik [FILE.glb] [--runs N] [--calls N]
 *
 * FILE defaults to RobotExpressive.glb in $SINEW_ASSETS, else in the assets
 * folder CMake was given (../shared/assets).
 * For 8 and 1000 characters, each with its own pose (Walking or Running at
 * different times) and model matrices, and per arm its own target (around
 * the hand, some out of reach) and pole. Rows, in ns per solve (one arm):
 * - solve: sw_ik_two_bone_job_solve, the model-space rotations of the start
 *   and mid joints, nothing written (what ozz's IKTwoBoneJob computes);
 * - apply: the two rotations written into the local pose (two
 *   sw_ik_rotate_job runs);
 * - run: sw_ik_two_bone_job_run, solve and write-back in one job;
 * - run + partial local-to-model: then the model matrices of the chain's
 *   sub-tree (from the start joint) recomputed, as a frame does per limb.
 * Every figure is the median and the minimum over N runs (default 51) of
 * the mean time per solve. With --calls N it runs each stage about N times on 8 characters
 * and prints nothing (for callgrind: the jobs' instruction counts). Not a test: it reports, it does
 * not gate. */
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_util.h"
#include "sinew/core/local_to_model.h"
#include "sinew/core/sample.h"
#include "sinew/ik/ik.h"
#include "sinew/tools/readers/gltf.h"

#define MAX_RUNS 101
#define ARMS 2

static float next_rand(uint32_t* rng) {
    *rng ^= *rng << 13;
    *rng ^= *rng >> 17;
    *rng ^= *rng << 5;
    return (float)(*rng >> 8) / 16777216.0f;
}

typedef struct bench {
    const sw_skeleton* skel;
    uint32_t characters;
    uint32_t arm[ARMS][3];
    sw_xform4* poses;               /* characters * packets */
    sw_mat4* model;                 /* characters * joints */
    sw_ik_two_bone_job* jobs;       /* characters * ARMS */
    sw_ik_two_bone_rotations* rots; /* characters * ARMS */
} bench;

static sw_vec3 pos(const sw_mat4* m) {
    return sw_vec3_make(m->m[12], m->m[13], m->m[14]);
}

static void fail(const char* what, sw_result r) {
    fprintf(stderr, "bench_ik: %s: %s\n", what, sw_result_str(r));
    exit(1);
}

static void setup(bench* b, const sw_scene* scene, const sw_clip* clips[2], uint32_t characters) {
    const sw_skeleton* skel = scene->skeleton;
    b->skel = skel;
    b->characters = characters;
    const char* names[ARMS][3] = {{"UpperArmL", "LowerArmL", "Palm2L"},
                                  {"UpperArmR", "LowerArmR", "Palm2R"}};
    for (int a = 0; a < ARMS; ++a) {
        const sw_result r =
            sw_ik_find_two_bone(skel, names[a][0], names[a][1], names[a][2], b->arm[a]);
        if (r != SW_RESULT_OK) fail("arm joints", r);
    }
    const size_t packets = skel->packets_count, joints = skel->joints_count;
    b->poses = aligned_alloc(16, packets * characters * sizeof(sw_xform4));
    b->model = aligned_alloc(16, joints * characters * sizeof(sw_mat4));
    b->jobs = calloc((size_t)characters * ARMS, sizeof(sw_ik_two_bone_job));
    b->rots = calloc((size_t)characters * ARMS, sizeof(sw_ik_two_bone_rotations));
    if (!b->poses || !b->model || !b->jobs || !b->rots) {
        fprintf(stderr, "bench_ik: out of memory\n");
        exit(1);
    }
    uint32_t rng = 0x9E3779B9u;
    for (uint32_t c = 0; c < characters; ++c) {
        const sw_clip* clip = clips[c % 2u];
        sw_xform4* pose = b->poses + c * packets;
        sw_mat4* model = b->model + c * joints;
        const sw_sample_job sj = {.clip = clip,
                                  .skeleton = skel,
                                  .time = next_rand(&rng) * clip->duration,
                                  .out = pose,
                                  .out_count = (uint32_t)packets};
        sw_result r = sw_sample_job_run(&sj);
        if (r != SW_RESULT_OK) fail("sample", r);
        const sw_local_to_model_job lj = {.skeleton = skel,
                                          .local = pose,
                                          .local_count = (uint32_t)packets,
                                          .out = model,
                                          .out_count = (uint32_t)joints};
        r = sw_local_to_model_job_run(&lj);
        if (r != SW_RESULT_OK) fail("local-to-model", r);
        for (int a = 0; a < ARMS; ++a) {
            const sw_vec3 p0 = pos(&model[b->arm[a][0]]), p1 = pos(&model[b->arm[a][1]]),
                          p2 = pos(&model[b->arm[a][2]]);
            const float reach =
                sw_vec3_length(sw_vec3_sub(p1, p0)) + sw_vec3_length(sw_vec3_sub(p2, p1));
            /* Targets from 0.3 to 1.2 of the reach around the start joint. */
            const sw_vec3 dir = sw_vec3_normalize(sw_vec3_make(
                next_rand(&rng) * 2 - 1, next_rand(&rng) * 2 - 1, next_rand(&rng) * 2 - 1));
            const sw_vec3 target =
                sw_vec3_add(p0, sw_vec3_scale(dir, reach * (0.3f + 0.9f * next_rand(&rng))));
            const sw_vec3 pole =
                sw_vec3_make(next_rand(&rng) * 2 - 1, -0.3f, -1.0f + 0.5f * next_rand(&rng));
            b->jobs[c * ARMS + (uint32_t)a] =
                (sw_ik_two_bone_job){.skeleton = skel,
                                     .model = model,
                                     .model_count = (uint32_t)joints,
                                     .start_joint = b->arm[a][0],
                                     .mid_joint = b->arm[a][1],
                                     .end_joint = b->arm[a][2],
                                     .target = target,
                                     .pole_mode = SW_IK_POLE_MODE_DIRECTION,
                                     .pole = pole,
                                     .weight = 1.0f,
                                     .pose = pose,
                                     .pose_count = (uint32_t)packets};
        }
    }
}

static void teardown(bench* b) {
    free(b->poses);
    free(b->model);
    free(b->jobs);
    free(b->rots);
}

typedef enum stage { STAGE_SOLVE, STAGE_APPLY, STAGE_RUN, STAGE_RUN_L2M } stage;

/* Runs one stage on every arm of every character `frames` times; returns ns
 * per solve. The write-back stages turn the same pose again each frame (the
 * model matrices are not recomputed), which costs the same as a fresh pose. */
static double run_stage(bench* b, stage s, int frames) {
    const uint32_t n = b->characters * ARMS;
    const double t0 = bench_thread_ns();
    for (int f = 0; f < frames; ++f) {
        for (uint32_t i = 0; i < n; ++i) {
            const sw_ik_two_bone_job* job = &b->jobs[i];
            sw_result r;
            if (s == STAGE_SOLVE) {
                r = sw_ik_two_bone_job_solve(job, &b->rots[i]);
            } else if (s == STAGE_RUN) {
                r = sw_ik_two_bone_job_run(job);
            } else if (s == STAGE_RUN_L2M) {
                /* What a frame does per limb: solve, write, then the model
                 * matrices of the chain's sub-tree again. */
                r = sw_ik_two_bone_job_run(job);
                const sw_local_to_model_job l2m = {.skeleton = job->skeleton,
                                                   .local = job->pose,
                                                   .local_count = job->pose_count,
                                                   .subtree = true,
                                                   .subtree_root = job->start_joint,
                                                   .out = b->model +
                                                          (size_t)(i / ARMS) * job->model_count,
                                                   .out_count = job->model_count};
                if (r == SW_RESULT_OK) r = sw_local_to_model_job_run(&l2m);
            } else {
                const sw_ik_rotate_job start = {.skeleton = job->skeleton,
                                                .model = job->model,
                                                .model_count = job->model_count,
                                                .joint = job->start_joint,
                                                .rotation = b->rots[i].start,
                                                .weight = 1.0f,
                                                .pose = job->pose,
                                                .pose_count = job->pose_count};
                sw_ik_rotate_job mid = start;
                mid.joint = job->mid_joint;
                mid.rotation = b->rots[i].mid;
                r = sw_ik_rotate_job_run(&start);
                if (r == SW_RESULT_OK) r = sw_ik_rotate_job_run(&mid);
            }
            if (r != SW_RESULT_OK) fail("job", r);
        }
    }
    return (bench_thread_ns() - t0) / ((double)frames * (double)n);
}

typedef struct figure {
    double median, min;
} figure;

/* Short runs (about 2000 solves each) timed in thread CPU time, so that a
 * busy machine disturbs them little. */
static figure measure(bench* b, stage s, int runs) {
    double v[MAX_RUNS];
    int frames = (int)(2000u / (b->characters * ARMS));
    if (frames < 1) frames = 1;
    run_stage(b, s, frames); /* warm up */
    for (int i = 0; i < runs; ++i)
        v[i] = run_stage(b, s, frames);
    const figure f = {bench_median(v, runs), v[0]};
    return f;
}

static const sw_clip* clip_named(const sw_scene* s, const char* name) {
    for (uint32_t i = 0; i < s->clips_count; ++i)
        if (strcmp(sw_clip_name(s->clips[i]), name) == 0) return s->clips[i];
    fprintf(stderr, "bench_ik: no clip %s\n", name);
    exit(1);
}

int main(int argc, char** argv) {
    char default_path[1024];
    const char* dir = getenv("SINEW_ASSETS");
    snprintf(default_path, sizeof default_path, "%s/RobotExpressive.glb",
             dir && *dir ? dir : SINEW_BENCH_ASSETS);
    const char* path = default_path;
    int runs = 51, calls = 0;
    for (int i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--runs") == 0 && i + 1 < argc) {
            runs = atoi(argv[++i]);
        } else if (strcmp(argv[i], "--calls") == 0 && i + 1 < argc) {
            calls = atoi(argv[++i]);
        } else {
            path = argv[i];
        }
    }
    if (runs < 1 || runs > MAX_RUNS) runs = 51;
    sw_scene scene;
    sw_error err = {0};
    const sw_result r = sw_gltf_read_file(path, NULL, NULL, &scene, &err);
    if (r != SW_RESULT_OK) {
        fprintf(stderr, "bench_ik: %s: %s (%s)\n", path, sw_result_str(r),
                err.check ? err.check : "");
        return 1;
    }
    const sw_clip* clips[2] = {clip_named(&scene, "Walking"), clip_named(&scene, "Running")};
    if (calls > 0) {
        bench b;
        setup(&b, &scene, clips, 8);
        const int frames = (calls + 8 * ARMS - 1) / (8 * ARMS);
        run_stage(&b, STAGE_SOLVE, frames);
        run_stage(&b, STAGE_APPLY, frames);
        run_stage(&b, STAGE_RUN, frames);
        teardown(&b);
        sw_scene_free(&scene, NULL);
        return 0;
    }
    printf("bench_ik: %s, %u joints, two-bone IK on both arms, %d runs\n", path,
           scene.skeleton->joints_count, runs);
    const uint32_t counts[2] = {8, 1000};
    for (int k = 0; k < 2; ++k) {
        bench b;
        setup(&b, &scene, clips, counts[k]);
        const figure solve = measure(&b, STAGE_SOLVE, runs);
        const figure apply = measure(&b, STAGE_APPLY, runs);
        const figure run = measure(&b, STAGE_RUN, runs);
        const figure full = measure(&b, STAGE_RUN_L2M, runs);
        printf("%5u characters, ns per solve (median / min): solve %6.1f / %6.1f, apply %6.1f / "
               "%6.1f, run (solve + apply) %6.1f / %6.1f, run + partial local-to-model %6.1f / "
               "%6.1f\n",
               counts[k], solve.median, solve.min, apply.median, apply.min, run.median, run.min,
               full.median, full.min);
        teardown(&b);
    }
    sw_scene_free(&scene, NULL);
    return 0;
}
