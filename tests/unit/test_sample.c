/* Sampling job: validity table, a naive second sampler, closed forms, cache. */
#include "test_util.h"

#include "runtime/core/internal.h"

/* ---- fixture: a 6-joint skeleton and a clip with every kind of track ---- */

#define JOINTS 6
#define PACKETS 2
#define DURATION 2.0f

static const float k_times_a[4] = {0.0f, 0.3f, 1.1f, 1.9f};
static const float k_times_b[5] = {0.2f, 0.5f, 0.55f, 1.4f, 2.0f};
#define LONG_KEYS 200
static float g_long_times[LONG_KEYS];
static float g_long_values[LONG_KEYS];

static float g_t0_lin[4 * 3];     /* joint 0 T explicit linear (times a) */
static float g_r0_lin[4 * 4];     /* joint 0 R explicit linear (times a), one sign flipped */
static float g_s0_step[5 * 3];    /* joint 0 S explicit step (times b) */
static float g_t1_cub[7 * 3 * 3]; /* joint 1 T uniform cubic */
static float g_r1_cub[7 * 3 * 4]; /* joint 1 R uniform cubic */
static float g_r2_cub[4 * 3 * 4]; /* joint 2 R explicit cubic (times a) */
static float g_s2_lin[6 * 3];     /* joint 2 S uniform linear */
static float g_t3_step[6 * 3];    /* joint 3 T uniform step */
static float g_r3_step[5 * 4];    /* joint 3 R explicit step (times b) */
static float g_r5_one[4];         /* joint 5 R, a single key */
static float g_f_lin[5];          /* float explicit linear (times b) */
static float g_f_cub[7 * 3];      /* float uniform cubic */
static float g_f_step[4];         /* float explicit step (times a) */

static sw_clip_track_desc g_tracks[16];
static uint32_t g_tracks_count;

static void put_quat(float* dst, sw_quat q) {
    dst[0] = q.x;
    dst[1] = q.y;
    dst[2] = q.z;
    dst[3] = q.w;
}

static void fill_values(void) {
    uint32_t rng = 0x1234567u;
    for (int i = 0; i < 12; ++i)
        g_t0_lin[i] = sw_test_rand(&rng, -2.0f, 2.0f);
    for (int k = 0; k < 4; ++k) {
        sw_quat q = sw_test_rand_quat(&rng);
        put_quat(&g_r0_lin[k * 4], k == 2 ? sw_quat_negate(q) : q);
    }
    for (int i = 0; i < 15; ++i)
        g_s0_step[i] = sw_test_rand(&rng, 0.5f, 1.5f);
    /* Cubic: per key in-tangent, value, out-tangent. */
    for (int i = 0; i < 7 * 9; ++i)
        g_t1_cub[i] = sw_test_rand(&rng, -1.0f, 1.0f);
    sw_vec3 axis = {0.3f, 1.0f, -0.2f};
    for (int k = 0; k < 7; ++k) {
        for (int i = 0; i < 4; ++i)
            g_r1_cub[k * 12 + i] = sw_test_rand(&rng, -0.5f, 0.5f);
        put_quat(&g_r1_cub[k * 12 + 4], sw_quat_from_axis_angle(axis, 0.2f + 0.4f * (float)k));
        for (int i = 0; i < 4; ++i)
            g_r1_cub[k * 12 + 8 + i] = sw_test_rand(&rng, -0.5f, 0.5f);
    }
    sw_vec3 axis2 = {-1.0f, 0.2f, 0.5f};
    for (int k = 0; k < 4; ++k) {
        for (int i = 0; i < 4; ++i)
            g_r2_cub[k * 12 + i] = sw_test_rand(&rng, -0.3f, 0.3f);
        put_quat(&g_r2_cub[k * 12 + 4], sw_quat_from_axis_angle(axis2, -0.5f + 0.5f * (float)k));
        for (int i = 0; i < 4; ++i)
            g_r2_cub[k * 12 + 8 + i] = sw_test_rand(&rng, -0.3f, 0.3f);
    }
    for (int i = 0; i < 18; ++i)
        g_s2_lin[i] = sw_test_rand(&rng, 0.5f, 2.0f);
    for (int i = 0; i < 18; ++i)
        g_t3_step[i] = sw_test_rand(&rng, -3.0f, 3.0f);
    for (int k = 0; k < 5; ++k)
        put_quat(&g_r3_step[k * 4], sw_test_rand_quat(&rng));
    put_quat(g_r5_one, sw_test_rand_quat(&rng));
    for (int i = 0; i < 5; ++i)
        g_f_lin[i] = sw_test_rand(&rng, -10.0f, 10.0f);
    for (int i = 0; i < 21; ++i)
        g_f_cub[i] = sw_test_rand(&rng, -1.0f, 1.0f);
    for (int i = 0; i < 4; ++i)
        g_f_step[i] = sw_test_rand(&rng, 0.0f, 1.0f);
    /* A long explicit track with uneven spacing, for cursor walks and jumps. */
    float t = 0.0f;
    for (int k = 0; k < LONG_KEYS; ++k) {
        t += sw_test_rand(&rng, 0.002f, 0.016f);
        g_long_times[k] = t;
        g_long_values[k] = sw_test_rand(&rng, -1.0f, 1.0f);
    }
}

