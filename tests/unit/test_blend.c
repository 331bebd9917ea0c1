/* Blend job: validity table, properties, a naive weighted average, kernel paths. */
#include "test_util.h"

#include <float.h>

#include "runtime/core/internal.h"

#define PACKETS 3
#define JOINTS 11 /* last packet has one identity padding lane */

static const sw_xform k_identity = {{0, 0, 0}, {0, 0, 0, 1}, {1, 1, 1}};

static void random_pose(sw_xform4* pose, uint32_t seed) {
    sw_test_random_pose(pose, PACKETS, JOINTS, seed);
}

static void expect_pose_near(const sw_xform4* a, const sw_xform4* b, float tol) {
    sw_test_pose_near(a, b, PACKETS, tol);
}

static sw_result blend(const sw_blend_layer* layers, uint32_t n, const sw_xform4* rest,
                       float threshold, sw_xform4* out) {
    const sw_blend_job job = {.layers = layers,
                              .layers_count = n,
                              .rest_pose = rest,
                              .packets_count = PACKETS,
                              .threshold = threshold,
                              .out = out,
                              .out_count = PACKETS};
    assert_int_equal(sw_blend_job_validate(&job), SW_RESULT_OK);
    return sw_blend_job_run(&job);
}

/* ---- naive blend: the documented formula, per joint, in double ---- */

typedef struct dxf {
    double t[3], r[4], s[3];
} dxf;

static void naive_blend(const sw_blend_layer* layers, uint32_t n, const sw_xform4* rest,
                        float threshold, uint32_t j, dxf* out) {
    double t[3] = {0}, r[4] = {0}, s[3] = {0}, wsum = 0;
    for (uint32_t i = 0; i < n; ++i) {
        if (layers[i].mode != SW_BLEND_MODE_DEFAULT) continue;
        const double w = (double)layers[i].weight *
                         (layers[i].joint_weights ? (double)layers[i].joint_weights[j] : 1.0);
        if (w == 0.0) continue;
        const sw_xform x = sw_pose_get(layers[i].pose, j);
        const double q[4] = {x.r.x, x.r.y, x.r.z, x.r.w};
        const double dot = r[0] * q[0] + r[1] * q[1] + r[2] * q[2] + r[3] * q[3];
        const double sign = dot < 0.0 ? -1.0 : 1.0;
        t[0] += w * x.t.x, t[1] += w * x.t.y, t[2] += w * x.t.z;
        s[0] += w * x.s.x, s[1] += w * x.s.y, s[2] += w * x.s.z;
        for (int k = 0; k < 4; ++k)
            r[k] += sign * w * q[k];
        wsum += w;
    }
    const double th = threshold > 0.0f ? threshold : SW_BLEND_DEFAULT_THRESHOLD;
    const double fill = wsum < th ? th - wsum : 0.0;
    const double div = wsum > th ? wsum : th;
    const sw_xform rx = sw_pose_get(rest, j);
    double rq[4] = {rx.r.x, rx.r.y, rx.r.z, rx.r.w};
    if (r[0] * rq[0] + r[1] * rq[1] + r[2] * rq[2] + r[3] * rq[3] < 0.0)
        for (int k = 0; k < 4; ++k)
            rq[k] = -rq[k];
    const double rt[3] = {rx.t.x, rx.t.y, rx.t.z}, rs[3] = {rx.s.x, rx.s.y, rx.s.z};
    for (int k = 0; k < 3; ++k) {
        out->t[k] = (t[k] + fill * rt[k]) / div;
        out->s[k] = (s[k] + fill * rs[k]) / div;
    }
    double len = 0;
    for (int k = 0; k < 4; ++k) {
        r[k] += fill * rq[k];
        len += r[k] * r[k];
    }
    len = sqrt(len);
    for (int k = 0; k < 4; ++k)
        out->r[k] = r[k] / len;
}

static void expect_naive(const sw_blend_layer* layers, uint32_t n, const sw_xform4* rest,
                         float threshold, const sw_xform4* got, float tol) {
    for (uint32_t j = 0; j < JOINTS; ++j) {
        dxf e;
        naive_blend(layers, n, rest, threshold, j, &e);
        const sw_xform g = sw_pose_get(got, j);
        sw_test_vec3_near(g.t, sw_vec3_make((float)e.t[0], (float)e.t[1], (float)e.t[2]), tol);
        sw_test_vec3_near(g.s, sw_vec3_make((float)e.s[0], (float)e.s[1], (float)e.s[2]), tol);
        sw_test_quat_near(
            g.r, sw_quat_make((float)e.r[0], (float)e.r[1], (float)e.r[2], (float)e.r[3]), tol);
    }
}

