/* The frames codec (SW_CLIP_CODEC_FRAMES) and its builder: grid detection,
 * frames equal to the keys at frame times and to the raw clip between them
 * within a measured bound (synthetic, RobotExpressive's 14 clips, CMU
 * 01_01), untracked slots at the build skeleton's rest, an
 * independent interpolation of the stored frames, cached playback equal
 * bit for bit to cold seeks, hostile payloads rejected with named checks,
 * archive round trip, argument checks. */
#include "clip_fixture.h"

#include "runtime/codecs/codec_frames.h"
#include "runtime/core/internal.h"
#include "sinew/codecs/codec.h"
#include "sinew/tools/builders/frames.h"
#include "sinew/tools/readers/bvh.h"
#include "sinew/tools/readers/gltf.h"
#include "sinew/tools/writers/archive_writer.h"

/* ---- a synthetic rig and clip: 9 joints, 3 packets ----
 * packet 0 (joints 0-3): animated; joint 3 has only a rotation track;
 * packet 1 (joints 4-7): joint 5 holds one rotation (constant packet);
 * packet 2 (joint 8): no track (rest packet). */

#define J 9
#define KEYS 61 /* 2 s at 30 Hz */
#define RATE 30.0f

typedef struct fixture {
    const sw_skeleton* skel;
    const sw_clip* raw;
    float times[KEYS];
    float t0[KEYS * 3];
    float s1[KEYS * 3];
    float r[4][KEYS * 4];
    float r5[4];
    float w[KEYS];
} fixture;

static const sw_skeleton* make_skeleton(float offset) {
    static const int32_t parents[J] = {-1, 0, 1, 2, 0, 4, 5, 0, 7};
    static const char* const names[J] = {"root", "spine", "neck", "head", "arm",
                                         "hand", "leg",   "foot", "toe"};
    sw_xform rests[J];
    for (uint32_t j = 0; j < J; ++j) {
        rests[j] = sw_xform_identity();
        rests[j].t = (sw_vec3){offset + 0.1f * (float)j, j == 0 ? 0.0f : 1.0f, 0.0f};
        rests[j].r = sw_quat_from_axis_angle((sw_vec3){0, 1, 0}, offset + 0.05f * (float)j);
        rests[j].s = (sw_vec3){1.0f + offset, 1.0f, 1.0f};
    }
    return clip_fixture_skeleton(names, parents, rests, J);
}

/* explicit: key times given (on the 30 Hz grid) rather than a rate. */
static void make_clip(fixture* f, bool additive, bool explicit_times, sw_interp rot_interp) {
    for (uint32_t k = 0; k < KEYS; ++k) {
        const float t = (float)k / RATE;
        f->times[k] = t;
        clip_fixture_translation(t, &f->t0[3 * k]);
        f->s1[3 * k] = 1.0f + 0.2f * sinf(3.0f * t);
        f->s1[3 * k + 1] = f->s1[3 * k + 2] = 1.0f;
        for (uint32_t j = 0; j < 4; ++j) {
            sw_quat q = clip_fixture_rotation(j, t);
            if (k % 7u == 3u) q = sw_quat_negate(q); /* keys on either hemisphere */
            memcpy(&f->r[j][4 * k], &q, sizeof q);
        }
        f->w[k] = clip_fixture_curve(t);
    }
    const sw_quat q5 = sw_quat_from_axis_angle((sw_vec3){0, 0, 1}, 0.7f);
    memcpy(f->r5, &q5, sizeof q5);
    sw_clip_track_desc tracks[9];
    uint32_t n = 0;
    memset(tracks, 0, sizeof tracks);
    const float* times = explicit_times ? f->times : NULL;
    tracks[n++] = (sw_clip_track_desc){.kind = SW_TRACK_KIND_TRANSLATION,
                                       .joint = 0,
                                       .keys_count = KEYS,
                                       .times = times,
                                       .rate = RATE,
                                       .values = f->t0};
    for (uint32_t j = 0; j < 4; ++j) {
        tracks[n++] = (sw_clip_track_desc){.kind = SW_TRACK_KIND_ROTATION,
                                           .joint = j,
                                           .interp = rot_interp,
                                           .keys_count = KEYS,
                                           .times = times,
                                           .rate = RATE,
                                           .values = f->r[j]};
    }
    tracks[n++] = (sw_clip_track_desc){.kind = SW_TRACK_KIND_SCALE,
                                       .joint = 1,
                                       .keys_count = KEYS,
                                       .times = times,
                                       .rate = RATE,
                                       .values = f->s1};
    tracks[n++] = (sw_clip_track_desc){
        .kind = SW_TRACK_KIND_ROTATION, .joint = 5, .keys_count = 1, .values = f->r5};
    f->raw = clip_fixture_clip(tracks, n, f->w, KEYS, RATE, J, additive);
}

