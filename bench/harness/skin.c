/* The CPU skinning rows (issue #20): ns per vertex of the linear blend and
 * dual quaternion skin jobs (positions and normals) and of the morph job, on
 * the scalar reference and on the kernel path chosen at run time, over
 * RobotExpressive's meshes at a Running pose (when the asset is given) and
 * over a synthetic cylinder whose every vertex has 4 influences. Palettes
 * are made once per set, outside the timing. Prints "skinset" and "skin"
 * lines (see bench_skin_all in harness_internal.h). */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../bench_util.h"
#include "harness_internal.h"

const char* const bench_skin_kinds[BENCH_SKIN_KINDS] = {"lbs", "dq", "morph"};
const char* const bench_skin_sets[BENCH_SKIN_SETS] = {"RobotExpressive", "cylinder"};

/* One mesh of a set with its palettes and output buffers. */
typedef struct bench_skin_mesh {
    const sw_mesh* mesh;
    sw_mat4* pal;
    sw_dq_transform* dq;
    float *pos, *nrm;
} bench_skin_mesh;

#define BENCH_SKIN_MAX_MESHES 32

typedef struct bench_skin_set {
    bench_skin_mesh m[BENCH_SKIN_MAX_MESHES];
    uint32_t count;
    const bench_skin_mesh* morph; /* the mesh with the most targets, or NULL */
    float weights[SW_MESH_MAX_MORPH_TARGETS];
} bench_skin_set;

static void bench_skin_set_free(bench_skin_set* s) {
    for (uint32_t i = 0; i < s->count; ++i) {
        free(s->m[i].pal);
        free(s->m[i].dq);
        free(s->m[i].pos);
        free(s->m[i].nrm);
    }
    memset(s, 0, sizeof *s);
}

/* Adds a mesh with both palettes from model matrices. */
static bool bench_skin_add(bench_skin_set* s, const sw_mesh* m, const sw_mat4* model,
                           uint32_t joints) {
    if (s->count == BENCH_SKIN_MAX_MESHES) return true;
    bench_skin_mesh* b = &s->m[s->count++];
    const uint32_t pc = m->palette_count, n = m->vertices_count;
    b->mesh = m;
    b->pal = (sw_mat4*)malloc(pc * sizeof(sw_mat4));
    b->dq = (sw_dq_transform*)aligned_alloc(16, pc * sizeof(sw_dq_transform));
    b->pos = (float*)malloc(3u * n * sizeof(float));
    b->nrm = (float*)malloc(3u * n * sizeof(float));
    if (!b->pal || !b->dq || !b->pos || !b->nrm) return false;
    const sw_skinning_job sj = {model,  joints, sw_mesh_palette(m), sw_mesh_inverse_binds(m), pc,
                                b->pal, pc};
    const sw_dq_palette_job dj = {
        model, joints, sw_mesh_palette(m), sw_mesh_inverse_binds(m), pc, b->dq, pc, NULL};
    if (sw_skinning_job_run(&sj) != SW_RESULT_OK || sw_dq_palette_job_run(&dj) != SW_RESULT_OK)
        return false;
    if (m->morph_targets_count > 0 &&
        (!s->morph || m->morph_targets_count > s->morph->mesh->morph_targets_count))
        s->morph = b;
    return true;
}

/* One pass of `kind` over the set on path ops. */
static bool bench_skin_pass(const bench_skin_set* s, int kind, const sw__soa_ops* ops) {
    if (kind == 2) {
        const sw_mesh* m = s->morph->mesh;
        const sw_morph_job j = {.mesh = m,
                                .weights = s->weights,
                                .weights_count = m->morph_targets_count,
                                .out_positions = s->morph->pos,
                                .out_normals = sw_mesh_normals(m) ? s->morph->nrm : NULL,
                                .out_count = m->vertices_count};
        return sw__morph_job_run_with(&j, ops) == SW_RESULT_OK;
    }
    for (uint32_t i = 0; i < s->count; ++i) {
        const bench_skin_mesh* b = &s->m[i];
        float* nrm = sw_mesh_normals(b->mesh) ? b->nrm : NULL;
        const sw_skin_job j = {.mesh = b->mesh,
                               .palette = kind == 0 ? b->pal : NULL,
                               .dq_palette = kind == 1 ? b->dq : NULL,
                               .palette_count = b->mesh->palette_count,
                               .out_positions = b->pos,
                               .out_normals = nrm,
                               .out_count = b->mesh->vertices_count};
        if (sw__skin_job_run_with(&j, ops) != SW_RESULT_OK) return false;
    }
    return true;
}

/* Vertices one pass of `kind` deforms. */
static uint64_t bench_skin_vertices(const bench_skin_set* s, int kind) {
    if (kind == 2) return s->morph ? s->morph->mesh->vertices_count : 0;
    uint64_t n = 0;
    for (uint32_t i = 0; i < s->count; ++i)
        n += s->m[i].mesh->vertices_count;
    return n;
}

