/* Root motion with every codec: one joint sampled alone equals the same joint
 * of the sampling job (raw, quantized and frames clips, every kernel path,
 * additive clips), and the animator's root motion over N cycles of raw,
 * quantized and frames copies of one clip agrees within the error of the
 * root joint's ground transform measured with the sampling job (the
 * built-in humanoid's walk and run, RobotExpressive's Walking). */
#include "test_util.h"

#include "runtime/codecs/codec_frames.h"
#include "runtime/codecs/codec_quantized.h"
#include "runtime/core/internal.h"
#include "sinew/animator/animator.h"
#include "sinew/showcase/character.h"
#include "sinew/tools/builders/compress.h"
#include "sinew/tools/builders/frames.h"
#include "sinew/tools/builders/mirror_bake.h"
#include "sinew/tools/readers/gltf.h"

enum { CODEC_RAW, CODEC_QUANTIZED, CODEC_FRAMES, CODECS };
static const char* const k_codec_names[CODECS] = {"raw", "quantized", "frames"};

/* raw, quantized and frames copies of a raw clip (copies[0] is `raw`). */
static void make_copies(const sw_skeleton* s, const sw_clip* raw, float shell,
                        const sw_clip* copies[CODECS]) {
    sw_error err;
    memset(&err, 0, sizeof err);
    copies[CODEC_RAW] = raw;
    sw_compress_options co = {.precision = 1e-3f, .shell = shell};
    sw_result r = sw_compress_clip(s, raw, &co, NULL, &copies[CODEC_QUANTIZED], NULL, &err);
    if (r != SW_RESULT_OK) fail_msg("compress: %s (%s)", sw_result_str(r), err.check);
    assert_int_equal(copies[CODEC_QUANTIZED]->codec, SW_CLIP_CODEC_QUANTIZED);
    sw_frames_options fo = {.shell = shell};
    r = sw_frames_build(s, raw, &fo, NULL, &copies[CODEC_FRAMES], NULL, &err);
    if (r != SW_RESULT_OK) fail_msg("frames: %s (%s)", sw_result_str(r), err.check);
    assert_int_equal(copies[CODEC_FRAMES]->codec, SW_CLIP_CODEC_FRAMES);
}

static void free_copies(const sw_clip* copies[CODECS]) {
    sw_clip_destroy(copies[CODEC_QUANTIZED], NULL);
    sw_clip_destroy(copies[CODEC_FRAMES], NULL);
}

static void sample_job(const sw_clip* c, const sw_skeleton* s, float t, sw_xform4* out) {
    sw_sample_job job = {
        .clip = c, .skeleton = s, .time = t, .out = out, .out_count = s->packets_count};
    assert_int_equal(sw_sample_job_run(&job), SW_RESULT_OK);
}

static sw_xform4* alloc_pose(const sw_skeleton* s) {
    sw_xform4* p = (sw_xform4*)aligned_alloc(16, sizeof(sw_xform4) * s->packets_count);
    assert_non_null(p);
    return p;
}

/* Times to compare at: 0, the duration, outside both, exactly at 30 Hz
 * keys and a spread of random times. */
#define TIMES 40
static void test_times(float duration, uint32_t* rng, float* t) {
    t[0] = 0.0f;
    t[1] = duration;
    t[2] = -0.5f;
    t[3] = duration + 1.0f;
    for (uint32_t i = 4; i < 10; ++i)
        t[i] = (float)(i - 4u) / 30.0f;
    for (uint32_t i = 10; i < TIMES; ++i)
        t[i] = sw_test_rand(rng, 0.0f, duration);
}

/* Every joint of c sampled alone, at every test time, is bit for bit the
 * job's (the job runs the best kernel path). For frames clips also every
 * kernel path against the codec's sampler on that path; for quantized clips
 * the scalar decoder too (the SSE2 one gives the same bits). Returns the
 * number of joint samples compared. */