/* ---- properties ---- */

static SINEW_ALIGN16 sw_xform4 g_a[PACKETS], g_b[PACKETS], g_c[PACKETS], g_rest[PACKETS],
    g_out[PACKETS], g_out2[PACKETS];

static void test_self_blend_unchanged(void** state) {
    (void)state;
    random_pose(g_a, 1u);
    random_pose(g_rest, 2u);
    const float ws[][2] = {{0.3f, 0.7f}, {1.0f, 1.0f}, {0.05f, 0.05f}, {5.0f, 0.25f}};
    for (size_t i = 0; i < 4; ++i) {
        const sw_blend_layer layers[2] = {{.pose = g_a, .weight = ws[i][0]},
                                          {.pose = g_a, .weight = ws[i][1]}};
        assert_int_equal(blend(layers, 2, g_rest, 0.0f, g_out), SW_RESULT_OK);
        expect_pose_near(g_out, g_a, 1e-6f); /* tolerance: float rounding of sum / weight */
    }
}

static void test_weights_select_layer(void** state) {
    (void)state;
    random_pose(g_a, 3u);
    random_pose(g_b, 4u);
    random_pose(g_rest, 5u);
    sw_blend_layer layers[2] = {{.pose = g_a, .weight = 1.0f}, {.pose = g_b, .weight = 0.0f}};
    assert_int_equal(blend(layers, 2, g_rest, 0.0f, g_out), SW_RESULT_OK);
    expect_pose_near(g_out, g_a, 1e-6f);
    layers[0].weight = 0.0f;
    layers[1].weight = 1.0f;
    assert_int_equal(blend(layers, 2, g_rest, 0.0f, g_out), SW_RESULT_OK);
    expect_pose_near(g_out, g_b, 1e-6f);
}

static void test_joint_weights_select_per_joint(void** state) {
    (void)state;
    random_pose(g_a, 6u);
    random_pose(g_b, 7u);
    random_pose(g_rest, 8u);
    float wa[PACKETS * 4], wb[PACKETS * 4];
    for (uint32_t j = 0; j < PACKETS * 4; ++j) {
        wa[j] = (j % 3 == 0) ? 1.0f : 0.0f;
        wb[j] = 1.0f - wa[j];
    }
    const sw_blend_layer layers[2] = {{.pose = g_a, .weight = 1.0f, .joint_weights = wa},
                                      {.pose = g_b, .weight = 1.0f, .joint_weights = wb}};
    assert_int_equal(blend(layers, 2, g_rest, 0.0f, g_out), SW_RESULT_OK);
    for (uint32_t j = 0; j < JOINTS; ++j) {
        const sw_xform g = sw_pose_get(g_out, j), e = sw_pose_get(wa[j] > 0 ? g_a : g_b, j);
        sw_test_vec3_near(g.t, e.t, 1e-6f);
        sw_test_quat_near(g.r, e.r, 1e-6f);
        sw_test_vec3_near(g.s, e.s, 1e-6f);
    }
    /* Fractional joint weights agree with the naive average. */
    for (uint32_t j = 0; j < PACKETS * 4; ++j) {
        wa[j] = (float)j / 12.0f;
        wb[j] = 1.0f - wa[j] * 0.5f;
    }
    assert_int_equal(blend(layers, 2, g_rest, 0.0f, g_out), SW_RESULT_OK);
    expect_naive(layers, 2, g_rest, 0.0f, g_out, 2e-6f);
}

