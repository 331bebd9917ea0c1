/* Additive jobs: validity tables, closed forms, round trips, kernel paths. */
#include "test_util.h"

#include "runtime/core/internal.h"

#define PACKETS 3
#define JOINTS 10

static void random_pose(sw_xform4* pose, uint32_t seed) {
    sw_test_random_pose(pose, PACKETS, JOINTS, seed);
}

static void expect_pose_near(const sw_xform4* a, const sw_xform4* b, float tol) {
    sw_test_pose_near(a, b, PACKETS, tol);
}

/* Hamilton product written out here, in double (independent of the library). */
static void qmul(const double a[4], const double b[4], double out[4]) {
    out[0] = a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1];
    out[1] = a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0];
    out[2] = a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3];
    out[3] = a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2];
}

static void qnormalize(double q[4]) {
    const double l = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    for (int i = 0; i < 4; ++i)
        q[i] /= l;
}

static SINEW_ALIGN16 sw_xform4 g_pose[PACKETS], g_ref[PACKETS], g_delta[PACKETS], g_out[PACKETS],
    g_out2[PACKETS];

/* dt = pose.t - ref.t, dr = conj(ref.r) * pose.r, ds = pose.s / ref.s (1 where ref.s == 0). */
static void test_make_closed_form(void** state) {
    (void)state;
    random_pose(g_pose, 1u);
    random_pose(g_ref, 2u);
    g_ref[1].sy[2] = 0.0f; /* joint 6: zero reference scale y gives ratio 1 */
    const sw_make_additive_job job = {.pose = g_pose,
                                      .reference = g_ref,
                                      .packets_count = PACKETS,
                                      .out = g_delta,
                                      .out_count = PACKETS};
    assert_int_equal(sw_make_additive_job_run(&job), SW_RESULT_OK);
    for (uint32_t j = 0; j < JOINTS; ++j) {
        const sw_xform p = sw_pose_get(g_pose, j), r = sw_pose_get(g_ref, j),
                       d = sw_pose_get(g_delta, j);
        sw_test_vec3_near(d.t, sw_vec3_make(p.t.x - r.t.x, p.t.y - r.t.y, p.t.z - r.t.z), 1e-6f);
        const double cr[4] = {-r.r.x, -r.r.y, -r.r.z, r.r.w};
        const double pr[4] = {p.r.x, p.r.y, p.r.z, p.r.w};
        double e[4];
        qmul(cr, pr, e);
        sw_test_quat_near(d.r, sw_quat_make((float)e[0], (float)e[1], (float)e[2], (float)e[3]),
                          1e-6f);
        assert_near(d.s.x, (double)p.s.x / r.s.x, 1e-6);
        assert_near(d.s.y, j == 6 ? 1.0 : (double)p.s.y / r.s.y, 1e-6);
        assert_near(d.s.z, (double)p.s.z / r.s.z, 1e-6);
    }
}

/* Applying with weight w: t + w dt, r * normalize((1 - w) identity + w dr), s (1 + w (ds - 1)). */
static void naive_apply(sw_xform base, sw_xform delta, double w, double t[3], double r[4],
                        double s[3]) {
    t[0] = base.t.x + w * delta.t.x;
    t[1] = base.t.y + w * delta.t.y;
    t[2] = base.t.z + w * delta.t.z;
    double dr[4] = {delta.r.x, delta.r.y, delta.r.z, delta.r.w};
    if (dr[3] < 0.0)
        for (int i = 0; i < 4; ++i)
            dr[i] = -dr[i];
    double n[4] = {w * dr[0], w * dr[1], w * dr[2], (1.0 - w) + w * dr[3]};
    qnormalize(n);
    const double b[4] = {base.r.x, base.r.y, base.r.z, base.r.w};
    qmul(b, n, r);
    qnormalize(r);
    s[0] = base.s.x * (1.0 + w * (delta.s.x - 1.0));
    s[1] = base.s.y * (1.0 + w * (delta.s.y - 1.0));
    s[2] = base.s.z * (1.0 + w * (delta.s.z - 1.0));
}