static uint32_t check_joints_vs_job(const sw_clip* c, const sw_skeleton* s, uint32_t seed) {
    sw_xform4* pose = alloc_pose(s);
    float times[TIMES];
    uint32_t rng = seed, compared = 0;
    test_times(c->duration, &rng, times);
    uint32_t paths_count = 0;
    const sw__soa_ops* const* paths = sw__soa_paths(&paths_count);
    for (uint32_t i = 0; i < TIMES; ++i) {
        sample_job(c, s, times[i], pose);
        for (uint32_t j = 0; j < s->joints_count; ++j) {
            const sw_xform a = sw__clip_sample_joint(c, s, j, times[i]);
            const sw_xform b = sw_pose_get(pose, j);
            if (memcmp(&a, &b, sizeof a) != 0) {
                fail_msg("%s (codec %u) joint %u at %.9g: t %g %g %g r %g %g %g %g vs job t %g %g "
                         "%g r %g %g %g %g",
                         sw_clip_name(c), c->codec, j, (double)times[i], (double)a.t.x,
                         (double)a.t.y, (double)a.t.z, (double)a.r.x, (double)a.r.y, (double)a.r.z,
                         (double)a.r.w, (double)b.t.x, (double)b.t.y, (double)b.t.z, (double)b.r.x,
                         (double)b.r.y, (double)b.r.z, (double)b.r.w);
            }
            ++compared;
        }
        /* the codec samplers clamp nothing: give them the job's clamped time */
        float tc = times[i] > 0.0f ? times[i] : 0.0f;
        tc = tc < c->duration ? tc : c->duration;
        if (c->codec == SW_CLIP_CODEC_FRAMES) {
            for (uint32_t p = 0; p < paths_count; ++p) {
                sw__codec_frames_sample_with(c, tc, pose, paths[p]);
                for (uint32_t j = 0; j < s->joints_count; ++j) {
                    const sw_xform a = sw__clip_sample_joint_with(c, s, j, times[i], paths[p]);
                    const sw_xform b = sw_pose_get(pose, j);
                    if (memcmp(&a, &b, sizeof a) != 0)
                        fail_msg("frames path %s joint %u at %g", paths[p]->name, j,
                                 (double)times[i]);
                    ++compared;
                }
            }
        } else if (c->codec == SW_CLIP_CODEC_QUANTIZED) {
            sw__codec_quantized_sample_subset(c, s, tc, NULL, pose, false);
            for (uint32_t j = 0; j < s->joints_count; ++j) {
                const sw_xform a = sw__clip_sample_joint(c, s, j, times[i]);
                const sw_xform b = sw_pose_get(pose, j);
                if (memcmp(&a, &b, sizeof a) != 0)
                    fail_msg("quantized scalar decoder joint %u at %g", j, (double)times[i]);
                ++compared;
            }
        }
    }
    free(pose);
    return compared;
}

/* ---- a small additive clip: 6 joints, tracks on joints 1 (rotation) and 4
 * (translation, scale); the others untracked (identity, not rest) ---- */

#define ADD_JOINTS 6
#define ADD_KEYS 31

