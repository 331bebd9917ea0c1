/* Skeleton blocks: desc validity table, layout, lookups, load of hostile
 * blocks, and the raw skeleton builder (tools). */
#include "test_util.h"

#include "runtime/core/internal.h"
#include "sinew/tools/builders/raw_skeleton.h"

/* A 6-joint desc: hips -> spine -> {head, arm_l -> hand_l}, and a second
 * root "prop". Rest values are distinct per joint. */
#define TEST_JOINTS 6
static const char* const kNames[TEST_JOINTS] = {"hips", "spine", "head", "arm_l", "hand_l", "prop"};
static const int32_t kParents[TEST_JOINTS] = {-1, 0, 1, 1, 3, -1};

static void make_joints(sw_skeleton_joint* j) {
    uint32_t seed = 12345u;
    for (int i = 0; i < TEST_JOINTS; ++i) {
        j[i].name = kNames[i];
        j[i].parent = kParents[i];
        j[i].rest.t = sw_vec3_make((float)i, 0.5f * (float)i, -1.0f);
        j[i].rest.r = sw_test_rand_quat(&seed);
        j[i].rest.s = sw_vec3_make(1.0f, 1.0f + 0.1f * (float)i, 1.0f);
    }
}

static void expect_error(sw_result r, const sw_error* e, sw_result want, const char* check,
                         int64_t index) {
    if (r != want) fail_msg("result %s, expected %s", sw_result_str(r), sw_result_str(want));
    assert_int_equal(e->result, want);
    assert_non_null(e->check);
    assert_string_equal(e->check, check);
    assert_int_equal(e->index, index);
}

static void test_build_layout(void** state) {
    (void)state;
    sw_skeleton_joint j[TEST_JOINTS];
    make_joints(j);
    const sw_skeleton_desc desc = {j, TEST_JOINTS};
    size_t need = sw_skeleton_measure(&desc);
    assert_true(need > sizeof(sw_skeleton));
    assert_int_equal(need % 16u, 0);
    const sw_skeleton* s = NULL;
    sw_error e = {0};
    assert_int_equal(sw_skeleton_create(&desc, NULL, &s, &e), SW_RESULT_OK);
    assert_int_equal(s->size, need);
    assert_int_equal(s->joints_count, TEST_JOINTS);
    assert_int_equal(s->packets_count, 2);
    assert_int_equal(s->rest_offset % 16u, 0);
    assert_true(sw__aligned16(sw_skeleton_rest_pose(s)));
    for (uint32_t i = 0; i < TEST_JOINTS; ++i) {
        assert_string_equal(sw_skeleton_joint_name(s, i), kNames[i]);
        assert_int_equal(sw_skeleton_parents(s)[i], kParents[i]);
        sw_xform x = sw_pose_get(sw_skeleton_rest_pose(s), i);
        /* Stored exactly as given (no component below SW__TINY). */
        assert_memory_equal(&x, &j[i].rest, sizeof x);
    }
    sw_xform id = sw_xform_identity();
    for (uint32_t i = TEST_JOINTS; i < 8; ++i) {
        sw_xform x = sw_pose_get(sw_skeleton_rest_pose(s), i);
        assert_memory_equal(&x, &id, sizeof x);
    }
    /* init into a caller buffer gives the same bytes. */
    void* mem = aligned_alloc(16, need);
    const sw_skeleton* s2 = NULL;
    assert_int_equal(sw_skeleton_init(mem, need, &desc, &s2, &e), SW_RESULT_OK);
    assert_ptr_equal(s2, mem);
    assert_memory_equal(s2, s, need);
    /* The block is relocatable: a copy loads and reads the same. */
    void* copy = aligned_alloc(16, need);
    memcpy(copy, s, need);
    const sw_skeleton* s3 = NULL;
    assert_int_equal(sw_skeleton_load(copy, need, &s3, &e), SW_RESULT_OK);
    assert_ptr_equal(s3, copy);
    assert_int_equal(sw_skeleton_find_joint(s3, "hand_l"), 4);
    free(copy);
    free(mem);
    sw_skeleton_destroy(s, NULL);
}

/* Rest components below 2^-63 in magnitude (an exporter's 5e-37 for 0)
 * are stored as zeros of their sign, the rest exactly as given: the product
 * of any two stored components is 0 or a normal float. */