static void test_apply_against_naive(void** state) {
    (void)state;
    uint32_t rng = 3u;
    float jw[PACKETS * 4];
    for (int trial = 0; trial < 40; ++trial) {
        random_pose(g_pose, 10u + (uint32_t)trial);
        random_pose(g_ref, 20u + (uint32_t)trial);
        random_pose(g_delta, 30u + (uint32_t)trial);
        const float w = sw_test_rand(&rng, 0.0f, 1.0f);
        for (int j = 0; j < PACKETS * 4; ++j)
            jw[j] = sw_test_rand(&rng, 0.0f, 1.0f);
        const sw_apply_additive_job job = {.base = g_ref,
                                           .delta = g_delta,
                                           .packets_count = PACKETS,
                                           .weight = w,
                                           .joint_weights = (trial & 1) ? jw : NULL,
                                           .out = g_out,
                                           .out_count = PACKETS};
        assert_int_equal(sw_apply_additive_job_run(&job), SW_RESULT_OK);
        for (uint32_t j = 0; j < JOINTS; ++j) {
            double t[3], r[4], s[3];
            const double wj = (double)w * ((trial & 1) ? (double)jw[j] : 1.0);
            naive_apply(sw_pose_get(g_ref, j), sw_pose_get(g_delta, j), wj, t, r, s);
            const sw_xform g = sw_pose_get(g_out, j);
            /* Tolerance 2e-6 on magnitudes <= 4: float against double. */
            sw_test_vec3_near(g.t, sw_vec3_make((float)t[0], (float)t[1], (float)t[2]), 2e-6f);
            sw_test_quat_near(g.r, sw_quat_make((float)r[0], (float)r[1], (float)r[2], (float)r[3]),
                              2e-6f);
            sw_test_vec3_near(g.s, sw_vec3_make((float)s[0], (float)s[1], (float)s[2]), 2e-6f);
        }
    }
}

/* make then apply at weight 1 on the reference gives the pose; weight 0 the base. */
static void test_round_trip(void** state) {
    (void)state;
    for (int trial = 0; trial < 20; ++trial) {
        random_pose(g_pose, 40u + (uint32_t)trial);
        random_pose(g_ref, 50u + (uint32_t)trial);
        const sw_make_additive_job mk = {.pose = g_pose,
                                         .reference = g_ref,
                                         .packets_count = PACKETS,
                                         .out = g_delta,
                                         .out_count = PACKETS};
        assert_int_equal(sw_make_additive_job_run(&mk), SW_RESULT_OK);
        sw_apply_additive_job ap = {.base = g_ref,
                                    .delta = g_delta,
                                    .packets_count = PACKETS,
                                    .weight = 1.0f,
                                    .out = g_out,
                                    .out_count = PACKETS};
        assert_int_equal(sw_apply_additive_job_run(&ap), SW_RESULT_OK);
        expect_pose_near(g_out, g_pose, 1e-5f); /* scale ratio round trip and quaternion product */
        ap.weight = 0.0f;
        assert_int_equal(sw_apply_additive_job_run(&ap), SW_RESULT_OK);
        expect_pose_near(g_out, g_ref, 1e-6f);
    }
}

/* In place (out == base) gives the same result as a separate output. */
static void test_in_place(void** state) {
    (void)state;
    random_pose(g_pose, 60u);
    random_pose(g_delta, 61u);
    memcpy(g_out2, g_pose, sizeof(g_pose));
    sw_apply_additive_job ap = {.base = g_pose,
                                .delta = g_delta,
                                .packets_count = PACKETS,
                                .weight = 0.7f,
                                .out = g_out,
                                .out_count = PACKETS};
    assert_int_equal(sw_apply_additive_job_run(&ap), SW_RESULT_OK);
    ap.base = g_out2;
    ap.out = g_out2;
    assert_int_equal(sw_apply_additive_job_run(&ap), SW_RESULT_OK);
    assert_memory_equal(g_out, g_out2, sizeof(g_out));
}

