/* CPU skinning and morph jobs (sinew/core/skin.h): linear blend against a
 * per-vertex formula in double, every kernel path against it, the dual
 * quaternion palette rebuilding its matrices, DQ equal to LBS where it must
 * be (one influence, scale, shared rigid motion), the candy-wrapper twist,
 * morph deltas, vertex ranges and bad input. Runtime only (runs on arm64). */
#include "test_util.h"

#include "runtime/core/internal.h"

#define V 61u      /* vertices of the random meshes */
#define PAL 7u     /* palette entries */
#define TARGETS 3u /* morph targets */

/* A random mesh: positions in [-2, 2], normals, 1..4 influences with random
 * weights (unused slots: weight 0 and an index past the palette), targets. */
typedef struct test_mesh {
    float pos[3 * V], nrm[3 * V], w[4 * V], dpos[3 * V * TARGETS], dnrm[3 * V * TARGETS];
    uint16_t j[4 * V], palette[PAL];
    sw_mat4 ib[PAL];
    const sw_mesh* mesh;
} test_mesh;

static void make_mesh(test_mesh* t, uint32_t seed, uint32_t max_influences) {
    uint32_t rng = seed;
    for (uint32_t v = 0; v < V; ++v) {
        const sw_vec3 n = sw_vec3_normalize(sw_vec3_make(
            sw_test_rand(&rng, -1, 1), sw_test_rand(&rng, -1, 1), sw_test_rand(&rng, 0.2f, 1)));
        t->nrm[3 * v] = n.x, t->nrm[3 * v + 1] = n.y, t->nrm[3 * v + 2] = n.z;
        for (uint32_t r = 0; r < 3; ++r)
            t->pos[3 * v + r] = sw_test_rand(&rng, -2, 2);
    }
    for (uint32_t i = 0; i < 3 * V * TARGETS; ++i) {
        t->dpos[i] = sw_test_rand(&rng, -0.3f, 0.3f);
        t->dnrm[i] = sw_test_rand(&rng, -0.2f, 0.2f);
    }
    for (uint32_t v = 0; v < V; ++v) {
        const uint32_t n = 1u + v % max_influences;
        float sum = 0.0f;
        for (uint32_t k = 0; k < 4; ++k) {
            const bool used = k < n;
            t->w[4 * v + k] = used ? sw_test_rand(&rng, 0.05f, 1.0f) : 0.0f;
            t->j[4 * v + k] = used ? (uint16_t)sw_test_rand(&rng, 0, (float)PAL) : (uint16_t)999;
            sum += t->w[4 * v + k];
        }
        for (uint32_t k = 0; k < 4; ++k)
            t->w[4 * v + k] /= sum;
    }
    for (uint32_t i = 0; i < PAL; ++i) {
        t->palette[i] = (uint16_t)i;
        t->ib[i] = sw_mat4_identity();
    }
    const char* names[TARGETS] = {"a", "b", "c"};
    static const uint32_t tri[3] = {0, 1, 2}; /* V is not a multiple of 3 */
    const sw_mesh_desc d = {.name = "body",
                            .vertices_count = V,
                            .positions = t->pos,
                            .normals = t->nrm,
                            .joints = t->j,
                            .weights = t->w,
                            .indices = tri,
                            .indices_count = 3,
                            .palette = t->palette,
                            .inverse_binds = t->ib,
                            .palette_count = PAL,
                            .skeleton_joints_count = PAL,
                            .morph_targets_count = TARGETS,
                            .morph_positions = t->dpos,
                            .morph_normals = t->dnrm,
                            .morph_names = names};
    sw_error err = SW_ERROR_INIT;
    const sw_result r = sw_mesh_create(&d, NULL, &t->mesh, &err);
    if (r != SW_RESULT_OK) fail_msg("mesh: %s (%s)", sw_result_str(r), err.check);
}

/* An affine matrix: a rotation of up to `angle` radians, translation in
 * [-3, 3], scales in [lo, hi]. */