/* Joint weights outside [0, 1] are clamped; NaN counts as 0. */
static void test_joint_weights_clamped(void** state) {
    (void)state;
    random_pose(g_a, 31u);
    random_pose(g_b, 32u);
    random_pose(g_rest, 33u);
    float wa[PACKETS * 4], wb[PACKETS * 4], ca[PACKETS * 4], cb[PACKETS * 4];
    const float odd[4] = {2.0f, -1.0f, NAN, 0.25f};
    const float clamped[4] = {1.0f, 0.0f, 0.0f, 0.25f};
    for (uint32_t j = 0; j < PACKETS * 4; ++j) {
        wa[j] = odd[j % 4];
        ca[j] = clamped[j % 4];
        wb[j] = odd[(j + 1) % 4];
        cb[j] = clamped[(j + 1) % 4];
    }
    const sw_blend_layer odd_layers[2] = {{.pose = g_a, .weight = 0.7f, .joint_weights = wa},
                                          {.pose = g_b, .weight = 0.6f, .joint_weights = wb}};
    const sw_blend_layer clamped_layers[2] = {{.pose = g_a, .weight = 0.7f, .joint_weights = ca},
                                              {.pose = g_b, .weight = 0.6f, .joint_weights = cb}};
    assert_int_equal(blend(odd_layers, 2, g_rest, 0.0f, g_out), SW_RESULT_OK);
    assert_int_equal(blend(clamped_layers, 2, g_rest, 0.0f, g_out2), SW_RESULT_OK);
    assert_memory_equal(g_out, g_out2, sizeof(g_out));
}

static void test_against_naive_average(void** state) {
    (void)state;
    uint32_t rng = 77u;
    for (int trial = 0; trial < 50; ++trial) {
        random_pose(g_a, 100u + (uint32_t)trial);
        random_pose(g_b, 200u + (uint32_t)trial);
        random_pose(g_c, 300u + (uint32_t)trial);
        random_pose(g_rest, 400u + (uint32_t)trial);
        const sw_blend_layer layers[3] = {
            {.pose = g_a, .weight = sw_test_rand(&rng, 0.0f, 1.0f)},
            {.pose = g_b, .weight = sw_test_rand(&rng, 0.0f, 1.0f)},
            {.pose = g_c, .weight = sw_test_rand(&rng, 0.0f, 0.2f)},
        };
        assert_int_equal(blend(layers, 3, g_rest, 0.0f, g_out), SW_RESULT_OK);
        /* Tolerance 2e-6: float accumulation of 3 terms against double. */
        expect_naive(layers, 3, g_rest, 0.0f, g_out, 2e-6f);
    }
}

/* Below the threshold the rest pose fills the missing weight:
 * x = (W x_layer + (threshold - W) x_rest) / threshold. */
static void test_threshold_fills_rest(void** state) {
    (void)state;
    random_pose(g_a, 9u);
    random_pose(g_rest, 10u);
    const float cases[][2] = {{0.04f, 0.0f}, {0.2f, 0.5f}, {0.0f, 0.0f}, {0.09f, 0.3f}};
    for (size_t i = 0; i < 4; ++i) {
        const sw_blend_layer layer = {.pose = g_a, .weight = cases[i][0]};
        assert_int_equal(blend(&layer, 1, g_rest, cases[i][1], g_out), SW_RESULT_OK);
        expect_naive(&layer, 1, g_rest, cases[i][1], g_out, 2e-6f);
        /* Closed form for translation, independent of the naive code. */
        const double th = cases[i][1] > 0.0f ? cases[i][1] : 0.1;
        const double w = cases[i][0];
        for (uint32_t j = 0; j < JOINTS; ++j) {
            const double e =
                (w * sw_pose_get(g_a, j).t.x + (th - w) * sw_pose_get(g_rest, j).t.x) / th;
            assert_near(sw_pose_get(g_out, j).t.x, e, 2e-6);
        }
    }
    /* No layers at all: the rest pose. */
    assert_int_equal(blend(NULL, 0, g_rest, 0.0f, g_out), SW_RESULT_OK);
    expect_pose_near(g_out, g_rest, 1e-6f);
}

