/* Mesh blocks: layout and round trip (init -> load), desc validity table,
 * every truncation, hostile blocks, allocation failure. */
#include "test_util.h"

#include "runtime/core/internal.h"
#include "sinew/core/mesh.h"

/* A quad (4 vertices, 2 triangles) skinned to 3 palette entries of a
 * 5-joint skeleton, with normals, UVs and 2 named morph targets carrying
 * normal deltas. */
#define V 4
#define T 2
#define P 3
typedef struct fixture {
    float pos[3 * V];
    float nrm[3 * V];
    float uv[2 * V];
    uint16_t jnt[4 * V];
    float w[4 * V];
    uint32_t idx[6];
    uint16_t pal[P];
    sw_mat4 ibm[P];
    float mpos[3 * V * T];
    float mnrm[3 * V * T];
    const char* names[T];
    sw_mesh_desc desc;
} fixture;

static void make_fixture(fixture* f) {
    memset(f, 0, sizeof *f);
    const float quad[3 * V] = {0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0};
    memcpy(f->pos, quad, sizeof quad);
    for (int v = 0; v < V; ++v) {
        f->nrm[3 * v + 2] = 1.0f;
        f->uv[2 * v] = quad[3 * v];
        f->uv[2 * v + 1] = quad[3 * v + 1];
        /* two influences: palette v % 3 and (v + 1) % 3 */
        f->jnt[4 * v] = (uint16_t)(v % P);
        f->jnt[4 * v + 1] = (uint16_t)((v + 1) % P);
        f->w[4 * v] = 0.75f;
        f->w[4 * v + 1] = 0.25f;
    }
    const uint32_t idx[6] = {0, 1, 2, 0, 2, 3};
    memcpy(f->idx, idx, sizeof idx);
    const uint16_t pal[P] = {4, 0, 2};
    memcpy(f->pal, pal, sizeof pal);
    for (int k = 0; k < P; ++k) {
        sw_xform x = {{(float)k, -1.0f, 0.5f},
                      sw_quat_from_axis_angle(sw_vec3_make(0, 1, 0), 0.3f * (float)k),
                      {1.0f + 0.5f * (float)k, 1.0f, 1.0f}};
        f->ibm[k] = sw_mat4_from_xform(x);
    }
    for (int k = 0; k < 3 * V * T; ++k) {
        f->mpos[k] = 0.01f * (float)k;
        f->mnrm[k] = -0.001f * (float)k;
    }
    f->names[0] = "smile";
    f->names[1] = "blink";
    f->desc = (sw_mesh_desc){
        .name = "body",
        .vertices_count = V,
        .positions = f->pos,
        .normals = f->nrm,
        .uvs = f->uv,
        .joints = f->jnt,
        .weights = f->w,
        .indices = f->idx,
        .indices_count = 6,
        .palette = f->pal,
        .inverse_binds = f->ibm,
        .palette_count = P,
        .skeleton_joints_count = 5,
        .morph_targets_count = T,
        .morph_positions = f->mpos,
        .morph_normals = f->mnrm,
        .morph_names = f->names,
    };
}

static void expect_error(sw_result r, const sw_error* e, sw_result want, const char* check,
                         int64_t index) {
    if (r != want) {
        fail_msg("result %s (%s), expected %s (%s)", sw_result_str(r), e->check ? e->check : "-",
                 sw_result_str(want), check);
    }
    assert_int_equal(e->result, want);
    assert_non_null(e->check);
    assert_string_equal(e->check, check);
    assert_int_equal(e->index, index);
}