/* The rows of one set: each kind on scalar and on the run-time path,
 * repetitions interleaved, medians of thread CPU ns per vertex. */
static bool bench_skin_rows(const bench_skin_set* s, int set, const char* what, bool quick,
                            FILE* out) {
    const sw__soa_ops* paths[BENCH_SKIN_PATHS] = {&sw__soa_scalar, sw__soa_best()};
    const int reps = quick ? 1 : 5;
    fprintf(out, "skinset\t%d\t%s\t%llu\t%llu\t%s\t%s\n", set, what,
            (unsigned long long)bench_skin_vertices(s, 0),
            (unsigned long long)bench_skin_vertices(s, 2), paths[0]->name, paths[1]->name);
    for (int kind = 0; kind < BENCH_SKIN_KINDS; ++kind) {
        const uint64_t verts = bench_skin_vertices(s, kind);
        if (verts == 0) continue;
        /* About 20 ms of scalar LBS per repetition (2 ms with --quick). */
        const uint32_t passes = (uint32_t)fmax(1.0, (quick ? 2e5 : 2e6) / (double)verts);
        double v[BENCH_SKIN_PATHS][8];
        for (int p = 0; p < BENCH_SKIN_PATHS; ++p)
            if (!bench_skin_pass(s, kind, paths[p])) return false;
        for (int r = 0; r < reps; ++r)
            for (int q = 0; q < BENCH_SKIN_PATHS; ++q) {
                const int p = (q + r) % BENCH_SKIN_PATHS;
                const double t0 = bench_thread_ns();
                for (uint32_t i = 0; i < passes; ++i)
                    (void)bench_skin_pass(s, kind, paths[p]);
                v[p][r] = (bench_thread_ns() - t0) / ((double)passes * (double)verts);
            }
        for (int p = 0; p < BENCH_SKIN_PATHS; ++p)
            fprintf(out, "skin\t%d\t%d\t%d\t%.9g\n", set, kind, p, bench_median(v[p], reps));
    }
    return true;
}

/* RobotExpressive's meshes at Running 0.4 s (Walking, or the first clip). */
static bool bench_skin_robot(const char* path, bool quick, FILE* out) {
    sw_asset a;
    sw_error err = SW_ERROR_INIT;
    if (sw_asset_open(path, NULL, &a, &err) != SW_RESULT_OK) {
        bench_error("skinning: %s: %s", path, err.check ? err.check : "open failed");
        return false;
    }
    const sw_skeleton* skel = a.skeleton;
    const sw_clip* clip = a.clips_count ? a.clips[0] : NULL;
    for (uint32_t c = 0; c < a.clips_count; ++c)
        if (strcmp(sw_clip_name(a.clips[c]), "Running") == 0) clip = a.clips[c];
    sw_xform4* pose = (sw_xform4*)aligned_alloc(16, skel->packets_count * sizeof(sw_xform4));
    sw_mat4* model = (sw_mat4*)malloc(skel->joints_count * sizeof(sw_mat4));
    bench_skin_set s;
    memset(&s, 0, sizeof s);
    bool ok = pose && model && clip && a.meshes_count > 0;
    if (ok) {
        const sw_sample_job sj = {.clip = clip,
                                  .skeleton = skel,
                                  .time = 0.4f,
                                  .out = pose,
                                  .out_count = skel->packets_count};
        const sw_local_to_model_job lj = {.skeleton = skel,
                                          .local = pose,
                                          .local_count = skel->packets_count,
                                          .out = model,
                                          .out_count = skel->joints_count};
        ok = sw_sample_job_run(&sj) == SW_RESULT_OK &&
             sw_local_to_model_job_run(&lj) == SW_RESULT_OK;
    }
    for (uint32_t i = 0; ok && i < a.meshes_count; ++i)
        ok = bench_skin_add(&s, a.meshes[i], model, skel->joints_count);
    for (uint32_t k = 0; k < SW_MESH_MAX_MORPH_TARGETS; ++k)
        s.weights[k] = 0.2f + 0.3f * (float)(k % 3u);
    char what[160];
    snprintf(what, sizeof what, "%u meshes at %s %.1f s", s.count, clip ? sw_clip_name(clip) : "?",
             0.4);
    ok = ok && bench_skin_rows(&s, 0, what, quick, out);
    if (!ok) bench_error("skinning rows on %s failed", path);
    bench_skin_set_free(&s);
    free(pose);
    free(model);
    sw_asset_free(&a);
    return ok;
}

#define BENCH_CYL_JOINTS 16u
#define BENCH_CYL_RINGS 128u
#define BENCH_CYL_SIDES 128u

/* A cylinder along X (radius 0.2, length 4) over a chain of 16 joints, 4
 * influences per vertex (the 4 joints nearest along the axis, weights
 * falling off with distance), 3 morph targets, bent and twisted 20 degrees
 * per joint. */