static void test_rest_tiny_flushed(void** state) {
    (void)state;
    sw_skeleton_joint j[TEST_JOINTS];
    make_joints(j);
    const float tiny = 0x1p-63f;
    j[1].rest.t = sw_vec3_make(1e-20f, tiny, -1e-25f);
    j[1].rest.r = (sw_quat){5.28398e-37f, nextafterf(tiny, 1.0f), -4.43252e-30f, 1.0f};
    j[1].rest.s = sw_vec3_make(1.0f, 3e-39f, 1.0f);
    const sw_skeleton_desc desc = {j, TEST_JOINTS};
    const sw_skeleton* s = NULL;
    sw_error e = {0};
    assert_int_equal(sw_skeleton_create(&desc, NULL, &s, &e), SW_RESULT_OK);
    const sw_xform x = sw_pose_get(sw_skeleton_rest_pose(s), 1);
    const float want[10] = {0.0f,  tiny, -0.0f, 0.0f, nextafterf(tiny, 1.0f),
                            -0.0f, 1.0f, 1.0f,  0.0f, 1.0f};
    const float got[10] = {x.t.x, x.t.y, x.t.z, x.r.x, x.r.y, x.r.z, x.r.w, x.s.x, x.s.y, x.s.z};
    for (int c = 0; c < 10; ++c) {
        if (memcmp(&got[c], &want[c], sizeof(float)) != 0)
            fail_msg("component %d: %g, expected %g", c, (double)got[c], (double)want[c]);
        for (int d = 0; d < 10; ++d) {
            const float p = fabsf(got[c] * got[d]);
            if (p != 0.0f && p < FLT_MIN) fail_msg("components %d x %d denormal", c, d);
        }
    }
    for (uint32_t i = 0; i < TEST_JOINTS; ++i) { /* the others as given */
        if (i == 1) continue;
        const sw_xform y = sw_pose_get(sw_skeleton_rest_pose(s), i);
        assert_memory_equal(&y, &j[i].rest, sizeof y);
    }
    sw_skeleton_destroy(s, NULL);
}

typedef struct desc_case {
    const char* what;
    int joint; /* joint to break, -1 for none */
    int field; /* see break_joint */
    sw_result result;
    const char* check;
    int64_t index;
} desc_case;

enum {
    F_NAME_NULL,
    F_NAME_EMPTY,
    F_NAME_LONG,
    F_NAME_DUP,
    F_PARENT_SELF,
    F_PARENT_FORWARD,
    F_PARENT_BELOW,
    F_T_NAN,
    F_S_INF,
    F_R_NAN,
    F_R_LONG,
    F_R_ZERO
};

static char g_long_name[SW_SKELETON_MAX_NAME + 2];

static void break_joint(sw_skeleton_joint* j, int field) {
    switch (field) {
    case F_NAME_NULL:
        j->name = NULL;
        break;
    case F_NAME_EMPTY:
        j->name = "";
        break;
    case F_NAME_LONG:
        j->name = g_long_name;
        break;
    case F_NAME_DUP:
        j->name = "spine";
        break;
    case F_PARENT_SELF:
        j->parent = 3;
        break;
    case F_PARENT_FORWARD:
        j->parent = 5;
        break;
    case F_PARENT_BELOW:
        j->parent = -2;
        break;
    case F_T_NAN:
        j->rest.t.y = NAN;
        break;
    case F_S_INF:
        j->rest.s.z = INFINITY;
        break;
    case F_R_NAN:
        j->rest.r.w = NAN;
        break;
    case F_R_LONG:
        j->rest.r = sw_quat_make(0.0f, 0.0f, 0.0f, 1.002f);
        break;
    case F_R_ZERO:
        j->rest.r = sw_quat_make(0.0f, 0.0f, 0.0f, 0.0f);
        break;
    default:
        break;
    }
}

