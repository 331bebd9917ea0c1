/* Helpers shared by the unit tests (header-only, static functions). */
#ifndef SINEW_TEST_UTIL_H
#define SINEW_TEST_UTIL_H

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "sinew/sinew.h"
#include "sinew/tools/writers/archive_writer.h"

/* |a - b| <= tol, with a message naming both values. */
#define assert_near(a, b, tol)                                                                     \
    do {                                                                                           \
        double a_ = (double)(a), b_ = (double)(b);                                                 \
        if (!(fabs(a_ - b_) <= (double)(tol))) {                                                   \
            fail_msg("%s = %.9g, %s = %.9g, |diff| %.3g > %.3g", #a, a_, #b, b_, fabs(a_ - b_),    \
                     (double)(tol));                                                               \
        }                                                                                          \
    } while (0)

static inline void sw_test_vec3_near(sw_vec3 a, sw_vec3 b, float tol) {
    assert_near(a.x, b.x, tol);
    assert_near(a.y, b.y, tol);
    assert_near(a.z, b.z, tol);
}

/* Rotations equal up to sign: compares a with whichever of b, -b is closer. */
static inline void sw_test_quat_near(sw_quat a, sw_quat b, float tol) {
    if (sw_quat_dot(a, b) < 0.0f) b = sw_quat_negate(b);
    assert_near(a.x, b.x, tol);
    assert_near(a.y, b.y, tol);
    assert_near(a.z, b.z, tol);
    assert_near(a.w, b.w, tol);
}

static inline void sw_test_mat4_near(const sw_mat4* a, const sw_mat4* b, float tol) {
    for (int i = 0; i < 16; ++i)
        assert_near(a->m[i], b->m[i], tol);
}

/* Path of a file under Debian's assimp-testmodels into buf, or NULL (with a
 * message saying the test is skipped) when it is not installed. */
static inline const char* sw_test_model_path(char* buf, size_t cap, const char* rel) {
    snprintf(buf, cap, "%s/%s", SINEW_TEST_MODELS, rel);
    FILE* f = fopen(buf, "rb");
    if (!f) {
        print_message("skipped: %s not found (install Debian's assimp-testmodels)\n", buf);
        return NULL;
    }
    fclose(f);
    return buf;
}

/* Path of a shared asset ($SINEW_ASSETS or ../shared/assets), or NULL with a message. */
static inline const char* sw_test_asset_path(char* buf, size_t cap, const char* name) {
    const char* dir = getenv("SINEW_ASSETS");
    snprintf(buf, cap, "%s/%s", dir && *dir ? dir : SINEW_TEST_ASSETS, name);
    FILE* f = fopen(buf, "rb");
    if (!f) {
        print_message("skipped: shared asset %s not found (set SINEW_ASSETS)\n", buf);
        return NULL;
    }
    fclose(f);
    return buf;
}

/* Reads a whole file into 16-byte aligned malloc'd memory; NULL on failure. */
static inline void* sw_test_read_file(const char* path, size_t* size) {
    FILE* f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    rewind(f);
    if (n < 0) {
        fclose(f);
        return NULL;
    }
    size_t cap = ((size_t)n + 16u) & ~(size_t)15u;
    void* p = aligned_alloc(16, cap);
    if (p && fread(p, 1, (size_t)n, f) != (size_t)n) {
        free(p);
        p = NULL;
    }
    fclose(f);
    *size = (size_t)n;
    return p;
}

/* Wall clock in seconds (C11 timespec_get), for tests that compare two
 * timings as a ratio. */