static void test_build_round_trip(void** state) {
    (void)state;
    fixture f;
    make_fixture(&f);
    size_t need = sw_mesh_measure(&f.desc);
    assert_true(need > sizeof(sw_mesh));
    assert_int_equal(need % 16u, 0);
    assert_int_equal(sizeof(sw_mesh), 80);
    void* mem = aligned_alloc(16, need);
    const sw_mesh* m = NULL;
    sw_error e = {0};
    assert_int_equal(sw_mesh_init(mem, need, &f.desc, &m, &e), SW_RESULT_OK);
    assert_ptr_equal(m, mem);
    assert_int_equal(m->size, need);
    assert_int_equal(m->flags,
                     SW_MESH_FLAG_NORMALS | SW_MESH_FLAG_UVS | SW_MESH_FLAG_MORPH_NORMALS);
    assert_int_equal(m->vertices_count, V);
    assert_int_equal(m->indices_count, 6);
    assert_int_equal(m->palette_count, P);
    assert_int_equal(m->skeleton_joints_count, 5);
    assert_int_equal(m->morph_targets_count, T);
    assert_int_equal(m->reserved, 0);
    assert_int_equal(m->inverse_binds_offset % 16u, 0);
    assert_string_equal(sw_mesh_name(m), "body");
    assert_memory_equal(sw_mesh_positions(m), f.pos, sizeof f.pos);
    assert_memory_equal(sw_mesh_normals(m), f.nrm, sizeof f.nrm);
    assert_memory_equal(sw_mesh_uvs(m), f.uv, sizeof f.uv);
    assert_memory_equal(sw_mesh_joints(m), f.jnt, sizeof f.jnt);
    assert_memory_equal(sw_mesh_weights(m), f.w, sizeof f.w);
    assert_memory_equal(sw_mesh_indices(m), f.idx, sizeof f.idx);
    assert_memory_equal(sw_mesh_palette(m), f.pal, sizeof f.pal);
    assert_memory_equal(sw_mesh_inverse_binds(m), f.ibm, sizeof f.ibm);
    assert_memory_equal(sw_mesh_morph_positions(m), f.mpos, sizeof f.mpos);
    assert_memory_equal(sw_mesh_morph_normals(m), f.mnrm, sizeof f.mnrm);
    assert_string_equal(sw_mesh_morph_name(m, 0), "smile");
    assert_string_equal(sw_mesh_morph_name(m, 1), "blink");
    assert_string_equal(sw_mesh_morph_name(m, 2), "");

    /* create gives the same bytes; a relocated copy loads and reads the same. */
    const sw_mesh* c = NULL;
    assert_int_equal(sw_mesh_create(&f.desc, NULL, &c, &e), SW_RESULT_OK);
    assert_memory_equal(c, m, need);
    void* copy = aligned_alloc(16, need + 16u);
    memcpy(copy, m, need);
    const sw_mesh* l = NULL;
    assert_int_equal(sw_mesh_load(copy, need + 16u, &l, &e), SW_RESULT_OK);
    assert_ptr_equal(l, copy);
    assert_memory_equal(sw_mesh_inverse_binds(l), f.ibm, sizeof f.ibm);
    assert_string_equal(sw_mesh_morph_name(l, 1), "blink");
    /* Rebuilding from what was loaded gives the same block. */
    const char* names[T] = {sw_mesh_morph_name(l, 0), sw_mesh_morph_name(l, 1)};
    sw_mesh_desc d2 = {
        .name = sw_mesh_name(l),
        .vertices_count = l->vertices_count,
        .positions = sw_mesh_positions(l),
        .normals = sw_mesh_normals(l),
        .uvs = sw_mesh_uvs(l),
        .joints = sw_mesh_joints(l),
        .weights = sw_mesh_weights(l),
        .indices = sw_mesh_indices(l),
        .indices_count = l->indices_count,
        .palette = sw_mesh_palette(l),
        .inverse_binds = sw_mesh_inverse_binds(l),
        .palette_count = l->palette_count,
        .skeleton_joints_count = l->skeleton_joints_count,
        .morph_targets_count = l->morph_targets_count,
        .morph_positions = sw_mesh_morph_positions(l),
        .morph_normals = sw_mesh_morph_normals(l),
        .morph_names = names,
    };
    const sw_mesh* again = NULL;
    assert_int_equal(sw_mesh_create(&d2, NULL, &again, &e), SW_RESULT_OK);
    assert_memory_equal(again, m, need);
    sw_mesh_destroy(again, NULL);
    sw_mesh_destroy(c, NULL);
    sw_mesh_destroy(NULL, NULL);
    free(copy);
    free(mem);
}

static void test_optional_parts(void** state) {
    (void)state;
    fixture f;
    make_fixture(&f);
    /* Minimal mesh: no normals, UVs, targets or names; implicit indices. */
    sw_mesh_desc d = f.desc;
    d.name = NULL;
    d.vertices_count = 3;
    d.normals = NULL;
    d.uvs = NULL;
    d.indices = NULL;
    d.indices_count = 0;
    d.morph_targets_count = 0;
    d.morph_positions = NULL;
    d.morph_normals = NULL;
    d.morph_names = NULL;
    const sw_mesh* m = NULL;
    sw_error e = {0};
    assert_int_equal(sw_mesh_create(&d, NULL, &m, &e), SW_RESULT_OK);
    assert_int_equal(m->flags, 0);
    assert_null(sw_mesh_normals(m));
    assert_null(sw_mesh_uvs(m));
    assert_null(sw_mesh_morph_positions(m));
    assert_null(sw_mesh_morph_normals(m));
    assert_int_equal(m->morph_names_offset, 0);
    assert_string_equal(sw_mesh_name(m), "");
    assert_string_equal(sw_mesh_morph_name(m, 0), "");
    assert_int_equal(m->indices_count, 3);
    for (uint32_t k = 0; k < 3; ++k)
        assert_int_equal(sw_mesh_indices(m)[k], k);
    const sw_mesh* l = NULL;
    assert_int_equal(sw_mesh_load(m, m->size, &l, &e), SW_RESULT_OK);
    sw_mesh_destroy(m, NULL);
    /* Targets without names. */
    d = f.desc;
    d.morph_names = NULL;
    assert_int_equal(sw_mesh_create(&d, NULL, &m, &e), SW_RESULT_OK);
    assert_int_equal(m->morph_names_offset, 0);
    assert_string_equal(sw_mesh_morph_name(m, 1), "");
    sw_mesh_destroy(m, NULL);
    /* A vertex joint out of the palette is allowed in a zero-weight slot. */
    d = f.desc;
    f.jnt[4 * 1 + 3] = 999;
    assert_int_equal(sw_mesh_create(&d, NULL, &m, &e), SW_RESULT_OK);
    sw_mesh_destroy(m, NULL);
}