static fixture* fixture_new(bool additive, bool explicit_times, sw_interp rot_interp) {
    fixture* f = (fixture*)calloc(1, sizeof *f);
    assert_non_null(f);
    f->skel = make_skeleton(0.0f);
    make_clip(f, additive, explicit_times, rot_interp);
    return f;
}

static void fixture_free(fixture* f) {
    sw_clip_destroy(f->raw, NULL);
    sw_skeleton_destroy(f->skel, NULL);
    free(f);
}

static const sw_clip* build(const sw_skeleton* s, const sw_clip* c, float rate, float shell,
                            sw_frames_stats* st) {
    sw_frames_options o = {.rate = rate, .shell = shell};
    const sw_clip* out = NULL;
    sw_error err;
    memset(&err, 0, sizeof err);
    sw_result r = sw_frames_build(s, c, &o, NULL, &out, st, &err);
    if (r != SW_RESULT_OK) print_error("frames: %s (%s)\n", sw_result_str(r), err.check);
    assert_int_equal(r, SW_RESULT_OK);
    assert_int_equal(out->codec, SW_CLIP_CODEC_FRAMES);
    return out;
}

static void sample(const sw_clip* c, const sw_skeleton* s, float t, sw_sample_cache* cache,
                   sw_xform4* out, float* floats) {
    sw_sample_job job = {.clip = c,
                         .skeleton = s,
                         .time = t,
                         .cache = cache,
                         .out = out,
                         .out_count = s->packets_count,
                         .floats = floats,
                         .floats_count = floats ? c->float_tracks_count : 0};
    assert_int_equal(sw_sample_job_run(&job), SW_RESULT_OK);
}

static sw_xform4* pose_alloc(uint32_t packets) {
    sw_xform4* p = (sw_xform4*)aligned_alloc(16, sizeof(sw_xform4) * packets);
    assert_non_null(p);
    return p;
}

/* Largest difference of two poses: translation and scale components
 * relative to max(1, |value|), and with `rotations` the rotation components
 * compared up to sign (left out where rotations differ by nlerp vs slerp). */
static double pose_diff_of(const sw_xform4* a, const sw_xform4* b, uint32_t joints,
                           bool rotations) {
    double worst = 0.0;
    for (uint32_t j = 0; j < joints; ++j) {
        const sw_xform x = sw_pose_get(a, j), y = sw_pose_get(b, j);
        const double d[6] = {x.t.x - y.t.x, x.t.y - y.t.y, x.t.z - y.t.z,
                             x.s.x - y.s.x, x.s.y - y.s.y, x.s.z - y.s.z};
        const double m[6] = {x.t.x, x.t.y, x.t.z, x.s.x, x.s.y, x.s.z};
        for (int i = 0; i < 6; ++i)
            worst = fmax(worst, fabs(d[i]) / fmax(1.0, fabs(m[i])));
        if (!rotations) continue;
        const float sign = sw_quat_dot(x.r, y.r) < 0.0f ? -1.0f : 1.0f;
        worst = fmax(worst, fabs((double)x.r.x - sign * y.r.x));
        worst = fmax(worst, fabs((double)x.r.y - sign * y.r.y));
        worst = fmax(worst, fabs((double)x.r.z - sign * y.r.z));
        worst = fmax(worst, fabs((double)x.r.w - sign * y.r.w));
    }
    return worst;
}
#define pose_diff(a, b, joints) pose_diff_of(a, b, joints, true)
#define ts_diff(a, b, joints) pose_diff_of(a, b, joints, false)

/* Largest angle (radians) between the rotations of two poses, from the
 * chord between the unit quaternions (precise for small angles, unlike acos
 * of their dot product): angle = 4 asin(|a - b| / 2), b on a's side. */
static double rot_angle(const sw_xform4* a, const sw_xform4* b, uint32_t joints) {
    double worst = 0.0;
    for (uint32_t j = 0; j < joints; ++j) {
        const sw_xform x = sw_pose_get(a, j), y = sw_pose_get(b, j);
        const double s = sw_quat_dot(x.r, y.r) < 0.0f ? -1.0 : 1.0;
        const double d[4] = {x.r.x - s * y.r.x, x.r.y - s * y.r.y, x.r.z - s * y.r.z,
                             x.r.w - s * y.r.w};
        const double chord = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2] + d[3] * d[3]);
        worst = fmax(worst, 4.0 * asin(fmin(1.0, chord / 2.0)));
    }
    return worst;
}

/* ---- grid detection ---- */