static inline double sw_test_seconds(void) {
    struct timespec ts;
    timespec_get(&ts, TIME_UTC);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Deterministic pseudo-random numbers for property tests (xorshift32). */
static inline float sw_test_rand(uint32_t* state, float lo, float hi) {
    uint32_t x = *state;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    *state = x;
    return lo + (hi - lo) * (float)(x >> 8) / 16777216.0f;
}

static inline sw_quat sw_test_rand_quat(uint32_t* state) {
    sw_vec3 axis = {sw_test_rand(state, -1, 1), sw_test_rand(state, -1, 1),
                    sw_test_rand(state, -1, 1)};
    return sw_quat_from_axis_angle(axis, sw_test_rand(state, -3.1f, 3.1f));
}

/* Fills `packets` SoA packets with a random local pose for the first
 * `joints` joints (translations in [-2, 2], random rotations, scales in
 * [0.5, 1.5]) and identity in the other lanes. */
static inline void sw_test_random_pose(sw_xform4* pose, uint32_t packets, uint32_t joints,
                                       uint32_t seed) {
    uint32_t rng = seed;
    for (uint32_t j = 0; j < packets * 4u; ++j) {
        sw_xform x = {{0, 0, 0}, {0, 0, 0, 1}, {1, 1, 1}};
        if (j < joints) {
            x.t = sw_vec3_make(sw_test_rand(&rng, -2, 2), sw_test_rand(&rng, -2, 2),
                               sw_test_rand(&rng, -2, 2));
            x.r = sw_test_rand_quat(&rng);
            x.s = sw_vec3_make(sw_test_rand(&rng, 0.5f, 1.5f), sw_test_rand(&rng, 0.5f, 1.5f),
                               sw_test_rand(&rng, 0.5f, 1.5f));
        }
        sw_pose_set(pose, j, x);
    }
}

/* Every lane of two poses of `packets` packets within tol (rotations up to sign). */
static inline void sw_test_pose_near(const sw_xform4* a, const sw_xform4* b, uint32_t packets,
                                     float tol) {
    for (uint32_t j = 0; j < packets * 4u; ++j) {
        const sw_xform x = sw_pose_get(a, j), y = sw_pose_get(b, j);
        sw_test_vec3_near(x.t, y.t, tol);
        sw_test_quat_near(x.r, y.r, tol);
        sw_test_vec3_near(x.s, y.s, tol);
    }
}

/* True when the joint subset keep (NULL: every joint) keeps joint j. */
static inline bool sw_test_kept(const uint8_t* keep, uint32_t j) {
    return !keep || (((unsigned)keep[j / 4u] >> (j % 4u)) & 1u) != 0u;
}

/* Lane j of a and b hold the same bits. */
static inline void sw_test_lane_equal(const sw_xform4* a, const sw_xform4* b, uint32_t j) {
    const sw_xform x = sw_xform4_get(&a[j / 4u], j % 4u);
    const sw_xform y = sw_xform4_get(&b[j / 4u], j % 4u);
    if (memcmp(&x, &y, sizeof x) != 0) {
        fail_msg("joint %u: (%g %g %g | %g %g %g %g) vs (%g %g %g | %g %g %g %g)", j, x.t.x, x.t.y,
                 x.t.z, x.r.x, x.r.y, x.r.z, x.r.w, y.t.x, y.t.y, y.t.z, y.r.x, y.r.y, y.r.z,
                 y.r.w);
    }
}

/* The joints the subset keep keeps (NULL: all) bit for bit as in full,
 * the others as in rest. */
static inline void sw_test_subset_pose(const sw_skeleton* sk, const uint8_t* keep,
                                       const sw_xform4* full, const sw_xform4* rest,
                                       const sw_xform4* got) {
    for (uint32_t j = 0; j < sk->joints_count; ++j)
        sw_test_lane_equal(got, sw_test_kept(keep, j) ? full : rest, j);
}

/* Writes an archive of skeleton s with the clips {c, other}, loads it and
 * checks that c comes back byte for byte and samples, with the loaded
 * skeleton, to the same pose as c at `time`. */
static inline void sw_test_archive_round_trip(const sw_skeleton* s, const sw_clip* c,
                                              const sw_clip* other, float time) {
    const sw_clip* clips[2] = {c, other};
    sw_archive_contents contents;
    memset(&contents, 0, sizeof contents);
    contents.skeletons = &s;
    contents.skeletons_count = 1;
    contents.clips = clips;
    contents.clips_count = 2;
    void* data = NULL;
    size_t size = 0;
    assert_int_equal(sw_archive_write(&contents, NULL, &data, &size, NULL), SW_RESULT_OK);
    sw_archive a;
    assert_int_equal(sw_archive_load(data, size, &a, NULL), SW_RESULT_OK);
    const sw_clip* back = sw_archive_clip(&a, 0);
    assert_int_equal(back->codec, c->codec);
    assert_int_equal(back->size, c->size);
    assert_memory_equal(back, c, c->size);
    const size_t bytes = sizeof(sw_xform4) * s->packets_count;
    sw_xform4* pa = (sw_xform4*)aligned_alloc(16, bytes);
    sw_xform4* pb = (sw_xform4*)aligned_alloc(16, bytes);
    assert_true(pa && pb);
    sw_sample_job ja = {
        .clip = c, .skeleton = s, .time = time, .out = pa, .out_count = s->packets_count};
    sw_sample_job jb = ja;
    jb.clip = back;
    jb.skeleton = sw_archive_skeleton(&a, 0);
    jb.out = pb;
    assert_int_equal(sw_sample_job_run(&ja), SW_RESULT_OK);
    assert_int_equal(sw_sample_job_run(&jb), SW_RESULT_OK);
    assert_memory_equal(pa, pb, bytes);
    free(pa);
    free(pb);
    sw_free(NULL, data, size);
}

/* Detail values to cut joint LOD levels by: each joint's depth in the
 * hierarchy (so every cut keeps a different number of joints), plus `leaf`
 * on the derived small leaf chains (sw_crowd_joint_detail: fingers, toes). */
static inline void sw_test_depth_detail(const sw_skeleton* sk, uint8_t leaf_add, uint8_t* detail) {
    const int16_t* parents = sw_skeleton_parents(sk);
    uint8_t leaf[SW_SKELETON_MAX_JOINTS];
    sw_crowd_joint_detail(sk, 0.0f, leaf, SW_SKELETON_MAX_JOINTS);
    for (uint32_t j = 0; j < sk->joints_count; ++j) {
        uint32_t depth = 0;
        for (int32_t p = parents[j]; p >= 0; p = parents[p])
            ++depth;
        detail[j] = (uint8_t)(depth + (leaf[j] ? leaf_add : 0u));
    }
}

/* Model matrices of `clip` on sk at time t, full evaluation (sampling
 * into pose, packets_count packets, then local-to-model into model). */
static inline void sw_test_model_at(const sw_skeleton* sk, const sw_clip* clip, float t,
                                    sw_xform4* pose, sw_mat4* model) {
    const sw_sample_job sj = {
        .clip = clip, .skeleton = sk, .time = t, .out = pose, .out_count = sk->packets_count};
    assert_int_equal(sw_sample_job_run(&sj), SW_RESULT_OK);
    const sw_local_to_model_job lj = {.skeleton = sk,
                                      .local = pose,
                                      .local_count = sk->packets_count,
                                      .out = model,
                                      .out_count = sk->joints_count};
    assert_int_equal(sw_local_to_model_job_run(&lj), SW_RESULT_OK);
}

#endif
