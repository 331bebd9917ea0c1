/* sw_clip_check_extent (issue #18, finding 6): clips whose values are
 * finite one by one but overflow together in model space are refused at
 * the first joint past the bound, computed here by hand: a chain of scale
 * keys whose product passes FLT_MAX / 16, cubic tangents that pull a value
 * past it between keys (the same keys linear pass), translations summing
 * along a chain; the BVH file whose sampled chain overflowed to inf before
 * is refused when opened, and real files open. Compressed clips (quantized
 * and frames codecs) are made from honest raw clips, then their stored
 * values are crafted (still valid one by one, so they load): the refusal
 * comes at the joint computed by hand, an archive holding them is refused
 * when opened, and where the bound is passed by far the sampled model-space
 * pose is shown to overflow. */
#include "test_util.h"

#include <float.h>

#include <unistd.h>

#include "sinew/tools/builders/compress.h"
#include "sinew/tools/builders/frames.h"
#include "sinew/tools/readers/asset.h"

#define BOUND (FLT_MAX / 16.0f)

/* A chain of `n` joints, each 1 m above its parent. */
static const sw_skeleton* chain(uint32_t n) {
    sw_skeleton_joint js[8];
    static const char* names[8] = {"a", "b", "c", "d", "e", "f", "g", "h"};
    for (uint32_t j = 0; j < n; ++j) {
        js[j] = (sw_skeleton_joint){.name = names[j],
                                    .parent = (int32_t)j - 1,
                                    .rest = {{0, 1, 0}, {0, 0, 0, 1}, {1, 1, 1}}};
    }
    const sw_skeleton_desc d = {.joints = js, .joints_count = n};
    const sw_skeleton* s = NULL;
    assert_int_equal(sw_skeleton_create(&d, NULL, &s, NULL), SW_RESULT_OK);
    return s;
}

static const sw_clip* make_clip(const sw_clip_track_desc* tracks, uint32_t count, uint32_t joints) {
    const sw_clip_desc d = {.name = "c",
                            .duration = 1.0f,
                            .joints_count = joints,
                            .tracks = tracks,
                            .tracks_count = count};
    const sw_clip* c = NULL;
    assert_int_equal(sw_clip_create(&d, NULL, &c, NULL), SW_RESULT_OK);
    return c;
}

static void test_scale_products(void** state) {
    (void)state;
    const sw_skeleton* s = chain(3);
    /* 1e13 per joint: 1e13, 1e26 within the bound, 1e39 past it at joint 2 */
    const float big[6] = {1, 1, 1, 1e13f, 1e13f, 1e13f};
    sw_clip_track_desc t[3];
    for (uint32_t j = 0; j < 3; ++j) {
        t[j] = (sw_clip_track_desc){
            .kind = SW_TRACK_KIND_SCALE, .joint = j, .keys_count = 2, .rate = 1.0f, .values = big};
    }
    const sw_clip* c = make_clip(t, 3, 3);
    sw_error err = SW_ERROR_INIT;
    assert_int_equal(sw_clip_check_extent(c, s, &err), SW_RESULT_BAD_DATA);
    assert_string_equal(err.check, "clip finite in model space");
    assert_int_equal(err.index, 2);
    assert_non_null(strstr(err.detail, "joint \"c\""));
    sw_clip_destroy(c, NULL);
    /* two of them: 1e26 and the third joint's rest scale 1 */
    const sw_clip* two = make_clip(t, 2, 3);
    assert_int_equal(sw_clip_check_extent(two, s, &err), SW_RESULT_OK);
    sw_clip_destroy(two, NULL);
    sw_skeleton_destroy(s, NULL);
}

static void test_cubic_tangents(void** state) {
    (void)state;
    const sw_skeleton* s = chain(1);
    /* per key: in tangent, value, out tangent; values 1 m, tangents 1e38 m/s
     * over a 1 s interval: Hermite pulls the curve far past the bound */
    const float cubic[18] = {0, 0, 0, 1, 0, 0, 1e38f, 0, 0, 1e38f, 0, 0, 1, 0, 0, 0, 0, 0};
    const float linear[6] = {1, 0, 0, 1, 0, 0};
    sw_clip_track_desc t = {.kind = SW_TRACK_KIND_TRANSLATION,
                            .interp = SW_INTERP_CUBIC,
                            .keys_count = 2,
                            .rate = 1.0f,
                            .values = cubic};
    const sw_clip* c = make_clip(&t, 1, 1);
    sw_error err = SW_ERROR_INIT;
    assert_int_equal(sw_clip_check_extent(c, s, &err), SW_RESULT_BAD_DATA);
    assert_int_equal(err.index, 0);
    sw_clip_destroy(c, NULL);
    t.interp = SW_INTERP_LINEAR;
    t.values = linear;
    c = make_clip(&t, 1, 1);
    assert_int_equal(sw_clip_check_extent(c, s, &err), SW_RESULT_OK);
    sw_clip_destroy(c, NULL);
    sw_skeleton_destroy(s, NULL);
}