static sw_mat4 random_affine(uint32_t* rng, float angle, float lo, float hi) {
    const sw_vec3 axis = {sw_test_rand(rng, -1, 1), sw_test_rand(rng, -1, 1),
                          sw_test_rand(rng, 0.1f, 1)};
    const sw_xform x = {
        {sw_test_rand(rng, -3, 3), sw_test_rand(rng, -3, 3), sw_test_rand(rng, -3, 3)},
        sw_quat_from_axis_angle(axis, sw_test_rand(rng, -angle, angle)),
        {sw_test_rand(rng, lo, hi), sw_test_rand(rng, lo, hi), sw_test_rand(rng, lo, hi)}};
    return sw_mat4_from_xform(x);
}

/* det and cofactor matrix of a 3x3 in double (a[c][r], column-major):
 * cof = det * A^-T, out[c][r] = (-1)^(r+c) times the minor of row r,
 * column c. */
static double cofactor3(double a[3][3], double out[3][3]) {
    for (int c = 0; c < 3; ++c)
        for (int r = 0; r < 3; ++r) {
            const int r1 = (r + 1) % 3, r2 = (r + 2) % 3, c1 = (c + 1) % 3, c2 = (c + 2) % 3;
            out[c][r] = a[c1][r1] * a[c2][r2] - a[c2][r1] * a[c1][r2];
        }
    return a[0][0] * out[0][0] + a[0][1] * out[0][1] + a[0][2] * out[0][2];
}

/* The expected LBS of vertex v: sum_k w_k (P_k p) for the position; the
 * blended 3x3 (or its inverse transpose, times the sign of its
 * determinant) on the normal, normalized. Double precision. */
static void expected_lbs(const test_mesh* t, const sw_mat4* pal, uint32_t v, bool cofactor,
                         double p[3], double n[3]) {
    double a[3][3] = {{0}};
    for (int r = 0; r < 3; ++r)
        p[r] = 0.0;
    for (uint32_t k = 0; k < 4; ++k) {
        const double w = t->w[4 * v + k];
        if (w == 0.0) continue;
        const sw_mat4* m = &pal[t->j[4 * v + k]];
        const sw_vec3 q =
            sw_mat4_point(m, sw_vec3_make(t->pos[3 * v], t->pos[3 * v + 1], t->pos[3 * v + 2]));
        p[0] += w * q.x, p[1] += w * q.y, p[2] += w * q.z;
        for (int c = 0; c < 3; ++c)
            for (int r = 0; r < 3; ++r)
                a[c][r] += w * m->m[c * 4 + r];
    }
    /* Cofactor mode: the inverse transpose, computed here by explicit
     * inversion (b = cof / det), times the sign of det (cof = det * A^-T). */
    double b[3][3];
    memcpy(b, a, sizeof b);
    if (cofactor) {
        double cof[3][3];
        const double det = cofactor3(a, cof);
        for (int c = 0; c < 3; ++c)
            for (int r = 0; r < 3; ++r)
                b[c][r] = cof[c][r] / det * (det < 0 ? -1.0 : 1.0);
    }
    const double in[3] = {t->nrm[3 * v], t->nrm[3 * v + 1], t->nrm[3 * v + 2]};
    double len = 0.0;
    for (int r = 0; r < 3; ++r) {
        n[r] = b[0][r] * in[0] + b[1][r] * in[1] + b[2][r] * in[2];
        len += n[r] * n[r];
    }
    len = sqrt(len);
    for (int r = 0; r < 3; ++r)
        n[r] /= len;
}

static test_mesh g_mesh;
static sw_mat4 g_pal[PAL];
static float g_out[3 * V], g_nout[3 * V], g_ref[3 * V], g_nref[3 * V];