static void test_desc_validity_table(void** state) {
    (void)state;
    memset(g_long_name, 'x', sizeof g_long_name - 1u);
    g_long_name[sizeof g_long_name - 1u] = '\0';
    const desc_case cases[] = {
        {"NULL name", 2, F_NAME_NULL, SW_RESULT_INVALID_ARGUMENT, "joint name not NULL", 2},
        {"empty name", 2, F_NAME_EMPTY, SW_RESULT_BAD_DATA, "joint name not empty", 2},
        {"256-byte name", 4, F_NAME_LONG, SW_RESULT_LIMIT, "joint name length", 4},
        {"duplicate name", 4, F_NAME_DUP, SW_RESULT_BAD_DATA, "unique joint names", 4},
        {"parent is self", 3, F_PARENT_SELF, SW_RESULT_BAD_DATA, "parent < joint", 3},
        {"parent later", 3, F_PARENT_FORWARD, SW_RESULT_BAD_DATA, "parent < joint", 3},
        {"parent -2", 1, F_PARENT_BELOW, SW_RESULT_BAD_DATA, "parent < joint", 1},
        {"NaN translation", 2, F_T_NAN, SW_RESULT_BAD_DATA, "rest values finite", 2},
        {"infinite scale", 5, F_S_INF, SW_RESULT_BAD_DATA, "rest values finite", 5},
        {"NaN rotation", 0, F_R_NAN, SW_RESULT_BAD_DATA, "rest values finite", 0},
        {"rotation length 1.002", 1, F_R_LONG, SW_RESULT_BAD_DATA, "rest rotation unit", 1},
        {"zero rotation", 3, F_R_ZERO, SW_RESULT_BAD_DATA, "rest rotation unit", 3},
    };
    void* mem = aligned_alloc(16, 4096);
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
        sw_skeleton_joint j[TEST_JOINTS];
        make_joints(j);
        break_joint(&j[cases[c].joint], cases[c].field);
        const sw_skeleton_desc desc = {j, TEST_JOINTS};
        print_message("case: %s\n", cases[c].what);
        assert_int_equal(sw_skeleton_measure(&desc), 0);
        sw_error e = {0};
        const sw_skeleton* s = NULL;
        sw_result r = sw_skeleton_init(mem, 4096, &desc, &s, &e);
        expect_error(r, &e, cases[c].result, cases[c].check, cases[c].index);
        assert_null(s);
        e = (sw_error){0};
        r = sw_skeleton_create(&desc, NULL, &s, &e);
        expect_error(r, &e, cases[c].result, cases[c].check, cases[c].index);
        assert_null(s);
    }

    /* Desc errors on parents point where the parent would sit in the block:
     * header 32 bytes + 2 packets of 160, then int16 parents. */
    {
        sw_skeleton_joint bad[TEST_JOINTS];
        make_joints(bad);
        bad[3].parent = 5;
        const sw_skeleton_desc d = {bad, TEST_JOINTS};
        sw_error pe = {0};
        const sw_skeleton* ps = NULL;
        assert_int_equal(sw_skeleton_init(mem, 4096, &d, &ps, &pe), SW_RESULT_BAD_DATA);
        assert_int_equal(pe.offset, 32u + 2u * 160u + 2u * 3u);
    }

    /* Edges that are valid: a 255-byte name, a rotation 0.9995 long. */
    sw_skeleton_joint j[TEST_JOINTS];
    make_joints(j);
    g_long_name[SW_SKELETON_MAX_NAME] = '\0';
    j[2].name = g_long_name;
    j[3].rest.r = sw_quat_make(0.0f, 0.0f, 0.0f, 0.9995f);
    const sw_skeleton_desc ok = {j, TEST_JOINTS};
    const sw_skeleton* s = NULL;
    sw_error e = {0};
    assert_true(sw_skeleton_measure(&ok) > 0);
    assert_int_equal(sw_skeleton_init(mem, 4096, &ok, &s, &e), SW_RESULT_OK);
    assert_int_equal(sw_skeleton_find_joint(s, g_long_name), 2);

    /* Arguments and sizes. */
    make_joints(j);
    const sw_skeleton_desc desc = {j, TEST_JOINTS};
    size_t need = sw_skeleton_measure(&desc);
    s = NULL;
    assert_int_equal(sw_skeleton_init(NULL, 4096, &desc, &s, &e), SW_RESULT_INVALID_ARGUMENT);
    assert_int_equal(sw_skeleton_init(mem, 4096, NULL, &s, &e), SW_RESULT_INVALID_ARGUMENT);
    assert_int_equal(sw_skeleton_init(mem, 4096, &desc, NULL, &e), SW_RESULT_INVALID_ARGUMENT);
    assert_int_equal(sw_skeleton_init((char*)mem + 4, 4000, &desc, &s, &e), SW_RESULT_MISALIGNED);
    assert_int_equal(sw_skeleton_init(mem, need - 1u, &desc, &s, &e), SW_RESULT_BUFFER_TOO_SMALL);
    assert_null(s);
    assert_int_equal(sw_skeleton_init(mem, need, &desc, &s, NULL), SW_RESULT_OK);
    assert_int_equal(sw_skeleton_measure(NULL), 0);

    /* The all-zero desc, and counts. */
    const sw_skeleton_desc zero = {0};
    assert_int_equal(sw_skeleton_measure(&zero), 0);
    assert_int_equal(sw_skeleton_init(mem, 4096, &zero, &s, &e), SW_RESULT_LIMIT);
    assert_string_equal(e.check, "joints count");
    const sw_skeleton_desc no_joints = {NULL, 3};
    assert_int_equal(sw_skeleton_init(mem, 4096, &no_joints, &s, &e), SW_RESULT_INVALID_ARGUMENT);
    free(mem);
}

/* Finite rest values whose model-space pose would overflow are refused at
 * the first joint past FLT_MAX / 16 (~2.1e37: a chain of 1e20 scales, 1e40;
 * a translation of 3e38; two of 1.5e37); a chain of 1e18 scales (1e36) is
 * fine. */