/* q and -q are the same rotation: blending them must not cancel. */
static void test_opposite_signs_do_not_cancel(void** state) {
    (void)state;
    random_pose(g_a, 11u);
    random_pose(g_rest, 12u);
    memcpy(g_b, g_a, sizeof(g_a));
    for (uint32_t p = 0; p < PACKETS; ++p)
        for (int l = 0; l < 4; ++l) {
            g_b[p].rx[l] = -g_b[p].rx[l];
            g_b[p].ry[l] = -g_b[p].ry[l];
            g_b[p].rz[l] = -g_b[p].rz[l];
            g_b[p].rw[l] = -g_b[p].rw[l];
        }
    const sw_blend_layer layers[2] = {{.pose = g_a, .weight = 0.5f}, {.pose = g_b, .weight = 0.5f}};
    assert_int_equal(blend(layers, 2, g_rest, 0.0f, g_out), SW_RESULT_OK);
    expect_pose_near(g_out, g_a, 1e-6f);
    /* Different rotations, the second stored with a negative sign. */
    random_pose(g_c, 13u);
    for (uint32_t p = 0; p < PACKETS; ++p)
        for (int l = 0; l < 4; ++l) {
            g_c[p].rx[l] = -g_c[p].rx[l];
            g_c[p].ry[l] = -g_c[p].ry[l];
            g_c[p].rz[l] = -g_c[p].rz[l];
            g_c[p].rw[l] = -g_c[p].rw[l];
        }
    const sw_blend_layer layers2[2] = {{.pose = g_a, .weight = 0.6f},
                                       {.pose = g_c, .weight = 0.4f}};
    assert_int_equal(blend(layers2, 2, g_rest, 0.0f, g_out), SW_RESULT_OK);
    expect_naive(layers2, 2, g_rest, 0.0f, g_out, 2e-6f);
    for (uint32_t j = 0; j < JOINTS; ++j) {
        const sw_quat q = sw_pose_get(g_out, j).r;
        assert_near(sw_quat_dot(q, q), 1.0, 1e-5);
    }
}

/* Additive layers: weight 0 changes nothing; weight 1 on the reference gives the pose. */
static void test_additive_layers(void** state) {
    (void)state;
    random_pose(g_a, 14u); /* pose */
    random_pose(g_b, 15u); /* reference */
    random_pose(g_rest, 16u);
    SINEW_ALIGN16 static sw_xform4 delta[PACKETS];
    const sw_make_additive_job mk = {.pose = g_a,
                                     .reference = g_b,
                                     .packets_count = PACKETS,
                                     .out = delta,
                                     .out_count = PACKETS};
    assert_int_equal(sw_make_additive_job_run(&mk), SW_RESULT_OK);

    sw_blend_layer layers[2] = {{.pose = g_b, .weight = 1.0f},
                                {.pose = delta, .weight = 0.0f, .mode = SW_BLEND_MODE_ADDITIVE}};
    assert_int_equal(blend(layers, 1, g_rest, 0.0f, g_out2), SW_RESULT_OK);
    assert_int_equal(blend(layers, 2, g_rest, 0.0f, g_out), SW_RESULT_OK);
    assert_memory_equal(g_out, g_out2, sizeof(g_out));

    layers[1].weight = 1.0f;
    assert_int_equal(blend(layers, 2, g_rest, 0.0f, g_out), SW_RESULT_OK);
    /* Tolerance 1e-5: quaternion product and scale division/multiplication round-trip. */
    expect_pose_near(g_out, g_a, 1e-5f);

    /* Same as the apply-additive job on the blended base. */
    layers[1].weight = 0.35f;
    assert_int_equal(blend(layers, 2, g_rest, 0.0f, g_out), SW_RESULT_OK);
    const sw_apply_additive_job ap = {.base = g_out2,
                                      .delta = delta,
                                      .packets_count = PACKETS,
                                      .weight = 0.35f,
                                      .out = g_out2,
                                      .out_count = PACKETS};
    assert_int_equal(sw_apply_additive_job_run(&ap), SW_RESULT_OK);
    expect_pose_near(g_out, g_out2, 1e-6f);
}

/* Padding lanes stay identity when every input holds identity there. */
static void test_padding_lanes_identity(void** state) {
    (void)state;
    random_pose(g_a, 17u);
    random_pose(g_b, 18u);
    random_pose(g_rest, 19u);
    const sw_blend_layer layers[2] = {{.pose = g_a, .weight = 0.3f}, {.pose = g_b, .weight = 0.4f}};
    assert_int_equal(blend(layers, 2, g_rest, 0.0f, g_out), SW_RESULT_OK);
    for (uint32_t j = JOINTS; j < PACKETS * 4; ++j) {
        const sw_xform x = sw_pose_get(g_out, j);
        sw_test_vec3_near(x.t, k_identity.t, 1e-7f);
        sw_test_quat_near(x.r, k_identity.r, 1e-7f);
        sw_test_vec3_near(x.s, k_identity.s, 1e-7f);
    }
}

/* Every kernel path (sw__soa_paths) agrees with scalar within 1e-6 (values of
 * magnitude <= 2), with joint weights, rest fill and an additive layer. */