static bool bench_skin_cylinder(bool quick, FILE* out) {
    const uint32_t n = BENCH_CYL_RINGS * BENCH_CYL_SIDES;
    float* pos = (float*)malloc(3u * n * sizeof(float));
    float* nrm = (float*)malloc(3u * n * sizeof(float));
    float* w = (float*)malloc(4u * n * sizeof(float));
    uint16_t* j = (uint16_t*)malloc(4u * n * sizeof(uint16_t));
    float* dp = (float*)malloc(9u * n * sizeof(float));
    bool ok = pos && nrm && w && j && dp;
    const float step = 4.0f / (float)BENCH_CYL_JOINTS;
    for (uint32_t v = 0; ok && v < n; ++v) {
        const uint32_t ring = v / BENCH_CYL_SIDES, side = v % BENCH_CYL_SIDES;
        const float x = 4.0f * (float)ring / (float)(BENCH_CYL_RINGS - 1u);
        const float a = 6.2831853f * (float)side / (float)BENCH_CYL_SIDES;
        const float p[3] = {x, 0.2f * cosf(a), 0.2f * sinf(a)};
        memcpy(&pos[3u * v], p, sizeof p);
        nrm[3u * v] = 0.0f, nrm[3u * v + 1] = cosf(a), nrm[3u * v + 2] = sinf(a);
        for (uint32_t t = 0; t < 3u; ++t)
            for (uint32_t c = 0; c < 3u; ++c)
                dp[(size_t)3u * n * t + 3u * v + c] = 0.02f * sinf((float)(t + 1u) * a + (float)c);
        int32_t first = (int32_t)floorf(x / step - 1.5f);
        if (first < 0) first = 0;
        if (first > (int32_t)BENCH_CYL_JOINTS - 4) first = (int32_t)BENCH_CYL_JOINTS - 4;
        float sum = 0.0f;
        for (uint32_t k = 0; k < 4u; ++k) {
            const float d = fabsf(x - ((float)first + (float)k + 0.5f) * step) / step;
            j[4u * v + k] = (uint16_t)(first + (int32_t)k);
            w[4u * v + k] = 1.0f / (1.0f + d * d * d);
            sum += w[4u * v + k];
        }
        for (uint32_t k = 0; k < 4u; ++k)
            w[4u * v + k] /= sum;
    }
    uint16_t palette[BENCH_CYL_JOINTS];
    sw_mat4 ib[BENCH_CYL_JOINTS], model[BENCH_CYL_JOINTS];
    sw_mat4 parent = sw_mat4_identity();
    for (uint32_t i = 0; i < BENCH_CYL_JOINTS; ++i) {
        palette[i] = (uint16_t)i;
        const sw_xform bind = {{(float)i * step, 0, 0}, {0, 0, 0, 1}, {1, 1, 1}};
        const sw_mat4 b = sw_mat4_from_xform(bind);
        ok = ok && sw_mat4_inverse_affine(&b, &ib[i]);
        const sw_quat bend = sw_quat_mul(sw_quat_from_axis_angle(sw_vec3_make(0, 0, 1), 0.35f),
                                         sw_quat_from_axis_angle(sw_vec3_make(1, 0, 0), 0.35f));
        const sw_xform local = {{i ? step : 0.0f, 0, 0}, bend, {1, 1, 1}};
        const sw_mat4 l = sw_mat4_from_xform(local);
        model[i] = sw_mat4_mul(&parent, &l);
        parent = model[i];
    }
    static const uint32_t tri[3] = {0, 1, 2};
    const sw_mesh_desc d = {.name = "cylinder",
                            .vertices_count = n,
                            .positions = pos,
                            .normals = nrm,
                            .joints = j,
                            .weights = w,
                            .indices = tri,
                            .indices_count = 3,
                            .palette = palette,
                            .inverse_binds = ib,
                            .palette_count = BENCH_CYL_JOINTS,
                            .skeleton_joints_count = BENCH_CYL_JOINTS,
                            .morph_targets_count = 3,
                            .morph_positions = dp};
    const sw_mesh* mesh = NULL;
    sw_error err = SW_ERROR_INIT;
    ok = ok && sw_mesh_create(&d, NULL, &mesh, &err) == SW_RESULT_OK;
    bench_skin_set s;
    memset(&s, 0, sizeof s);
    ok = ok && bench_skin_add(&s, mesh, model, BENCH_CYL_JOINTS);
    s.weights[0] = 0.2f, s.weights[1] = 0.5f, s.weights[2] = 0.8f;
    ok = ok && bench_skin_rows(&s, 1, "16384 vertices, 4 influences each, 16 joints", quick, out);
    if (!ok) bench_error("skinning rows on the cylinder failed (%s)", err.check ? err.check : "");
    bench_skin_set_free(&s);
    if (mesh) sw_mesh_destroy(mesh, NULL);
    free(pos), free(nrm), free(w), free(j), free(dp);
    return ok;
}

bool bench_skin_all(const char* asset, bool quick, FILE* out) {
    if (asset && !bench_skin_robot(asset, quick, out)) return false;
    return bench_skin_cylinder(quick, out);
}