static void build_tracks(void) {
    fill_values();
    uint32_t n = 0;
    g_tracks[n++] = (sw_clip_track_desc){.kind = SW_TRACK_KIND_TRANSLATION,
                                         .joint = 0,
                                         .interp = SW_INTERP_DEFAULT,
                                         .keys_count = 4,
                                         .times = k_times_a,
                                         .values = g_t0_lin};
    g_tracks[n++] = (sw_clip_track_desc){.kind = SW_TRACK_KIND_ROTATION,
                                         .joint = 0,
                                         .interp = SW_INTERP_LINEAR,
                                         .keys_count = 4,
                                         .times = k_times_a,
                                         .values = g_r0_lin};
    g_tracks[n++] = (sw_clip_track_desc){.kind = SW_TRACK_KIND_SCALE,
                                         .joint = 0,
                                         .interp = SW_INTERP_STEP,
                                         .keys_count = 5,
                                         .times = k_times_b,
                                         .values = g_s0_step};
    g_tracks[n++] = (sw_clip_track_desc){.kind = SW_TRACK_KIND_TRANSLATION,
                                         .joint = 1,
                                         .interp = SW_INTERP_CUBIC,
                                         .keys_count = 7,
                                         .start = 0.1f,
                                         .rate = 4.0f,
                                         .values = g_t1_cub};
    g_tracks[n++] = (sw_clip_track_desc){.kind = SW_TRACK_KIND_ROTATION,
                                         .joint = 1,
                                         .interp = SW_INTERP_CUBIC,
                                         .keys_count = 7,
                                         .start = 0.1f,
                                         .rate = 4.0f,
                                         .values = g_r1_cub};
    g_tracks[n++] = (sw_clip_track_desc){.kind = SW_TRACK_KIND_ROTATION,
                                         .joint = 2,
                                         .interp = SW_INTERP_CUBIC,
                                         .keys_count = 4,
                                         .times = k_times_a,
                                         .values = g_r2_cub};
    g_tracks[n++] = (sw_clip_track_desc){.kind = SW_TRACK_KIND_SCALE,
                                         .joint = 2,
                                         .interp = SW_INTERP_LINEAR,
                                         .keys_count = 6,
                                         .start = 0.0f,
                                         .rate = 3.0f,
                                         .values = g_s2_lin};
    g_tracks[n++] = (sw_clip_track_desc){.kind = SW_TRACK_KIND_TRANSLATION,
                                         .joint = 3,
                                         .interp = SW_INTERP_STEP,
                                         .keys_count = 6,
                                         .start = 0.25f,
                                         .rate = 3.0f,
                                         .values = g_t3_step};
    g_tracks[n++] = (sw_clip_track_desc){.kind = SW_TRACK_KIND_ROTATION,
                                         .joint = 3,
                                         .interp = SW_INTERP_STEP,
                                         .keys_count = 5,
                                         .times = k_times_b,
                                         .values = g_r3_step};
    g_tracks[n++] = (sw_clip_track_desc){.kind = SW_TRACK_KIND_ROTATION,
                                         .joint = 5,
                                         .keys_count = 1,
                                         .start = 0.7f,
                                         .rate = 0.0f,
                                         .values = g_r5_one};
    g_tracks[n++] = (sw_clip_track_desc){.kind = SW_TRACK_KIND_FLOAT,
                                         .name = "f_lin",
                                         .interp = SW_INTERP_LINEAR,
                                         .keys_count = 5,
                                         .times = k_times_b,
                                         .values = g_f_lin};
    g_tracks[n++] = (sw_clip_track_desc){.kind = SW_TRACK_KIND_FLOAT,
                                         .name = "f_cub",
                                         .interp = SW_INTERP_CUBIC,
                                         .keys_count = 7,
                                         .start = 0.3f,
                                         .rate = 5.0f,
                                         .values = g_f_cub};
    g_tracks[n++] = (sw_clip_track_desc){.kind = SW_TRACK_KIND_FLOAT,
                                         .name = "f_step",
                                         .interp = SW_INTERP_STEP,
                                         .keys_count = 4,
                                         .times = k_times_a,
                                         .values = g_f_step};
    g_tracks[n++] = (sw_clip_track_desc){.kind = SW_TRACK_KIND_FLOAT,
                                         .name = "f_long",
                                         .interp = SW_INTERP_LINEAR,
                                         .keys_count = LONG_KEYS,
                                         .times = g_long_times,
                                         .values = g_long_values};
    g_tracks_count = n;
}

static const sw_skeleton* make_skeleton(uint32_t joints, uint32_t seed) {
    static const int32_t parents[8] = {-1, 0, 1, 1, 3, 0, 5, 6};
    static const char* names[8] = {"root", "spine", "neck", "arm", "hand", "leg", "foot", "toe"};
    sw_skeleton_joint js[8];
    uint32_t rng = seed;
    for (uint32_t j = 0; j < joints; ++j) {
        js[j].name = names[j];
        js[j].parent = parents[j];
        js[j].rest.t = sw_vec3_make(sw_test_rand(&rng, -1, 1), sw_test_rand(&rng, -1, 1),
                                    sw_test_rand(&rng, -1, 1));
        js[j].rest.r = sw_test_rand_quat(&rng);
        js[j].rest.s = sw_vec3_make(sw_test_rand(&rng, 0.5f, 1.5f), sw_test_rand(&rng, 0.5f, 1.5f),
                                    sw_test_rand(&rng, 0.5f, 1.5f));
    }
    const sw_skeleton_desc desc = {.joints = js, .joints_count = joints};
    const sw_skeleton* s = NULL;
    sw_error err = {0};
    sw_result r = sw_skeleton_create(&desc, NULL, &s, &err);
    if (r != SW_RESULT_OK)
        fail_msg("skeleton: %s (%s)", sw_result_str(r), err.check ? err.check : "");
    return s;
}

static const sw_clip* make_clip(const sw_clip_track_desc* tracks, uint32_t count, bool additive) {
    const sw_clip_desc desc = {.name = "test",
                               .duration = DURATION,
                               .joints_count = JOINTS,
                               .additive = additive,
                               .tracks = tracks,
                               .tracks_count = count};
    const sw_clip* c = NULL;
    sw_error err = {0};
    sw_result r = sw_clip_create(&desc, NULL, &c, &err);
    if (r != SW_RESULT_OK)
        fail_msg("clip: %s (%s, index %lld)", sw_result_str(r), err.check ? err.check : "",
                 (long long)err.index);
    return c;
}