static void test_rest_model_bound(void** state) {
    (void)state;
    const struct {
        float s, t;
        uint32_t bad_joint; /* TEST_JOINTS: accepted */
    } cases[] = {
        {1e20f, 0.0f, 1}, {1.0f, 3e38f, 0}, {1.0f, 1.5e37f, 1}, {1e18f, 0.0f, TEST_JOINTS}};
    for (size_t c = 0; c < sizeof cases / sizeof *cases; ++c) {
        sw_skeleton_joint j[TEST_JOINTS];
        make_joints(j);
        /* joint 1 is joint 0's child */
        for (uint32_t i = 0; i < 2; ++i) {
            j[i].rest.s = sw_vec3_make(cases[c].s, cases[c].s, cases[c].s);
            j[i].rest.t = sw_vec3_make(cases[c].t, 0.0f, 0.0f);
        }
        const sw_skeleton_desc desc = {j, TEST_JOINTS};
        const sw_skeleton* s = NULL;
        sw_error e = {0};
        sw_result r = sw_skeleton_create(&desc, NULL, &s, &e);
        if (cases[c].bad_joint == TEST_JOINTS) {
            assert_int_equal(r, SW_RESULT_OK);
            sw_skeleton_destroy(s, NULL);
            continue;
        }
        assert_int_equal(r, SW_RESULT_BAD_DATA);
        assert_string_equal(e.check, "rest pose finite in model space");
        assert_int_equal(e.index, cases[c].bad_joint);
    }
}

static void test_joint_limit(void** state) {
    (void)state;
    enum { N = SW_SKELETON_MAX_JOINTS + 1 };
    sw_skeleton_joint* j = calloc(N, sizeof *j);
    char(*names)[16] = calloc(N, 16);
    for (int i = 0; i < N; ++i) {
        snprintf(names[i], 16, "j%d", i);
        j[i].name = names[i];
        j[i].parent = i - 1;
        j[i].rest = sw_xform_identity();
    }
    sw_skeleton_desc desc = {j, SW_SKELETON_MAX_JOINTS};
    const sw_skeleton* s = NULL;
    sw_error e = {0};
    assert_int_equal(sw_skeleton_create(&desc, NULL, &s, &e), SW_RESULT_OK);
    assert_int_equal(s->packets_count, SW_SKELETON_MAX_JOINTS / 4);
    assert_int_equal(sw_skeleton_find_joint(s, "j1023"), 1023);
    uint16_t chain[SW_SKELETON_MAX_JOINTS];
    uint32_t n = 0;
    assert_int_equal(sw_skeleton_find_chain(s, "j0", "j1023", chain, SW_SKELETON_MAX_JOINTS, &n),
                     SW_RESULT_OK);
    assert_int_equal(n, SW_SKELETON_MAX_JOINTS);
    for (uint32_t k = 0; k < n; ++k)
        assert_int_equal(chain[k], k);
    sw_skeleton_destroy(s, NULL);
    desc.joints_count = N;
    s = NULL;
    assert_int_equal(sw_skeleton_measure(&desc), 0);
    assert_int_equal(sw_skeleton_create(&desc, NULL, &s, &e), SW_RESULT_LIMIT);
    assert_string_equal(e.check, "joints count");
    assert_null(s);
    free(names);
    free(j);
}