static void make_additive(const sw_skeleton** skel, const sw_clip** clip) {
    const sw_skeleton_joint joints[ADD_JOINTS] = {
        {"a", -1, {{0, 1, 0}, {0, 0, 0, 1}, {1, 1, 1}}},
        {"b", 0, {{0, 0.3f, 0}, {0, 0.2588190f, 0, 0.9659258f}, {1, 1, 1}}},
        {"c", 1, {{0.2f, 0.3f, 0}, {0, 0, 0, 1}, {1, 1, 1}}},
        {"d", 0, {{0.1f, -0.5f, 0}, {0, 0, 0, 1}, {2, 2, 2}}},
        {"e", 3, {{0, -0.4f, 0.1f}, {0, 0, 0, 1}, {1, 1, 1}}},
        {"f", 4, {{0, -0.1f, 0}, {0, 0, 0, 1}, {1, 1, 1}}},
    };
    sw_skeleton_desc sd = {joints, ADD_JOINTS};
    assert_int_equal(sw_skeleton_create(&sd, NULL, skel, NULL), SW_RESULT_OK);
    float r[ADD_KEYS * 4], t[ADD_KEYS * 3], s[ADD_KEYS * 3];
    for (uint32_t k = 0; k < ADD_KEYS; ++k) {
        const float ph = 6.2831853f * (float)k / (float)(ADD_KEYS - 1u);
        sw_quat q = sw_quat_from_axis_angle(sw_vec3_make(1, 0, 0), 0.4f * sinf(ph));
        memcpy(&r[4 * k], &q, sizeof q);
        t[3 * k + 0] = 0.05f * sinf(ph);
        t[3 * k + 1] = 0.0f;
        t[3 * k + 2] = 0.02f * cosf(ph);
        s[3 * k + 0] = s[3 * k + 1] = s[3 * k + 2] = 1.0f + 0.1f * sinf(ph);
    }
    sw_clip_track_desc tracks[3] = {
        {.kind = SW_TRACK_KIND_ROTATION,
         .joint = 1,
         .keys_count = ADD_KEYS,
         .rate = 30.0f,
         .values = r},
        {.kind = SW_TRACK_KIND_TRANSLATION,
         .joint = 4,
         .keys_count = ADD_KEYS,
         .rate = 30.0f,
         .values = t},
        {.kind = SW_TRACK_KIND_SCALE,
         .joint = 4,
         .keys_count = ADD_KEYS,
         .rate = 30.0f,
         .values = s},
    };
    sw_clip_desc d = {.name = "breathe",
                      .duration = 1.0f,
                      .joints_count = ADD_JOINTS,
                      .additive = true,
                      .tracks = tracks,
                      .tracks_count = 3};
    sw_error err;
    sw_result res = sw_clip_create(&d, NULL, clip, &err);
    if (res != SW_RESULT_OK) fail_msg("clip: %s (%s)", sw_result_str(res), err.check);
}

static void test_joint_additive(void** state) {
    (void)state;
    const sw_skeleton* s = NULL;
    const sw_clip* raw = NULL;
    make_additive(&s, &raw);
    const sw_clip* copies[CODECS];
    make_copies(s, raw, 0.1f, copies);
    for (uint32_t k = 0; k < CODECS; ++k) {
        check_joints_vs_job(copies[k], s, 7u + k);
        /* untracked joints are identity, not the rest pose (joint 1 rests
         * turned 30 degrees, joint 3 at scale 2) */
        const sw_xform id = sw_xform_identity();
        const sw_xform x = sw__clip_sample_joint(copies[k], s, 3, 0.3f);
        /* Within 2 ulp of 1: the frames decoder normalizes through the
         * SIMD reciprocal square root, whose estimate differs between CPU
         * vendors (an Intel part gives w = 0.99999994, AMD's 1). */
        float xf[10], idf[10];
        memcpy(xf, &x, sizeof xf);
        memcpy(idf, &id, sizeof idf);
        for (uint32_t f = 0; f < 10u; ++f)
            assert_float_equal(xf[f], idf[f], 1.2e-7f);
    }
    free_copies(copies);
    sw_clip_destroy(raw, NULL);
    sw_skeleton_destroy(s, NULL);
}

static void test_joint_humanoid(void** state) {
    (void)state;
    sw_scene sc;
    sw_error err;
    assert_int_equal(sw_showcase_humanoid(NULL, &sc, NULL, &err), SW_RESULT_OK);
    uint32_t compared = 0;
    for (uint32_t i = 0; i < sc.clips_count; ++i) {
        const sw_clip* copies[CODECS];
        make_copies(sc.skeleton, sc.clips[i], 0.1f, copies);
        for (uint32_t k = 0; k < CODECS; ++k)
            compared += check_joints_vs_job(copies[k], sc.skeleton, 100u * i + k);
        free_copies(copies);
    }
    print_message("humanoid: %u joint samples bit for bit equal to the job's\n", compared);
    sw_scene_free(&sc, NULL);
}