static void test_grid_rate(void** state) {
    (void)state;
    fixture* f = fixture_new(false, false, SW_INTERP_LINEAR);
    assert_true(sw_frames_grid_rate(f->raw) == RATE);
    fixture_free(f);
    f = fixture_new(false, true, SW_INTERP_LINEAR);
    assert_true(sw_frames_grid_rate(f->raw) == RATE);
    fixture_free(f);
    /* cubic rotations (or step keys): no grid of linear keys */
    f = fixture_new(false, false, SW_INTERP_STEP);
    assert_true(sw_frames_grid_rate(f->raw) == 0.0f);
    fixture_free(f);

    /* keys at k / 24 with gaps and a 1e-6 s jitter: 24; a key off the grid
     * by 1e-3 s: none. */
    const sw_skeleton* s = make_skeleton(0.0f);
    float times[5] = {0.0f, 1.0f / 24.0f + 1e-6f, 3.0f / 24.0f, 4.0f / 24.0f, 10.0f / 24.0f};
    float values[15];
    for (int i = 0; i < 15; ++i)
        values[i] = (float)i;
    sw_clip_track_desc t = {.kind = SW_TRACK_KIND_TRANSLATION,
                            .joint = 2,
                            .keys_count = 5,
                            .times = times,
                            .values = values};
    sw_clip_desc d = {.duration = 0.5f, .joints_count = J, .tracks = &t, .tracks_count = 1};
    const sw_clip* c = NULL;
    assert_int_equal(sw_clip_create(&d, NULL, &c, NULL), SW_RESULT_OK);
    assert_true(sw_frames_grid_rate(c) == 24.0f);
    sw_clip_destroy(c, NULL);
    times[3] = 4.0f / 24.0f + 1e-3f;
    assert_int_equal(sw_clip_create(&d, NULL, &c, NULL), SW_RESULT_OK);
    assert_true(sw_frames_grid_rate(c) == 0.0f);
    /* no grid: resampled at the highest key rate (rounded to 1/1000) */
    sw_frames_stats st;
    const sw_clip* fc = build(s, c, 0.0f, 1.0f, &st);
    assert_false(st.on_keys);
    assert_true(st.rate == sw_compress_sample_rate(c));
    sw_clip_destroy(fc, NULL);
    sw_clip_destroy(c, NULL);
    sw_skeleton_destroy(s, NULL);
}

/* ---- the synthetic clip ---- */

/* At frame times the frames give the raw clip's values (the keys; rotations
 * up to sign and the normalization's rounding); between frames,
 * translations and scales interpolate linearly as the raw clip does and
 * rotations differ by nlerp vs slerp, within the bound for 1/30 s steps. */
static void check_against_raw(const fixture* f, bool explicit_times) {
    sw_frames_stats st;
    const sw_clip* c = build(f->skel, f->raw, 0.0f, 1.0f, &st);
    assert_true(st.on_keys);
    assert_true(st.rate == RATE);
    assert_int_equal(st.frames_count, KEYS);
    assert_int_equal(st.animated_packets, 1);
    assert_int_equal(st.constant_packets, 2);
    const sw_frames_header* h = sw_clip_frames_header(c);
    assert_int_equal(h->runs_count, 2);
    sw_xform4* pr = pose_alloc(3);
    sw_xform4* pf = pose_alloc(3);
    float fr[1], ff[1];
    for (uint32_t k = 0; k < KEYS; ++k) {
        const float t = (float)k / RATE;
        sample(f->raw, f->skel, t, NULL, pr, fr);
        sample(c, f->skel, t, NULL, pf, ff);
        assert_true(pose_diff(pr, pf, J) <= 1e-6);
        assert_true(fr[0] == ff[0]);
    }
    double worst_angle = 0.0;
    for (uint32_t i = 0; i <= 600; ++i) {
        const float t = 2.0f * (float)i / 600.0f;
        sample(f->raw, f->skel, t, NULL, pr, fr);
        sample(c, f->skel, t, NULL, pf, ff);
        assert_true(ts_diff(pr, pf, J) <= 1e-6);
        worst_angle = fmax(worst_angle, rot_angle(pr, pf, J));
        assert_true(fr[0] == ff[0]);
        /* padding lanes identity */
        const sw_xform pad = sw_pose_get(pf, 11);
        assert_true(pad.r.w == 1.0f && pad.t.x == 0.0f && pad.s.z == 1.0f);
    }
    /* nlerp vs slerp over one key interval: the angle between the keys is at
     * most about 0.2 rad here, and the gap is below 1e-4 rad. */
    print_message("synthetic (%s times): nlerp vs slerp at most %.3g rad; error %.3g\n",
                  explicit_times ? "explicit" : "uniform", worst_angle, (double)st.error.max);
    assert_true(worst_angle < 1e-4);
    assert_true(st.error.max > 0.0f && st.error.max < 1e-4f);
    /* float tracks and events are kept */
    assert_int_equal(c->float_tracks_count, 1);
    assert_string_equal(sw_clip_float_track_name(c, 0), "curve");
    assert_int_equal(c->events_count, 2);
    assert_string_equal(sw_clip_event_name(c, 0), "start");
    assert_string_equal(sw_clip_name(c), "synthetic");
    free(pr);
    free(pf);
    sw_clip_destroy(c, NULL);
}