/* Every kernel path (sw__soa_paths) agrees with scalar within 1e-6 (magnitudes <= 4). */
static void test_kernel_paths_agree(void** state) {
    (void)state;
    uint32_t paths_count;
    const sw__soa_ops* const* paths = sw__soa_paths(&paths_count);
    uint32_t rng = 9u;
    float jw[PACKETS * 4];
    for (int trial = 0; trial < 30; ++trial) {
        random_pose(g_pose, 70u + (uint32_t)trial);
        random_pose(g_ref, 80u + (uint32_t)trial);
        sw_make_additive_job mk = {.pose = g_pose,
                                   .reference = g_ref,
                                   .packets_count = PACKETS,
                                   .out = g_out,
                                   .out_count = PACKETS};
        assert_int_equal(sw__make_additive_job_run_with(&mk, &sw__soa_scalar), SW_RESULT_OK);
        mk.out = g_out2;
        for (uint32_t k = 1; k < paths_count; ++k) {
            assert_int_equal(sw__make_additive_job_run_with(&mk, paths[k]), SW_RESULT_OK);
            expect_pose_near(g_out, g_out2, 1e-6f);
        }
        memcpy(g_delta, g_out, sizeof(g_out));
        for (int j = 0; j < PACKETS * 4; ++j)
            jw[j] = sw_test_rand(&rng, 0.0f, 1.0f);
        sw_apply_additive_job ap = {.base = g_pose,
                                    .delta = g_delta,
                                    .packets_count = PACKETS,
                                    .weight = sw_test_rand(&rng, -0.5f, 1.5f),
                                    .joint_weights = jw,
                                    .out = g_out,
                                    .out_count = PACKETS};
        assert_int_equal(sw__apply_additive_job_run_with(&ap, &sw__soa_scalar), SW_RESULT_OK);
        ap.out = g_out2;
        for (uint32_t k = 1; k < paths_count; ++k) {
            assert_int_equal(sw__apply_additive_job_run_with(&ap, paths[k]), SW_RESULT_OK);
            expect_pose_near(g_out, g_out2, 1e-6f);
        }
    }
    if (paths_count == 1) print_message("only the scalar path is compiled in\n");
}

/* ---- validity tables ---- */

typedef struct arena {
    SINEW_ALIGN16 sw_xform4 a[PACKETS + 1];
    SINEW_ALIGN16 sw_xform4 b[PACKETS + 1];
    SINEW_ALIGN16 sw_xform4 out[PACKETS + 1];
    float jw[PACKETS * 4];
} arena;

static arena g_arena, g_before;

static void reset_arena(arena* a) {
    memset(a, 0, sizeof(*a));
    random_pose(a->a, 91u);
    random_pose(a->b, 92u);
    memset(a->out, 0xA5, sizeof(a->out));
    for (int j = 0; j < PACKETS * 4; ++j)
        a->jw[j] = 0.5f;
}

typedef struct tcase {
    const char* name;
    sw_result expect;
} tcase;

enum {
    M_VALID,
    M_ZERO,
    M_NULL_JOB,
    M_NULL_POSE,
    M_NULL_REF,
    M_NULL_OUT,
    M_ZERO_COUNT,
    M_OUT_SHORT,
    M_POSE_MISALIGNED,
    M_REF_MISALIGNED,
    M_OUT_MISALIGNED,
    M_OUT_OVER_POSE,
    M_OUT_OVER_REF,
    M_OUT_IS_POSE,
    M_COUNT
};

static const tcase k_make[M_COUNT] = {
    [M_VALID] = {"valid", SW_RESULT_OK},
    [M_ZERO] = {"all zero", SW_RESULT_INVALID_ARGUMENT},
    [M_NULL_JOB] = {"NULL job", SW_RESULT_INVALID_ARGUMENT},
    [M_NULL_POSE] = {"NULL pose", SW_RESULT_INVALID_ARGUMENT},
    [M_NULL_REF] = {"NULL reference", SW_RESULT_INVALID_ARGUMENT},
    [M_NULL_OUT] = {"NULL out", SW_RESULT_INVALID_ARGUMENT},
    [M_ZERO_COUNT] = {"packets 0", SW_RESULT_INVALID_ARGUMENT},
    [M_OUT_SHORT] = {"out short", SW_RESULT_BUFFER_TOO_SMALL},
    [M_POSE_MISALIGNED] = {"pose misaligned", SW_RESULT_MISALIGNED},
    [M_REF_MISALIGNED] = {"reference misaligned", SW_RESULT_MISALIGNED},
    [M_OUT_MISALIGNED] = {"out misaligned", SW_RESULT_MISALIGNED},
    [M_OUT_OVER_POSE] = {"out overlaps pose", SW_RESULT_OVERLAP},
    [M_OUT_OVER_REF] = {"out overlaps reference", SW_RESULT_OVERLAP},
    [M_OUT_IS_POSE] = {"out is pose", SW_RESULT_OVERLAP},
};