static void test_find(void** state) {
    (void)state;
    sw_skeleton_joint j[TEST_JOINTS];
    make_joints(j);
    const sw_skeleton_desc desc = {j, TEST_JOINTS};
    const sw_skeleton* s = NULL;
    assert_int_equal(sw_skeleton_create(&desc, NULL, &s, NULL), SW_RESULT_OK);
    for (int i = 0; i < TEST_JOINTS; ++i)
        assert_int_equal(sw_skeleton_find_joint(s, kNames[i]), i);
    assert_int_equal(sw_skeleton_find_joint(s, "Hips"), -1); /* case-sensitive */
    assert_int_equal(sw_skeleton_find_joint(s, "hip"), -1);
    assert_int_equal(sw_skeleton_find_joint(s, ""), -1);
    assert_int_equal(sw_skeleton_find_joint(s, NULL), -1);
    assert_int_equal(sw_skeleton_find_joint(NULL, "hips"), -1);

    uint16_t out[8];
    uint32_t n = 0;
    assert_int_equal(sw_skeleton_find_chain(s, "hips", "hand_l", out, 8, &n), SW_RESULT_OK);
    assert_int_equal(n, 4);
    const uint16_t want[4] = {0, 1, 3, 4};
    assert_memory_equal(out, want, sizeof want);
    assert_int_equal(sw_skeleton_find_chain(s, "arm_l", "arm_l", out, 8, &n), SW_RESULT_OK);
    assert_int_equal(n, 1);
    assert_int_equal(out[0], 3);
    assert_int_equal(sw_skeleton_find_chain(s, "spine", "head", out, 8, &n), SW_RESULT_OK);
    assert_int_equal(n, 2);
    assert_int_equal(out[0], 1);
    assert_int_equal(out[1], 2);
    /* Not an ancestor: sibling, descendant as root, other tree, unknown. */
    n = 77;
    assert_int_equal(sw_skeleton_find_chain(s, "head", "hand_l", out, 8, &n), SW_RESULT_NOT_FOUND);
    assert_int_equal(sw_skeleton_find_chain(s, "hand_l", "hips", out, 8, &n), SW_RESULT_NOT_FOUND);
    assert_int_equal(sw_skeleton_find_chain(s, "prop", "head", out, 8, &n), SW_RESULT_NOT_FOUND);
    assert_int_equal(sw_skeleton_find_chain(s, "hips", "tail", out, 8, &n), SW_RESULT_NOT_FOUND);
    assert_int_equal(n, 77);
    assert_int_equal(sw_skeleton_find_chain(s, "hips", "hand_l", out, 3, &n),
                     SW_RESULT_BUFFER_TOO_SMALL);
    assert_int_equal(sw_skeleton_find_chain(NULL, "hips", "head", out, 8, &n),
                     SW_RESULT_INVALID_ARGUMENT);
    assert_int_equal(sw_skeleton_find_chain(s, NULL, "head", out, 8, &n),
                     SW_RESULT_INVALID_ARGUMENT);
    assert_int_equal(sw_skeleton_find_chain(s, "hips", "head", out, 8, NULL),
                     SW_RESULT_INVALID_ARGUMENT);
    sw_skeleton_destroy(s, NULL);
}

/* ---- hostile blocks ---- */

typedef struct block {
    sw_skeleton* s;
    size_t size;
} block;

static block valid_block(void) {
    sw_skeleton_joint j[TEST_JOINTS];
    make_joints(j);
    const sw_skeleton_desc desc = {j, TEST_JOINTS};
    block b;
    b.size = sw_skeleton_measure(&desc);
    b.s = aligned_alloc(16, b.size);
    const sw_skeleton* out = NULL;
    assert_int_equal(sw_skeleton_init(b.s, b.size, &desc, &out, NULL), SW_RESULT_OK);
    return b;
}

static void expect_load(const block* b, sw_result want, const char* check, int64_t index) {
    const sw_skeleton* out = NULL;
    sw_error e = {0};
    sw_result r = sw_skeleton_load(b->s, b->size, &out, &e);
    expect_error(r, &e, want, check, index);
    assert_null(out);
    assert_true(e.offset <= b->size);
}

static int16_t* parents_of(block* b) {
    return (int16_t*)(void*)((char*)b->s + b->s->parents_offset);
}
static uint32_t* name_offsets_of(block* b) {
    return (uint32_t*)(void*)((char*)b->s + b->s->names_offset);
}
static sw_xform4* rest_of(block* b) {
    return (sw_xform4*)(void*)((char*)b->s + b->s->rest_offset);
}