static void test_synthetic_against_raw(void** state) {
    (void)state;
    fixture* f = fixture_new(false, false, SW_INTERP_LINEAR);
    check_against_raw(f, false);
    fixture_free(f);
    f = fixture_new(false, true, SW_INTERP_LINEAR);
    check_against_raw(f, true);
    fixture_free(f);
}

/* Joint slots without a track hold the build skeleton's rest values
 * (identity for additive clips), baked in: sampling with another skeleton of
 * the same joint count gives them too (a raw clip would take the other's). */
static void test_rest_baked(void** state) {
    (void)state;
    for (int additive = 0; additive < 2; ++additive) {
        fixture* f = fixture_new(additive != 0, false, SW_INTERP_LINEAR);
        const sw_clip* c = build(f->skel, f->raw, 0.0f, 1.0f, NULL);
        const sw_skeleton* other = make_skeleton(0.3f);
        sw_xform4* pr = pose_alloc(3);
        sw_xform4* pf = pose_alloc(3);
        for (uint32_t k = 0; k < KEYS; k += 7u) {
            const float t = (float)k / RATE;
            sample(f->raw, f->skel, t, NULL, pr, NULL);
            sample(c, other, t, NULL, pf, NULL);
            assert_true(pose_diff(pr, pf, J) <= 1e-6);
        }
        /* joint 8 (no track) and joint 3's translation and scale (none) */
        const sw_xform x8 = sw_pose_get(pf, 8), x3 = sw_pose_get(pf, 3);
        const sw_xform r8 = sw_pose_get(sw_skeleton_rest_pose(f->skel), 8);
        const sw_xform r3 = sw_pose_get(sw_skeleton_rest_pose(f->skel), 3);
        assert_true(x8.t.x == (additive ? 0.0f : r8.t.x));
        assert_true(x8.r.y == (additive ? 0.0f : r8.r.y));
        assert_true(x8.s.x == (additive ? 1.0f : r8.s.x));
        assert_true(x3.t.x == (additive ? 0.0f : r3.t.x));
        assert_true(x3.s.x == (additive ? 1.0f : r3.s.x));
        free(pr);
        free(pf);
        sw_skeleton_destroy(other, NULL);
        sw_clip_destroy(c, NULL);
        fixture_free(f);
    }
}

/* The sampler against an independent interpolation of the stored frames:
 * the frame interval from the times, lerp of the stored packets, rotations
 * normalized in double, on every kernel path (sw__soa_paths). */
static void test_interp_independent(void** state) {
    (void)state;
    fixture* f = fixture_new(false, false, SW_INTERP_LINEAR);
    const sw_clip* c = build(f->skel, f->raw, 0.0f, 1.0f, NULL);
    const sw_frames_header* h = sw_clip_frames_header(c);
    const sw_xform4* frames = (const sw_xform4*)(const void*)((const char*)h + h->frames_offset);
    const sw_frames_run* runs =
        (const sw_frames_run*)(const void*)((const char*)h + h->runs_offset);
    assert_int_equal(runs[0].kind, SW_FRAMES_RUN_ANIMATED);
    assert_int_equal(runs[0].first, 0);
    sw_xform4* pf = pose_alloc(3);
    uint32_t paths_count = 0;
    const sw__soa_ops* const* paths = sw__soa_paths(&paths_count);
    uint32_t rng = 99u;
    for (uint32_t p = 0; p < paths_count; ++p) {
        for (int n = 0; n < 500; ++n) {
            const float t = sw_test_rand(&rng, -0.1f, 2.1f);
            sw__codec_frames_sample_with(c, fmaxf(0.0f, fminf(t, c->duration)), pf, paths[p]);
            /* independent interval: frame times i / 30 */
            const double tc = fmax(0.0, fmin((double)t, (double)c->duration));
            uint32_t i = (uint32_t)floor(tc * 30.0 + 1e-9);
            if (i > KEYS - 2u) i = KEYS - 2u;
            const double u = fmin(1.0, (tc - i / 30.0) * 30.0);
            const sw_xform4* a = &frames[i];
            const sw_xform4* b = &frames[i + 1u];
            for (uint32_t l = 0; l < 4; ++l) {
                double q[4] = {
                    a->rx[l] + (b->rx[l] - a->rx[l]) * u, a->ry[l] + (b->ry[l] - a->ry[l]) * u,
                    a->rz[l] + (b->rz[l] - a->rz[l]) * u, a->rw[l] + (b->rw[l] - a->rw[l]) * u};
                const double len = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
                assert_near(pf[0].rx[l], q[0] / len, 2e-6);
                assert_near(pf[0].ry[l], q[1] / len, 2e-6);
                assert_near(pf[0].rz[l], q[2] / len, 2e-6);
                assert_near(pf[0].rw[l], q[3] / len, 2e-6);
                assert_near(pf[0].tx[l], a->tx[l] + (b->tx[l] - a->tx[l]) * u, 2e-6);
                assert_near(pf[0].sx[l], a->sx[l] + (b->sx[l] - a->sx[l]) * u, 2e-6);
            }
        }
    }
    free(pf);
    sw_clip_destroy(c, NULL);
    fixture_free(f);
}