static void test_make_validity_table(void** state) {
    (void)state;
    for (int c = 0; c < M_COUNT; ++c) {
        arena* a = &g_arena;
        reset_arena(a);
        sw_make_additive_job job = {.pose = a->a,
                                    .reference = a->b,
                                    .packets_count = PACKETS,
                                    .out = a->out,
                                    .out_count = PACKETS};
        const sw_make_additive_job* jp = &job;
        switch (c) {
        case M_VALID:
            break;
        case M_ZERO:
            memset(&job, 0, sizeof(job));
            break;
        case M_NULL_JOB:
            jp = NULL;
            break;
        case M_NULL_POSE:
            job.pose = NULL;
            break;
        case M_NULL_REF:
            job.reference = NULL;
            break;
        case M_NULL_OUT:
            job.out = NULL;
            break;
        case M_ZERO_COUNT:
            job.packets_count = 0;
            break;
        case M_OUT_SHORT:
            job.out_count = PACKETS - 1;
            break;
        case M_POSE_MISALIGNED:
            job.pose = (const sw_xform4*)(const void*)((char*)a->a + 4);
            break;
        case M_REF_MISALIGNED:
            job.reference = (const sw_xform4*)(const void*)((char*)a->b + 8);
            break;
        case M_OUT_MISALIGNED:
            job.out = (sw_xform4*)(void*)((char*)a->out + 4);
            break;
        case M_OUT_OVER_POSE:
            job.out = a->a + 1;
            break;
        case M_OUT_OVER_REF:
            job.out = a->b + 2;
            break;
        case M_OUT_IS_POSE:
            job.out = a->a;
            break;
        }
        memcpy(&g_before, a, sizeof(*a));
        const sw_result v = sw_make_additive_job_validate(jp);
        const sw_result r = sw_make_additive_job_run(jp);
        if (v != k_make[c].expect || r != k_make[c].expect)
            fail_msg("%s: validate %s, run %s, expected %s", k_make[c].name, sw_result_str(v),
                     sw_result_str(r), sw_result_str(k_make[c].expect));
        if (r != SW_RESULT_OK && memcmp(&g_before, a, sizeof(*a)) != 0)
            fail_msg("%s: a failed run wrote something", k_make[c].name);
    }
}

enum {
    A_VALID,
    A_VALID_IN_PLACE,
    A_VALID_NEGATIVE_WEIGHT,
    A_ZERO,
    A_NULL_JOB,
    A_NULL_BASE,
    A_NULL_DELTA,
    A_NULL_OUT,
    A_ZERO_COUNT,
    A_NAN_WEIGHT,
    A_INF_WEIGHT,
    A_OUT_SHORT,
    A_BASE_MISALIGNED,
    A_DELTA_MISALIGNED,
    A_OUT_MISALIGNED,
    A_OUT_OVER_DELTA,
    A_OUT_IS_DELTA,
    A_OUT_OVER_WEIGHTS,
    A_OUT_PARTIAL_BASE,
    A_COUNT
};

static const tcase k_apply[A_COUNT] = {
    [A_VALID] = {"valid", SW_RESULT_OK},
    [A_VALID_IN_PLACE] = {"in place", SW_RESULT_OK},
    [A_VALID_NEGATIVE_WEIGHT] = {"negative weight", SW_RESULT_OK},
    [A_ZERO] = {"all zero", SW_RESULT_INVALID_ARGUMENT},
    [A_NULL_JOB] = {"NULL job", SW_RESULT_INVALID_ARGUMENT},
    [A_NULL_BASE] = {"NULL base", SW_RESULT_INVALID_ARGUMENT},
    [A_NULL_DELTA] = {"NULL delta", SW_RESULT_INVALID_ARGUMENT},
    [A_NULL_OUT] = {"NULL out", SW_RESULT_INVALID_ARGUMENT},
    [A_ZERO_COUNT] = {"packets 0", SW_RESULT_INVALID_ARGUMENT},
    [A_NAN_WEIGHT] = {"NaN weight", SW_RESULT_INVALID_ARGUMENT},
    [A_INF_WEIGHT] = {"infinite weight", SW_RESULT_INVALID_ARGUMENT},
    [A_OUT_SHORT] = {"out short", SW_RESULT_BUFFER_TOO_SMALL},
    [A_BASE_MISALIGNED] = {"base misaligned", SW_RESULT_MISALIGNED},
    [A_DELTA_MISALIGNED] = {"delta misaligned", SW_RESULT_MISALIGNED},
    [A_OUT_MISALIGNED] = {"out misaligned", SW_RESULT_MISALIGNED},
    [A_OUT_OVER_DELTA] = {"out overlaps delta", SW_RESULT_OVERLAP},
    [A_OUT_IS_DELTA] = {"out is delta", SW_RESULT_OVERLAP},
    [A_OUT_OVER_WEIGHTS] = {"out overlaps joint weights", SW_RESULT_OVERLAP},
    [A_OUT_PARTIAL_BASE] = {"out overlaps base partially", SW_RESULT_OVERLAP},
};