static void test_load_hostile(void** state) {
    (void)state;
    block b = valid_block();
    const sw_skeleton* out = NULL;
    sw_error e = {0};
    assert_int_equal(sw_skeleton_load(b.s, b.size, &out, &e), SW_RESULT_OK);

    /* Every prefix fails cleanly. */
    for (size_t n = 0; n < b.size; ++n) {
        out = NULL;
        sw_result r = sw_skeleton_load(b.s, n, &out, &e);
        assert_int_equal(r, SW_RESULT_TRUNCATED);
        assert_non_null(e.check);
        assert_null(out);
    }
    free(b.s);

#define HOSTILE(edit, want, check, index)                                                          \
    do {                                                                                           \
        b = valid_block();                                                                         \
        edit;                                                                                      \
        expect_load(&b, want, check, index);                                                       \
        free(b.s);                                                                                 \
    } while (0)

    HOSTILE(b.s->size = 16, SW_RESULT_BAD_DATA, "block size >= header", -1);
    HOSTILE(b.s->size += 16, SW_RESULT_TRUNCATED, "block in bounds", -1);
    HOSTILE(b.s->reserved[1] = 1, SW_RESULT_BAD_DATA, "reserved zero", -1);
    HOSTILE(b.s->joints_count = 0, SW_RESULT_LIMIT, "joints count", -1);
    HOSTILE(b.s->joints_count = 5000, SW_RESULT_LIMIT, "joints count", -1);
    HOSTILE(b.s->packets_count = 1, SW_RESULT_BAD_DATA, "packets count", -1);
    HOSTILE(b.s->rest_offset += 4, SW_RESULT_BAD_DATA, "rest pose aligned", -1);
    HOSTILE(b.s->rest_offset = 0, SW_RESULT_BAD_DATA, "rest pose in bounds", -1);
    HOSTILE(b.s->rest_offset = 0xFFFFFFF0u, SW_RESULT_BAD_DATA, "rest pose in bounds", -1);
    HOSTILE(b.s->rest_offset = (uint32_t)b.size - 160u + 16u, SW_RESULT_BAD_DATA,
            "rest pose in bounds", -1);
    HOSTILE(b.s->parents_offset += 1, SW_RESULT_BAD_DATA, "parents aligned", -1);
    HOSTILE(b.s->parents_offset = (uint32_t)b.size - 10u, SW_RESULT_BAD_DATA, "parents in bounds",
            -1);
    HOSTILE(b.s->names_offset += 2, SW_RESULT_BAD_DATA, "name offsets aligned", -1);
    HOSTILE(b.s->names_offset = 0xFFFFFFFCu, SW_RESULT_BAD_DATA, "name offsets in bounds", -1);
    HOSTILE(name_offsets_of(&b)[3] = (uint32_t)b.size, SW_RESULT_BAD_DATA, "names in bounds", 3);
    HOSTILE(name_offsets_of(&b)[2] = 4, SW_RESULT_BAD_DATA, "names in bounds", 2);
    /* The last name runs to the end of the block without a NUL. */
    HOSTILE(
        {
            uint32_t o = name_offsets_of(&b)[5];
            memset((char*)b.s + o, 'z', b.size - o);
        },
        SW_RESULT_BAD_DATA, "names in bounds", 5);
    HOSTILE(((char*)b.s)[name_offsets_of(&b)[1]] = '\0', SW_RESULT_BAD_DATA, "joint name not empty",
            1);
    HOSTILE(name_offsets_of(&b)[4] = name_offsets_of(&b)[0], SW_RESULT_BAD_DATA,
            "unique joint names", 4);
    HOSTILE(parents_of(&b)[2] = 2, SW_RESULT_BAD_DATA, "parent < joint", 2);
    HOSTILE(parents_of(&b)[4] = 5, SW_RESULT_BAD_DATA, "parent < joint", 4);
    HOSTILE(parents_of(&b)[0] = -7, SW_RESULT_BAD_DATA, "parent < joint", 0);
    HOSTILE(rest_of(&b)[1].tx[1] = NAN, SW_RESULT_BAD_DATA, "rest values finite", 5);
    HOSTILE(rest_of(&b)[0].sy[3] = -INFINITY, SW_RESULT_BAD_DATA, "rest values finite", 3);
    HOSTILE(rest_of(&b)[0].rw[2] += 0.5f, SW_RESULT_BAD_DATA, "rest rotation unit", 2);
    HOSTILE(rest_of(&b)[1].rw[2] = 0.5f, SW_RESULT_BAD_DATA, "padding lanes identity", 6);
    HOSTILE(rest_of(&b)[1].tx[3] = 1e-30f, SW_RESULT_BAD_DATA, "padding lanes identity", 7);
#undef HOSTILE

    b = valid_block();
    assert_int_equal(sw_skeleton_load(NULL, b.size, &out, &e), SW_RESULT_INVALID_ARGUMENT);
    assert_int_equal(sw_skeleton_load(b.s, b.size, NULL, &e), SW_RESULT_INVALID_ARGUMENT);
    assert_int_equal(sw_skeleton_load((char*)b.s + 8, b.size - 8, &out, &e), SW_RESULT_MISALIGNED);
    /* A larger buffer is fine: the block says where it ends. */
    void* big = aligned_alloc(16, b.size + 64);
    memset(big, 0xAB, b.size + 64);
    memcpy(big, b.s, b.size);
    assert_int_equal(sw_skeleton_load(big, b.size + 64, &out, NULL), SW_RESULT_OK);
    free(big);
    free(b.s);
}

/* An allocator that counts calls and always fails. */
static void* fail_alloc(void* user, size_t size, size_t align) {
    (void)size;
    (void)align;
    ++*(int*)user;
    return NULL;
}

static void test_allocator_failure(void** state) {
    (void)state;
    sw_skeleton_joint j[TEST_JOINTS];
    make_joints(j);
    const sw_skeleton_desc desc = {j, TEST_JOINTS};
    const sw_skeleton* s = NULL;
    sw_error e = {0};
    int calls = 0;
    const sw_allocator a = {.alloc_fn = fail_alloc, .free_fn = NULL, .user = &calls};
    assert_int_equal(sw_skeleton_create(&desc, &a, &s, &e), SW_RESULT_OUT_OF_MEMORY);
    assert_string_equal(e.check, "allocation");
    assert_null(s);
    assert_int_equal(calls, 1);
}

