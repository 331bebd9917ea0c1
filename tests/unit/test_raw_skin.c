/* The raw skin: influences added in any order per vertex, five or more
 * reduced to the four largest and normalised (against a hand computation),
 * four or fewer kept in the order added, zero weights keeping their slot
 * with joint 0, unweighted vertices counted, growth past the first
 * capacity, argument checks. */
#include "test_util.h"

#include "sinew/tools/builders/raw_skin.h"

static void test_four_largest(void** state) {
    (void)state;
    sw_raw_skin* skin = NULL;
    assert_int_equal(sw_raw_skin_create(1, NULL, &skin, NULL), SW_RESULT_OK);
    /* six influences; the two 0.1 tie: the earlier (joint 1) is kept */
    const float w[6] = {0.1f, 0.3f, 0.05f, 0.2f, 0.25f, 0.1f};
    for (uint16_t k = 0; k < 6; ++k)
        assert_int_equal(sw_raw_skin_add(skin, 0, (uint16_t)(k + 1u), w[k], NULL), SW_RESULT_OK);
    uint16_t joints[4];
    float weights[4];
    sw_raw_skin_stats st;
    assert_int_equal(sw_raw_skin_build(skin, joints, weights, &st, NULL), SW_RESULT_OK);
    /* largest first: 0.3 (joint 2), 0.25 (5), 0.2 (4), 0.1 (1); sum 0.85 */
    const uint16_t want_j[4] = {2, 5, 4, 1};
    const double want_w[4] = {0.3 / 0.85, 0.25 / 0.85, 0.2 / 0.85, 0.1 / 0.85};
    for (int c = 0; c < 4; ++c) {
        assert_int_equal(joints[c], want_j[c]);
        assert_near(weights[c], want_w[c], 1e-7);
    }
    assert_near(weights[0] + weights[1] + weights[2] + weights[3], 1.0, 1e-6);
    assert_int_equal(st.dropped, 2);      /* 0.05 and the second 0.1 */
    assert_int_equal(st.renormalized, 1); /* 0.85 is more than 1e-3 off 1 */
    assert_int_equal(st.unweighted, 0);
    sw_raw_skin_destroy(skin);
}

static void test_order_zeros_unweighted(void** state) {
    (void)state;
    sw_raw_skin* skin = NULL;
    assert_int_equal(sw_raw_skin_create(4, NULL, &skin, NULL), SW_RESULT_OK);
    /* per bone, as assimp gives them: vertices interleaved */
    assert_int_equal(sw_raw_skin_add(skin, 1, 7, 0.5f, NULL), SW_RESULT_OK);
    assert_int_equal(sw_raw_skin_add(skin, 0, 7, 2.0f, NULL), SW_RESULT_OK);
    assert_int_equal(sw_raw_skin_add(skin, 1, 3, 0.5f, NULL), SW_RESULT_OK);
    assert_int_equal(sw_raw_skin_add(skin, 0, 3, 2.0f, NULL), SW_RESULT_OK);
    /* vertex 2: a zero weight first keeps slot 0, with joint 0 */
    assert_int_equal(sw_raw_skin_add(skin, 2, 9, 0.0f, NULL), SW_RESULT_OK);
    assert_int_equal(sw_raw_skin_add(skin, 2, 4, 1.0f, NULL), SW_RESULT_OK);
    /* vertex 3: nothing */
    uint16_t joints[16];
    float weights[16];
    sw_raw_skin_stats st;
    assert_int_equal(sw_raw_skin_build(skin, joints, weights, &st, NULL), SW_RESULT_OK);
    const uint16_t want_j[16] = {7, 3, 0, 0, 7, 3, 0, 0, 0, 4, 0, 0, 0, 0, 0, 0};
    const float want_w[16] = {0.5f, 0.5f, 0, 0, 0.5f, 0.5f, 0, 0, 0, 1.0f, 0, 0, 0, 0, 0, 0};
    for (int k = 0; k < 16; ++k) {
        assert_int_equal(joints[k], want_j[k]);
        assert_near(weights[k], want_w[k], 0.0);
    }
    assert_int_equal(st.unweighted, 1);   /* vertex 3 */
    assert_int_equal(st.renormalized, 1); /* vertex 0: 2 + 2 */
    assert_int_equal(st.dropped, 0);
    sw_raw_skin_destroy(skin);
}

