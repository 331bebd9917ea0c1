/* Local-to-model job: validity table, a naive recursive version, sub-trees, kernel paths. */
#include "test_util.h"

#include "runtime/core/internal.h"

#define JOINTS 14
#define PACKETS 4

/* Two roots (0 and 9), branches, and a deep chain. */
static const int32_t k_parents[JOINTS] = {-1, 0, 1, 2, 1, 4, 5, 0, 7, -1, 9, 10, 10, 3};
static const char* const k_names[JOINTS] = {"hips",    "spine",  "neck",   "head",   "arm_l",
                                            "elbow_l", "hand_l", "leg_l",  "foot_l", "prop",
                                            "prop_a",  "prop_b", "prop_c", "jaw"};

static const sw_skeleton* make_skeleton(void) {
    sw_skeleton_joint js[JOINTS];
    for (uint32_t j = 0; j < JOINTS; ++j)
        js[j] = (sw_skeleton_joint){
            .name = k_names[j], .parent = k_parents[j], .rest = sw_xform_identity()};
    const sw_skeleton_desc desc = {.joints = js, .joints_count = JOINTS};
    const sw_skeleton* s = NULL;
    sw_error err = {0};
    if (sw_skeleton_create(&desc, NULL, &s, &err) != SW_RESULT_OK)
        fail_msg("skeleton: %s", err.check ? err.check : "?");
    assert_int_equal(s->packets_count, PACKETS);
    return s;
}

static sw_xform g_local_aos[PACKETS * 4];

/* Translations up to ~10, scale near uniform (compared through matrices). */
static void random_pose(sw_xform4* pose, uint32_t seed) {
    uint32_t rng = seed;
    for (uint32_t j = 0; j < PACKETS * 4; ++j) {
        sw_xform x = sw_xform_identity();
        if (j < JOINTS) {
            x.t = sw_vec3_make(sw_test_rand(&rng, -10, 10), sw_test_rand(&rng, -10, 10),
                               sw_test_rand(&rng, -10, 10));
            x.r = sw_test_rand_quat(&rng);
            const float s = sw_test_rand(&rng, 0.7f, 1.3f);
            x.s = sw_vec3_make(s, s * sw_test_rand(&rng, 0.9f, 1.1f), s);
        }
        g_local_aos[j] = x;
        sw_pose_set(pose, j, x);
    }
}

/* Naive: walk up the parent chain, M = local[root] * ... * local[j], then root * M. */
static sw_mat4 naive_model(uint32_t j, const sw_mat4* root) {
    sw_mat4 m = sw_mat4_from_xform(g_local_aos[j]);
    for (int32_t p = k_parents[j]; p >= 0; p = k_parents[p]) {
        const sw_mat4 pm = sw_mat4_from_xform(g_local_aos[p]);
        m = sw_mat4_mul(&pm, &m);
    }
    if (root) m = sw_mat4_mul(root, &m);
    return m;
}

/* |a - b| <= tol * max(1, |b|) per element: relative for translations ~10..50. */
static void expect_mat_rel(const sw_mat4* a, const sw_mat4* b, double tol) {
    for (int i = 0; i < 16; ++i) {
        const double scale = fabs((double)b->m[i]) > 1.0 ? fabs((double)b->m[i]) : 1.0;
        assert_near(a->m[i], b->m[i], tol * scale);
    }
}

static SINEW_ALIGN16 sw_xform4 g_local[PACKETS];
static sw_mat4 g_out[JOINTS + 2], g_out2[JOINTS + 2];

static sw_mat4 make_root(void) {
    sw_xform x = {{1.5f, -2.0f, 3.0f},
                  sw_quat_from_axis_angle(sw_vec3_make(0.2f, 1.0f, 0.1f), 0.8f),
                  {2.0f, 2.0f, 2.0f}};
    return sw_mat4_from_xform(x);
}