static void test_translation_sums(void** state) {
    (void)state;
    const sw_skeleton* s = chain(8);
    /* |t|_1 = 3e36 per joint: the sum passes BOUND (2.13e37) at joint 7
     * (8 x 3e36 = 2.4e37; 7 x 3e36 = 2.1e37 plus the rest pose's 0 is not) */
    const float v[6] = {0, 0, 0, 1e36f, 1e36f, 1e36f};
    sw_clip_track_desc t[8];
    for (uint32_t j = 0; j < 8; ++j) {
        t[j] = (sw_clip_track_desc){.kind = SW_TRACK_KIND_TRANSLATION,
                                    .joint = j,
                                    .keys_count = 2,
                                    .rate = 1.0f,
                                    .values = v};
    }
    const sw_clip* c = make_clip(t, 8, 8);
    sw_error err = SW_ERROR_INIT;
    assert_true(7.0f * 3e36f <= BOUND && 8.0f * 3e36f > BOUND);
    assert_int_equal(sw_clip_check_extent(c, s, &err), SW_RESULT_BAD_DATA);
    assert_int_equal(err.index, 7);
    sw_clip_destroy(c, NULL);
    /* the first seven alone, the last joint at rest (1 m): within */
    c = make_clip(t, 7, 8);
    assert_int_equal(sw_clip_check_extent(c, s, &err), SW_RESULT_OK);
    sw_clip_destroy(c, NULL);
    assert_int_equal(sw_clip_check_extent(NULL, s, &err), SW_RESULT_INVALID_ARGUMENT);
    sw_skeleton_destroy(s, NULL);
}

/* ---- compressed clips ---------------------------------------------------- */

/* A raw clip moving every joint of an n-joint chain through two keys a
 * second apart: translations (0, 1, 0) -> (0, 2, 0), or rotations of 0 ->
 * 2 degrees about z (a turn the decoder lerps: wider ones it may follow
 * along the arc, which normalizes and so never overflows), or scales 1 ->
 * 2. */
static const sw_clip* moving(uint32_t n, sw_track_kind kind) {
    static const float t[6] = {0, 1, 0, 0, 2, 0};
    static const float r[8] = {0, 0, 0, 1, 0, 0, 0.017452406f, 0.99984771f};
    static const float sc[6] = {1, 1, 1, 2, 2, 2};
    sw_clip_track_desc d[8];
    for (uint32_t j = 0; j < n; ++j) {
        d[j] = (sw_clip_track_desc){.kind = kind,
                                    .joint = j,
                                    .keys_count = 2,
                                    .rate = 1.0f,
                                    .values = kind == SW_TRACK_KIND_TRANSLATION ? t
                                              : kind == SW_TRACK_KIND_ROTATION  ? r
                                                                                : sc};
    }
    return make_clip(d, n, n);
}

static const sw_clip* quantized(const sw_skeleton* s, const sw_clip* raw) {
    const sw_clip* q = NULL;
    sw_error err = SW_ERROR_INIT;
    assert_int_equal(sw_compress_clip(s, raw, NULL, NULL, &q, NULL, &err), SW_RESULT_OK);
    assert_int_equal(q->codec, SW_CLIP_CODEC_QUANTIZED);
    return q;
}

/* The animated track records of a quantized clip, writable (the clip is
 * ours: sw_compress_clip allocated it). */
static sw_codec_track* codec_tracks(const sw_clip* q, uint32_t* count) {
    const sw_codec_header* h = sw_clip_codec_header(q);
    *count = h->animated_count;
    return (sw_codec_track*)(uintptr_t)((const char*)h + h->tracks_offset);
}

/* Sets component c of every animated track of `kind` to the value v at
 * every key (minimum v, extent 0), all three of a uniform scale track
 * (whose x, y and z share one range); the clip still loads. */
static void craft_tracks(const sw_clip* q, sw_track_kind kind, uint32_t c, float v) {
    uint32_t n = 0;
    sw_codec_track* tr = codec_tracks(q, &n);
    uint32_t crafted = 0;
    for (uint32_t a = 0; a < n; ++a) {
        if (tr[a].kind != kind) continue;
        const bool uniform = (tr[a].flags & SW_CODEC_TRACK_UNIFORM) != 0u;
        for (uint32_t i = uniform ? 0u : c; i <= (uniform ? 2u : c); ++i) {
            tr[a].min[i] = v;
            tr[a].extent[i] = 0.0f;
        }
        ++crafted;
    }
    assert_true(crafted > 0);
    const sw_clip* again = NULL;
    assert_int_equal(sw_clip_load(q, q->size, &again, NULL), SW_RESULT_OK);
}