/* The tools that rebuild clips from raw keys refuse quantized and frames
 * clips with INVALID_ARGUMENT and the check "raw clip", writing nothing. */
static void test_tools_refuse_codec_clips(void** state) {
    (void)state;
    sw_scene sc;
    sw_error err;
    assert_int_equal(sw_showcase_humanoid(NULL, &sc, NULL, &err), SW_RESULT_OK);
    const sw_clip* copies[CODECS];
    make_copies(sc.skeleton, sc.clips[1], 0.1f, copies);
    sw_mirror_desc md = {.skeleton = sc.skeleton};
    const sw_mirror* mirror = NULL;
    assert_int_equal(sw_mirror_create(&md, NULL, &mirror, &err), SW_RESULT_OK);
    for (uint32_t k = CODEC_QUANTIZED; k < CODECS; ++k) {
        const sw_clip* out = NULL;
        memset(&err, 0, sizeof err);
        assert_int_equal(sw_compress_clip(sc.skeleton, copies[k], NULL, NULL, &out, NULL, &err),
                         SW_RESULT_INVALID_ARGUMENT);
        assert_string_equal(err.check, "raw clip");
        assert_null(out);
        memset(&err, 0, sizeof err);
        assert_int_equal(sw_frames_build(sc.skeleton, copies[k], NULL, NULL, &out, NULL, &err),
                         SW_RESULT_INVALID_ARGUMENT);
        assert_string_equal(err.check, "raw clip");
        assert_null(out);
        memset(&err, 0, sizeof err);
        assert_int_equal(
            sw_mirror_bake_clip(sc.skeleton, mirror, copies[k], NULL, NULL, &out, &err),
            SW_RESULT_INVALID_ARGUMENT);
        assert_string_equal(err.check, "raw clip");
        assert_null(out);
    }
    /* the raw clip itself is accepted by all three */
    const sw_clip* out = NULL;
    assert_int_equal(
        sw_mirror_bake_clip(sc.skeleton, mirror, copies[CODEC_RAW], NULL, NULL, &out, &err),
        SW_RESULT_OK);
    sw_clip_destroy(out, NULL);
    sw_mirror_destroy(mirror, NULL);
    free_copies(copies);
    sw_scene_free(&sc, NULL);
}

static bool load_robot(sw_scene* sc) {
    char path[512];
    memset(sc, 0, sizeof *sc);
    if (!sw_test_asset_path(path, sizeof path, "RobotExpressive.glb")) return false;
    assert_int_equal(sw_gltf_read_file(path, NULL, NULL, sc, NULL), SW_RESULT_OK);
    return true;
}

static const sw_clip* find_clip(const sw_scene* sc, const char* name) {
    for (uint32_t i = 0; i < sc->clips_count; ++i) {
        if (strcmp(sw_clip_name(sc->clips[i]), name) == 0) return sc->clips[i];
    }
    fail_msg("no clip %s", name);
    return NULL;
}

static void test_joint_robot(void** state) {
    (void)state;
    sw_scene sc;
    if (!load_robot(&sc)) return;
    uint32_t compared = 0;
    for (uint32_t i = 0; i < sc.clips_count; ++i) {
        const sw_clip* copies[CODECS];
        make_copies(sc.skeleton, sc.clips[i], 0.1f, copies);
        for (uint32_t k = 0; k < CODECS; ++k)
            compared += check_joints_vs_job(copies[k], sc.skeleton, 1000u + 10u * i + k);
        free_copies(copies);
    }
    print_message("RobotExpressive: %u joint samples bit for bit equal to the job's\n", compared);
    sw_scene_free(&sc, NULL);
}

/* ---- root motion over cycles ---- */

/* The root joint's ground transform (x, z, yaw about +Y in model space) from
 * a full sampled pose: the joint's local transform under its parents at
 * rest, as the animator defines it (a test-side reimplementation). */