/* LBS on every kernel path and both normal modes against the formula. */
static void test_lbs_formula(void** state) {
    (void)state;
    make_mesh(&g_mesh, 11u, 4u);
    uint32_t rng = 5u;
    for (uint32_t i = 0; i < PAL; ++i)
        g_pal[i] = random_affine(&rng, 1.0f, 0.4f, 2.0f);
    uint32_t paths_count;
    const sw__soa_ops* const* paths = sw__soa_paths(&paths_count);
    for (int mode = 0; mode < 2; ++mode) {
        for (uint32_t k = 0; k < paths_count; ++k) {
            sw_skin_job job = {.mesh = g_mesh.mesh,
                               .palette = g_pal,
                               .palette_count = PAL,
                               .normals_mode =
                                   mode ? SW_SKIN_NORMALS_COFACTOR : SW_SKIN_NORMALS_MATRIX,
                               .out_positions = g_out,
                               .out_normals = g_nout,
                               .out_count = V};
            assert_int_equal(sw__skin_job_run_with(&job, paths[k]), SW_RESULT_OK);
            for (uint32_t v = 0; v < V; ++v) {
                double p[3], n[3];
                expected_lbs(&g_mesh, g_pal, v, mode == 1, p, n);
                for (uint32_t r = 0; r < 3; ++r) {
                    assert_near(g_out[3 * v + r], p[r], 2e-5 * fmax(1.0, fabs(p[r])));
                    assert_near(g_nout[3 * v + r], n[r], 2e-5);
                }
            }
        }
    }
    sw_mesh_destroy(g_mesh.mesh, NULL);
}

/* A range writes its vertices and nothing else, on every path (the last
 * vertex of a range takes the 3-float store). */
static void test_ranges(void** state) {
    (void)state;
    make_mesh(&g_mesh, 12u, 3u);
    uint32_t rng = 6u;
    for (uint32_t i = 0; i < PAL; ++i)
        g_pal[i] = random_affine(&rng, 1.0f, 0.5f, 1.5f);
    sw_skin_job job = {.mesh = g_mesh.mesh,
                       .palette = g_pal,
                       .palette_count = PAL,
                       .out_positions = g_ref,
                       .out_normals = g_nref,
                       .out_count = V};
    assert_int_equal(sw__skin_job_run_with(&job, &sw__soa_scalar), SW_RESULT_OK);
    uint32_t paths_count;
    const sw__soa_ops* const* paths = sw__soa_paths(&paths_count);
    for (uint32_t k = 0; k < paths_count; ++k) {
        const float sentinel = -12345.0f;
        for (uint32_t i = 0; i < 3 * V; ++i)
            g_out[i] = g_nout[i] = sentinel;
        job.out_positions = g_out;
        job.out_normals = g_nout;
        job.first_vertex = 5;
        job.vertices_count = 17;
        assert_int_equal(sw__skin_job_run_with(&job, paths[k]), SW_RESULT_OK);
        for (uint32_t i = 0; i < 3 * V; ++i) {
            const bool in = i >= 15 && i < 3 * 22;
            if (!in) {
                assert_true(g_out[i] == sentinel && g_nout[i] == sentinel);
                continue;
            }
            assert_near(g_out[i], g_ref[i], 1e-5 * fmax(1.0, fabs(g_ref[i])));
            assert_near(g_nout[i], g_nref[i], 1e-5);
        }
    }
    sw_mesh_destroy(g_mesh.mesh, NULL);
}

static SINEW_ALIGN16 sw_dq_transform g_dq[PAL];

/* Runs the DQ palette job over identity inverse binds (palette = model). */
static void dq_palette(const sw_mat4* model, uint32_t n, sw_dq_transform* out) {
    sw_mat4 ib[PAL];
    for (uint32_t i = 0; i < n; ++i)
        ib[i] = sw_mat4_identity();
    sw_error err = SW_ERROR_INIT;
    const sw_dq_palette_job pj = {.model = model,
                                  .model_count = n,
                                  .inverse_bind = ib,
                                  .count = n,
                                  .out = out,
                                  .out_count = n,
                                  .err = &err};
    const sw_result r = sw_dq_palette_job_run(&pj);
    if (r != SW_RESULT_OK) fail_msg("dq palette: %s (%s)", sw_result_str(r), err.check);
}

/* Every entry rebuilds its matrix: R(real) * S plus the translation
 * 2 * dual * conj(real), with real unit and S symmetric when det > 0. */