/* ---- naive sampler: linear search over key times, double precision ---- */

static uint32_t comps_of(sw_track_kind k) {
    return k == SW_TRACK_KIND_ROTATION ? 4u : k == SW_TRACK_KIND_FLOAT ? 1u : 3u;
}

static float naive_key_time(const sw_clip_track_desc* d, uint32_t k) {
    /* Uniform keys are at start + k / rate, as float arithmetic (a single
     * key may come with rate 0). */
    if (d->times) return d->times[k];
    return k == 0 ? d->start : d->start + (float)k / d->rate;
}

static void naive_value(const sw_clip_track_desc* d, uint32_t k, double* out) {
    const uint32_t c = comps_of(d->kind);
    const bool cubic = d->interp == SW_INTERP_CUBIC;
    const float* v = d->values + (cubic ? (3u * k + 1u) * c : k * c);
    for (uint32_t i = 0; i < c; ++i)
        out[i] = v[i];
}

static void naive_sample_track(const sw_clip_track_desc* d, float time, double* out) {
    const uint32_t c = comps_of(d->kind);
    const uint32_t n = d->keys_count;
    float t = time < 0.0f ? 0.0f : time > DURATION ? DURATION : time;
    if (n == 1 || t <= naive_key_time(d, 0)) {
        naive_value(d, 0, out);
    } else if (t >= naive_key_time(d, n - 1)) {
        naive_value(d, n - 1, out);
    } else {
        uint32_t k = 0;
        while (naive_key_time(d, k + 1) <= t)
            ++k;
        const double t0 = naive_key_time(d, k), t1 = naive_key_time(d, k + 1);
        const double u = ((double)t - t0) / (t1 - t0);
        double a[4], b[4];
        naive_value(d, k, a);
        naive_value(d, k + 1, b);
        if (d->interp == SW_INTERP_STEP) {
            for (uint32_t i = 0; i < c; ++i)
                out[i] = a[i];
        } else if (d->interp != SW_INTERP_CUBIC) {
            if (d->kind == SW_TRACK_KIND_ROTATION) {
                double dot = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
                if (dot < 0.0) {
                    for (int i = 0; i < 4; ++i)
                        b[i] = -b[i];
                    dot = -dot;
                }
                if (dot > 1.0) dot = 1.0;
                const double th = acos(dot);
                double wa = 1.0 - u, wb = u;
                if (sin(th) > 1e-6) {
                    wa = sin((1.0 - u) * th) / sin(th);
                    wb = sin(u * th) / sin(th);
                }
                for (int i = 0; i < 4; ++i)
                    out[i] = wa * a[i] + wb * b[i];
            } else {
                for (uint32_t i = 0; i < c; ++i)
                    out[i] = (1.0 - u) * a[i] + u * b[i];
            }
        } else {
            /* p = (2u^3 - 3u^2 + 1) v0 + (u^3 - 2u^2 + u) td m0 + (-2u^3 + 3u^2) v1
             *   + (u^3 - u^2) td m1, m0 = out-tangent of key k, m1 = in-tangent of k+1. */
            const double td = t1 - t0;
            const float* m0 = d->values + (3u * k + 2u) * c;
            const float* m1 = d->values + (3u * (k + 1u)) * c;
            for (uint32_t i = 0; i < c; ++i)
                out[i] = (2 * u * u * u - 3 * u * u + 1) * a[i] +
                         (u * u * u - 2 * u * u + u) * td * m0[i] +
                         (-2 * u * u * u + 3 * u * u) * b[i] + (u * u * u - u * u) * td * m1[i];
        }
    }
    if (d->kind == SW_TRACK_KIND_ROTATION) {
        const double l =
            sqrt(out[0] * out[0] + out[1] * out[1] + out[2] * out[2] + out[3] * out[3]);
        for (int i = 0; i < 4; ++i)
            out[i] /= l;
    }
}

static bool is_identity(sw_xform x) {
    return x.t.x == 0.0f && x.t.y == 0.0f && x.t.z == 0.0f && x.r.x == 0.0f && x.r.y == 0.0f &&
           x.r.z == 0.0f && x.r.w == 1.0f && x.s.x == 1.0f && x.s.y == 1.0f && x.s.z == 1.0f;
}

/* Compares a sampled pose and floats with the naive sampler at `time`.
 * Tolerance: 2e-5 absolute on values of magnitude <= 10 (float vs double). */
static void check_against_naive(const sw_skeleton* skel, const sw_clip_track_desc* tracks,
                                uint32_t count, bool additive, const sw_xform4* pose,
                                const float* floats, float time) {
    const sw_xform4* rest = sw_skeleton_rest_pose(skel);
    for (uint32_t j = 0; j < JOINTS; ++j) {
        sw_xform expect =
            additive ? (sw_xform){{0, 0, 0}, {0, 0, 0, 1}, {1, 1, 1}} : sw_pose_get(rest, j);
        for (uint32_t i = 0; i < count; ++i) {
            const sw_clip_track_desc* d = &tracks[i];
            if (d->kind == SW_TRACK_KIND_FLOAT || d->joint != j) continue;
            double v[4];
            naive_sample_track(d, time, v);
            if (d->kind == SW_TRACK_KIND_TRANSLATION)
                expect.t = sw_vec3_make((float)v[0], (float)v[1], (float)v[2]);
            else if (d->kind == SW_TRACK_KIND_ROTATION)
                expect.r = sw_quat_make((float)v[0], (float)v[1], (float)v[2], (float)v[3]);
            else
                expect.s = sw_vec3_make((float)v[0], (float)v[1], (float)v[2]);
        }
        const sw_xform got = sw_pose_get(pose, j);
        sw_test_vec3_near(got.t, expect.t, 2e-5f);
        sw_test_quat_near(got.r, expect.r, 2e-5f);
        sw_test_vec3_near(got.s, expect.s, 2e-5f);
    }
    for (uint32_t j = JOINTS; j < PACKETS * 4; ++j)
        assert_true(is_identity(sw_pose_get(pose, j)));
    if (floats) {
        uint32_t f = 0;
        for (uint32_t i = 0; i < count; ++i) {
            if (tracks[i].kind != SW_TRACK_KIND_FLOAT) continue;
            double v;
            naive_sample_track(&tracks[i], time, &v);
            assert_near(floats[f], v, 2e-5);
            ++f;
        }
    }
}