static void test_against_naive(void** state) {
    (void)state;
    const sw_skeleton* skel = make_skeleton();
    const sw_mat4 root = make_root();
    for (int trial = 0; trial < 20; ++trial) {
        random_pose(g_local, 10u + (uint32_t)trial);
        sw_local_to_model_job job = {.skeleton = skel,
                                     .local = g_local,
                                     .local_count = PACKETS,
                                     .out = g_out,
                                     .out_count = JOINTS};
        if (trial & 1) job.root_transform = &root;
        assert_int_equal(sw_local_to_model_job_run(&job), SW_RESULT_OK);
        for (uint32_t j = 0; j < JOINTS; ++j) {
            const sw_mat4 e = naive_model(j, (trial & 1) ? &root : NULL);
            expect_mat_rel(&g_out[j], &e, 1e-5); /* chains of up to 5 float products */
        }
    }
    sw_skeleton_destroy(skel, NULL);
}

/* Sub-tree: entries of the sub-tree follow the new local pose, all others keep their bytes. */
static void test_subtree(void** state) {
    (void)state;
    const sw_skeleton* skel = make_skeleton();
    const sw_mat4 root = make_root();
    const uint32_t roots[] = {1, 4, 9, 10, 3, 13, 0};
    for (size_t i = 0; i < sizeof(roots) / sizeof(roots[0]); ++i) {
        const uint32_t sr = roots[i];
        random_pose(g_local, 100u + (uint32_t)i);
        sw_local_to_model_job job = {.skeleton = skel,
                                     .local = g_local,
                                     .local_count = PACKETS,
                                     .root_transform = &root,
                                     .out = g_out,
                                     .out_count = JOINTS};
        assert_int_equal(sw_local_to_model_job_run(&job), SW_RESULT_OK);
        memcpy(g_out2, g_out, sizeof(g_out));
        /* Change every local transform, then recompute only the sub-tree. */
        random_pose(g_local, 200u + (uint32_t)i);
        job.subtree = true;
        job.subtree_root = sr;
        assert_int_equal(sw_local_to_model_job_run(&job), SW_RESULT_OK);
        for (uint32_t j = 0; j < JOINTS; ++j) {
            bool in = false;
            for (int32_t p = (int32_t)j; p >= 0; p = k_parents[p])
                if ((uint32_t)p == sr) in = true;
            if (!in) {
                assert_memory_equal(&g_out[j], &g_out2[j], sizeof(sw_mat4));
                continue;
            }
            /* Expected: the old model matrix of sr's parent times the new locals down to j. */
            sw_mat4 e = sw_mat4_from_xform(g_local_aos[j]);
            int32_t p = (int32_t)j;
            while ((uint32_t)p != sr) {
                p = k_parents[p];
                const sw_mat4 pm = sw_mat4_from_xform(g_local_aos[p]);
                e = sw_mat4_mul(&pm, &e);
            }
            const sw_mat4 above = k_parents[sr] >= 0 ? g_out2[k_parents[sr]] : root;
            e = sw_mat4_mul(&above, &e);
            expect_mat_rel(&g_out[j], &e, 1e-5);
        }
    }
    sw_skeleton_destroy(skel, NULL);
}

/* Every kernel path (sw__soa_paths) agrees with scalar within 1e-5 relative
 * (translations ~10, chains of 5): the whole skeleton, then a sub-tree below
 * each joint recomputed from a second pose on top of that result. */