typedef struct ground {
    double x, z, yaw;
} ground;

static ground ground_of(const sw_skeleton* s, const sw_xform4* pose, uint32_t joint) {
    sw_xform m = sw_pose_get(pose, joint);
    for (int32_t p = sw_skeleton_parents(s)[joint]; p >= 0; p = sw_skeleton_parents(s)[p])
        m = sw_xform_mul(sw_pose_get(sw_skeleton_rest_pose(s), (uint32_t)p), m);
    ground g = {m.t.x, m.t.z, 2.0 * atan2((double)m.r.y, (double)m.r.w)};
    return g;
}

static double wrap_pi(double a) {
    while (a > 3.14159265358979)
        a -= 6.28318530717959;
    while (a < -3.14159265358979)
        a += 6.28318530717959;
    return a;
}

/* Largest difference of c's root ground transform from ref's over dense
 * times (sampling jobs, 480 Hz): position on the ground plane and yaw. */
static void ground_error(const sw_skeleton* s, const sw_clip* ref, const sw_clip* c, uint32_t joint,
                         double* ep, double* ey) {
    sw_xform4* a = alloc_pose(s);
    sw_xform4* b = alloc_pose(s);
    *ep = *ey = 0.0;
    const uint32_t n = (uint32_t)(ref->duration * 480.0f) + 1u;
    for (uint32_t i = 0; i <= n; ++i) {
        const float t = ref->duration * (float)i / (float)n;
        sample_job(ref, s, t, a);
        sample_job(c, s, t, b);
        const ground ga = ground_of(s, a, joint), gb = ground_of(s, b, joint);
        *ep = fmax(*ep, hypot(ga.x - gb.x, ga.z - gb.z));
        *ey = fmax(*ey, fabs(wrap_pi(ga.yaw - gb.yaw)));
    }
    free(a);
    free(b);
}

/* Plays `clip` looping in a one-state animator for `seconds` at `fps` with
 * root motion from `root`; accumulates the motion in the world (x, z, yaw). */
static ground play(const sw_skeleton* s, const sw_clip* clip, const char* root, float fps,
                   uint32_t frames) {
    const sw_animator_param_desc params[] = {{"unused", SW_ANIMATOR_PARAM_TYPE_FLOAT, 0.0f}};
    const sw_animator_state_desc states[] = {
        {"Loop", SW_ANIMATOR_MOTION_CLIP, sw_clip_name(clip), false, 0.0f, NULL}};
    const sw_animator_machine_desc machines[] = {{"Main", states, 1, NULL, 0, NULL}};
    const sw_animator_layer_desc layers[] = {{"base", "Main", SW_ANIMATOR_LAYER_MODE_DEFAULT, 0.0f,
                                              NULL, NULL, 0, SW_ANIMATOR_REFERENCE_DEFAULT}};
    sw_animator_desc d = {.params = params,
                          .params_count = 1,
                          .machines = machines,
                          .machines_count = 1,
                          .layers = layers,
                          .layers_count = 1,
                          .root_motion_joint = root};
    const sw_animator* def = NULL;
    sw_error err;
    sw_result r = sw_animator_create(&d, NULL, &def, &err);
    if (r != SW_RESULT_OK) fail_msg("create: %s (%s)", sw_result_str(r), err.check);
    const size_t bs = sw_animator_bound_size(def, s);
    void* bmem = aligned_alloc(16, (bs + 15u) & ~(size_t)15u);
    const sw_animator_bound* bound = NULL;
    r = sw_animator_bind(def, s, &clip, 1, bmem, bs, &bound, &err);
    if (r != SW_RESULT_OK) fail_msg("bind: %s (%s)", sw_result_str(r), err.check);
    const size_t is = sw_animator_instance_size(bound);
    void* imem = aligned_alloc(16, (is + 15u) & ~(size_t)15u);
    sw_animator_instance* inst = NULL;
    assert_int_equal(sw_animator_instance_init(imem, is, bound, &inst), SW_RESULT_OK);
    float pv[SW_ANIMATOR_MAX_PARAMS];
    assert_int_equal(sw_animator_params_reset(def, pv, SW_ANIMATOR_MAX_PARAMS), SW_RESULT_OK);
    ground g = {0.0, 0.0, 0.0};
    for (uint32_t f = 0; f < frames; ++f) {
        sw_animator_root_motion rm;
        uint32_t n = 0;
        assert_int_equal(sw_animator_update(inst, bound, pv, SW_ANIMATOR_MAX_PARAMS, 1.0f / fps,
                                            NULL, 0, &n, &rm),
                         SW_RESULT_OK);
        const double c = cos(g.yaw), sn = sin(g.yaw);
        g.x += c * rm.translation.x + sn * rm.translation.z;
        g.z += -sn * rm.translation.x + c * rm.translation.z;
        g.yaw += rm.yaw;
    }
    free(imem);
    free(bmem);
    sw_animator_destroy(def, NULL);
    return g;
}

