/* The synthetic rig and clip pieces test_frames and test_compress share:
 * the key values of their moving tracks, a skeleton from names, parents
 * and rests, and the clip "synthetic" (the tracks given plus a float track
 * "curve", events "start" at 0.25 s and "step" at 1.5 s). Runtime headers
 * only. */
#ifndef SINEW_TEST_CLIP_FIXTURE_H
#define SINEW_TEST_CLIP_FIXTURE_H

#include "test_util.h"

/* Root translation at time t (seconds): (sin t, 0.1 t, cos 2t) into out[3]. */
static inline void clip_fixture_translation(float t, float* out) {
    out[0] = sinf(t);
    out[1] = 0.1f * t;
    out[2] = cosf(2.0f * t);
}

/* Rotation of joint j at time t: a swing about (1, 0.3 j, 0.5), plus a
 * steady turn on joint 0. */
static inline sw_quat clip_fixture_rotation(uint32_t j, float t) {
    sw_vec3 axis = {1.0f, 0.3f * (float)j, 0.5f};
    return sw_quat_from_axis_angle(axis, 1.2f * sinf(t * (1.0f + 0.4f * (float)j)) +
                                             (j == 0 ? 2.0f * t : 0.0f));
}

/* Value of the float track "curve" at time t: t^2. */
static inline float clip_fixture_curve(float t) {
    return t * t;
}

/* A skeleton of count joints (names, parents, rests: count entries each);
 * fails the test on error. Destroy with sw_skeleton_destroy. */
static inline const sw_skeleton* clip_fixture_skeleton(const char* const* names,
                                                       const int32_t* parents,
                                                       const sw_xform* rests, uint32_t count) {
    sw_skeleton_joint joints[16];
    assert_true(count <= 16u);
    for (uint32_t j = 0; j < count; ++j) {
        joints[j].name = names[j];
        joints[j].parent = parents[j];
        joints[j].rest = rests[j];
    }
    sw_skeleton_desc d = {joints, count};
    const sw_skeleton* s = NULL;
    assert_int_equal(sw_skeleton_create(&d, NULL, &s, NULL), SW_RESULT_OK);
    return s;
}

/* A joint track of `keys` keys at `rate` from time 0. */
static inline sw_clip_track_desc clip_fixture_track(sw_track_kind kind, uint32_t joint,
                                                    uint32_t keys, float rate,
                                                    const float* values) {
    return (sw_clip_track_desc){
        .kind = kind, .joint = joint, .keys_count = keys, .rate = rate, .values = values};
}

/* The clip "synthetic" over joints_count joints, lasting (keys - 1) / rate
 * seconds: tracks[0 .. tracks_count) then the float track "curve" (keys
 * values at rate, appended at tracks[tracks_count]: tracks has room for
 * tracks_count + 1), and the events. Fails the test on error; destroy with
 * sw_clip_destroy. */
static inline const sw_clip* clip_fixture_clip(sw_clip_track_desc* tracks, uint32_t tracks_count,
                                               const float* curve, uint32_t keys, float rate,
                                               uint32_t joints_count, bool additive) {
    tracks[tracks_count++] = (sw_clip_track_desc){.kind = SW_TRACK_KIND_FLOAT,
                                                  .name = "curve",
                                                  .keys_count = keys,
                                                  .rate = rate,
                                                  .values = curve};
    const sw_clip_event_desc events[2] = {{1.5f, "step"}, {0.25f, "start"}};
    sw_clip_desc d = {.name = "synthetic",
                      .duration = (float)(keys - 1u) / rate,
                      .joints_count = joints_count,
                      .additive = additive,
                      .tracks = tracks,
                      .tracks_count = tracks_count,
                      .events = events,
                      .events_count = 2};
    const sw_clip* c = NULL;
    assert_int_equal(sw_clip_create(&d, NULL, &c, NULL), SW_RESULT_OK);
    return c;
}

/* Every truncation of clip c's bytes, and every shorter size declared in
 * its header (in steps of 4 from 48), is refused with a named check. */
static inline void clip_fixture_truncations(const sw_clip* c) {
    unsigned char* mem = (unsigned char*)aligned_alloc(16, (c->size + 15u) & ~(size_t)15u);
    assert_non_null(mem);
    for (size_t n = 0; n < c->size; ++n) {
        memcpy(mem, c, c->size);
        const sw_clip* out = NULL;
        sw_error err;
        memset(&err, 0, sizeof err);
        assert_int_not_equal(sw_clip_load(mem, n, &out, &err), SW_RESULT_OK);
        assert_non_null(err.check);
    }
    for (uint32_t n = 48; n + 16u < c->size; n += 4) {
        memcpy(mem, c, c->size);
        ((sw_clip*)(void*)mem)->size = n;
        const sw_clip* out = NULL;
        sw_error err;
        memset(&err, 0, sizeof err);
        assert_int_not_equal(sw_clip_load(mem, c->size, &out, &err), SW_RESULT_OK);
        assert_non_null(err.check);
    }
    free(mem);
}

/* Every byte of clip c (a clip of skel) flipped in turn: refused with a
 * named check, or loads and samples finite poses at 9 times over its
 * duration; prints how many of each and fails the test unless there are
 * both. */
static inline void clip_fixture_flip_bytes(const sw_clip* c, const sw_skeleton* skel) {
    const size_t pose_bytes = skel->packets_count * sizeof(sw_xform4);
    unsigned char* mem = (unsigned char*)aligned_alloc(16, (c->size + 15u) & ~(size_t)15u);
    sw_xform4* pose = (sw_xform4*)aligned_alloc(16, pose_bytes);
    assert_non_null(mem);
    assert_non_null(pose);
    uint32_t rejected = 0, accepted = 0;
    for (size_t i = 0; i < c->size; ++i) {
        memcpy(mem, c, c->size);
        mem[i] ^= 0xA5u;
        const sw_clip* out = NULL;
        sw_error err;
        memset(&err, 0, sizeof err);
        if (sw_clip_load(mem, c->size, &out, &err) != SW_RESULT_OK) {
            assert_non_null(err.check);
            ++rejected;
            continue;
        }
        ++accepted;
        if (out->joints_count != skel->joints_count) continue;
        for (int k = 0; k <= 8; ++k) {
            sw_sample_job job = {
                .clip = out, .skeleton = skel, .out = pose, .out_count = skel->packets_count};
            job.time = isfinite(out->duration) ? out->duration * (float)k / 8.0f : 0.0f;
            assert_int_equal(sw_sample_job_run(&job), SW_RESULT_OK);
            const float* v = (const float*)(const void*)pose;
            for (size_t e = 0; e < pose_bytes / sizeof(float); ++e)
                assert_true(isfinite(v[e]));
        }
    }
    print_message("flipped bytes: %u rejected, %u loaded and sampled\n", rejected, accepted);
    assert_true(rejected > 0 && accepted > 0);
    free(mem);
    free(pose);
}

#endif