static void test_kernel_paths_agree(void** state) {
    (void)state;
    static sw_mat4 s_out[JOINTS];
    uint32_t paths_count;
    const sw__soa_ops* const* paths = sw__soa_paths(&paths_count);
    const sw_skeleton* skel = make_skeleton();
    const sw_mat4 root = make_root();
    for (int trial = 0; trial < 20; ++trial) {
        for (uint32_t k = 1; k < paths_count; ++k) {
            random_pose(g_local, 300u + (uint32_t)trial);
            sw_local_to_model_job job = {.skeleton = skel,
                                         .local = g_local,
                                         .local_count = PACKETS,
                                         .root_transform = (trial & 1) ? &root : NULL,
                                         .out = g_out,
                                         .out_count = JOINTS};
            assert_int_equal(sw__local_to_model_job_run_with(&job, &sw__soa_scalar), SW_RESULT_OK);
            job.out = g_out2;
            assert_int_equal(sw__local_to_model_job_run_with(&job, paths[k]), SW_RESULT_OK);
            for (uint32_t j = 0; j < JOINTS; ++j)
                expect_mat_rel(&g_out[j], &g_out2[j], 1e-5);

            const uint32_t sr = (uint32_t)trial % JOINTS;
            random_pose(g_local, 900u + (uint32_t)trial);
            memcpy(s_out, g_out, sizeof(s_out));
            job.subtree = true;
            job.subtree_root = sr;
            job.out = g_out;
            assert_int_equal(sw__local_to_model_job_run_with(&job, &sw__soa_scalar), SW_RESULT_OK);
            job.out = s_out;
            assert_int_equal(sw__local_to_model_job_run_with(&job, paths[k]), SW_RESULT_OK);
            for (uint32_t j = 0; j < JOINTS; ++j)
                expect_mat_rel(&g_out[j], &s_out[j], 1e-5);
        }
    }
    if (paths_count == 1) print_message("only the scalar path is compiled in\n");
    sw_skeleton_destroy(skel, NULL);
}

/* ---- sub-trees of random skeletons, bit for bit ---- */

enum { BIG = SW_SKELETON_MAX_JOINTS, BIG_PACKETS = BIG / 4 };

static SINEW_ALIGN16 sw_xform4 g_pose_a[BIG_PACKETS], g_pose_b[BIG_PACKETS];
static sw_mat4 g_whole[BIG], g_base[BIG], g_sub[BIG];
static int32_t g_parents[BIG];
static char g_names[BIG][8];

/* A random forest of n joints, parent-first: tree_parents[j] < j (about one
 * joint in 16 a root). dfs: relabelled in depth-first order, so that every
 * sub-tree is a contiguous range; else in creation order, where a joint's
 * descendants interleave with other joints. */
static const sw_skeleton* make_random_skeleton(uint32_t n, bool dfs, uint32_t seed) {
    static int32_t tree[BIG], label[BIG], stack[BIG];
    uint32_t rng = seed;
    for (uint32_t j = 0; j < n; ++j) {
        const bool root = j == 0 || sw_test_rand(&rng, 0, 1) < 0.0625f;
        /* Mostly near parents, now and then far ones: long and wide trees. */
        const float far = sw_test_rand(&rng, 0, 1);
        const uint32_t back = far < 0.7f ? 1u + (uint32_t)sw_test_rand(&rng, 0, 3.99f)
                                         : 1u + (uint32_t)sw_test_rand(&rng, 0, (float)j - 0.01f);
        tree[j] = root ? -1 : (int32_t)(j - (back < j ? back : j));
    }
    for (uint32_t j = 0; j < n; ++j)
        label[j] = (int32_t)j;
    if (dfs) {
        /* Pre-order over the forest, roots and children in index order. */
        uint32_t next = 0, top = 0;
        for (int32_t r = (int32_t)n - 1; r >= 0; --r)
            if (tree[r] < 0) stack[top++] = r;
        while (top) {
            const int32_t j = stack[--top];
            label[j] = (int32_t)next++;
            for (int32_t c = (int32_t)n - 1; c > j; --c)
                if (tree[c] == j) stack[top++] = c;
        }
        assert_int_equal(next, n);
    }
    sw_skeleton_joint* js = calloc(n, sizeof *js);
    assert_non_null(js);
    for (uint32_t j = 0; j < n; ++j) {
        const uint32_t l = (uint32_t)label[j];
        g_parents[l] = tree[j] < 0 ? -1 : label[tree[j]];
        snprintf(g_names[l], sizeof g_names[l], "j%u", l);
        js[l] = (sw_skeleton_joint){
            .name = g_names[l], .parent = g_parents[l], .rest = sw_xform_identity()};
    }
    const sw_skeleton_desc desc = {.joints = js, .joints_count = n};
    const sw_skeleton* s = NULL;
    sw_error err = {0};
    if (sw_skeleton_create(&desc, NULL, &s, &err) != SW_RESULT_OK)
        fail_msg("random skeleton: %s", err.check ? err.check : "?");
    free(js);
    return s;
}