/* ---- desc validity table ---------------------------------------------------- */

typedef struct desc_case {
    const char* what;
    void (*breaks)(fixture* f);
    sw_result result;
    const char* check;
    int64_t index;
} desc_case;

static char g_long_name[SW_MESH_MAX_NAME + 2];

static void b_vertices_zero(fixture* f) {
    f->desc.vertices_count = 0;
}
static void b_vertices_big(fixture* f) {
    f->desc.vertices_count = SW_MESH_MAX_VERTICES + 1u;
}
static void b_positions(fixture* f) {
    f->desc.positions = NULL;
}
static void b_joints(fixture* f) {
    f->desc.joints = NULL;
}
static void b_weights(fixture* f) {
    f->desc.weights = NULL;
}
static void b_indices_big(fixture* f) {
    f->desc.indices_count = SW_MESH_MAX_INDICES + 1u;
}
static void b_indices_null(fixture* f) {
    f->desc.indices = NULL;
}
static void b_implicit_not3(fixture* f) {
    f->desc.indices = NULL;
    f->desc.indices_count = 0;
}
static void b_palette_zero(fixture* f) {
    f->desc.palette_count = 0;
}
static void b_palette_big(fixture* f) {
    f->desc.palette_count = 1025;
}
static void b_palette_null(fixture* f) {
    f->desc.palette = NULL;
}
static void b_ibm_null(fixture* f) {
    f->desc.inverse_binds = NULL;
}
static void b_skel_zero(fixture* f) {
    f->desc.skeleton_joints_count = 0;
}
static void b_skel_big(fixture* f) {
    f->desc.skeleton_joints_count = SW_SKELETON_MAX_JOINTS + 1;
}
static void b_targets_big(fixture* f) {
    f->desc.morph_targets_count = SW_MESH_MAX_MORPH_TARGETS + 1u;
}
static void b_mpos_null(fixture* f) {
    f->desc.morph_positions = NULL;
}
static void b_no_targets(fixture* f) {
    f->desc.morph_targets_count = 0;
}
static void b_name_long(fixture* f) {
    f->desc.name = g_long_name;
}
static void b_morph_name_null(fixture* f) {
    f->names[1] = NULL;
}
static void b_morph_name_long(fixture* f) {
    f->names[1] = g_long_name;
}
static void b_pos_nan(fixture* f) {
    f->pos[3 * 2 + 1] = NAN;
}
static void b_nrm_inf(fixture* f) {
    f->nrm[3 * 3] = INFINITY;
}
static void b_uv_nan(fixture* f) {
    f->uv[2 * 1 + 1] = NAN;
}
static void b_weight_nan(fixture* f) {
    f->w[4 * 2 + 1] = NAN;
}
static void b_weight_neg(fixture* f) {
    f->w[4 * 1 + 0] = 1.25f;
    f->w[4 * 1 + 1] = -0.25f;
}
static void b_weight_sum(fixture* f) {
    f->w[4 * 3] = 0.7f;
}
static void b_weight_sum_small(fixture* f) {
    f->w[4 * 3] = 0.7485f;
}
static void b_vertex_joint(fixture* f) {
    f->jnt[4 * 2 + 1] = P;
}
static void b_index(fixture* f) {
    f->idx[4] = V;
}
static void b_indices_not3(fixture* f) {
    f->desc.indices_count = 5;
}
static void b_palette_joint(fixture* f) {
    f->pal[2] = 5;
}
static void b_ibm_nan(fixture* f) {
    f->ibm[1].m[13] = NAN;
}
static void b_ibm_singular(fixture* f) {
    /* Column 2 = column 0 + column 1: rank 2. */
    for (int r = 0; r < 3; ++r)
        f->ibm[2].m[8 + r] = f->ibm[2].m[r] + f->ibm[2].m[4 + r];
}
static void b_ibm_zero(fixture* f) {
    memset(&f->ibm[0], 0, sizeof f->ibm[0]);
}
static void b_mpos_nan(fixture* f) {
    f->mpos[3 * V + 3 * 2] = NAN;
}
static void b_mnrm_inf(fixture* f) {
    f->mnrm[3 * 1 + 2] = -INFINITY;
}