/* Forward playback with a cache, backwards, and random seeks: bit for bit
 * the same pose at the same time. */
static void check_seq_vs_seek(const sw_clip* c, const sw_skeleton* s) {
    const uint32_t P = s->packets_count;
    sw_xform4* a = pose_alloc(P);
    sw_xform4* b = pose_alloc(P);
    uint32_t cursors[64];
    sw_sample_cache cache;
    sw_sample_cache_init(&cache, cursors, 64);
    assert_true(c->tracks_count <= 64);
    const uint32_t steps = (uint32_t)(c->duration * 60.0f) + 2u;
    for (uint32_t i = 0; i <= steps; ++i) {
        const float t = (float)i / 60.0f;
        sample(c, s, t, &cache, a, NULL);
        sample(c, s, t, NULL, b, NULL);
        assert_memory_equal(a, b, sizeof(sw_xform4) * P);
    }
    uint32_t rng = 5u;
    for (int i = 0; i < 200; ++i) {
        const float t = sw_test_rand(&rng, 0.0f, c->duration);
        sample(c, s, t, &cache, a, NULL);
        sample(c, s, t, NULL, b, NULL);
        assert_memory_equal(a, b, sizeof(sw_xform4) * P);
    }
    free(a);
    free(b);
}

static void test_seq_equals_seek(void** state) {
    (void)state;
    fixture* f = fixture_new(false, true, SW_INTERP_LINEAR);
    const sw_clip* c = build(f->skel, f->raw, 0.0f, 1.0f, NULL);
    check_seq_vs_seek(c, f->skel);
    sw_clip_destroy(c, NULL);
    /* resampled at another rate too */
    c = build(f->skel, f->raw, 47.5f, 1.0f, NULL);
    check_seq_vs_seek(c, f->skel);
    sw_clip_destroy(c, NULL);
    fixture_free(f);
}

/* ---- real data ---- */

/* Samples both clips at the frame times (must agree: the frames are the
 * keys) and returns the largest difference. */
static double diff_at_frames(const sw_clip* raw, const sw_clip* c, const sw_skeleton* s) {
    const sw_frames_header* h = sw_clip_frames_header(c);
    sw_xform4* pr = pose_alloc(s->packets_count);
    sw_xform4* pf = pose_alloc(s->packets_count);
    double worst = 0.0;
    for (uint32_t i = 0; i < h->frames_count; ++i) {
        const float t = fminf((float)i / h->rate, raw->duration);
        sample(raw, s, t, NULL, pr, NULL);
        sample(c, s, t, NULL, pf, NULL);
        worst = fmax(worst, pose_diff(pr, pf, s->joints_count));
    }
    free(pr);
    free(pf);
    return worst;
}

/* RobotExpressive's 14 clips at their key grid: equal at the frames, and
 * within the measured bound in between (10 cm shell; Punch turns an arm
 * far between two 24 Hz keys, where nlerp leaves slerp by 7.8 cm). */