static bool in_subtree(uint32_t j, uint32_t root) {
    for (int32_t p = (int32_t)j; p >= (int32_t)root; p = g_parents[p])
        if ((uint32_t)p == root) return true;
    return false;
}

/* With every kernel path: the sub-tree of each root recomputed from pose A
 * over matrices of pose B (the root's parent from A) equals the whole
 * skeleton's matrices of pose A bit for bit on the sub-tree (the same
 * arithmetic in the same order), and no other entry is written. Membership
 * is walked up the parents, independently of the job. Depth-first skeletons
 * (contiguous sub-trees) and creation-order ones (interleaved), up to the
 * joint limit. */
static void test_subtree_bit_identical(void** state) {
    (void)state;
    const uint32_t sizes[] = {1, 5, 46, 257, BIG};
    uint32_t paths_count;
    const sw__soa_ops* const* paths = sw__soa_paths(&paths_count);
    const sw_mat4 root_m = make_root();
    uint32_t checked_contiguous = 0, checked_interleaved = 0;
    for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; ++si) {
        for (int dfs = 0; dfs < 2; ++dfs) {
            const uint32_t n = sizes[si];
            const sw_skeleton* skel = make_random_skeleton(n, dfs != 0, 7u + (uint32_t)si);
            const uint32_t packets = skel->packets_count;
            sw_test_random_pose(g_pose_a, packets, n, 11u + (uint32_t)si);
            sw_test_random_pose(g_pose_b, packets, n, 13u + (uint32_t)si);
            const uint32_t step = n > 64u ? n / 23u : 1u;
            for (uint32_t k = 0; k < paths_count; ++k) {
                sw_local_to_model_job job = {.skeleton = skel,
                                             .local = g_pose_a,
                                             .local_count = packets,
                                             .root_transform = &root_m,
                                             .out = g_whole,
                                             .out_count = n};
                assert_int_equal(sw__local_to_model_job_run_with(&job, paths[k]), SW_RESULT_OK);
                job.local = g_pose_b;
                job.out = g_base;
                assert_int_equal(sw__local_to_model_job_run_with(&job, paths[k]), SW_RESULT_OK);
                for (uint32_t r = 0; r < n; r = r + step < n || r == n - 1u ? r + step : n - 1u) {
                    memcpy(g_sub, g_base, sizeof(sw_mat4) * n);
                    if (g_parents[r] >= 0) g_sub[g_parents[r]] = g_whole[g_parents[r]];
                    job.local = g_pose_a;
                    job.out = g_sub;
                    job.subtree = true;
                    job.subtree_root = r;
                    assert_int_equal(sw__local_to_model_job_run_with(&job, paths[k]), SW_RESULT_OK);
                    job.subtree = false;
                    uint32_t last = r;
                    for (uint32_t j = 0; j < n; ++j) {
                        if (in_subtree(j, r)) {
                            last = j;
                            if (memcmp(&g_sub[j], &g_whole[j], sizeof(sw_mat4)) != 0)
                                fail_msg("%s, %u joints%s, sub-tree of %u: joint %u differs",
                                         paths[k]->name, n, dfs ? " (dfs)" : "", r, j);
                        } else if ((int32_t)j != g_parents[r] &&
                                   memcmp(&g_sub[j], &g_base[j], sizeof(sw_mat4)) != 0) {
                            fail_msg("%s, %u joints, sub-tree of %u: joint %u written",
                                     paths[k]->name, n, r, j);
                        }
                    }
                    /* Contiguous: every joint of [r, last] belongs to it. */
                    bool contiguous = true;
                    for (uint32_t j = r; j <= last; ++j)
                        contiguous &= in_subtree(j, r);
                    if (contiguous)
                        ++checked_contiguous;
                    else
                        ++checked_interleaved;
                    if (dfs) assert_true(contiguous);
                    if (r == n - 1u) break;
                }
            }
            sw_skeleton_destroy(skel, NULL);
        }
    }
    /* Both kinds were met (the job takes a different route for each). */
    assert_true(checked_contiguous > 100u);
    assert_true(checked_interleaved > 20u);
}