static void test_dq_palette_rebuilds(void** state) {
    (void)state;
    uint32_t rng = 7u;
    sw_mat4 model[PAL];
    for (uint32_t i = 0; i < PAL; ++i)
        model[i] = random_affine(&rng, 3.1f, 0.3f, 3.0f);
    model[2] = random_affine(&rng, 3.1f, 1.0f, 1.0f); /* rigid */
    model[3].m[0] = -model[3].m[0];                   /* a mirror: det < 0 */
    model[3].m[1] = -model[3].m[1];
    model[3].m[2] = -model[3].m[2];
    dq_palette(model, PAL, g_dq);
    for (uint32_t i = 0; i < PAL; ++i) {
        const sw_dq_transform* x = &g_dq[i];
        const sw_quat q = sw_quat_make(x->real[0], x->real[1], x->real[2], x->real[3]);
        assert_near(sqrtf(sw_quat_dot(q, q)), 1.0f, 1e-6);
        const sw_quat d = sw_quat_make(x->dual[0], x->dual[1], x->dual[2], x->dual[3]);
        const sw_quat t = sw_quat_mul(d, sw_quat_conjugate(q));
        const sw_mat4 r = sw_mat4_from_xform((sw_xform){{0, 0, 0}, q, {1, 1, 1}});
        for (int c = 0; c < 3; ++c)
            for (int row = 0; row < 3; ++row) {
                double e = 0.0;
                for (int k = 0; k < 3; ++k)
                    e += (double)r.m[k * 4 + row] * x->scale[c * 4 + k];
                assert_near(e, model[i].m[c * 4 + row], 2e-6 * 3.0);
            }
        assert_near(2.0f * t.x, model[i].m[12], 1e-5);
        assert_near(2.0f * t.y, model[i].m[13], 1e-5);
        assert_near(2.0f * t.z, model[i].m[14], 1e-5);
        if (i != 3)
            for (int c = 0; c < 3; ++c)
                for (int row = 0; row < 3; ++row)
                    assert_near(x->scale[c * 4 + row], x->scale[row * 4 + c], 1e-5);
        if (i == 2) { /* rigid: exactly identity scale */
            static const float id[12] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0};
            assert_memory_equal(x->scale, id, sizeof id);
        }
    }
}

/* Single-influence vertices: DQ gives P p, as LBS, on every path, with
 * scaled, sheared and mirrored palettes; normals too. */
static void test_dq_single_influence_equals_lbs(void** state) {
    (void)state;
    make_mesh(&g_mesh, 13u, 1u);
    uint32_t rng = 8u;
    for (uint32_t i = 0; i < PAL; ++i)
        g_pal[i] = random_affine(&rng, 3.1f, 0.5f, 2.0f);
    g_pal[1] = sw_mat4_from_xform((sw_xform){{1, 2, 3}, sw_test_rand_quat(&rng), {2, 2, 2}});
    g_pal[4].m[5] = -g_pal[4].m[5]; /* breaks orthogonality: shear */
    dq_palette(g_pal, PAL, g_dq);
    for (int mode = 0; mode < 2; ++mode) {
        const sw_skin_normals nm = mode ? SW_SKIN_NORMALS_COFACTOR : SW_SKIN_NORMALS_MATRIX;
        sw_skin_job lj = {.mesh = g_mesh.mesh,
                          .palette = g_pal,
                          .palette_count = PAL,
                          .normals_mode = nm,
                          .out_positions = g_ref,
                          .out_normals = g_nref,
                          .out_count = V};
        assert_int_equal(sw_skin_job_run(&lj), SW_RESULT_OK);
        uint32_t paths_count;
        const sw__soa_ops* const* paths = sw__soa_paths(&paths_count);
        for (uint32_t k = 0; k < paths_count; ++k) {
            sw_skin_job dj = {.mesh = g_mesh.mesh,
                              .dq_palette = g_dq,
                              .palette_count = PAL,
                              .normals_mode = nm,
                              .out_positions = g_out,
                              .out_normals = g_nout,
                              .out_count = V};
            assert_int_equal(sw__skin_job_run_with(&dj, paths[k]), SW_RESULT_OK);
            for (uint32_t i = 0; i < 3 * V; ++i) {
                assert_near(g_out[i], g_ref[i], 1e-5 * fmax(1.0, fabs(g_ref[i])) * 4.0);
                assert_near(g_nout[i], g_nref[i], 1e-5);
            }
        }
    }
    sw_mesh_destroy(g_mesh.mesh, NULL);
}