static const desc_case kDescCases[] = {
    {"vertices 0", b_vertices_zero, SW_RESULT_LIMIT, "vertices count", -1},
    {"vertices > max", b_vertices_big, SW_RESULT_LIMIT, "vertices count", -1},
    {"positions NULL", b_positions, SW_RESULT_INVALID_ARGUMENT, "vertex arrays not NULL", -1},
    {"joints NULL", b_joints, SW_RESULT_INVALID_ARGUMENT, "vertex arrays not NULL", -1},
    {"weights NULL", b_weights, SW_RESULT_INVALID_ARGUMENT, "vertex arrays not NULL", -1},
    {"indices > max", b_indices_big, SW_RESULT_LIMIT, "indices count", -1},
    {"count without indices", b_indices_null, SW_RESULT_INVALID_ARGUMENT, "indices not NULL", -1},
    {"implicit, V % 3", b_implicit_not3, SW_RESULT_BAD_DATA, "indices multiple of 3", -1},
    {"palette 0", b_palette_zero, SW_RESULT_LIMIT, "palette count", -1},
    {"palette > 1024", b_palette_big, SW_RESULT_LIMIT, "palette count", -1},
    {"palette NULL", b_palette_null, SW_RESULT_INVALID_ARGUMENT, "palette arrays not NULL", -1},
    {"inverse binds NULL", b_ibm_null, SW_RESULT_INVALID_ARGUMENT, "palette arrays not NULL", -1},
    {"skeleton joints 0", b_skel_zero, SW_RESULT_LIMIT, "skeleton joints count", -1},
    {"skeleton joints > max", b_skel_big, SW_RESULT_LIMIT, "skeleton joints count", -1},
    {"targets > max", b_targets_big, SW_RESULT_LIMIT, "morph targets count", -1},
    {"morph positions NULL", b_mpos_null, SW_RESULT_INVALID_ARGUMENT, "morph positions not NULL",
     -1},
    {"morph arrays, 0 targets", b_no_targets, SW_RESULT_INVALID_ARGUMENT,
     "morph arrays need targets", -1},
    {"name too long", b_name_long, SW_RESULT_LIMIT, "mesh name length", -1},
    {"morph name NULL", b_morph_name_null, SW_RESULT_INVALID_ARGUMENT, "morph name not NULL", 1},
    {"morph name too long", b_morph_name_long, SW_RESULT_LIMIT, "morph name length", 1},
    {"position NaN", b_pos_nan, SW_RESULT_BAD_DATA, "positions finite", 2},
    {"normal Inf", b_nrm_inf, SW_RESULT_BAD_DATA, "normals finite", 3},
    {"uv NaN", b_uv_nan, SW_RESULT_BAD_DATA, "uvs finite", 1},
    {"weight NaN", b_weight_nan, SW_RESULT_BAD_DATA, "weights finite", 2},
    {"weight < 0", b_weight_neg, SW_RESULT_BAD_DATA, "weights >= 0", 1},
    {"weights sum 0.95", b_weight_sum, SW_RESULT_BAD_DATA, "weights sum to 1", 3},
    {"weights sum 0.9985", b_weight_sum_small, SW_RESULT_BAD_DATA, "weights sum to 1", 3},
    {"vertex joint >= palette", b_vertex_joint, SW_RESULT_BAD_DATA, "vertex joint < palette count",
     2},
    {"index >= V", b_index, SW_RESULT_BAD_DATA, "index < vertices count", 4},
    {"indices % 3", b_indices_not3, SW_RESULT_BAD_DATA, "indices multiple of 3", -1},
    {"palette joint >= skeleton", b_palette_joint, SW_RESULT_BAD_DATA,
     "palette joint < skeleton joints", 2},
    {"inverse bind NaN", b_ibm_nan, SW_RESULT_BAD_DATA, "inverse binds finite", 1},
    {"inverse bind rank 2", b_ibm_singular, SW_RESULT_BAD_DATA, "inverse bind invertible", 2},
    {"inverse bind zero", b_ibm_zero, SW_RESULT_BAD_DATA, "inverse bind invertible", 0},
    {"morph position NaN", b_mpos_nan, SW_RESULT_BAD_DATA, "morph positions finite", V + 2},
    {"morph normal Inf", b_mnrm_inf, SW_RESULT_BAD_DATA, "morph normals finite", 1},
};