static void test_kernel_paths_agree(void** state) {
    (void)state;
    uint32_t paths_count;
    const sw__soa_ops* const* paths = sw__soa_paths(&paths_count);
    SINEW_ALIGN16 static sw_xform4 delta[PACKETS];
    float jw[PACKETS * 4];
    uint32_t rng = 5u;
    for (int trial = 0; trial < 30; ++trial) {
        random_pose(g_a, 500u + (uint32_t)trial);
        random_pose(g_b, 600u + (uint32_t)trial);
        random_pose(g_c, 700u + (uint32_t)trial);
        random_pose(g_rest, 800u + (uint32_t)trial);
        const sw_make_additive_job mk = {.pose = g_c,
                                         .reference = g_a,
                                         .packets_count = PACKETS,
                                         .out = delta,
                                         .out_count = PACKETS};
        assert_int_equal(sw_make_additive_job_run(&mk), SW_RESULT_OK);
        for (int j = 0; j < PACKETS * 4; ++j)
            jw[j] = sw_test_rand(&rng, 0.0f, 1.0f);
        const sw_blend_layer layers[3] = {
            {.pose = g_a, .weight = sw_test_rand(&rng, 0.0f, 0.1f), .joint_weights = jw},
            {.pose = g_b, .weight = sw_test_rand(&rng, 0.0f, 1.0f)},
            {.pose = delta,
             .weight = sw_test_rand(&rng, 0.0f, 1.0f),
             .mode = SW_BLEND_MODE_ADDITIVE},
        };
        const sw_blend_job job = {.layers = layers,
                                  .layers_count = 3,
                                  .rest_pose = g_rest,
                                  .packets_count = PACKETS,
                                  .out = g_out,
                                  .out_count = PACKETS};
        sw_blend_job job2 = job;
        job2.out = g_out2;
        assert_int_equal(sw__blend_job_run_with(&job, &sw__soa_scalar), SW_RESULT_OK);
        for (uint32_t k = 1; k < paths_count; ++k) {
            assert_int_equal(sw__blend_job_run_with(&job2, paths[k]), SW_RESULT_OK);
            expect_pose_near(g_out, g_out2, 1e-6f);
        }
    }
    if (paths_count == 1) print_message("only the scalar path is compiled in\n");
}

/* ---- validity table ---- */

typedef struct arena {
    SINEW_ALIGN16 sw_xform4 out[PACKETS + 1];
    SINEW_ALIGN16 sw_xform4 a[PACKETS];
    SINEW_ALIGN16 sw_xform4 b[PACKETS + 1];
    SINEW_ALIGN16 sw_xform4 rest[PACKETS + 1];
    float jw[PACKETS * 4];
    sw_blend_layer layers[SW_BLEND_MAX_LAYERS + 1];
} arena;

static arena g_arena, g_before;

typedef struct blend_case {
    const char* name;
    sw_result expect;
} blend_case;

enum {
    C_VALID,
    C_VALID_NO_LAYERS,
    C_VALID_MAX_LAYERS,
    C_ZERO,
    C_NULL_JOB,
    C_NULL_REST,
    C_NULL_OUT,
    C_ZERO_PACKETS,
    C_NULL_LAYERS,
    C_NULL_POSE,
    C_NEG_WEIGHT,
    C_NAN_WEIGHT,
    C_INF_WEIGHT,
    C_VALID_BIG_WEIGHT,
    C_HUGE_WEIGHT,
    C_HUGE_WEIGHT_SUM,
    C_NAN_THRESHOLD,
    C_NEG_THRESHOLD,
    C_INF_THRESHOLD,
    C_BAD_MODE,
    C_TOO_MANY_LAYERS,
    C_OUT_SHORT,
    C_OUT_MISALIGNED,
    C_POSE_MISALIGNED,
    C_REST_MISALIGNED,
    C_OUT_OVER_POSE,
    C_OUT_OVER_REST,
    C_OUT_OVER_WEIGHTS,
    C_OUT_OVER_LAYERS,
    C_COUNT
};