/* ---- raw skeleton (tools) ---- */

static sw_raw_joint raw(const char* name, int32_t parent, float tx) {
    sw_raw_joint j;
    j.name = name;
    j.parent = parent;
    j.rest = sw_xform_identity();
    j.rest.t.x = tx;
    return j;
}

static void test_raw_reorder(void** state) {
    (void)state;
    /* Input order: children before parents, two roots, siblings interleaved.
     *   root_a (2) -> a1 (0) -> a1x (4)
     *              -> a2 (5)
     *   root_b (3) -> b1 (1)                                                 */
    const sw_raw_joint in[6] = {
        raw("a1", 2, 0.0f),      raw("b1", 3, 1.0f),  raw("root_a", -1, 2.0f),
        raw("root_b", -1, 3.0f), raw("a1x", 0, 4.0f), raw("a2", 2, 5.0f),
    };
    const sw_skeleton* s = NULL;
    int32_t remap[6];
    sw_error e = {0};
    assert_int_equal(sw_raw_skeleton_build(in, 6, NULL, &s, remap, &e), SW_RESULT_OK);
    /* Depth-first from roots in input order, children in input order. */
    const char* want[6] = {"root_a", "a1", "a1x", "a2", "root_b", "b1"};
    for (uint32_t i = 0; i < 6; ++i)
        assert_string_equal(sw_skeleton_joint_name(s, i), want[i]);
    for (uint32_t i = 0; i < 6; ++i) {
        int32_t k = remap[i];
        assert_true(k >= 0 && k < 6);
        assert_string_equal(sw_skeleton_joint_name(s, (uint32_t)k), in[i].name);
        int32_t p = sw_skeleton_parents(s)[k];
        assert_int_equal(p, in[i].parent < 0 ? -1 : remap[in[i].parent]);
        assert_true(p < k);
        assert_near(sw_pose_get(sw_skeleton_rest_pose(s), (uint32_t)k).t.x, in[i].rest.t.x, 0);
    }
    sw_skeleton_destroy(s, NULL);
}

static void test_raw_shuffled(void** state) {
    (void)state;
    /* A random tree of 300 joints listed in a random order: the result is
     * parent-first, remap is a permutation, names and parents survive. */
    enum { N = 300 };
    uint32_t seed = 99u;
    int32_t tree_parent[N]; /* in tree order (parent-first) */
    for (int i = 0; i < N; ++i) {
        tree_parent[i] = i == 0 ? -1 : (int32_t)sw_test_rand(&seed, 0.0f, (float)i);
        if (i > 0 && sw_test_rand(&seed, 0, 1) < 0.05f) tree_parent[i] = -1;
    }
    int32_t perm[N]; /* perm[tree index] = raw index */
    for (int i = 0; i < N; ++i)
        perm[i] = i;
    for (int i = N - 1; i > 0; --i) {
        int k = (int)sw_test_rand(&seed, 0.0f, (float)(i + 1));
        if (k > i) k = i;
        int32_t t = perm[i];
        perm[i] = perm[k];
        perm[k] = t;
    }
    static char names[N][16];
    sw_raw_joint in[N];
    for (int i = 0; i < N; ++i) {
        snprintf(names[i], sizeof names[i], "n%03d", i);
        sw_raw_joint* j = &in[perm[i]];
        j->name = names[i];
        j->parent = tree_parent[i] < 0 ? -1 : perm[tree_parent[i]];
        j->rest = sw_xform_identity();
        j->rest.t.y = (float)i;
    }
    const sw_skeleton* s = NULL;
    int32_t remap[N];
    assert_int_equal(sw_raw_skeleton_build(in, N, NULL, &s, remap, NULL), SW_RESULT_OK);
    bool seen[N] = {false};
    for (int r = 0; r < N; ++r) {
        int32_t k = remap[r];
        assert_true(k >= 0 && k < N);
        assert_false(seen[k]);
        seen[k] = true;
        assert_string_equal(sw_skeleton_joint_name(s, (uint32_t)k), in[r].name);
        int32_t p = sw_skeleton_parents(s)[k];
        assert_true(p < k);
        assert_int_equal(p, in[r].parent < 0 ? -1 : remap[in[r].parent]);
        assert_near(sw_pose_get(sw_skeleton_rest_pose(s), (uint32_t)k).t.y, in[r].rest.t.y, 0);
    }
    /* Depth-first: every subtree is a contiguous range after its root. */
    const int16_t* par = sw_skeleton_parents(s);
    for (int k = 1; k < N; ++k) {
        if (par[k] < 0) continue;
        /* joints between the parent and k are all descendants of the parent. */
        for (int m = par[k] + 1; m < k; ++m) {
            int a = m;
            while (a > par[k])
                a = par[a];
            assert_int_equal(a, par[k]);
        }
    }
    sw_skeleton_destroy(s, NULL);
}