static void test_desc_validity_table(void** state) {
    (void)state;
    memset(g_long_name, 'a', sizeof g_long_name - 1u);
    g_long_name[sizeof g_long_name - 1u] = '\0';
    fixture f;
    make_fixture(&f);
    size_t need = sw_mesh_measure(&f.desc);
    assert_true(need > 0);
    void* mem = aligned_alloc(16, need);
    for (size_t c = 0; c < sizeof kDescCases / sizeof kDescCases[0]; ++c) {
        const desc_case* k = &kDescCases[c];
        print_message("case: %s\n", k->what);
        make_fixture(&f);
        k->breaks(&f);
        assert_int_equal(sw_mesh_measure(&f.desc), 0);
        sw_error e = {0};
        const sw_mesh* m = NULL;
        expect_error(sw_mesh_init(mem, need, &f.desc, &m, &e), &e, k->result, k->check, k->index);
        assert_null(m);
        memset(&e, 0, sizeof e);
        expect_error(sw_mesh_create(&f.desc, NULL, &m, &e), &e, k->result, k->check, k->index);
        assert_null(m);
    }
    /* The all-zero desc is an error, never a crash. */
    const sw_mesh_desc zero = {0};
    sw_error e = {0};
    const sw_mesh* m = NULL;
    assert_int_equal(sw_mesh_measure(&zero), 0);
    expect_error(sw_mesh_init(mem, need, &zero, &m, &e), &e, SW_RESULT_LIMIT, "vertices count", -1);
    assert_int_equal(sw_mesh_measure(NULL), 0);
    /* Arguments of init. */
    make_fixture(&f);
    expect_error(sw_mesh_init(NULL, need, &f.desc, &m, &e), &e, SW_RESULT_INVALID_ARGUMENT,
                 "arguments not NULL", -1);
    expect_error(sw_mesh_init(mem, need, NULL, &m, &e), &e, SW_RESULT_INVALID_ARGUMENT,
                 "arguments not NULL", -1);
    expect_error(sw_mesh_init(mem, need, &f.desc, NULL, &e), &e, SW_RESULT_INVALID_ARGUMENT,
                 "arguments not NULL", -1);
    expect_error(sw_mesh_init((char*)mem + 4, need, &f.desc, &m, &e), &e, SW_RESULT_MISALIGNED,
                 "memory 16-byte aligned", -1);
    expect_error(sw_mesh_init(mem, need - 1u, &f.desc, &m, &e), &e, SW_RESULT_BUFFER_TOO_SMALL,
                 "memory >= measured size", -1);
    expect_error(sw_mesh_create(NULL, NULL, &m, &e), &e, SW_RESULT_INVALID_ARGUMENT,
                 "arguments not NULL", -1);
    assert_null(m);
    free(mem);
}

/* A block of 2^32 bytes or more is refused before anything is read. */
static void test_block_size_limit(void** state) {
    (void)state;
    fixture f;
    make_fixture(&f);
    f.desc.vertices_count = SW_MESH_MAX_VERTICES;
    f.desc.morph_targets_count = SW_MESH_MAX_MORPH_TARGETS;
    f.desc.morph_names = NULL;
    sw_error e = {0};
    const sw_mesh* m = NULL;
    expect_error(sw_mesh_create(&f.desc, NULL, &m, &e), &e, SW_RESULT_LIMIT, "block size", -1);
}

/* ---- blocks ------------------------------------------------------------------ */

static void* built_copy(const fixture* f, size_t* size) {
    const sw_mesh* m = NULL;
    sw_error e = {0};
    assert_int_equal(sw_mesh_create(&f->desc, NULL, &m, &e), SW_RESULT_OK);
    *size = m->size;
    void* copy = aligned_alloc(16, m->size);
    memcpy(copy, m, m->size);
    sw_mesh_destroy(m, NULL);
    return copy;
}