static void sample(const sw_clip* clip, const sw_skeleton* skel, float time, sw_sample_cache* cache,
                   sw_xform4* out, float* floats) {
    const sw_sample_job job = {.clip = clip,
                               .skeleton = skel,
                               .time = time,
                               .cache = cache,
                               .out = out,
                               .out_count = PACKETS,
                               .floats = floats,
                               .floats_count = floats ? clip->float_tracks_count : 0};
    const sw_result v = sw_sample_job_validate(&job);
    if (v != SW_RESULT_OK) fail_msg("sample at t = %.9g: %s", (double)time, sw_result_str(v));
    assert_int_equal(sw_sample_job_run(&job), SW_RESULT_OK);
}

/* Times to test: exact key times of every track, midpoints, before, after, random. */
static uint32_t collect_times(const sw_clip_track_desc* tracks, uint32_t count, float* times,
                              uint32_t cap) {
    uint32_t n = 0;
    const float fixed[] = {-1.0f, 0.0f, 1e-7f, 0.05f, 1.0f, DURATION, DURATION + 0.5f, 1e9f};
    for (size_t i = 0; i < sizeof(fixed) / sizeof(fixed[0]) && n < cap; ++i)
        times[n++] = fixed[i];
    for (uint32_t i = 0; i < count; ++i) {
        const uint32_t keys = tracks[i].keys_count < 12 ? tracks[i].keys_count : 12;
        for (uint32_t k = 0; k < keys && n + 2 < cap; ++k) {
            const float tk = naive_key_time(&tracks[i], k);
            times[n++] = tk;
            times[n++] = nextafterf(tk, -1.0f);
        }
    }
    uint32_t rng = 99u;
    while (n < cap)
        times[n++] = sw_test_rand(&rng, -0.2f, DURATION + 0.2f);
    return n;
}

static void test_against_naive(void** state) {
    (void)state;
    build_tracks();
    const sw_skeleton* skel = make_skeleton(JOINTS, 7u);
    const sw_clip* clip = make_clip(g_tracks, g_tracks_count, false);
    assert_int_equal(clip->float_tracks_count, 4);
    float times[400];
    const uint32_t n = collect_times(g_tracks, g_tracks_count, times, 400);
    SINEW_ALIGN16 sw_xform4 pose[PACKETS];
    float floats[4];
    for (uint32_t i = 0; i < n; ++i) {
        sample(clip, skel, times[i], NULL, pose, floats);
        check_against_naive(skel, g_tracks, g_tracks_count, false, pose, floats, times[i]);
    }
    sw_clip_destroy(clip, NULL);
    sw_skeleton_destroy(skel, NULL);
}

/* Cold seeks on explicit key times start from the evenly spaced guess:
 * evenly spaced times (as glTF exporters write them, with float jitter) and
 * clustered ones (the guess far off, both directions) agree with the naive
 * sampler at every key, between keys and at random times. */
static void test_explicit_guess_against_naive(void** state) {
    (void)state;
    enum { N = 97 };
    static float even[N], clustered[N], values[N * 3];
    uint32_t rng = 31u;
    for (uint32_t k = 0; k < N; ++k) {
        even[k] = (float)k / 48.0f; /* up to DURATION, the naive sampler's clamp */
        const float u = (float)k / (float)(N - 1);
        clustered[k] = DURATION * (k < N / 2 ? 0.1f * u : u * u * u); /* dense, then sparse */
        for (int c = 0; c < 3; ++c)
            values[3 * k + (uint32_t)c] = sw_test_rand(&rng, -1.0f, 1.0f);
    }
    for (uint32_t k = 1; k < N; ++k)
        if (!(clustered[k] > clustered[k - 1])) clustered[k] = clustered[k - 1] + 1e-4f;
    const float* sets[2] = {even, clustered};
    for (int s = 0; s < 2; ++s) {
        const sw_clip_track_desc track = {.kind = SW_TRACK_KIND_TRANSLATION,
                                          .joint = 1,
                                          .keys_count = N,
                                          .times = sets[s],
                                          .values = values};
        const sw_skeleton* skel = make_skeleton(JOINTS, 11u);
        const sw_clip_desc d = {
            .duration = DURATION, .joints_count = JOINTS, .tracks = &track, .tracks_count = 1};
        const sw_clip* clip = NULL;
        assert_int_equal(sw_clip_create(&d, NULL, &clip, NULL), SW_RESULT_OK);
        SINEW_ALIGN16 sw_xform4 pose[PACKETS];
        for (uint32_t i = 0; i < 3u * N + 200u; ++i) {
            float t;
            if (i < N)
                t = sets[s][i];
            else if (i < 2u * N - 1u)
                t = 0.5f * (sets[s][i - N] + sets[s][i - N + 1u]);
            else
                t = sw_test_rand(&rng, -0.2f, d.duration + 0.2f);
            sample(clip, skel, t, NULL, pose, NULL);
            check_against_naive(skel, &track, 1, false, pose, NULL, t);
        }
        sw_clip_destroy(clip, NULL);
        sw_skeleton_destroy(skel, NULL);
    }
}