static void test_raw_rejects(void** state) {
    (void)state;
    sw_error e = {0};
    const sw_skeleton* s = NULL;
    int32_t remap[6];
    /* 0 -> 1 -> 2 -> 0 cycle, 3 hangs under it, 4 is a fine root. */
    sw_raw_joint cyc[5] = {raw("a", 2, 0), raw("b", 0, 0), raw("c", 1, 0), raw("d", 1, 0),
                           raw("e", -1, 0)};
    assert_int_equal(sw_raw_skeleton_build(cyc, 5, NULL, &s, remap, &e), SW_RESULT_BAD_DATA);
    assert_string_equal(e.check, "parent cycle");
    assert_true(e.index >= 0 && e.index <= 2); /* a joint on the cycle */
    assert_null(s);
    /* Self-parent is a cycle of one. */
    sw_raw_joint self[2] = {raw("a", -1, 0), raw("b", 1, 0)};
    assert_int_equal(sw_raw_skeleton_build(self, 2, NULL, &s, NULL, &e), SW_RESULT_BAD_DATA);
    assert_string_equal(e.check, "parent cycle");
    assert_int_equal(e.index, 1);
    /* No root at all. */
    sw_raw_joint loop2[2] = {raw("a", 1, 0), raw("b", 0, 0)};
    assert_int_equal(sw_raw_skeleton_build(loop2, 2, NULL, &s, NULL, &e), SW_RESULT_BAD_DATA);
    assert_string_equal(e.check, "parent cycle");
    /* Parents out of range. */
    sw_raw_joint range[3] = {raw("a", -1, 0), raw("b", 3, 0), raw("c", 0, 0)};
    assert_int_equal(sw_raw_skeleton_build(range, 3, NULL, &s, NULL, &e), SW_RESULT_BAD_DATA);
    assert_string_equal(e.check, "parent in range");
    assert_int_equal(e.index, 1);
    range[1].parent = -2;
    assert_int_equal(sw_raw_skeleton_build(range, 3, NULL, &s, NULL, &e), SW_RESULT_BAD_DATA);
    assert_string_equal(e.check, "parent in range");
    /* Duplicate names: the index is the raw index of the later joint in
     * skeleton order (here "x" at raw 0 sits under raw 2, after raw 1). */
    sw_raw_joint dup[3] = {raw("x", 2, 0), raw("x", 2, 0), raw("root", -1, 0)};
    assert_int_equal(sw_raw_skeleton_build(dup, 3, NULL, &s, NULL, &e), SW_RESULT_BAD_DATA);
    assert_string_equal(e.check, "unique joint names");
    assert_int_equal(e.index, 1);
    /* Checks of sw_skeleton_init come through with raw indices. */
    sw_raw_joint nan[3] = {raw("c", 2, 0), raw("b", -1, 0), raw("a", 1, 0)};
    nan[0].rest.r.x = NAN;
    assert_int_equal(sw_raw_skeleton_build(nan, 3, NULL, &s, NULL, &e), SW_RESULT_BAD_DATA);
    assert_string_equal(e.check, "rest values finite");
    assert_int_equal(e.index, 0);
    /* Arguments and counts. */
    assert_int_equal(sw_raw_skeleton_build(NULL, 3, NULL, &s, NULL, &e),
                     SW_RESULT_INVALID_ARGUMENT);
    assert_int_equal(sw_raw_skeleton_build(nan, 3, NULL, NULL, NULL, &e),
                     SW_RESULT_INVALID_ARGUMENT);
    assert_int_equal(sw_raw_skeleton_build(nan, 0, NULL, &s, NULL, &e), SW_RESULT_LIMIT);
    assert_int_equal(sw_raw_skeleton_build(NULL, 0, NULL, &s, NULL, &e), SW_RESULT_LIMIT);
    assert_null(s);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_build_layout),        cmocka_unit_test(test_rest_tiny_flushed),
        cmocka_unit_test(test_desc_validity_table), cmocka_unit_test(test_rest_model_bound),
        cmocka_unit_test(test_joint_limit),         cmocka_unit_test(test_find),
        cmocka_unit_test(test_load_hostile),        cmocka_unit_test(test_allocator_failure),
        cmocka_unit_test(test_raw_reorder),         cmocka_unit_test(test_raw_shuffled),
        cmocka_unit_test(test_raw_rejects),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