/* Influences sharing one rigid motion with different scales: the scale
 * blends linearly before the rigid part, so DQ equals LBS exactly there too
 * (R (sum w_k S_k) p + t = sum w_k (R S_k p + t)). */
static void test_dq_scale_blends_linearly(void** state) {
    (void)state;
    make_mesh(&g_mesh, 14u, 4u);
    uint32_t rng = 9u;
    const sw_quat q = sw_test_rand_quat(&rng);
    for (uint32_t i = 0; i < PAL; ++i) {
        const float s = i == 0 ? 1.0f : sw_test_rand(&rng, 0.5f, 2.5f);
        g_pal[i] = sw_mat4_from_xform((sw_xform){{0.5f, -1, 2}, q, {s, s, s}});
    }
    dq_palette(g_pal, PAL, g_dq);
    sw_skin_job lj = {.mesh = g_mesh.mesh,
                      .palette = g_pal,
                      .palette_count = PAL,
                      .out_positions = g_ref,
                      .out_normals = g_nref,
                      .out_count = V};
    sw_skin_job dj = {.mesh = g_mesh.mesh,
                      .dq_palette = g_dq,
                      .palette_count = PAL,
                      .out_positions = g_out,
                      .out_normals = g_nout,
                      .out_count = V};
    assert_int_equal(sw_skin_job_run(&lj), SW_RESULT_OK);
    assert_int_equal(sw_skin_job_run(&dj), SW_RESULT_OK);
    for (uint32_t i = 0; i < 3 * V; ++i) {
        assert_near(g_out[i], g_ref[i], 2e-5 * fmax(1.0, fabs(g_ref[i])));
        assert_near(g_nout[i], g_nref[i], 2e-5);
    }
    sw_mesh_destroy(g_mesh.mesh, NULL);
}

/* The candy wrapper: a cylinder along X (radius 1, x in [-2, 2]) on two
 * joints, the second twisted about X; weights go from joint 0 to joint 1
 * linearly over x in [-1, 1]. The ring at x = 0 (weights 1/2, 1/2) is
 * measured: min radius / rest radius. */
#define RINGS 41u
#define SIDES 24u
#define CYL (RINGS * SIDES)
static float g_cyl_pos[3 * CYL], g_cyl_w[4 * CYL], g_cyl_out[3 * CYL];
static uint16_t g_cyl_j[4 * CYL];

static double ring_radius(const float* p, uint32_t ring, double* max) {
    double lo = INFINITY;
    *max = 0.0;
    for (uint32_t s = 0; s < SIDES; ++s) {
        const float* v = &p[3 * (ring * SIDES + s)];
        const double r = sqrt((double)v[1] * v[1] + (double)v[2] * v[2]);
        lo = fmin(lo, r);
        *max = fmax(*max, r);
    }
    return lo;
}