static void test_many(void** state) {
    (void)state;
    /* 1000 vertices, 5 influences each (past the first capacity of 1024),
     * added a round at a time: vertex v gets joints v % 7 + k with weights
     * 1 + k, k = 0..4; it keeps k = 4, 3, 2, 1 (weights 5, 4, 3, 2 over 14) */
    enum { V = 1000 };
    sw_raw_skin* skin = NULL;
    assert_int_equal(sw_raw_skin_create(V, NULL, &skin, NULL), SW_RESULT_OK);
    for (uint32_t k = 0; k < 5; ++k)
        for (uint32_t v = 0; v < V; ++v)
            assert_int_equal(
                sw_raw_skin_add(skin, v, (uint16_t)(v % 7u + k), 1.0f + (float)k, NULL),
                SW_RESULT_OK);
    uint16_t* joints = malloc(sizeof(uint16_t) * 4u * V);
    float* weights = malloc(sizeof(float) * 4u * V);
    assert_non_null(joints);
    assert_non_null(weights);
    sw_raw_skin_stats st;
    assert_int_equal(sw_raw_skin_build(skin, joints, weights, &st, NULL), SW_RESULT_OK);
    for (uint32_t v = 0; v < V; ++v) {
        for (uint32_t c = 0; c < 4; ++c) {
            assert_int_equal(joints[4u * v + c], v % 7u + 4u - c);
            assert_near(weights[4u * v + c], (5.0 - c) / 14.0, 1e-7);
        }
    }
    assert_int_equal(st.dropped, V);
    assert_int_equal(st.renormalized, V);
    free(joints);
    free(weights);
    sw_raw_skin_destroy(skin);
}

static void test_skin_arguments(void** state) {
    (void)state;
    sw_raw_skin* skin = NULL;
    sw_error err = {0};
    assert_int_equal(sw_raw_skin_create(0, NULL, &skin, &err), SW_RESULT_LIMIT);
    assert_int_equal(sw_raw_skin_create(SW_MESH_MAX_VERTICES + 1u, NULL, &skin, &err),
                     SW_RESULT_LIMIT);
    assert_null(skin);
    assert_int_equal(sw_raw_skin_create(2, NULL, NULL, &err), SW_RESULT_INVALID_ARGUMENT);
    assert_int_equal(sw_raw_skin_create(2, NULL, &skin, &err), SW_RESULT_OK);
    assert_int_equal(sw_raw_skin_add(skin, 2, 0, 1.0f, &err), SW_RESULT_INVALID_ARGUMENT);
    assert_string_equal(err.check, "vertex in range");
    assert_int_equal(sw_raw_skin_add(skin, 0, 0, -0.5f, &err), SW_RESULT_INVALID_ARGUMENT);
    assert_string_equal(err.check, "finite weight >= 0");
    assert_int_equal(sw_raw_skin_add(skin, 0, 0, INFINITY, &err), SW_RESULT_INVALID_ARGUMENT);
    assert_int_equal(sw_raw_skin_add(skin, 0, 0, NAN, &err), SW_RESULT_INVALID_ARGUMENT);
    uint16_t joints[8];
    float weights[8];
    assert_int_equal(sw_raw_skin_build(skin, NULL, weights, NULL, &err),
                     SW_RESULT_INVALID_ARGUMENT);
    /* refused influences left nothing behind */
    assert_int_equal(sw_raw_skin_build(skin, joints, weights, NULL, &err), SW_RESULT_OK);
    for (int k = 0; k < 8; ++k)
        assert_near(weights[k], 0.0, 0.0);
    sw_raw_skin_destroy(skin);
    sw_raw_skin_destroy(NULL);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_four_largest),
        cmocka_unit_test(test_order_zeros_unweighted),
        cmocka_unit_test(test_many),
        cmocka_unit_test(test_skin_arguments),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