/* Additive clips: untracked joints (and components) are identity, not rest. */
static void test_additive_clip_untracked_identity(void** state) {
    (void)state;
    build_tracks();
    const sw_skeleton* skel = make_skeleton(JOINTS, 8u);
    const sw_clip* clip = make_clip(g_tracks, g_tracks_count, true);
    assert_true(clip->flags & SW_CLIP_FLAG_ADDITIVE);
    SINEW_ALIGN16 sw_xform4 pose[PACKETS];
    for (float t = 0.0f; t <= DURATION; t += 0.13f) {
        sample(clip, skel, t, NULL, pose, NULL);
        check_against_naive(skel, g_tracks, g_tracks_count, true, pose, NULL, t);
        assert_true(is_identity(sw_pose_get(pose, 4)));
    }
    sw_clip_destroy(clip, NULL);
    sw_skeleton_destroy(skel, NULL);
}

/* Untracked joints and components of a normal clip hold the rest pose exactly. */
static void test_untracked_holds_rest(void** state) {
    (void)state;
    build_tracks();
    const sw_skeleton* skel = make_skeleton(JOINTS, 9u);
    const sw_clip* clip = make_clip(g_tracks, g_tracks_count, false);
    const sw_xform4* rest = sw_skeleton_rest_pose(skel);
    SINEW_ALIGN16 sw_xform4 pose[PACKETS];
    sample(clip, skel, 0.77f, NULL, pose, NULL);
    const sw_xform r4 = sw_pose_get(rest, 4), g4 = sw_pose_get(pose, 4);
    assert_memory_equal(&r4, &g4, sizeof(sw_xform));
    /* Joint 1 has T and R tracks only: scale is the rest scale. */
    assert_true(sw_pose_get(pose, 1).s.x == sw_pose_get(rest, 1).s.x);
    assert_true(sw_pose_get(pose, 1).s.z == sw_pose_get(rest, 1).s.z);
    /* Joint 5 has only a one-key rotation: translation from rest, rotation the key. */
    assert_true(sw_pose_get(pose, 5).t.y == sw_pose_get(rest, 5).t.y);
    sw_test_quat_near(sw_pose_get(pose, 5).r,
                      sw_quat_make(g_r5_one[0], g_r5_one[1], g_r5_one[2], g_r5_one[3]), 1e-6f);
    sw_clip_destroy(clip, NULL);
    sw_skeleton_destroy(skel, NULL);
}

/* Closed forms: Hermite basis at known points, slerp halfway, step holds. */
static void test_closed_forms(void** state) {
    (void)state;
    /* Translation x: keys at 0 and 2 with values 0 and 1, out-tangent of key 0
     * = 1, in-tangent of key 1 = 0. With td = 2:
     * p(s) = 3s^2 - 2s^3 + 2 (s^3 - 2s^2 + s). */
    static const float cub_times[2] = {0.0f, 2.0f};
    static const float cub_vals[2 * 9] = {
        9, 9, 9, 0, 5, 0, 1, 0, 0, /* key 0: in (ignored), value, out */
        0, 0, 0, 1, 5, 0, 7, 7, 7, /* key 1: in, value, out (ignored) */
    };
    static const float lin_times[2] = {0.0f, 1.0f};
    float rot_vals[8];
    put_quat(&rot_vals[0], sw_quat_identity());
    put_quat(&rot_vals[4], sw_quat_make(0.0f, sinf(0.785398163f), 0.0f, cosf(0.785398163f)));
    static const float step_vals[3] = {1.0f, 2.0f, 3.0f};
    static const float fcub[2 * 3] = {0, 1, 0, 0, 3, 0}; /* float: 1 -> 3, zero tangents */
    const sw_clip_track_desc tracks[4] = {
        {.kind = SW_TRACK_KIND_TRANSLATION,
         .joint = 0,
         .interp = SW_INTERP_CUBIC,
         .keys_count = 2,
         .times = cub_times,
         .values = cub_vals},
        {.kind = SW_TRACK_KIND_ROTATION,
         .joint = 0,
         .interp = SW_INTERP_LINEAR,
         .keys_count = 2,
         .times = lin_times,
         .values = rot_vals},
        {.kind = SW_TRACK_KIND_FLOAT,
         .name = "w",
         .interp = SW_INTERP_STEP,
         .keys_count = 3,
         .start = 0.5f,
         .rate = 2.0f,
         .values = step_vals},
        {.kind = SW_TRACK_KIND_FLOAT,
         .name = "c",
         .interp = SW_INTERP_CUBIC,
         .keys_count = 2,
         .times = cub_times,
         .values = fcub},
    };
    const sw_skeleton* skel = make_skeleton(JOINTS, 3u);
    const sw_clip* clip = make_clip(tracks, 4, false);
    SINEW_ALIGN16 sw_xform4 pose[PACKETS];
    float floats[2];
    const float ss[] = {0.0f, 0.25f, 0.5f, 0.75f, 1.0f};
    for (size_t i = 0; i < 5; ++i) {
        const double s = ss[i];
        sample(clip, skel, (float)(2.0 * s), NULL, pose, floats);
        const double expect = 3 * s * s - 2 * s * s * s + 2 * (s * s * s - 2 * s * s + s);
        assert_near(pose[0].tx[0], expect, 1e-6);
        assert_near(pose[0].ty[0], 5.0, 1e-6);
        assert_near(floats[1], 1.0 + 2.0 * (3 * s * s - 2 * s * s * s), 1e-6);
    }
    /* Rotation: identity -> 90 degrees about Y, at t = 0.5 is 45 degrees about Y. */
    sample(clip, skel, 0.5f, NULL, pose, floats);
    sw_test_quat_near(sw_pose_get(pose, 0).r,
                      sw_quat_make(0.0f, (float)sin(3.14159265358979 / 8), 0.0f,
                                   (float)cos(3.14159265358979 / 8)),
                      1e-6f);
    /* Keys of the step track: before 0.5 -> 1 (first), [0.5, 1) -> 1, [1, 1.5) -> 2, >= 1.5 -> 3.
     */
    const float st2[] = {0.0f, 0.49f, 0.5f, 0.99f, 1.0f, 1.2f, 1.5f, 2.0f};
    const float sv2[] = {1, 1, 1, 1, 2, 2, 3, 3};
    for (size_t i = 0; i < 8; ++i) {
        sample(clip, skel, st2[i], NULL, pose, floats);
        assert_true(floats[0] == sv2[i]);
    }
    sw_clip_destroy(clip, NULL);
    sw_skeleton_destroy(skel, NULL);
}