static void test_candy_wrapper(void** state) {
    (void)state;
    for (uint32_t r = 0; r < RINGS; ++r) {
        const float x = -2.0f + 4.0f * (float)r / (float)(RINGS - 1);
        float w1 = (x + 1.0f) * 0.5f;
        w1 = w1 < 0.0f ? 0.0f : w1 > 1.0f ? 1.0f : w1;
        for (uint32_t s = 0; s < SIDES; ++s) {
            const uint32_t v = r * SIDES + s;
            const float a = 6.2831853f * (float)s / (float)SIDES;
            g_cyl_pos[3 * v] = x;
            g_cyl_pos[3 * v + 1] = cosf(a);
            g_cyl_pos[3 * v + 2] = sinf(a);
            g_cyl_j[4 * v] = 0;
            g_cyl_j[4 * v + 1] = 1;
            g_cyl_j[4 * v + 2] = g_cyl_j[4 * v + 3] = 0;
            g_cyl_w[4 * v] = 1.0f - w1;
            g_cyl_w[4 * v + 1] = w1;
            g_cyl_w[4 * v + 2] = g_cyl_w[4 * v + 3] = 0.0f;
        }
    }
    const uint16_t palette[2] = {0, 1};
    const sw_mat4 ib[2] = {sw_mat4_identity(), sw_mat4_identity()};
    static const uint32_t tri[3] = {0, 1, 2};
    const sw_mesh_desc d = {.name = "cylinder",
                            .vertices_count = CYL,
                            .positions = g_cyl_pos,
                            .joints = g_cyl_j,
                            .weights = g_cyl_w,
                            .indices = tri,
                            .indices_count = 3,
                            .palette = palette,
                            .inverse_binds = ib,
                            .palette_count = 2,
                            .skeleton_joints_count = 2};
    const sw_mesh* mesh;
    assert_int_equal(sw_mesh_create(&d, NULL, &mesh, NULL), SW_RESULT_OK);
    const float angles[2] = {90.0f, 180.0f};
    for (int i = 0; i < 2; ++i) {
        const float a = angles[i] * 3.14159265f / 180.0f;
        /* Model matrices: joint 0 at rest, joint 1 twisted about X at x = 1. */
        sw_mat4 model[2] = {
            sw_mat4_identity(),
            sw_mat4_from_xform((sw_xform){
                {0, 0, 0}, sw_quat_from_axis_angle(sw_vec3_make(1, 0, 0), a), {1, 1, 1}})};
        sw_mat4 pal[2];
        const sw_skinning_job sj = {.model = model,
                                    .model_count = 2,
                                    .joints = palette,
                                    .inverse_bind = ib,
                                    .count = 2,
                                    .out = pal,
                                    .out_count = 2};
        assert_int_equal(sw_skinning_job_run(&sj), SW_RESULT_OK);
        SINEW_ALIGN16 sw_dq_transform dq[2];
        const sw_dq_palette_job dj = {.model = model,
                                      .model_count = 2,
                                      .joints = palette,
                                      .inverse_bind = ib,
                                      .count = 2,
                                      .out = dq,
                                      .out_count = 2};
        assert_int_equal(sw_dq_palette_job_run(&dj), SW_RESULT_OK);
        const sw_skin_job lbs = {.mesh = mesh,
                                 .palette = pal,
                                 .palette_count = 2,
                                 .out_positions = g_cyl_out,
                                 .out_count = CYL};
        assert_int_equal(sw_skin_job_run(&lbs), SW_RESULT_OK);
        double lbs_max, dq_max, lbs_min_all = INFINITY, dq_min_all = INFINITY;
        const double lbs_mid = ring_radius(g_cyl_out, RINGS / 2, &lbs_max);
        for (uint32_t r = 0; r < RINGS; ++r) {
            double mx;
            lbs_min_all = fmin(lbs_min_all, ring_radius(g_cyl_out, r, &mx));
        }
        const sw_skin_job dqs = {.mesh = mesh,
                                 .dq_palette = dq,
                                 .palette_count = 2,
                                 .out_positions = g_cyl_out,
                                 .out_count = CYL};
        assert_int_equal(sw_skin_job_run(&dqs), SW_RESULT_OK);
        const double dq_mid = ring_radius(g_cyl_out, RINGS / 2, &dq_max);
        for (uint32_t r = 0; r < RINGS; ++r) {
            double mx;
            dq_min_all = fmin(dq_min_all, ring_radius(g_cyl_out, r, &mx));
            assert_true(mx <= 1.0 + 1e-5);
        }
        print_message("candy wrapper, twist %.0f deg: middle ring radius / rest: LBS %.4f, "
                      "DQ %.4f (smallest over all rings: LBS %.4f, DQ %.4f)\n",
                      (double)angles[i], lbs_mid, dq_mid, lbs_min_all, dq_min_all);
        /* Closed form for LBS: |(v + R v) / 2| = cos(angle / 2). */
        assert_near(lbs_mid, cos(a / 2.0), 1e-5);
        assert_true(dq_min_all >= 0.99 && dq_max <= 1.0 + 1e-5);
    }
    sw_mesh_destroy(mesh, NULL);
}