static void test_every_truncation(void** state) {
    (void)state;
    fixture f;
    make_fixture(&f);
    size_t size = 0;
    void* block = built_copy(&f, &size);
    for (size_t n = 0; n < size; ++n) {
        /* A fresh buffer of exactly n bytes so ASan sees any read past it. */
        void* p = aligned_alloc(16, (n + 15u) & ~(size_t)15u);
        if (n) memcpy(p, block, n);
        sw_error e = {0};
        const sw_mesh* m = NULL;
        sw_result r = sw_mesh_load(p ? p : block, n, &m, &e);
        assert_int_equal(r, SW_RESULT_TRUNCATED);
        assert_string_equal(e.check, n < sizeof(sw_mesh) ? "header in bounds" : "block in bounds");
        assert_null(m);
        free(p);
    }
    const sw_mesh* m = NULL;
    sw_error e = {0};
    assert_int_equal(sw_mesh_load(block, size, &m, &e), SW_RESULT_OK);
    expect_error(sw_mesh_load(NULL, size, &m, &e), &e, SW_RESULT_INVALID_ARGUMENT,
                 "arguments not NULL", -1);
    expect_error(sw_mesh_load((char*)block + 8, size - 8u, &m, &e), &e, SW_RESULT_MISALIGNED,
                 "data 16-byte aligned", -1);
    free(block);
}

typedef struct block_case {
    const char* what;
    void (*breaks)(sw_mesh* m);
    sw_result result;
    const char* check;
    int64_t index;
    uint64_t offset; /* UINT64_MAX: not checked */
} block_case;

static float* mf(sw_mesh* m, uint32_t off) {
    return (float*)(void*)((char*)m + off);
}
static uint32_t* mu32(sw_mesh* m, uint32_t off) {
    return (uint32_t*)(void*)((char*)m + off);
}
static uint16_t* mu16(sw_mesh* m, uint32_t off) {
    return (uint16_t*)(void*)((char*)m + off);
}

static void h_index(sw_mesh* m) {
    mu32(m, m->indices_offset)[5] = V;
}
static void h_index_huge(sw_mesh* m) {
    mu32(m, m->indices_offset)[0] = 0xFFFFFFFFu;
}
static void h_weight_sum(sw_mesh* m) {
    mf(m, m->weights_offset)[4 * 1 + 1] = 0.3f;
}
static void h_palette(sw_mesh* m) {
    mu16(m, m->palette_offset)[1] = 5;
}
static void h_vertex_joint(sw_mesh* m) {
    mu16(m, m->joints_offset)[4 * 3] = 7;
}
static void h_nan(sw_mesh* m) {
    mf(m, m->positions_offset)[3 * 1 + 2] = NAN;
}
static void h_morph_nan(sw_mesh* m) {
    mf(m, m->morph_positions_offset)[3 * V * 1 + 3 * 3] = NAN;
}
static void h_singular(sw_mesh* m) {
    sw_mat4* b = (sw_mat4*)(void*)((char*)m + m->inverse_binds_offset);
    b[1].m[0] = b[1].m[1] = b[1].m[2] = 0.0f;
}
static void h_reserved(sw_mesh* m) {
    m->reserved = 1;
}
static void h_flags(sw_mesh* m) {
    m->flags |= 8u;
}
static void h_size_small(sw_mesh* m) {
    m->size = 40;
}
static void h_normals_flag(sw_mesh* m) {
    m->flags &= ~SW_MESH_FLAG_NORMALS;
}
static void h_uvs_offset(sw_mesh* m) {
    m->uvs_offset = 0;
}
static void h_mnrm_flag(sw_mesh* m) {
    m->flags &= ~SW_MESH_FLAG_MORPH_NORMALS;
}
static void h_targets_zero(sw_mesh* m) {
    m->morph_targets_count = 0;
}
static void h_vertices_zero(sw_mesh* m) {
    m->vertices_count = 0;
}
static void h_vertices_big(sw_mesh* m) {
    m->vertices_count = SW_MESH_MAX_VERTICES + 1u;
}
static void h_vertices_more(sw_mesh* m) {
    m->vertices_count = 1000;
}
static void h_indices_big(sw_mesh* m) {
    m->indices_count = SW_MESH_MAX_INDICES + 1u;
}
static void h_palette_zero(sw_mesh* m) {
    m->palette_count = 0;
}
static void h_skel_zero(sw_mesh* m) {
    m->skeleton_joints_count = 0;
}
static void h_targets_big(sw_mesh* m) {
    m->morph_targets_count = 300;
}
static void h_pos_misaligned(sw_mesh* m) {
    m->positions_offset += 2;
}
static void h_pos_in_header(sw_mesh* m) {
    m->positions_offset = 16;
}
static void h_pos_past_end(sw_mesh* m) {
    m->positions_offset = m->size - 4u;
}
static void h_pos_huge(sw_mesh* m) {
    m->positions_offset = 0xFFFFFFF0u;
}
static void h_ibm_misaligned(sw_mesh* m) {
    m->inverse_binds_offset += 4;
}
static void h_joints_odd(sw_mesh* m) {
    m->joints_offset += 1;
}
static void h_indices_count(sw_mesh* m) {
    m->indices_count = 7;
}
static void h_indices_many(sw_mesh* m) {
    m->indices_count = 3000;
}
static void h_name_out(sw_mesh* m) {
    m->name_offset = m->size;
}
static void h_name_unterminated(sw_mesh* m) {
    /* The last name runs to the end of the block without a NUL. */
    uint32_t* offs = mu32(m, m->morph_names_offset);
    char* s = (char*)m + offs[1];
    memset(s, 'x', (size_t)(m->size - offs[1]));
}
static void h_morph_name_out(sw_mesh* m) {
    mu32(m, m->morph_names_offset)[0] = 3;
}
static void h_morph_names_no_targets(sw_mesh* m) {
    m->morph_targets_count = 0;
    m->morph_positions_offset = 0;
    m->morph_normals_offset = 0;
    m->flags &= ~SW_MESH_FLAG_MORPH_NORMALS;
}

