/* Skinning palette job: validity table, identity for the bind pose, joint mapping. */
#include "test_util.h"

#include "runtime/core/internal.h"

#define MODELS 9

static sw_mat4 random_mat(uint32_t* rng) {
    sw_xform x = {{sw_test_rand(rng, -5, 5), sw_test_rand(rng, -5, 5), sw_test_rand(rng, -5, 5)},
                  sw_test_rand_quat(rng),
                  {sw_test_rand(rng, 0.5f, 2.0f), sw_test_rand(rng, 0.5f, 2.0f),
                   sw_test_rand(rng, 0.5f, 2.0f)}};
    return sw_mat4_from_xform(x);
}

/* a * b in double, written out here. */
static void naive_mul(const sw_mat4* a, const sw_mat4* b, double out[16]) {
    for (int c = 0; c < 4; ++c)
        for (int r = 0; r < 4; ++r) {
            double s = 0;
            for (int k = 0; k < 4; ++k)
                s += (double)a->m[k * 4 + r] * (double)b->m[c * 4 + k];
            out[c * 4 + r] = s;
        }
}

static sw_mat4 g_model[MODELS], g_ib[MODELS], g_out[MODELS + 2];

/* Model matrices equal to the bind pose give identity palettes. */
static void test_bind_pose_gives_identity(void** state) {
    (void)state;
    uint32_t rng = 1u;
    for (int i = 0; i < MODELS; ++i) {
        g_model[i] = random_mat(&rng);
        assert_true(sw_mat4_inverse(&g_model[i], &g_ib[i]));
    }
    const sw_skinning_job job = {.model = g_model,
                                 .model_count = MODELS,
                                 .inverse_bind = g_ib,
                                 .count = MODELS,
                                 .out = g_out,
                                 .out_count = MODELS};
    assert_int_equal(sw_skinning_job_run(&job), SW_RESULT_OK);
    const sw_mat4 id = sw_mat4_identity();
    for (int i = 0; i < MODELS; ++i)
        sw_test_mat4_near(&g_out[i], &id, 1e-5f);
}

/* out[i] = model[joints[i]] * inverse_bind[i], compared with a double product,
 * on every kernel path (sw__soa_paths); one pair has a non-affine bottom row
 * so the full 4x4 product is checked. */
static void test_joint_mapping(void** state) {
    (void)state;
    uint32_t rng = 2u;
    for (int i = 0; i < MODELS; ++i) {
        g_model[i] = random_mat(&rng);
        g_ib[i] = random_mat(&rng);
    }
    g_model[3].m[3] = 0.25f;
    g_model[3].m[15] = 1.5f;
    g_ib[2].m[7] = -0.5f;
    const uint16_t joints[5] = {8, 0, 3, 3, 7};
    const sw_skinning_job job = {.model = g_model,
                                 .model_count = MODELS,
                                 .joints = joints,
                                 .inverse_bind = g_ib,
                                 .count = 5,
                                 .out = g_out,
                                 .out_count = 5};
    uint32_t paths_count;
    const sw__soa_ops* const* paths = sw__soa_paths(&paths_count);
    for (uint32_t k = 0; k < paths_count; ++k) {
        memset(g_out, 0x77, sizeof(g_out));
        assert_int_equal(sw__skinning_job_run_with(&job, paths[k]), SW_RESULT_OK);
        for (int i = 0; i < 5; ++i) {
            double e[16];
            naive_mul(&g_model[joints[i]], &g_ib[i], e);
            for (int c = 0; c < 16; ++c) {
                const double scale = fabs(e[c]) > 1.0 ? fabs(e[c]) : 1.0;
                assert_near(g_out[i].m[c], e[c], 2e-6 * scale);
            }
        }
    }
    /* Entries past count are not written. */
    unsigned char sentinel[sizeof(sw_mat4)];
    memset(sentinel, 0x77, sizeof(sentinel));
    assert_memory_equal(&g_out[5], sentinel, sizeof(sentinel));
}

/* ---- validity table ---- */

typedef struct arena {
    sw_mat4 model[MODELS];
    sw_mat4 ib[MODELS];
    sw_mat4 out[MODELS + 1];
    uint16_t joints[MODELS];
} arena;

static arena g_arena, g_before;

typedef struct tcase {
    const char* name;
    sw_result expect;
} tcase;

enum {
    C_VALID,
    C_VALID_MAPPING,
    C_VALID_FEWER,
    C_ZERO,
    C_NULL_JOB,
    C_NULL_MODEL,
    C_NULL_IB,
    C_NULL_OUT,
    C_ZERO_COUNT,
    C_JOINT_OUT_OF_RANGE,
    C_COUNT_OVER_MODELS,
    C_OUT_SHORT,
    C_OUT_OVER_MODEL,
    C_OUT_OVER_IB,
    C_OUT_OVER_JOINTS,
    C_COUNT
};