/* Time is clamped: before 0 equals 0, after the end equals the end, bit for bit. */
static void test_time_clamped(void** state) {
    (void)state;
    build_tracks();
    const sw_skeleton* skel = make_skeleton(JOINTS, 4u);
    const sw_clip* clip = make_clip(g_tracks, g_tracks_count, false);
    SINEW_ALIGN16 sw_xform4 a[PACKETS], b[PACKETS];
    float fa[4], fb[4];
    const float pairs[][2] = {{-1.0f, 0.0f},
                              {-INFINITY, 0.0f},
                              {DURATION + 3.0f, DURATION},
                              {INFINITY, DURATION},
                              {-0.0f, 0.0f}};
    for (size_t i = 0; i < 5; ++i) {
        sample(clip, skel, pairs[i][0], NULL, a, fa);
        sample(clip, skel, pairs[i][1], NULL, b, fb);
        assert_memory_equal(a, b, sizeof(a));
        assert_memory_equal(fa, fb, sizeof(fa));
    }
    /* The cache records the clamped time. */
    uint32_t cursors[32];
    sw_sample_cache cache;
    sw_sample_cache_init(&cache, cursors, 32);
    sample(clip, skel, DURATION + 3.0f, &cache, a, fa);
    assert_true(cache.time == DURATION);
    sample(clip, skel, -2.0f, &cache, a, fa);
    assert_true(cache.time == 0.0f);
    sw_clip_destroy(clip, NULL);
    sw_skeleton_destroy(skel, NULL);
}

/* Uniform step tracks at common frame rates: exactly at the time of key k
 * (start + k / rate, as stored) the value is key k's, just before it key k-1's,
 * even where (t - start) * rate rounds below k. */
static void test_uniform_exact_key_times(void** state) {
    (void)state;
    static float vals[61];
    for (int k = 0; k < 61; ++k)
        vals[k] = (float)k;
    const sw_skeleton* skel = make_skeleton(JOINTS, 6u);
    const float rates[] = {30.0f, 24.0f, 60.0f, 29.97f, 7.0f};
    const float starts[] = {0.0f, 0.1f, 0.013f, 0.0f, 0.3f};
    for (size_t i = 0; i < 5; ++i) {
        const uint32_t n = (uint32_t)((DURATION - starts[i]) * rates[i]) < 61u
                               ? (uint32_t)((DURATION - starts[i]) * rates[i])
                               : 61u;
        const sw_clip_track_desc tr = {.kind = SW_TRACK_KIND_FLOAT,
                                       .name = "k",
                                       .interp = SW_INTERP_STEP,
                                       .keys_count = n,
                                       .start = starts[i],
                                       .rate = rates[i],
                                       .values = vals};
        const sw_clip* clip = make_clip(&tr, 1, false);
        const sw_clip_track* st = &sw_clip_tracks(clip)[0];
        SINEW_ALIGN16 sw_xform4 pose[PACKETS];
        float f;
        for (uint32_t k = 0; k < n; ++k) {
            const float tk = sw_clip_track_key_time(clip, st, k);
            sample(clip, skel, tk, NULL, pose, &f);
            if (f != (float)k) fail_msg("rate %g key %u: got %g", (double)rates[i], k, (double)f);
            if (k > 0) {
                sample(clip, skel, nextafterf(tk, 0.0f), NULL, pose, &f);
                assert_true(f == (float)(k - 1));
            }
        }
        sw_clip_destroy(clip, NULL);
    }
    sw_skeleton_destroy(skel, NULL);
}

/* ---- cache ---- */

static void expect_same_as_cold(const sw_clip* clip, const sw_skeleton* skel, float t,
                                sw_sample_cache* cache) {
    SINEW_ALIGN16 sw_xform4 warm[PACKETS], cold[PACKETS];
    float fw[4] = {0}, fc[4] = {0};
    memset(warm, 0xCD, sizeof(warm));
    memset(cold, 0xEF, sizeof(cold));
    sample(clip, skel, t, cache, warm, clip->float_tracks_count ? fw : NULL);
    sample(clip, skel, t, NULL, cold, clip->float_tracks_count ? fc : NULL);
    if (memcmp(warm, cold, sizeof(warm)) != 0 || memcmp(fw, fc, sizeof(fw)) != 0)
        fail_msg("cached sample differs from a cold seek at t = %.9g", (double)t);
}

static void test_cache_matches_cold_seek(void** state) {
    (void)state;
    build_tracks();
    const sw_skeleton* skel = make_skeleton(JOINTS, 11u);
    const sw_clip* clip = make_clip(g_tracks, g_tracks_count, false);
    /* A second clip (fewer tracks, additive) sharing the same cache. */
    const sw_clip* other = make_clip(&g_tracks[3], 5, true);
    uint32_t cursors[32];
    sw_sample_cache cache;
    sw_sample_cache_init(&cache, cursors, 32);
    uint32_t rng = 2024u;
    float t = 0.0f;
    for (int step = 0; step < 3000; ++step) {
        const float r = sw_test_rand(&rng, 0.0f, 1.0f);
        if (r < 0.01f) {
            t = sw_test_rand(&rng, 0.0f, DURATION); /* jump, often backwards */
        } else if (r < 0.02f) {
            expect_same_as_cold(other, skel, sw_test_rand(&rng, 0.0f, DURATION), &cache);
        } else if (r < 0.04f) {
            t += sw_test_rand(&rng, 0.05f, 0.6f); /* a long forward jump */
        } else if (r < 0.06f) {
            /* same time again */
        } else {
            t += sw_test_rand(&rng, 0.0f, 0.02f);
        }
        if (t > DURATION + 0.1f) t = 0.0f;
        expect_same_as_cold(clip, skel, t, &cache);
        assert_ptr_equal(cache.clip, clip);
    }
    /* Whatever the cursors hold, the result is a cold seek's. */
    for (int trial = 0; trial < 50; ++trial) {
        for (int i = 0; i < 32; ++i)
            cursors[i] = (uint32_t)sw_test_rand(&rng, 0.0f, 300.0f);
        cache.clip = clip;
        cache.time = 0.0f;
        expect_same_as_cold(clip, skel, sw_test_rand(&rng, 0.0f, DURATION), &cache);
    }
    sw_clip_destroy(other, NULL);
    sw_clip_destroy(clip, NULL);
    sw_skeleton_destroy(skel, NULL);
}