/* Whether sampling c at its start and end, then local-to-model, gives a
 * model-space pose with a value that is not finite. */
static bool samples_overflow(const sw_clip* c, const sw_skeleton* s) {
    SINEW_ALIGN16 sw_xform4 local[2];
    sw_mat4 model[8];
    bool overflow = false;
    for (int k = 0; k < 2; ++k) {
        sw_sample_job sj = {
            .clip = c, .skeleton = s, .time = (float)k * c->duration, .out = local, .out_count = 2};
        assert_int_equal(sw_sample_job_run(&sj), SW_RESULT_OK);
        sw_local_to_model_job lj = {
            .skeleton = s, .local = local, .local_count = 2, .out = model, .out_count = 8};
        assert_int_equal(sw_local_to_model_job_run(&lj), SW_RESULT_OK);
        for (uint32_t j = 0; j < s->joints_count; ++j) {
            for (int i = 0; i < 16; ++i)
                overflow = overflow || !isfinite(model[j].m[i]);
        }
    }
    return overflow;
}

/* Destroys a compressed clip, its raw source and their skeleton. */
static void release(const sw_clip* c, const sw_clip* raw, const sw_skeleton* s) {
    sw_clip_destroy(c, NULL);
    sw_clip_destroy(raw, NULL);
    sw_skeleton_destroy(s, NULL);
}

/* Writes skeleton s and clip c to an archive and opens it: the result, the
 * error in err. */
static sw_result open_archive(const sw_skeleton* s, const sw_clip* c, sw_error* err) {
    char path[128];
    snprintf(path, sizeof path, "/tmp/sinew_test_extent_%ld.sinew", (long)getpid());
    const sw_archive_contents contents = {
        .skeletons = &s, .skeletons_count = 1, .clips = &c, .clips_count = 1};
    assert_int_equal(sw_archive_write_file(&contents, path, NULL), SW_RESULT_OK);
    sw_asset a;
    const sw_result r = sw_asset_open(path, NULL, &a, err);
    if (r == SW_RESULT_OK) sw_asset_free(&a);
    remove(path);
    return r;
}

/* The quantized clip of moving(n, kind) on chain(n) is within the bound;
 * with the components in `mask` of every track set to v it still loads,
 * samples to a pose that overflows when `overflows`, and is refused at
 * joint `index`, also when opened from an archive. */
static void expect_refused(uint32_t n, sw_track_kind kind, uint32_t mask, float v, bool overflows,
                           int64_t index) {
    const sw_skeleton* s = chain(n);
    const sw_clip* raw = moving(n, kind);
    const sw_clip* q = quantized(s, raw);
    sw_error err = SW_ERROR_INIT;
    assert_int_equal(sw_clip_check_extent(q, s, &err), SW_RESULT_OK);
    assert_int_equal(open_archive(s, q, &err), SW_RESULT_OK);
    for (uint32_t c = 0; c < 4; ++c) {
        if (mask & (1u << c)) craft_tracks(q, kind, c, v);
    }
    assert_int_equal(samples_overflow(q, s), overflows);
    assert_int_equal(sw_clip_check_extent(q, s, &err), SW_RESULT_BAD_DATA);
    assert_int_equal(err.index, index);
    assert_int_equal(open_archive(s, q, &err), SW_RESULT_BAD_DATA);
    assert_string_equal(err.check, "clip finite in model space");
    char joint[16];
    snprintf(joint, sizeof joint, "joint \"%c\"", (char)('a' + index));
    assert_non_null(strstr(err.detail, joint));
    release(q, raw, s);
}

static void test_quantized_translations(void** state) {
    (void)state;
    /* y = 6e36 on every joint: the sums 6e36, 1.2e37, 1.8e37 stay within
     * BOUND (2.13e37), the fourth, 2.4e37, passes it at joint 3 */
    assert_true(3.0f * 6e36f <= BOUND && 4.0f * 6e36f > BOUND);
    expect_refused(4, SW_TRACK_KIND_TRANSLATION, 2u, 6e36f, false, 3);
    /* 1e38 each: past the bound at once; the sampled chain sums to inf */
    expect_refused(4, SW_TRACK_KIND_TRANSLATION, 2u, 1e38f, true, 0);
}

static void test_quantized_scales(void** state) {
    (void)state;
    /* 1e13 on x of every joint (and y, z: the scales 1 -> 2 are stored
     * uniform): products 1e13, 1e26, then 1e39 at joint 2,
     * which the sampled matrices carry to inf */
    expect_refused(3, SW_TRACK_KIND_SCALE, 1u, 1e13f, true, 2);
}