/* ---- validity table ---- */

enum { SKEL_CAP = 2048 };

typedef struct arena {
    SINEW_ALIGN16 unsigned char skel[SKEL_CAP];
    SINEW_ALIGN16 sw_xform4 local[PACKETS + 1];
    sw_mat4 out[JOINTS + 4];
    sw_mat4 root;
} arena;

static arena g_arena, g_before;

typedef struct tcase {
    const char* name;
    sw_result expect;
} tcase;

enum {
    C_VALID,
    C_VALID_ROOT,
    C_VALID_SUBTREE,
    C_VALID_UNUSED_ROOT_INDEX,
    C_ZERO,
    C_NULL_JOB,
    C_NULL_SKELETON,
    C_NULL_LOCAL,
    C_NULL_OUT,
    C_SUBTREE_OUT_OF_RANGE,
    C_SKEL_NO_JOINTS,
    C_SKEL_TOO_MANY,
    C_LOCAL_SHORT,
    C_OUT_SHORT,
    C_LOCAL_MISALIGNED,
    C_OUT_OVER_LOCAL,
    C_OUT_OVER_SKELETON,
    C_OUT_OVER_ROOT,
    C_COUNT
};

static const tcase k_cases[C_COUNT] = {
    [C_VALID] = {"valid", SW_RESULT_OK},
    [C_VALID_ROOT] = {"valid with root transform", SW_RESULT_OK},
    [C_VALID_SUBTREE] = {"valid sub-tree", SW_RESULT_OK},
    [C_VALID_UNUSED_ROOT_INDEX] = {"subtree_root ignored when subtree is false", SW_RESULT_OK},
    [C_ZERO] = {"all zero", SW_RESULT_INVALID_ARGUMENT},
    [C_NULL_JOB] = {"NULL job", SW_RESULT_INVALID_ARGUMENT},
    [C_NULL_SKELETON] = {"NULL skeleton", SW_RESULT_INVALID_ARGUMENT},
    [C_NULL_LOCAL] = {"NULL local", SW_RESULT_INVALID_ARGUMENT},
    [C_NULL_OUT] = {"NULL out", SW_RESULT_INVALID_ARGUMENT},
    [C_SUBTREE_OUT_OF_RANGE] = {"subtree_root out of range", SW_RESULT_INVALID_ARGUMENT},
    [C_SKEL_NO_JOINTS] = {"skeleton header with 0 joints", SW_RESULT_INVALID_ARGUMENT},
    [C_SKEL_TOO_MANY] = {"skeleton header with 1025 joints", SW_RESULT_INVALID_ARGUMENT},
    [C_LOCAL_SHORT] = {"local_count short", SW_RESULT_BUFFER_TOO_SMALL},
    [C_OUT_SHORT] = {"out_count short", SW_RESULT_BUFFER_TOO_SMALL},
    [C_LOCAL_MISALIGNED] = {"local misaligned", SW_RESULT_MISALIGNED},
    [C_OUT_OVER_LOCAL] = {"out overlaps local", SW_RESULT_OVERLAP},
    [C_OUT_OVER_SKELETON] = {"out overlaps skeleton", SW_RESULT_OVERLAP},
    [C_OUT_OVER_ROOT] = {"out overlaps root transform", SW_RESULT_OVERLAP},
};