/* Forward playback stores cursors at the key containing the time. */
static void test_cache_cursors_advance(void** state) {
    (void)state;
    build_tracks();
    const sw_skeleton* skel = make_skeleton(JOINTS, 12u);
    const sw_clip* clip = make_clip(g_tracks, g_tracks_count, false);
    uint32_t cursors[32];
    sw_sample_cache cache;
    sw_sample_cache_init(&cache, cursors, 32);
    SINEW_ALIGN16 sw_xform4 pose[PACKETS];
    float floats[4];
    const uint32_t long_track = clip->tracks_count - 1;
    for (float t = 0.0f; t < DURATION; t += 0.01f) {
        sample(clip, skel, t, &cache, pose, floats);
        assert_true(cache.time == t);
        uint32_t expect = 0;
        while (expect + 1 < LONG_KEYS && g_long_times[expect + 1] <= t)
            ++expect;
        assert_int_equal(cursors[long_track], expect);
    }
    sw_clip_destroy(clip, NULL);
    sw_skeleton_destroy(skel, NULL);
}

/* ---- validity table ---- */

enum { CLIP_CAP = 8192, SKEL_CAP = 2048 };

/* Everything a job may write lives here, so a failed run can be checked to
 * leave all of it untouched. */
typedef struct arena {
    SINEW_ALIGN16 unsigned char clip[CLIP_CAP];
    SINEW_ALIGN16 unsigned char bad_codec[CLIP_CAP];
    SINEW_ALIGN16 unsigned char skel[SKEL_CAP];
    SINEW_ALIGN16 sw_xform4 out[PACKETS + 1];
    float floats[8];
    uint32_t cursors[32];
    sw_sample_cache cache;
} arena;

static arena g_arena;
static arena g_before;

typedef enum {
    CASE_VALID,
    CASE_VALID_NO_CACHE_NO_FLOATS,
    CASE_VALID_INF_TIME,
    CASE_ZERO,
    CASE_NULL_JOB,
    CASE_NULL_CLIP,
    CASE_NULL_SKELETON,
    CASE_NULL_OUT,
    CASE_NAN_TIME,
    CASE_JOINT_MISMATCH,
    CASE_BAD_CODEC,
    CASE_NULL_CURSORS,
    CASE_OUT_SHORT,
    CASE_FLOATS_SHORT,
    CASE_CURSORS_SHORT,
    CASE_OUT_MISALIGNED,
    CASE_OUT_OVER_CLIP,
    CASE_OUT_OVER_SKELETON,
    CASE_OUT_OVER_CURSORS,
    CASE_OUT_OVER_FLOATS,
    CASE_FLOATS_OVER_CLIP,
    CASE_FLOATS_OVER_SKELETON,
    CASE_FLOATS_OVER_CURSORS,
    CASE_FLOATS_OVER_CACHE,
    CASE_COUNT
} sample_case;

static const sw_result k_expect[CASE_COUNT] = {
    [CASE_VALID] = SW_RESULT_OK,
    [CASE_VALID_NO_CACHE_NO_FLOATS] = SW_RESULT_OK,
    [CASE_VALID_INF_TIME] = SW_RESULT_OK,
    [CASE_ZERO] = SW_RESULT_INVALID_ARGUMENT,
    [CASE_NULL_JOB] = SW_RESULT_INVALID_ARGUMENT,
    [CASE_NULL_CLIP] = SW_RESULT_INVALID_ARGUMENT,
    [CASE_NULL_SKELETON] = SW_RESULT_INVALID_ARGUMENT,
    [CASE_NULL_OUT] = SW_RESULT_INVALID_ARGUMENT,
    [CASE_NAN_TIME] = SW_RESULT_INVALID_ARGUMENT,
    [CASE_JOINT_MISMATCH] = SW_RESULT_INVALID_ARGUMENT,
    [CASE_BAD_CODEC] = SW_RESULT_INVALID_ARGUMENT,
    [CASE_NULL_CURSORS] = SW_RESULT_INVALID_ARGUMENT,
    [CASE_OUT_SHORT] = SW_RESULT_BUFFER_TOO_SMALL,
    [CASE_FLOATS_SHORT] = SW_RESULT_BUFFER_TOO_SMALL,
    [CASE_CURSORS_SHORT] = SW_RESULT_BUFFER_TOO_SMALL,
    [CASE_OUT_MISALIGNED] = SW_RESULT_MISALIGNED,
    [CASE_OUT_OVER_CLIP] = SW_RESULT_OVERLAP,
    [CASE_OUT_OVER_SKELETON] = SW_RESULT_OVERLAP,
    [CASE_OUT_OVER_CURSORS] = SW_RESULT_OVERLAP,
    [CASE_OUT_OVER_FLOATS] = SW_RESULT_OVERLAP,
    [CASE_FLOATS_OVER_CLIP] = SW_RESULT_OVERLAP,
    [CASE_FLOATS_OVER_SKELETON] = SW_RESULT_OVERLAP,
    [CASE_FLOATS_OVER_CURSORS] = SW_RESULT_OVERLAP,
    [CASE_FLOATS_OVER_CACHE] = SW_RESULT_OVERLAP,
};