/* Root motion of raw, quantized and frames copies of `raw` over `cycles`
 * whole cycles plus a fraction, at 60 fps. Expectations:
 * - raw: the closed form from two sampling jobs: `cycles` times the ground
 *   transform from time 0 to the duration composed, then 0 to the fraction;
 * - each codec vs raw within a bound from its measured ground error (ep in
 *   position, ey in yaw, over dense times): each cycle's displacement D is
 *   off by at most 2 ep + |D| 2 ey and turns at most 2 ey more, so after
 *   k cycles the heading is off by 2 k ey and the position by
 *   sum_k (2 ep + |D| 2 ey + |D| 2 k ey), plus one partial cycle and twice
 *   for float noise. */
static ground check_root_motion(const sw_skeleton* s, const sw_clip* raw, const char* root,
                                uint32_t cycles, const char* what, double min_distance) {
    const int32_t joint = sw_skeleton_find_joint(s, root);
    assert_true(joint >= 0);
    const sw_clip* copies[CODECS];
    make_copies(s, raw, 0.1f, copies);
    const float fps = 60.0f;
    const double seconds = (cycles + 0.37) * (double)raw->duration;
    const uint32_t frames = (uint32_t)(seconds * fps + 0.5);
    const double played = frames / (double)fps;

    /* the closed form for raw */
    sw_xform4* pose = alloc_pose(s);
    sample_job(raw, s, 0.0f, pose);
    const ground g0 = ground_of(s, pose, (uint32_t)joint);
    sample_job(raw, s, raw->duration, pose);
    const ground gd = ground_of(s, pose, (uint32_t)joint);
    const double whole = floor(played / raw->duration);
    sample_job(raw, s, (float)(played - whole * raw->duration), pose);
    const ground gf = ground_of(s, pose, (uint32_t)joint);
    free(pose);
    /* one cycle in the frame of g0 */
    const double cy = cos(g0.yaw), sy = sin(g0.yaw);
    const double dxw = gd.x - g0.x, dzw = gd.z - g0.z;
    const double cx = cy * dxw - sy * dzw, cz = sy * dxw + cy * dzw;
    const double cyaw = wrap_pi(gd.yaw - g0.yaw);
    const double fxw = gf.x - g0.x, fzw = gf.z - g0.z;
    const double px = cy * fxw - sy * fzw, pz = sy * fxw + cy * fzw;
    ground want = {0.0, 0.0, 0.0};
    for (uint32_t k = 0; k <= (uint32_t)whole; ++k) {
        const double lx = k < (uint32_t)whole ? cx : px, lz = k < (uint32_t)whole ? cz : pz;
        const double c = cos(want.yaw), sn = sin(want.yaw);
        want.x += c * lx + sn * lz;
        want.z += -sn * lx + c * lz;
        want.yaw += k < (uint32_t)whole ? cyaw : wrap_pi(gf.yaw - g0.yaw);
    }

    ground got[CODECS];
    for (uint32_t k = 0; k < CODECS; ++k)
        got[k] = play(s, copies[k], root, fps, frames);
    const double dist = hypot(got[CODEC_RAW].x, got[CODEC_RAW].z);
    print_message("%s: %u cycles + 0.37 (%.3f s), raw root motion x %.4f z %.4f yaw %.4f "
                  "(closed form x %.4f z %.4f yaw %.4f)\n",
                  what, cycles, played, got[0].x, got[0].z, got[0].yaw, want.x, want.z, want.yaw);
    assert_true(dist >= min_distance);
    const double tol_raw = 1e-5 * (1.0 + dist) * (double)cycles;
    assert_near(got[CODEC_RAW].x, want.x, tol_raw);
    assert_near(got[CODEC_RAW].z, want.z, tol_raw);
    assert_near(got[CODEC_RAW].yaw, want.yaw, 1e-5 * (double)cycles);

    const double D = hypot(cx, cz);
    for (uint32_t k = 1; k < CODECS; ++k) {
        double ep, ey;
        ground_error(s, raw, copies[k], (uint32_t)joint, &ep, &ey);
        const double n = (double)cycles + 1.0;
        const double tol_pos =
            2.0 * (n * (2.0 * ep + 2.0 * D * ey) + D * 2.0 * ey * n * (n + 1.0) / 2.0) + 1e-5 * n;
        const double tol_yaw = 2.0 * (2.0 * ey * n) + 1e-5 * n;
        const double dp = hypot(got[k].x - got[CODEC_RAW].x, got[k].z - got[CODEC_RAW].z);
        const double dy = fabs(got[k].yaw - got[CODEC_RAW].yaw);
        print_message("  %-9s x %.4f z %.4f yaw %.4f: off by %.3g m (bound %.3g; ground error "
                      "%.3g m, %.3g rad), yaw %.3g (bound %.3g)\n",
                      k_codec_names[k], got[k].x, got[k].z, got[k].yaw, dp, tol_pos, ep, ey, dy,
                      tol_yaw);
        assert_true(dp <= tol_pos);
        assert_true(dy <= tol_yaw);
    }
    free_copies(copies);
    return got[CODEC_RAW];
}