static void test_apply_validity_table(void** state) {
    (void)state;
    for (int c = 0; c < A_COUNT; ++c) {
        arena* a = &g_arena;
        reset_arena(a);
        sw_apply_additive_job job = {.base = a->a,
                                     .delta = a->b,
                                     .packets_count = PACKETS,
                                     .weight = 0.5f,
                                     .joint_weights = a->jw,
                                     .out = a->out,
                                     .out_count = PACKETS};
        const sw_apply_additive_job* jp = &job;
        switch (c) {
        case A_VALID:
            break;
        case A_VALID_IN_PLACE:
            job.out = a->a;
            break;
        case A_VALID_NEGATIVE_WEIGHT:
            job.weight = -0.5f;
            break;
        case A_ZERO:
            memset(&job, 0, sizeof(job));
            break;
        case A_NULL_JOB:
            jp = NULL;
            break;
        case A_NULL_BASE:
            job.base = NULL;
            break;
        case A_NULL_DELTA:
            job.delta = NULL;
            break;
        case A_NULL_OUT:
            job.out = NULL;
            break;
        case A_ZERO_COUNT:
            job.packets_count = 0;
            break;
        case A_NAN_WEIGHT:
            job.weight = NAN;
            break;
        case A_INF_WEIGHT:
            job.weight = -INFINITY;
            break;
        case A_OUT_SHORT:
            job.out_count = 1;
            break;
        case A_BASE_MISALIGNED:
            job.base = (const sw_xform4*)(const void*)((char*)a->a + 4);
            break;
        case A_DELTA_MISALIGNED:
            job.delta = (const sw_xform4*)(const void*)((char*)a->b + 4);
            break;
        case A_OUT_MISALIGNED:
            job.out = (sw_xform4*)(void*)((char*)a->out + 12);
            break;
        case A_OUT_OVER_DELTA:
            job.out = a->b + 1;
            break;
        case A_OUT_IS_DELTA:
            job.out = a->b;
            break;
        case A_OUT_OVER_WEIGHTS:
            job.joint_weights = (const float*)(const void*)&a->out[1];
            break;
        case A_OUT_PARTIAL_BASE:
            job.out = a->a + 1;
            break;
        }
        memcpy(&g_before, a, sizeof(*a));
        const sw_result v = sw_apply_additive_job_validate(jp);
        const sw_result r = sw_apply_additive_job_run(jp);
        if (v != k_apply[c].expect || r != k_apply[c].expect)
            fail_msg("%s: validate %s, run %s, expected %s", k_apply[c].name, sw_result_str(v),
                     sw_result_str(r), sw_result_str(k_apply[c].expect));
        if (r != SW_RESULT_OK && memcmp(&g_before, a, sizeof(*a)) != 0)
            fail_msg("%s: a failed run wrote something", k_apply[c].name);
        if (r == SW_RESULT_OK && memcmp(&g_before, a, sizeof(*a)) == 0)
            fail_msg("%s: a successful run wrote nothing", k_apply[c].name);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_make_validity_table), cmocka_unit_test(test_apply_validity_table),
        cmocka_unit_test(test_make_closed_form),    cmocka_unit_test(test_apply_against_naive),
        cmocka_unit_test(test_round_trip),          cmocka_unit_test(test_in_place),
        cmocka_unit_test(test_kernel_paths_agree),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