#define ANY UINT64_MAX
static const block_case kBlockCases[] = {
    {"index >= V", h_index, SW_RESULT_BAD_DATA, "index < vertices count", 5, ANY},
    {"index 2^32-1", h_index_huge, SW_RESULT_BAD_DATA, "index < vertices count", 0, ANY},
    {"weight sum", h_weight_sum, SW_RESULT_BAD_DATA, "weights sum to 1", 1, ANY},
    {"palette joint", h_palette, SW_RESULT_BAD_DATA, "palette joint < skeleton joints", 1, ANY},
    {"vertex joint", h_vertex_joint, SW_RESULT_BAD_DATA, "vertex joint < palette count", 3, ANY},
    {"position NaN", h_nan, SW_RESULT_BAD_DATA, "positions finite", 1, ANY},
    {"morph NaN", h_morph_nan, SW_RESULT_BAD_DATA, "morph positions finite", V + 3, ANY},
    {"singular inverse bind", h_singular, SW_RESULT_BAD_DATA, "inverse bind invertible", 1, ANY},
    {"reserved", h_reserved, SW_RESULT_BAD_DATA, "reserved zero", -1, offsetof(sw_mesh, reserved)},
    {"unknown flag", h_flags, SW_RESULT_BAD_DATA, "known flags", -1, offsetof(sw_mesh, flags)},
    {"size < header", h_size_small, SW_RESULT_BAD_DATA, "block size >= header", -1, 0},
    {"normals flag", h_normals_flag, SW_RESULT_BAD_DATA, "normals flag matches offset", -1,
     offsetof(sw_mesh, normals_offset)},
    {"uvs offset", h_uvs_offset, SW_RESULT_BAD_DATA, "uvs flag matches offset", -1,
     offsetof(sw_mesh, uvs_offset)},
    {"morph normals flag", h_mnrm_flag, SW_RESULT_BAD_DATA, "morph normals flag matches offset", -1,
     offsetof(sw_mesh, morph_normals_offset)},
    {"targets 0 with morph data", h_targets_zero, SW_RESULT_BAD_DATA,
     "morph normals flag matches offset", -1, offsetof(sw_mesh, morph_normals_offset)},
    {"names without targets", h_morph_names_no_targets, SW_RESULT_BAD_DATA,
     "morph names present with targets", -1, offsetof(sw_mesh, morph_names_offset)},
    {"vertices 0", h_vertices_zero, SW_RESULT_LIMIT, "vertices count", -1,
     offsetof(sw_mesh, vertices_count)},
    {"vertices > max", h_vertices_big, SW_RESULT_LIMIT, "vertices count", -1,
     offsetof(sw_mesh, vertices_count)},
    {"vertices past the block", h_vertices_more, SW_RESULT_BAD_DATA, "positions in bounds", -1,
     offsetof(sw_mesh, positions_offset)},
    {"indices > max", h_indices_big, SW_RESULT_LIMIT, "indices count", -1,
     offsetof(sw_mesh, indices_count)},
    {"palette 0", h_palette_zero, SW_RESULT_LIMIT, "palette count", -1,
     offsetof(sw_mesh, palette_count)},
    {"skeleton joints 0", h_skel_zero, SW_RESULT_LIMIT, "skeleton joints count", -1,
     offsetof(sw_mesh, skeleton_joints_count)},
    {"targets > max", h_targets_big, SW_RESULT_LIMIT, "morph targets count", -1,
     offsetof(sw_mesh, morph_targets_count)},
    {"positions misaligned", h_pos_misaligned, SW_RESULT_BAD_DATA, "positions aligned", -1,
     offsetof(sw_mesh, positions_offset)},
    {"positions in header", h_pos_in_header, SW_RESULT_BAD_DATA, "positions in bounds", -1,
     offsetof(sw_mesh, positions_offset)},
    {"positions past end", h_pos_past_end, SW_RESULT_BAD_DATA, "positions in bounds", -1,
     offsetof(sw_mesh, positions_offset)},
    {"positions offset huge", h_pos_huge, SW_RESULT_BAD_DATA, "positions in bounds", -1,
     offsetof(sw_mesh, positions_offset)},
    {"inverse binds misaligned", h_ibm_misaligned, SW_RESULT_BAD_DATA, "inverse binds aligned", -1,
     offsetof(sw_mesh, inverse_binds_offset)},
    {"joints odd offset", h_joints_odd, SW_RESULT_BAD_DATA, "joints aligned", -1,
     offsetof(sw_mesh, joints_offset)},
    {"indices % 3", h_indices_count, SW_RESULT_BAD_DATA, "indices multiple of 3", -1,
     offsetof(sw_mesh, indices_count)},
    {"indices past the block", h_indices_many, SW_RESULT_BAD_DATA, "indices in bounds", -1,
     offsetof(sw_mesh, indices_offset)},
    {"name out of block", h_name_out, SW_RESULT_BAD_DATA, "name in bounds", -1,
     offsetof(sw_mesh, name_offset)},
    {"morph name unterminated", h_name_unterminated, SW_RESULT_BAD_DATA, "morph name in bounds", 1,
     ANY},
    {"morph name in header", h_morph_name_out, SW_RESULT_BAD_DATA, "morph name in bounds", 0, ANY},
};