/* Morph: bind + sum w_k delta_k on every path (one weight 0, skipped),
 * normals too; a range leaves the rest untouched. */
static void test_morph(void** state) {
    (void)state;
    make_mesh(&g_mesh, 15u, 2u);
    const float w[TARGETS] = {0.25f, 0.0f, -0.75f};
    uint32_t paths_count;
    const sw__soa_ops* const* paths = sw__soa_paths(&paths_count);
    for (uint32_t k = 0; k < paths_count; ++k) {
        for (uint32_t i = 0; i < 3 * V; ++i)
            g_out[i] = g_nout[i] = 7.0f;
        sw_morph_job job = {.mesh = g_mesh.mesh,
                            .weights = w,
                            .weights_count = TARGETS,
                            .first_vertex = 1,
                            .vertices_count = V - 2,
                            .out_positions = g_out,
                            .out_normals = g_nout,
                            .out_count = V};
        assert_int_equal(sw__morph_job_run_with(&job, paths[k]), SW_RESULT_OK);
        for (uint32_t i = 0; i < 3 * V; ++i) {
            if (i < 3 || i >= 3 * (V - 1)) {
                assert_true(g_out[i] == 7.0f && g_nout[i] == 7.0f);
                continue;
            }
            double p = g_mesh.pos[i], n = g_mesh.nrm[i];
            for (uint32_t t = 0; t < TARGETS; ++t) {
                p += (double)w[t] * g_mesh.dpos[3 * V * t + i];
                n += (double)w[t] * g_mesh.dnrm[3 * V * t + i];
            }
            assert_near(g_out[i], p, 1e-6 * 4.0);
            assert_near(g_nout[i], n, 1e-6 * 4.0);
        }
    }
    /* Morphed positions feed the skin job: at identity palettes they come
     * back unchanged. */
    for (uint32_t i = 0; i < PAL; ++i)
        g_pal[i] = sw_mat4_identity();
    const sw_skin_job sj = {.mesh = g_mesh.mesh,
                            .palette = g_pal,
                            .palette_count = PAL,
                            .positions = g_out,
                            .first_vertex = 1,
                            .vertices_count = V - 2,
                            .out_positions = g_ref,
                            .out_count = V};
    assert_int_equal(sw_skin_job_run(&sj), SW_RESULT_OK);
    for (uint32_t i = 3; i < 3 * (V - 1); ++i)
        assert_near(g_ref[i], g_out[i], 1e-6 * fmax(1.0, fabs(g_out[i])));
    sw_mesh_destroy(g_mesh.mesh, NULL);
}

/* Expects result r and prints the error line a user would see. */
static void expect_error(sw_result got, sw_result want, const sw_error* err) {
    print_message("  -> %s: %s (element %lld)\n", sw_result_str(got), err->check ? err->check : "-",
                  (long long)err->index);
    assert_int_equal(got, want);
}