static void test_robot_expressive(void** state) {
    (void)state;
    char path[512];
    if (!sw_test_asset_path(path, sizeof path, "RobotExpressive.glb")) return;
    sw_scene scene;
    memset(&scene, 0, sizeof scene);
    assert_int_equal(sw_gltf_read_file(path, NULL, NULL, &scene, NULL), SW_RESULT_OK);
    assert_int_equal(scene.clips_count, 14);
    uint64_t raw = 0, frames = 0;
    double worst = 0.0, worst_at_frames = 0.0;
    for (uint32_t i = 0; i < scene.clips_count; ++i) {
        sw_frames_stats st;
        const sw_clip* c = build(scene.skeleton, scene.clips[i], 0.0f, 0.1f, &st);
        const double at = diff_at_frames(scene.clips[i], c, scene.skeleton);
        print_message("  %-10s %s %.3g Hz, %u frames, packets %u animated %u constant, "
                      "%llu -> %llu bytes, max error %.3g m, at frames %.3g\n",
                      sw_clip_name(c), st.on_keys ? "keys" : "resampled", (double)st.rate,
                      st.frames_count, st.animated_packets, st.constant_packets,
                      (unsigned long long)st.raw_bytes, (unsigned long long)st.frames_bytes,
                      (double)st.error.max, at);
        assert_true(at <= 1e-6);
        assert_true(st.error.max < 0.08f); /* Punch: 0.078, the others below 0.004 */
        raw += st.raw_bytes;
        frames += st.frames_bytes;
        worst = fmax(worst, st.error.max);
        worst_at_frames = fmax(worst_at_frames, at);
        check_seq_vs_seek(c, scene.skeleton);
        sw_clip_destroy(c, NULL);
        /* The error is nlerp's: twice the rate cuts it about 8 times (the
         * rest is float noise below 1e-5 m). */
        sw_frames_stats s2;
        c = build(scene.skeleton, scene.clips[i], 2.0f * st.rate, 0.1f, &s2);
        print_message("             at %g Hz: max error %.3g m, %llu bytes\n", (double)s2.rate,
                      (double)s2.error.max, (unsigned long long)s2.frames_bytes);
        assert_true(s2.on_keys); /* 48 Hz: every 24 Hz key is a frame */
        assert_true(s2.error.max < 1e-5f || s2.error.max * 4.0f < st.error.max);
        sw_clip_destroy(c, NULL);
        /* A precision: the rate doubles until the error is within it. */
        sw_frames_options po = {.shell = 0.1f, .precision = 1e-3f};
        sw_frames_stats sp;
        assert_int_equal(sw_frames_build(scene.skeleton, scene.clips[i], &po, NULL, &c, &sp, NULL),
                         SW_RESULT_OK);
        assert_true(sp.error.max <= 1e-3f);
        assert_true(sp.on_keys);
        assert_true(sp.rate == st.rate || sp.error.max * 1.001f < st.error.max);
        assert_true(diff_at_frames(scene.clips[i], c, scene.skeleton) <= 1e-6);
        print_message("             precision 1 mm: %g Hz, max error %.3g m, %llu bytes\n",
                      (double)sp.rate, (double)sp.error.max, (unsigned long long)sp.frames_bytes);
        sw_clip_destroy(c, NULL);
    }
    print_message("RobotExpressive: 14 clips, raw %llu bytes, frames %llu bytes, max error %.3g m "
                  "(10 cm shell), at frames %.3g\n",
                  (unsigned long long)raw, (unsigned long long)frames, worst, worst_at_frames);
    sw_scene_free(&scene, NULL);
}

/* CMU 01_01 (120 Hz, linear keys): the frames are the keys; between them
 * nlerp vs slerp within the measured bound at a shell of 3 (file units, the
 * compressor's setting for CMU). */
static void test_cmu(void** state) {
    (void)state;
    char path[512];
    if (!sw_test_model_path(path, sizeof path, "BVH/01_01.bvh")) return;
    size_t size = 0;
    char* text = (char*)sw_test_read_file(path, &size);
    assert_non_null(text);
    sw_bvh_result res;
    assert_int_equal(sw_bvh_read(text, size, NULL, NULL, &res, NULL), SW_RESULT_OK);
    free(text);
    sw_frames_stats st;
    const sw_clip* c = build(res.skeleton, res.clip, 0.0f, 3.0f, &st);
    const double at = diff_at_frames(res.clip, c, res.skeleton);
    print_message("01_01: %u joints, %s %.3g Hz, %u frames, %llu -> %llu bytes, max error %.3g "
                  "(shell 3), at frames %.3g\n",
                  res.skeleton->joints_count, st.on_keys ? "keys" : "resampled", (double)st.rate,
                  st.frames_count, (unsigned long long)st.raw_bytes,
                  (unsigned long long)st.frames_bytes, (double)st.error.max, at);
    assert_true(st.on_keys);
    assert_true(at <= 1e-6);
    sw_frames_stats s2;
    const sw_clip* c2 = build(res.skeleton, res.clip, 2.0f * st.rate, 3.0f, &s2);
    print_message("01_01 at %g Hz: max error %.3g, %llu bytes; at 120 Hz worst joint %u at %g s\n",
                  (double)s2.rate, (double)s2.error.max, (unsigned long long)s2.frames_bytes,
                  st.error.worst_joint, (double)st.error.worst_time);
    /* measured 0.444: nlerp across the large turn of joint 22 between the
     * first two frames; twice the rate cuts it about 8 times */
    assert_true(st.error.max < 0.5f);
    assert_true(s2.error.max * 4.0f < st.error.max);
    sw_clip_destroy(c2, NULL);
    check_seq_vs_seek(c, res.skeleton);
    sw_clip_destroy(c, NULL);
    sw_bvh_result_free(&res, NULL);
}