static void test_validity_table(void** state) {
    (void)state;
    const sw_skeleton* src = make_skeleton();
    assert_true(src->size <= SKEL_CAP);
    for (int c = 0; c < C_COUNT; ++c) {
        arena* a = &g_arena;
        memset(a, 0, sizeof(*a));
        memcpy(a->skel, src, src->size);
        random_pose(a->local, 7u);
        memset(a->out, 0xA5, sizeof(a->out));
        a->root = make_root();
        sw_local_to_model_job job = {.skeleton = (const sw_skeleton*)(const void*)a->skel,
                                     .local = a->local,
                                     .local_count = PACKETS,
                                     .out = a->out,
                                     .out_count = JOINTS};
        const sw_local_to_model_job* jp = &job;
        switch (c) {
        case C_VALID:
            break;
        case C_VALID_ROOT:
            job.root_transform = &a->root;
            break;
        case C_VALID_SUBTREE:
            job.subtree = true;
            job.subtree_root = 0;
            break;
        case C_VALID_UNUSED_ROOT_INDEX:
            job.subtree_root = 999;
            break;
        case C_ZERO:
            memset(&job, 0, sizeof(job));
            break;
        case C_NULL_JOB:
            jp = NULL;
            break;
        case C_NULL_SKELETON:
            job.skeleton = NULL;
            break;
        case C_NULL_LOCAL:
            job.local = NULL;
            break;
        case C_NULL_OUT:
            job.out = NULL;
            break;
        case C_SUBTREE_OUT_OF_RANGE:
            job.subtree = true;
            job.subtree_root = JOINTS;
            break;
        case C_SKEL_NO_JOINTS:
            ((sw_skeleton*)(void*)a->skel)->joints_count = 0;
            break;
        case C_SKEL_TOO_MANY:
            ((sw_skeleton*)(void*)a->skel)->joints_count = SW_SKELETON_MAX_JOINTS + 1;
            ((sw_skeleton*)(void*)a->skel)->packets_count = (SW_SKELETON_MAX_JOINTS + 4) / 4;
            job.local_count = 1000;
            job.out_count = 2000;
            break;
        case C_LOCAL_SHORT:
            job.local_count = PACKETS - 1;
            break;
        case C_OUT_SHORT:
            job.out_count = JOINTS - 1;
            break;
        case C_LOCAL_MISALIGNED:
            job.local = (const sw_xform4*)(const void*)((char*)a->local + 4);
            break;
        case C_OUT_OVER_LOCAL:
            job.out = (sw_mat4*)(void*)&a->local[PACKETS - 1];
            break;
        case C_OUT_OVER_SKELETON:
            job.out = (sw_mat4*)(void*)(a->skel + 64);
            break;
        case C_OUT_OVER_ROOT:
            job.root_transform = &a->out[5];
            break;
        }
        memcpy(&g_before, a, sizeof(*a));
        const sw_result v = sw_local_to_model_job_validate(jp);
        const sw_result r = sw_local_to_model_job_run(jp);
        if (v != k_cases[c].expect || r != k_cases[c].expect)
            fail_msg("%s: validate %s, run %s, expected %s", k_cases[c].name, sw_result_str(v),
                     sw_result_str(r), sw_result_str(k_cases[c].expect));
        if (r != SW_RESULT_OK && memcmp(&g_before, a, sizeof(*a)) != 0)
            fail_msg("%s: a failed run wrote something", k_cases[c].name);
        if (r == SW_RESULT_OK) {
            /* Nothing past joints_count is written. */
            assert_memory_equal(&a->out[JOINTS], &g_before.out[JOINTS], 4 * sizeof(sw_mat4));
            assert_memory_not_equal(&a->out[0], &g_before.out[0], sizeof(sw_mat4));
        }
    }
    sw_skeleton_destroy(src, NULL);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_validity_table),
        cmocka_unit_test(test_against_naive),
        cmocka_unit_test(test_subtree),
        cmocka_unit_test(test_kernel_paths_agree),
        cmocka_unit_test(test_subtree_bit_identical),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
