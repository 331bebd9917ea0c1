/* ozz's side: the modules of both ozz builds, loaded at run time, and what
 * ties ozz's skeleton to sinew's (joints by name, the armature above ozz's
 * root whose space is ozz's model space). */
#define _POSIX_C_SOURCE 200809L
#include <dlfcn.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness_internal.h"

const char* const bench_ozz_build_names[BENCH_OZZ_BUILDS] = {"sse2", "avx2"};

/* The module of build b, NULL (with the reason appended to note) when absent. */
static const bench_ozz_api* bench_ozz_module(int b, char* note, size_t cap) {
#ifdef SINEW_BENCH_OZZ_MODULES
    char path[1024];
    snprintf(path, sizeof path, "%s/libsinew_bench_ozz_%s.so", SINEW_BENCH_OZZ_MODULES,
             bench_ozz_build_names[b]);
    void* h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    bench_ozz_api_get_fn get = NULL;
    if (h) {
        void* sym = dlsym(h, BENCH_OZZ_API_GET);
        memcpy(&get, &sym, sizeof get); /* object pointer to function pointer (POSIX) */
    }
    if (!get) {
        const size_t used = strlen(note);
        snprintf(note + used, cap - used, "%s%s: %s", used ? "; " : "", path,
                 h ? "no " BENCH_OZZ_API_GET : dlerror());
        return NULL;
    }
    return get();
#else
    (void)b;
    snprintf(note, cap,
             "ozz-animation not built (scripts/anchors, then configure the build again)");
    return NULL;
#endif
}

/* Maps ozz's joints to sinew's by name; the armature is the parent of the
 * sinew joint named as ozz's root. */
static bool bench_ozz_map(bench_ozz_side* side, const bench_rig* g, const bench_ozz_api* api,
                          const bench_ozz* oz) {
    side->joints = api->joints(oz);
    side->to_sinew = (uint32_t*)malloc(side->joints * sizeof(uint32_t));
    if (!side->to_sinew) {
        snprintf(side->note, sizeof side->note, "out of memory");
        return false;
    }
    for (uint32_t j = 0; j < side->joints; ++j) {
        const char* name = api->joint_name(oz, j);
        const int64_t s = sw_skeleton_find_joint(g->skel, name);
        if (s < 0) {
            snprintf(side->note, sizeof side->note, "ozz joint %.100s is not a joint of %.64s",
                     name, g->name);
            return false;
        }
        side->to_sinew[j] = (uint32_t)s;
    }
    const int16_t parent = sw_skeleton_parents(g->skel)[side->to_sinew[0]];
    side->armature = parent < 0 ? side->to_sinew[0] : (uint32_t)parent;
    return true;
}

bool bench_ozz_open(bench_ozz_side* side, const bench_rig* g, const char* data) {
    memset(side, 0, sizeof *side);
    char dir[1024];
#ifdef SINEW_BENCH_OZZ_DATA
    snprintf(dir, sizeof dir, "%s", data ? data : SINEW_BENCH_OZZ_DATA);
#else
    snprintf(dir, sizeof dir, "%s", data ? data : "");
#endif
    const char* clips[2] = {sw_clip_name(g->clips[0][0]), sw_clip_name(g->clips[0][1])};
    const char* chains[2][3];
    for (int k = 0; k < 2; ++k)
        for (int j = 0; j < 3; ++j)
            chains[k][j] = sw_skeleton_joint_name(g->skel, g->chains[k][j]);
    bool any = false;
    for (int b = 0; b < BENCH_OZZ_BUILDS; ++b) {
        side->api[b] = bench_ozz_module(b, side->note, sizeof side->note);
        if (!side->api[b]) continue;
        char err[512];
        side->oz[b] =
            side->api[b]->load(dir, clips, (const char* const(*)[3])chains, err, sizeof err);
        if (!side->oz[b]) {
            snprintf(side->note, sizeof side->note, "%.400s (run scripts/anchors)", err);
            side->api[b] = NULL;
            break;
        }
        if (!any && !bench_ozz_map(side, g, side->api[b], side->oz[b])) break;
        any = true;
    }
    if (side->note[0] || !any) {
        char note[512];
        snprintf(note, sizeof note, "%s", side->note[0] ? side->note : "no ozz module");
        bench_ozz_close(side);
        snprintf(side->note, sizeof side->note, "%s", note);
        return false;
    }
    return true;
}

void bench_ozz_close(bench_ozz_side* side) {
    for (int b = 0; b < BENCH_OZZ_BUILDS; ++b)
        if (side->oz[b]) side->api[b]->free_ozz(side->oz[b]);
    free(side->to_sinew);
    memset(side, 0, sizeof *side);
}

sw_vec3 bench_ozz_point(const sw_mat4* armature_inverse, sw_vec3 p) {
    const float* m = armature_inverse->m;
    return sw_vec3_make(m[0] * p.x + m[4] * p.y + m[8] * p.z + m[12],
                        m[1] * p.x + m[5] * p.y + m[9] * p.z + m[13],
                        m[2] * p.x + m[6] * p.y + m[10] * p.z + m[14]);
}

/* ozz's model matrices at t brought into sinew's model space through the
 * armature's model matrix of the raw clip at t. */
typedef struct bench_ozz_model {
    const bench_rig* rig;
    const bench_ozz_side* side;
    int build, clip;
    float* ozz;      /* joints * 16 */
    sw_mat4* sinew;  /* the rig's joints */
    sw_xform4* pose; /* the rig's packets */
} bench_ozz_model;

static bool bench_ozz_model_at(void* ctx, float t, sw_mat4* out) {
    bench_ozz_model* m = (bench_ozz_model*)ctx;
    const bench_ozz_api* api = m->side->api[m->build];
    const sw_sample_job job = {.clip = m->rig->clips[0][m->clip],
                               .skeleton = m->rig->skel,
                               .time = t,
                               .out = m->pose,
                               .out_count = m->rig->skel->packets_count};
    if (sw_sample_job_run(&job) != SW_RESULT_OK ||
        bench_rig_l2m(m->rig, sw__soa_best(), m->pose, m->sinew, false, 0) != SW_RESULT_OK ||
        !api->model_at(m->side->oz[m->build], m->clip, t, m->ozz))
        return false;
    const sw_mat4* armature = &m->sinew[m->side->armature];
    for (uint32_t j = 0; j < m->side->joints; ++j) {
        sw_mat4 local;
        memcpy(local.m, m->ozz + 16u * j, sizeof local.m);
        out[j] = sw_mat4_mul(armature, &local);
    }
    return true;
}

double bench_ozz_error(bench_ozz_side* side, const bench_rig* g) {
    int build = 0;
    while (build < BENCH_OZZ_BUILDS && !side->api[build])
        ++build;
    if (build == BENCH_OZZ_BUILDS) return NAN;
    bench_ozz_model m = {g,
                         side,
                         build,
                         0,
                         (float*)malloc(side->joints * 16u * sizeof(float)),
                         (sw_mat4*)malloc(g->skel->joints_count * sizeof(sw_mat4)),
                         (sw_xform4*)aligned_alloc(16, g->skel->packets_count * sizeof(sw_xform4))};
    double worst = m.ozz && m.sinew && m.pose ? 0.0 : NAN;
    for (int i = 0; i < 2 && isfinite(worst); ++i) {
        m.clip = i;
        const double e = bench_measure(g, i, side->to_sinew, side->joints, bench_ozz_model_at, &m);
        worst = e > worst || isnan(e) ? e : worst;
    }
    free(m.ozz);
    free(m.sinew);
    free(m.pose);
    return worst;
}