static void test_root_motion_humanoid(void** state) {
    (void)state;
    sw_scene sc;
    sw_error err;
    float speeds[SW_SHOWCASE_HUMANOID_CLIPS];
    assert_int_equal(sw_showcase_humanoid(NULL, &sc, speeds, &err), SW_RESULT_OK);
    /* walk (1.4 m/s) and run (5 m/s): forward along +Z */
    const uint32_t clips[2] = {1, 3};
    for (uint32_t i = 0; i < 2; ++i) {
        const sw_clip* c = sc.clips[clips[i]];
        const uint32_t cycles = 5;
        check_root_motion(sc.skeleton, c, "Hips", cycles, sw_clip_name(c),
                          0.9 * speeds[clips[i]] * cycles * c->duration);
    }
    sw_scene_free(&sc, NULL);
}

static void test_root_motion_robot(void** state) {
    (void)state;
    sw_scene sc;
    if (!load_robot(&sc)) return;
    /* Walking walks in place: its Body sways and twists (about 2 cm and
     * -0.157 rad over the 4.37 cycles played), which every codec must keep. */
    const ground g = check_root_motion(sc.skeleton, find_clip(&sc, "Walking"), "Body", 4,
                                       "RobotExpressive Walking", 0.0);
    assert_true(fabs(g.yaw) > 0.1);
    sw_scene_free(&sc, NULL);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_joint_additive),    cmocka_unit_test(test_joint_humanoid),
        cmocka_unit_test(test_joint_robot),       cmocka_unit_test(test_root_motion_humanoid),
        cmocka_unit_test(test_root_motion_robot), cmocka_unit_test(test_tools_refuse_codec_clips),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