static const blend_case k_cases[C_COUNT] = {
    [C_VALID] = {"valid", SW_RESULT_OK},
    [C_VALID_NO_LAYERS] = {"no layers", SW_RESULT_OK},
    [C_VALID_MAX_LAYERS] = {"64 layers", SW_RESULT_OK},
    [C_ZERO] = {"all zero", SW_RESULT_INVALID_ARGUMENT},
    [C_NULL_JOB] = {"NULL job", SW_RESULT_INVALID_ARGUMENT},
    [C_NULL_REST] = {"NULL rest", SW_RESULT_INVALID_ARGUMENT},
    [C_NULL_OUT] = {"NULL out", SW_RESULT_INVALID_ARGUMENT},
    [C_ZERO_PACKETS] = {"packets 0", SW_RESULT_INVALID_ARGUMENT},
    [C_NULL_LAYERS] = {"NULL layers, count 3", SW_RESULT_INVALID_ARGUMENT},
    [C_NULL_POSE] = {"layer without pose", SW_RESULT_INVALID_ARGUMENT},
    [C_NEG_WEIGHT] = {"negative weight", SW_RESULT_INVALID_ARGUMENT},
    [C_NAN_WEIGHT] = {"NaN weight", SW_RESULT_INVALID_ARGUMENT},
    [C_INF_WEIGHT] = {"infinite weight", SW_RESULT_INVALID_ARGUMENT},
    [C_VALID_BIG_WEIGHT] = {"weights summing to 999999.75", SW_RESULT_OK},
    [C_HUGE_WEIGHT] = {"weight FLT_MAX", SW_RESULT_INVALID_ARGUMENT},
    [C_HUGE_WEIGHT_SUM] = {"weights 6e5 + 6e5", SW_RESULT_INVALID_ARGUMENT},
    [C_NAN_THRESHOLD] = {"NaN threshold", SW_RESULT_INVALID_ARGUMENT},
    [C_NEG_THRESHOLD] = {"negative threshold", SW_RESULT_INVALID_ARGUMENT},
    [C_INF_THRESHOLD] = {"infinite threshold", SW_RESULT_INVALID_ARGUMENT},
    [C_BAD_MODE] = {"unknown mode", SW_RESULT_INVALID_ARGUMENT},
    [C_TOO_MANY_LAYERS] = {"65 layers", SW_RESULT_LIMIT},
    [C_OUT_SHORT] = {"out_count short", SW_RESULT_BUFFER_TOO_SMALL},
    [C_OUT_MISALIGNED] = {"out misaligned", SW_RESULT_MISALIGNED},
    [C_POSE_MISALIGNED] = {"pose misaligned", SW_RESULT_MISALIGNED},
    [C_REST_MISALIGNED] = {"rest misaligned", SW_RESULT_MISALIGNED},
    [C_OUT_OVER_POSE] = {"out overlaps a pose", SW_RESULT_OVERLAP},
    [C_OUT_OVER_REST] = {"out overlaps rest", SW_RESULT_OVERLAP},
    [C_OUT_OVER_WEIGHTS] = {"out overlaps joint weights", SW_RESULT_OVERLAP},
    [C_OUT_OVER_LAYERS] = {"out overlaps the layers", SW_RESULT_OVERLAP},
};