static void test_load_hostile(void** state) {
    (void)state;
    fixture f;
    make_fixture(&f);
    size_t size = 0;
    void* good = built_copy(&f, &size);
    void* p = aligned_alloc(16, size);
    for (size_t c = 0; c < sizeof kBlockCases / sizeof kBlockCases[0]; ++c) {
        const block_case* k = &kBlockCases[c];
        print_message("case: %s\n", k->what);
        memcpy(p, good, size);
        k->breaks((sw_mesh*)p);
        sw_error e = {0};
        const sw_mesh* m = NULL;
        expect_error(sw_mesh_load(p, size, &m, &e), &e, k->result, k->check, k->index);
        if (k->offset != ANY) assert_int_equal(e.offset, k->offset);
        assert_true(e.offset < size);
        assert_null(m);
    }
    free(p);
    free(good);
}

/* Every single-byte change of a valid block either loads or fails with a
 * named check; never crashes (run under ASan in the sanitizer build). */
static void test_flipped_bytes(void** state) {
    (void)state;
    fixture f;
    make_fixture(&f);
    size_t size = 0;
    void* good = built_copy(&f, &size);
    void* p = aligned_alloc(16, size);
    int failed = 0;
    for (size_t at = 0; at < size; ++at) {
        for (int bit = 0; bit < 8; bit += 3) {
            memcpy(p, good, size);
            ((unsigned char*)p)[at] ^= (unsigned char)(1u << bit);
            sw_error e = {0};
            const sw_mesh* m = NULL;
            sw_result r = sw_mesh_load(p, size, &m, &e);
            if (r != SW_RESULT_OK) {
                assert_non_null(e.check);
                assert_null(m);
                ++failed;
            } else {
                assert_ptr_equal(m, p);
            }
        }
    }
    assert_true(failed > 0);
    free(p);
    free(good);
}

static int g_alloc_calls;
static void* fail_alloc(void* user, size_t size, size_t align) {
    (void)user;
    (void)size;
    (void)align;
    ++g_alloc_calls;
    return NULL;
}
static void never_free(void* user, void* ptr, size_t size) {
    (void)user;
    (void)ptr;
    (void)size;
    fail_msg("free called");
}

static void test_allocation_failure(void** state) {
    (void)state;
    fixture f;
    make_fixture(&f);
    const sw_allocator a = {fail_alloc, never_free, NULL};
    sw_error e = {0};
    const sw_mesh* m = NULL;
    g_alloc_calls = 0;
    expect_error(sw_mesh_create(&f.desc, &a, &m, &e), &e, SW_RESULT_OUT_OF_MEMORY, "allocation",
                 -1);
    assert_int_equal(g_alloc_calls, 1);
    assert_null(m);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_build_round_trip),    cmocka_unit_test(test_optional_parts),
        cmocka_unit_test(test_desc_validity_table), cmocka_unit_test(test_block_size_limit),
        cmocka_unit_test(test_every_truncation),    cmocka_unit_test(test_load_hostile),
        cmocka_unit_test(test_flipped_bytes),       cmocka_unit_test(test_allocation_failure),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
