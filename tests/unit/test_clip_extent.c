/* sw_clip_check_extent (issue #18, finding 6): clips whose values are
 * finite one by one but overflow together in model space are refused at
 * the first joint past the bound, computed here by hand: a chain of scale
 * keys whose product passes FLT_MAX / 16, cubic tangents that pull a value
 * past it between keys (the same keys linear pass), translations summing
 * along a chain; the BVH file whose sampled chain overflowed to inf before
 * is refused when opened, and real files open. */
#include "test_util.h"

#include <float.h>

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

static void test_files(void** state) {
    (void)state;
    sw_asset a;
    sw_error err = SW_ERROR_INIT;
    /* twelve joints moved 3e37 each: sampled, the chain summed to inf */
    assert_int_equal(sw_asset_open(SINEW_TEST_DATA "/overflow_chain.bvh", NULL, &a, &err),
                     SW_RESULT_BAD_DATA);
    assert_string_equal(err.check, "clip finite in model space");
    const char* real[] = {SINEW_TEST_ASSETS "/RobotExpressive.glb",
                          SINEW_TEST_MODELS "/BVH/01_03.bvh", SINEW_TEST_DATA "/gltf/tiny.glb"};
    for (size_t i = 0; i < sizeof real / sizeof real[0]; ++i) {
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
        cmocka_unit_test(test_scale_products),
        cmocka_unit_test(test_cubic_tangents),
        cmocka_unit_test(test_translation_sums),
        cmocka_unit_test(test_files),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