static void test_validity_table(void** state) {
    (void)state;
    build_tracks();
    const sw_skeleton* skel_src = make_skeleton(JOINTS, 5u);
    const sw_skeleton* skel_other = make_skeleton(JOINTS + 2, 5u);
    const sw_clip* clip_src = make_clip(g_tracks, g_tracks_count, false);
    assert_true(clip_src->size <= CLIP_CAP);
    assert_true(skel_src->size <= SKEL_CAP);
    assert_true(clip_src->tracks_count <= 32);

    for (int c = 0; c < CASE_COUNT; ++c) {
        arena* a = &g_arena;
        memset(a, 0, sizeof(*a));
        memcpy(a->clip, clip_src, clip_src->size);
        memcpy(a->bad_codec, clip_src, clip_src->size);
        ((sw_clip*)(void*)a->bad_codec)->codec = 7u;
        memcpy(a->skel, skel_src, skel_src->size);
        memset(a->out, 0xA5, sizeof(a->out));
        memset(a->floats, 0x5A, sizeof(a->floats));
        memset(a->cursors, 0x3C, sizeof(a->cursors));
        sw_sample_cache_init(&a->cache, a->cursors, 32);
        const sw_clip* clip = (const sw_clip*)(const void*)a->clip;
        const sw_skeleton* skel = (const sw_skeleton*)(const void*)a->skel;

        sw_sample_job job = {.clip = clip,
                             .skeleton = skel,
                             .time = 0.6f,
                             .cache = &a->cache,
                             .out = a->out,
                             .out_count = PACKETS,
                             .floats = a->floats,
                             .floats_count = 4};
        const sw_sample_job* jp = &job;
        switch ((sample_case)c) {
        case CASE_VALID:
            break;
        case CASE_VALID_NO_CACHE_NO_FLOATS:
            job.cache = NULL;
            job.floats = NULL;
            job.floats_count = 0;
            break;
        case CASE_VALID_INF_TIME:
            job.time = INFINITY;
            break;
        case CASE_ZERO:
            memset(&job, 0, sizeof(job));
            break;
        case CASE_NULL_JOB:
            jp = NULL;
            break;
        case CASE_NULL_CLIP:
            job.clip = NULL;
            break;
        case CASE_NULL_SKELETON:
            job.skeleton = NULL;
            break;
        case CASE_NULL_OUT:
            job.out = NULL;
            break;
        case CASE_NAN_TIME:
            job.time = NAN;
            break;
        case CASE_JOINT_MISMATCH:
            job.skeleton = skel_other;
            break;
        case CASE_BAD_CODEC:
            job.clip = (const sw_clip*)(const void*)a->bad_codec;
            break;
        case CASE_NULL_CURSORS:
            a->cache.cursors = NULL;
            break;
        case CASE_OUT_SHORT:
            job.out_count = PACKETS - 1;
            break;
        case CASE_FLOATS_SHORT:
            job.floats_count = 3;
            break;
        case CASE_CURSORS_SHORT:
            a->cache.cursors_count = clip->tracks_count - 1;
            break;
        case CASE_OUT_MISALIGNED:
            job.out = (sw_xform4*)(void*)((char*)a->out + 4);
            break;
        case CASE_OUT_OVER_CLIP:
            job.out = (sw_xform4*)(void*)(a->clip + 256);
            break;
        case CASE_OUT_OVER_SKELETON:
            job.out = (sw_xform4*)(void*)a->skel;
            break;
        case CASE_OUT_OVER_CURSORS:
            a->cache.cursors = (uint32_t*)(void*)&a->out[1];
            break;
        case CASE_OUT_OVER_FLOATS:
            job.floats = (float*)(void*)&a->out[1];
            break;
        case CASE_FLOATS_OVER_CLIP:
            job.floats = (float*)(void*)(a->clip + 32);
            break;
        case CASE_FLOATS_OVER_SKELETON:
            job.floats = (float*)(void*)(a->skel + 16);
            break;
        case CASE_FLOATS_OVER_CURSORS:
            job.floats = (float*)(void*)&a->cursors[2];
            break;
        case CASE_FLOATS_OVER_CACHE:
            job.floats = (float*)(void*)&a->cache.time;
            break;
        case CASE_COUNT:
            break;
        }
        memcpy(&g_before, a, sizeof(*a));
        const sw_result v = sw_sample_job_validate(jp);
        const sw_result r = sw_sample_job_run(jp);
        if (v != k_expect[c] || r != k_expect[c])
            fail_msg("case %d: validate %s, run %s, expected %s", c, sw_result_str(v),
                     sw_result_str(r), sw_result_str(k_expect[c]));
        if (r != SW_RESULT_OK && memcmp(&g_before, a, sizeof(*a)) != 0)
            fail_msg("case %d: failed run wrote something", c);
        if (r == SW_RESULT_OK && c != CASE_VALID_NO_CACHE_NO_FLOATS)
            assert_ptr_equal(a->cache.clip, clip);
    }
    sw_clip_destroy(clip_src, NULL);
    sw_skeleton_destroy(skel_other, NULL);
    sw_skeleton_destroy(skel_src, NULL);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_validity_table),
        cmocka_unit_test(test_against_naive),
        cmocka_unit_test(test_explicit_guess_against_naive),
        cmocka_unit_test(test_additive_clip_untracked_identity),
        cmocka_unit_test(test_untracked_holds_rest),
        cmocka_unit_test(test_closed_forms),
        cmocka_unit_test(test_time_clamped),
        cmocka_unit_test(test_uniform_exact_key_times),
        cmocka_unit_test(test_cache_matches_cold_seek),
        cmocka_unit_test(test_cache_cursors_advance),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