static void test_quantized_rotations(void** state) {
    (void)state;
    /* every stored component 1e7 (the fourth is rebuilt as 0): |q|^2 = 3e14
     * whichever three are stored, a stretch of 2|q|^2 - 1 ~ 6e14 per joint:
     * 6e14, 3.6e29, then 2.2e44 at joint 2, inf when sampled */
    expect_refused(3, SW_TRACK_KIND_ROTATION, 15u, 1e7f, true, 2);
    /* stored components 0.5 (|q|^2 = 0.75 < 1, made unit): within */
    const sw_skeleton* s = chain(3);
    const sw_clip* raw = moving(3, SW_TRACK_KIND_ROTATION);
    const sw_clip* q = quantized(s, raw);
    for (uint32_t c = 0; c < 4; ++c)
        craft_tracks(q, SW_TRACK_KIND_ROTATION, c, 0.5f);
    assert_false(samples_overflow(q, s));
    sw_error err = SW_ERROR_INIT;
    assert_int_equal(sw_clip_check_extent(q, s, &err), SW_RESULT_OK);
    release(q, raw, s);
}

static void test_frames(void** state) {
    (void)state;
    const sw_skeleton* s = chain(4);
    const sw_clip* raw = moving(4, SW_TRACK_KIND_TRANSLATION);
    const sw_clip* f = NULL;
    sw_error err = SW_ERROR_INIT;
    assert_int_equal(sw_frames_build(s, raw, NULL, NULL, &f, NULL, &err), SW_RESULT_OK);
    assert_int_equal(f->codec, SW_CLIP_CODEC_FRAMES);
    assert_int_equal(sw_clip_check_extent(f, s, &err), SW_RESULT_OK);
    assert_int_equal(open_archive(s, f, &err), SW_RESULT_OK);
    /* the last frame's y = 6e36 on every joint (one animated packet): the
     * sums pass BOUND at joint 3, as for the quantized clip */
    const sw_frames_header* h = sw_clip_frames_header(f);
    assert_int_equal(h->animated_count, 1);
    sw_xform4* last =
        (sw_xform4*)(uintptr_t)((const char*)h + h->frames_offset) + (h->frames_count - 1u);
    for (uint32_t l = 0; l < 4; ++l)
        last->ty[l] = 6e36f;
    const sw_clip* again = NULL;
    assert_int_equal(sw_clip_load(f, f->size, &again, NULL), SW_RESULT_OK);
    assert_int_equal(sw_clip_check_extent(f, s, &err), SW_RESULT_BAD_DATA);
    assert_int_equal(err.index, 3);
    assert_int_equal(open_archive(s, f, &err), SW_RESULT_BAD_DATA);
    assert_string_equal(err.check, "clip finite in model space");
    /* 1e38: the sampled chain sums to inf */
    for (uint32_t l = 0; l < 4; ++l)
        last->ty[l] = 1e38f;
    assert_true(samples_overflow(f, s));
    assert_int_equal(sw_clip_check_extent(f, s, &err), SW_RESULT_BAD_DATA);
    release(f, raw, s);
}

static void test_files(void** state) {
    (void)state;
    sw_asset a;
    sw_error err = SW_ERROR_INIT;
    /* twelve joints moved 3e37 each: sampled, the chain summed to inf */
    assert_int_equal(sw_asset_open(SINEW_TEST_DATA "/overflow_chain.bvh", NULL, &a, &err),
                     SW_RESULT_BAD_DATA);
    assert_string_equal(err.check, "clip finite in model space");
    char robot[512];
    const char* real[] = {sw_test_asset_path(robot, sizeof robot, "RobotExpressive.glb"),
                          SINEW_TEST_MODELS "/BVH/01_03.bvh", SINEW_TEST_DATA "/gltf/tiny.glb"};
    for (size_t i = 0; i < sizeof real / sizeof real[0]; ++i) {
        if (!real[i]) continue;
        const sw_result r = sw_asset_open(real[i], NULL, &a, &err);
        if (r == SW_RESULT_IO) {
            printf("skip %s: absent\n", real[i]);
            continue;
        }
        assert_int_equal(r, SW_RESULT_OK);
        sw_asset_free(&a);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_scale_products),   cmocka_unit_test(test_cubic_tangents),
        cmocka_unit_test(test_translation_sums), cmocka_unit_test(test_quantized_translations),
        cmocka_unit_test(test_quantized_scales), cmocka_unit_test(test_quantized_rotations),
        cmocka_unit_test(test_frames),           cmocka_unit_test(test_files),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