static const tcase k_cases[C_COUNT] = {
    [C_VALID] = {"valid", SW_RESULT_OK},
    [C_VALID_MAPPING] = {"valid with mapping, more entries than models", SW_RESULT_OK},
    [C_VALID_FEWER] = {"valid, fewer entries than models", SW_RESULT_OK},
    [C_ZERO] = {"all zero", SW_RESULT_INVALID_ARGUMENT},
    [C_NULL_JOB] = {"NULL job", SW_RESULT_INVALID_ARGUMENT},
    [C_NULL_MODEL] = {"NULL model", SW_RESULT_INVALID_ARGUMENT},
    [C_NULL_IB] = {"NULL inverse_bind", SW_RESULT_INVALID_ARGUMENT},
    [C_NULL_OUT] = {"NULL out", SW_RESULT_INVALID_ARGUMENT},
    [C_ZERO_COUNT] = {"count 0", SW_RESULT_INVALID_ARGUMENT},
    [C_JOINT_OUT_OF_RANGE] = {"joint index >= model_count", SW_RESULT_INVALID_ARGUMENT},
    [C_COUNT_OVER_MODELS] = {"count > model_count without mapping", SW_RESULT_INVALID_ARGUMENT},
    [C_OUT_SHORT] = {"out_count short", SW_RESULT_BUFFER_TOO_SMALL},
    [C_OUT_OVER_MODEL] = {"out overlaps model", SW_RESULT_OVERLAP},
    [C_OUT_OVER_IB] = {"out overlaps inverse_bind", SW_RESULT_OVERLAP},
    [C_OUT_OVER_JOINTS] = {"out overlaps joints", SW_RESULT_OVERLAP},
};

static void test_validity_table(void** state) {
    (void)state;
    for (int c = 0; c < C_COUNT; ++c) {
        arena* a = &g_arena;
        uint32_t rng = 3u;
        memset(a, 0, sizeof(*a));
        for (int i = 0; i < MODELS; ++i) {
            a->model[i] = random_mat(&rng);
            a->ib[i] = random_mat(&rng);
            a->joints[i] = (uint16_t)((i * 2) % 4);
        }
        memset(a->out, 0xA5, sizeof(a->out));
        sw_skinning_job job = {.model = a->model,
                               .model_count = MODELS,
                               .inverse_bind = a->ib,
                               .count = MODELS,
                               .out = a->out,
                               .out_count = MODELS};
        const sw_skinning_job* jp = &job;
        switch (c) {
        case C_VALID:
            break;
        case C_VALID_MAPPING:
            job.joints = a->joints;
            job.model_count = 4;
            break;
        case C_VALID_FEWER:
            job.count = 3;
            job.out_count = 3;
            break;
        case C_ZERO:
            memset(&job, 0, sizeof(job));
            break;
        case C_NULL_JOB:
            jp = NULL;
            break;
        case C_NULL_MODEL:
            job.model = NULL;
            break;
        case C_NULL_IB:
            job.inverse_bind = NULL;
            break;
        case C_NULL_OUT:
            job.out = NULL;
            break;
        case C_ZERO_COUNT:
            job.count = 0;
            break;
        case C_JOINT_OUT_OF_RANGE:
            job.joints = a->joints;
            a->joints[6] = MODELS;
            break;
        case C_COUNT_OVER_MODELS:
            job.model_count = MODELS - 1;
            break;
        case C_OUT_SHORT:
            job.out_count = MODELS - 1;
            break;
        case C_OUT_OVER_MODEL:
            job.out = &a->model[MODELS - 1];
            break;
        case C_OUT_OVER_IB:
            job.out = &a->ib[3];
            break;
        case C_OUT_OVER_JOINTS: /* valid indices (0) stored inside out */
            memset(&a->out[MODELS - 1], 0, sizeof(sw_mat4));
            job.joints = (const uint16_t*)(const void*)&a->out[MODELS - 1];
            break;
        }
        memcpy(&g_before, a, sizeof(*a));
        const sw_result v = sw_skinning_job_validate(jp);
        const sw_result r = sw_skinning_job_run(jp);
        if (v != k_cases[c].expect || r != k_cases[c].expect)
            fail_msg("%s: validate %s, run %s, expected %s", k_cases[c].name, sw_result_str(v),
                     sw_result_str(r), sw_result_str(k_cases[c].expect));
        if (r != SW_RESULT_OK && memcmp(&g_before, a, sizeof(*a)) != 0)
            fail_msg("%s: a failed run wrote something", k_cases[c].name);
        if (r == SW_RESULT_OK)
            assert_memory_not_equal(&a->out[0], &g_before.out[0], sizeof(sw_mat4));
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_validity_table),
        cmocka_unit_test(test_bind_pose_gives_identity),
        cmocka_unit_test(test_joint_mapping),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