/* ---- hostile payloads ---- */

typedef struct block {
    void* mem;
    sw_clip* c;
    sw_frames_header* h;
    size_t size;
} block;

static void block_reset(block* b, const sw_clip* src) {
    memcpy(b->mem, src, src->size);
    b->c = (sw_clip*)b->mem;
    b->h = (sw_frames_header*)(void*)((char*)b->mem + sw_clip_codec_offset(src));
    b->size = src->size;
}

static const char* load_check(const block* b, sw_result* r) {
    const sw_clip* out = NULL;
    sw_error err;
    memset(&err, 0, sizeof err);
    *r = sw_clip_load(b->mem, b->size, &out, &err);
    return *r == SW_RESULT_OK ? NULL : err.check;
}

#define HOSTILE(stmt, check_text)                                                                  \
    do {                                                                                           \
        block_reset(&b, c);                                                                        \
        stmt;                                                                                      \
        sw_result r_;                                                                              \
        const char* got_ = load_check(&b, &r_);                                                    \
        if (!got_ || strcmp(got_, check_text) != 0)                                                \
            print_error("%s: got \"%s\"\n", #stmt, got_ ? got_ : "(loaded)");                      \
        assert_int_equal(r_, SW_RESULT_BAD_DATA);                                                  \
        assert_string_equal(got_, check_text);                                                     \
    } while (0)

static sw_xform4* frame_packet(block* b, uint32_t frame, uint32_t a) {
    return (sw_xform4*)(void*)((char*)b->h + b->h->frames_offset) +
           (size_t)frame * b->h->animated_count + a;
}

static void test_hostile(void** state) {
    (void)state;
    fixture* f = fixture_new(false, false, SW_INTERP_LINEAR);
    const sw_clip* c = build(f->skel, f->raw, 0.0f, 1.0f, NULL);
    block b;
    b.mem = aligned_alloc(16, c->size);
    assert_non_null(b.mem);

    block_reset(&b, c);
    sw_result r;
    assert_null(load_check(&b, &r));

    HOSTILE(b.h->rate = 0.0f, "frames rate in (0, 1000]");
    HOSTILE(b.h->rate = NAN, "frames rate in (0, 1000]");
    HOSTILE(b.h->rate = 31.0f, "frames count matches duration and rate");
    HOSTILE(b.h->frames_count -= 1u, "frames count matches duration and rate");
    HOSTILE(b.h->reserved[2] = 1u, "frames reserved zero");
    HOSTILE(b.h->runs_offset += 16u, "frames runs after the header");
    HOSTILE(b.h->size += 16u, "frames size matches the data");
    HOSTILE(b.h->size = c->size, "frames size in bounds");
    HOSTILE(b.h->animated_count = 0u, "frames animated + constant packets = packets");
    HOSTILE((b.h->animated_count = 0u, b.h->constants_count = 3u),
            "frames data after the constants");
    HOSTILE(b.h->size -= 16u, "frames size matches the data");
    HOSTILE(b.h->constants_offset += 16u, "frames constants after the runs, aligned");
    HOSTILE(b.h->frames_offset -= 16u, "frames data after the constants");
#define RUNS ((sw_frames_run*)(void*)((char*)b.h + b.h->runs_offset))
    HOSTILE(RUNS[1].kind = 7u, "frames run kind");
    HOSTILE(RUNS[1].kind = SW_FRAMES_RUN_NONE, "frames run kind");
    HOSTILE(RUNS[1].first = 2u, "frames runs cover the packets in order");
    HOSTILE(RUNS[0].count = 2u, "frames runs cover the packets in order");
    HOSTILE(RUNS[1].source = 1u, "frames run sources in order");
    HOSTILE((RUNS[1].kind = SW_FRAMES_RUN_ANIMATED, RUNS[1].source = 1u),
            "frames runs use every stored packet");
    HOSTILE(frame_packet(&b, 7, 0)->tz[1] = NAN, "frames values finite");
    HOSTILE(frame_packet(&b, 7, 0)->sy[2] = INFINITY, "frames values finite");
    HOSTILE(frame_packet(&b, 9, 0)->rw[0] *= 1.01f, "frames rotations unit");
    HOSTILE((frame_packet(&b, 9, 0)->rx[1] *= -1.0f, frame_packet(&b, 9, 0)->ry[1] *= -1.0f,
             frame_packet(&b, 9, 0)->rz[1] *= -1.0f, frame_packet(&b, 9, 0)->rw[1] *= -1.0f),
            "frames rotations on one hemisphere");
    HOSTILE(((sw_xform4*)(void*)((char*)b.h + b.h->constants_offset))->rw[1] = 2.0f,
            "frames rotations unit");
    HOSTILE(((sw_xform4*)(void*)((char*)b.h + b.h->constants_offset))->rx[3] = 0.5f,
            "frames rotations unit");
    HOSTILE(b.c->tracks_count += 1u, "joint tracks in table");

    /* every byte of the header, and the runs flipped: rejected, named */
    const uint32_t table_end = b.h->runs_offset + 16u * b.h->runs_count;
    uint32_t rejected = 0;
    uint32_t accepted = 0;
    const uint32_t rate_at = (uint32_t)offsetof(sw_frames_header, rate);
    sw_xform4* pose = pose_alloc(3);
    for (uint32_t i = 0; i < table_end; ++i) {
        block_reset(&b, c);
        ((uint8_t*)b.h)[i] ^= 0xFFu;
        const char* got = load_check(&b, &r);
        if (got) {
            assert_int_equal(r, SW_RESULT_BAD_DATA);
            assert_true(strncmp(got, "frames ", 7) == 0);
            ++rejected;
            continue;
        }
        /* Only the rate's low mantissa bytes may change without changing
         * the frame count; the sampler then still reads in bounds and gives
         * unit rotations at every time. */
        assert_true(i == rate_at || i == rate_at + 1u);
        ++accepted;
        for (int k = 0; k <= 40; ++k) {
            sample((const sw_clip*)b.mem, f->skel, (float)k * 0.05f, NULL, pose, NULL);
            for (uint32_t j = 0; j < J; ++j) {
                const sw_xform x = sw_pose_get(pose, j);
                assert_near(sqrt((double)sw_quat_dot(x.r, x.r)), 1.0, 1e-5);
            }
        }
    }
    free(pose);
    print_message("header and table: %u flipped bytes rejected, %u (the rate's low bytes) loaded "
                  "and sampled\n",
                  rejected, accepted);

    /* every truncation */
    for (size_t n = 0; n < c->size; n += (n < 512u ? 1u : 61u)) {
        block_reset(&b, c);
        b.size = n;
        assert_int_not_equal(load_check(&b, &r), NULL);
        assert_int_not_equal(r, SW_RESULT_OK);
    }
    free(b.mem);
    sw_clip_destroy(c, NULL);
    fixture_free(f);
#undef RUNS
}

/* Frames clips travel in archives as CLIP chunks, byte for byte. */
static void test_archive_round_trip(void** state) {
    (void)state;
    fixture* f = fixture_new(false, false, SW_INTERP_LINEAR);
    const sw_clip* c = build(f->skel, f->raw, 0.0f, 1.0f, NULL);
    sw_test_archive_round_trip(f->skel, c, f->raw, 0.77f);
    sw_clip_destroy(c, NULL);
    fixture_free(f);
}

static void test_arguments(void** state) {
    (void)state;
    fixture* f = fixture_new(false, false, SW_INTERP_LINEAR);
    const sw_clip* out = NULL;
    sw_error err;
    assert_int_equal(sw_frames_build(NULL, f->raw, NULL, NULL, &out, NULL, &err),
                     SW_RESULT_INVALID_ARGUMENT);
    sw_frames_options o = {.rate = -1.0f};
    assert_int_equal(sw_frames_build(f->skel, f->raw, &o, NULL, &out, NULL, &err),
                     SW_RESULT_INVALID_ARGUMENT);
    o.rate = 2000.0f;
    assert_int_equal(sw_frames_build(f->skel, f->raw, &o, NULL, &out, NULL, &err),
                     SW_RESULT_INVALID_ARGUMENT);
    o.rate = 0.0f;
    o.shell = NAN;
    assert_int_equal(sw_frames_build(f->skel, f->raw, &o, NULL, &out, NULL, &err),
                     SW_RESULT_INVALID_ARGUMENT);
    /* a frames clip is not raw: not rebuilt */
    const sw_clip* c = build(f->skel, f->raw, 0.0f, 1.0f, NULL);
    assert_int_equal(sw_frames_build(f->skel, c, NULL, NULL, &out, NULL, &err),
                     SW_RESULT_INVALID_ARGUMENT);
    assert_string_equal(err.check, "raw clip");
    assert_true(sw_frames_grid_rate(c) == 0.0f);
    sw_clip_destroy(c, NULL);
    fixture_free(f);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_grid_rate),
        cmocka_unit_test(test_synthetic_against_raw),
        cmocka_unit_test(test_rest_baked),
        cmocka_unit_test(test_interp_independent),
        cmocka_unit_test(test_seq_equals_seek),
        cmocka_unit_test(test_robot_expressive),
        cmocka_unit_test(test_cmu),
        cmocka_unit_test(test_hostile),
        cmocka_unit_test(test_archive_round_trip),
        cmocka_unit_test(test_arguments),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