static void test_validity_table(void** state) {
    (void)state;
    for (int c = 0; c < C_COUNT; ++c) {
        arena* a = &g_arena;
        memset(a, 0, sizeof(*a));
        random_pose(a->a, 21u);
        random_pose(a->b, 22u);
        random_pose(a->rest, 23u);
        memset(a->out, 0xA5, sizeof(a->out));
        for (int j = 0; j < PACKETS * 4; ++j)
            a->jw[j] = 0.5f;
        for (int i = 0; i < SW_BLEND_MAX_LAYERS + 1; ++i)
            a->layers[i] = (sw_blend_layer){.pose = (i & 1) ? a->b : a->a, .weight = 0.5f};
        a->layers[1].joint_weights = a->jw;
        a->layers[2].mode = SW_BLEND_MODE_ADDITIVE;
        a->layers[2].weight = 0.25f;
        sw_blend_job job = {.layers = a->layers,
                            .layers_count = 3,
                            .rest_pose = a->rest,
                            .packets_count = PACKETS,
                            .out = a->out,
                            .out_count = PACKETS};
        const sw_blend_job* jp = &job;
        switch (c) {
        case C_VALID:
            break;
        case C_VALID_NO_LAYERS:
            job.layers = NULL;
            job.layers_count = 0;
            break;
        case C_VALID_MAX_LAYERS:
            job.layers_count = SW_BLEND_MAX_LAYERS;
            break;
        case C_ZERO:
            memset(&job, 0, sizeof(job));
            break;
        case C_NULL_JOB:
            jp = NULL;
            break;
        case C_NULL_REST:
            job.rest_pose = NULL;
            break;
        case C_NULL_OUT:
            job.out = NULL;
            break;
        case C_ZERO_PACKETS:
            job.packets_count = 0;
            break;
        case C_NULL_LAYERS:
            job.layers = NULL;
            break;
        case C_NULL_POSE:
            a->layers[1].pose = NULL;
            break;
        case C_NEG_WEIGHT:
            a->layers[1].weight = -0.1f;
            break;
        case C_NAN_WEIGHT:
            a->layers[0].weight = NAN;
            break;
        case C_INF_WEIGHT:
            a->layers[2].weight = INFINITY;
            break;
        case C_VALID_BIG_WEIGHT:
            a->layers[0].weight = 999999.0f; /* + 0.5 + 0.25 */
            break;
        case C_HUGE_WEIGHT:
            a->layers[0].weight = FLT_MAX; /* gave inf and NaN */
            break;
        case C_HUGE_WEIGHT_SUM:
            a->layers[0].weight = 6e5f;
            a->layers[1].weight = 6e5f;
            break;
        case C_NAN_THRESHOLD:
            job.threshold = NAN;
            break;
        case C_NEG_THRESHOLD:
            job.threshold = -0.5f;
            break;
        case C_INF_THRESHOLD:
            job.threshold = INFINITY;
            break;
        case C_BAD_MODE:
            a->layers[1].mode = (sw_blend_mode)9;
            break;
        case C_TOO_MANY_LAYERS:
            job.layers_count = SW_BLEND_MAX_LAYERS + 1;
            break;
        case C_OUT_SHORT:
            job.out_count = PACKETS - 1;
            break;
        case C_OUT_MISALIGNED:
            job.out = (sw_xform4*)(void*)((char*)a->out + 8);
            break;
        case C_POSE_MISALIGNED:
            a->layers[1].pose = (const sw_xform4*)(const void*)((char*)a->b + 4);
            break;
        case C_REST_MISALIGNED:
            job.rest_pose = (const sw_xform4*)(const void*)((char*)a->rest + 12);
            break;
        case C_OUT_OVER_POSE:
            job.out = a->b + 1;
            break; /* b has a spare packet */
        case C_OUT_OVER_REST:
            job.out = a->rest + 1;
            break;
        case C_OUT_OVER_WEIGHTS:
            a->layers[1].joint_weights = (const float*)(const void*)&a->out[2];
            break;
        case C_OUT_OVER_LAYERS:
            job.layers = (const sw_blend_layer*)(const void*)&a->out[1];
            memcpy(&a->out[1], a->layers, 3 * sizeof(sw_blend_layer));
            break;
        }
        memcpy(&g_before, a, sizeof(*a));
        const sw_result v = sw_blend_job_validate(jp);
        const sw_result r = sw_blend_job_run(jp);
        if (v != k_cases[c].expect || r != k_cases[c].expect)
            fail_msg("%s: validate %s, run %s, expected %s", k_cases[c].name, sw_result_str(v),
                     sw_result_str(r), sw_result_str(k_cases[c].expect));
        if (r != SW_RESULT_OK && memcmp(&g_before, a, sizeof(*a)) != 0)
            fail_msg("%s: a failed run wrote something", k_cases[c].name);
        if (r == SW_RESULT_OK && memcmp(&g_before.out, a->out, sizeof(sw_xform4) * PACKETS) == 0)
            fail_msg("%s: a successful run wrote nothing", k_cases[c].name);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_validity_table),
        cmocka_unit_test(test_self_blend_unchanged),
        cmocka_unit_test(test_weights_select_layer),
        cmocka_unit_test(test_joint_weights_select_per_joint),
        cmocka_unit_test(test_joint_weights_clamped),
        cmocka_unit_test(test_against_naive_average),
        cmocka_unit_test(test_threshold_fills_rest),
        cmocka_unit_test(test_opposite_signs_do_not_cancel),
        cmocka_unit_test(test_additive_layers),
        cmocka_unit_test(test_padding_lanes_identity),
        cmocka_unit_test(test_kernel_paths_agree),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