static void test_bad_input(void** state) {
    (void)state;
    make_mesh(&g_mesh, 16u, 4u);
    for (uint32_t i = 0; i < PAL; ++i)
        g_pal[i] = sw_mat4_identity();
    sw_error err = SW_ERROR_INIT;
    sw_skin_job job = {.mesh = g_mesh.mesh,
                       .palette = g_pal,
                       .palette_count = PAL,
                       .out_positions = g_out,
                       .out_count = V,
                       .err = &err};
    assert_int_equal(sw_skin_job_validate(&job), SW_RESULT_OK);
    g_pal[3].m[13] = NAN;
    expect_error(sw_skin_job_run(&job), SW_RESULT_BAD_DATA, &err);
    assert_int_equal(err.index, 3);
    g_pal[3].m[13] = 0.0f;
    job.palette_count = PAL - 1;
    expect_error(sw_skin_job_run(&job), SW_RESULT_BUFFER_TOO_SMALL, &err);
    job.palette_count = PAL;
    job.first_vertex = V - 2;
    job.vertices_count = 3;
    expect_error(sw_skin_job_run(&job), SW_RESULT_INVALID_ARGUMENT, &err);
    job.first_vertex = 0;
    job.vertices_count = V - 1;
    job.out_normals = g_out + 3; /* overlaps out_positions */
    expect_error(sw_skin_job_run(&job), SW_RESULT_OVERLAP, &err);
    assert_string_equal(err.check, "out_positions apart from out_normals");
    job.vertices_count = 0;
    job.out_normals = NULL;
    job.normals_mode = (sw_skin_normals)7;
    expect_error(sw_skin_job_run(&job), SW_RESULT_INVALID_ARGUMENT, &err);
    job.normals_mode = SW_SKIN_NORMALS_DEFAULT;
    job.dq_palette = g_dq; /* both palettes */
    expect_error(sw_skin_job_run(&job), SW_RESULT_INVALID_ARGUMENT, &err);
    job.dq_palette = NULL;
    job.palette = NULL; /* neither */
    expect_error(sw_skin_job_run(&job), SW_RESULT_INVALID_ARGUMENT, &err);
    job.palette = g_pal;

    /* DQ: a palette entry that is not a unit dual quaternion. */
    dq_palette(g_pal, PAL, g_dq);
    g_dq[5].real[3] = 2.0f;
    sw_skin_job dj = {.mesh = g_mesh.mesh,
                      .dq_palette = g_dq,
                      .palette_count = PAL,
                      .out_positions = g_out,
                      .out_count = V,
                      .err = &err};
    expect_error(sw_skin_job_run(&dj), SW_RESULT_BAD_DATA, &err);
    assert_int_equal(err.index, 5);
    g_pal[2].m[7] = 0.5f; /* projective */
    sw_mat4 ib[PAL];
    for (uint32_t i = 0; i < PAL; ++i)
        ib[i] = sw_mat4_identity();
    const sw_dq_palette_job pj = {.model = g_pal,
                                  .model_count = PAL,
                                  .inverse_bind = ib,
                                  .count = PAL,
                                  .out = g_dq,
                                  .out_count = PAL,
                                  .err = &err};
    expect_error(sw_dq_palette_job_run(&pj), SW_RESULT_BAD_DATA, &err);
    assert_int_equal(err.index, 2);

    /* Morph: a NaN weight. */
    const float w[TARGETS] = {0.5f, NAN, 0.0f};
    const sw_morph_job mj = {.mesh = g_mesh.mesh,
                             .weights = w,
                             .weights_count = TARGETS,
                             .out_positions = g_out,
                             .out_count = V,
                             .err = &err};
    expect_error(sw_morph_job_run(&mj), SW_RESULT_BAD_DATA, &err);
    assert_int_equal(err.index, 1);

    /* The mesh refuses a joint index past its palette (non-zero weight)
     * and zero weights, so the jobs never see them. */
    const sw_mesh* bad;
    g_mesh.j[4 * 7] = PAL;
    const sw_mesh_desc d = {.vertices_count = V,
                            .positions = g_mesh.pos,
                            .joints = g_mesh.j,
                            .weights = g_mesh.w,
                            .indices = (const uint32_t[3]){0, 1, 2},
                            .indices_count = 3,
                            .palette = g_mesh.palette,
                            .inverse_binds = g_mesh.ib,
                            .palette_count = PAL,
                            .skeleton_joints_count = PAL};
    expect_error(sw_mesh_create(&d, NULL, &bad, &err), SW_RESULT_BAD_DATA, &err);
    assert_int_equal(err.index, 7);
    g_mesh.j[4 * 7] = 0;
    for (int k = 0; k < 4; ++k)
        g_mesh.w[4 * 9 + k] = 0.0f;
    expect_error(sw_mesh_create(&d, NULL, &bad, &err), SW_RESULT_BAD_DATA, &err);
    assert_int_equal(err.index, 9);
    sw_mesh_destroy(g_mesh.mesh, NULL);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lbs_formula),
        cmocka_unit_test(test_ranges),
        cmocka_unit_test(test_dq_palette_rebuilds),
        cmocka_unit_test(test_dq_single_influence_equals_lbs),
        cmocka_unit_test(test_dq_scale_blends_linearly),
        cmocka_unit_test(test_candy_wrapper),
        cmocka_unit_test(test_morph),
        cmocka_unit_test(test_bad_input),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
