/* The rigs: loading, codecs and their measured error. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "harness_internal.h"
#include "sinew/showcase/character.h"
#include "sinew/tools/builders/compress.h"
#include "sinew/tools/builders/frames.h"
#include "sinew/tools/builders/joint_order.h"

static const char* const bench_chain_names[][2][3] = {
    {{"UpperArmL", "LowerArmL", "Palm2L"}, {"UpperArmR", "LowerArmR", "Palm2R"}},
    {{"LeftUpLeg", "LeftLeg", "LeftFoot"}, {"RightUpLeg", "RightLeg", "RightFoot"}},
};
static const char* const bench_clip_names[][2] = {{"Walking", "Running"}, {"walk", "run"}};

void bench_error(const char* fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "sinew: bench: ");
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

float bench_rand(uint32_t* s) {
    *s ^= *s << 13;
    *s ^= *s >> 17;
    *s ^= *s << 5;
    return (float)(*s >> 8) / 16777216.0f;
}

double bench_now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

void bench_rig_free(bench_rig* g) {
    for (int k = 0; k < BENCH_CODECS; ++k)
        for (int i = 0; i < 2; ++i) {
            free(g->tables[k][i]);
            if (k > 0 && g->clips[k][i]) sw_clip_destroy(g->clips[k][i], NULL);
        }
    if (g->file[0]) {
        sw_asset_free(&g->asset);
    } else {
        sw_scene_free(&g->scene, NULL);
    }
    memset(g, 0, sizeof *g);
}

static const sw_clip* bench_find_clip(const sw_clip* const* clips, uint32_t n, const char* name) {
    for (uint32_t i = 0; i < n; ++i)
        if (strcmp(sw_clip_name(clips[i]), name) == 0) return clips[i];
    return NULL;
}

/* The skeleton and clips of the file or of the built-in humanoid. */
static bool bench_rig_open(bench_rig* g, const char* path, const sw_clip* const** clips,
                           uint32_t* clips_count) {
    sw_error err;
    memset(&err, 0, sizeof err);
    if (!path) {
        const sw_result r = sw_showcase_humanoid(NULL, &g->scene, NULL, &err);
        if (r != SW_RESULT_OK) {
            bench_error("built-in humanoid: %s (%s)", sw_result_str(r),
                        err.check ? err.check : "?");
            return false;
        }
        snprintf(g->name, sizeof g->name, "humanoid");
        g->skel = g->scene.skeleton;
        *clips = g->scene.clips;
        *clips_count = g->scene.clips_count;
        return true;
    }
    snprintf(g->file, sizeof g->file, "%s", path);
    const sw_result r = sw_asset_open(path, NULL, &g->asset, &err);
    if (r != SW_RESULT_OK) {
        bench_error("%s: %s (%s)", path, sw_result_str(r), err.check ? err.check : "?");
        g->file[0] = '\0';
        return false;
    }
    const char* base = strrchr(path, '/');
    snprintf(g->name, sizeof g->name, "%s", base ? base + 1 : path);
    char* dot = strrchr(g->name, '.');
    if (dot && dot != g->name) *dot = '\0';
    g->skel = g->asset.skeleton;
    *clips = g->asset.clips;
    *clips_count = g->asset.clips_count;
    return true;
}

/* The clips named Walking and Running (or walk and run) and the chains. */
static bool bench_rig_find(bench_rig* g, const sw_clip* const* clips, uint32_t clips_count,
                           const char* who) {
    bool found = false;
    for (size_t s = 0; s < sizeof bench_clip_names / sizeof bench_clip_names[0] && !found; ++s) {
        const sw_clip* a = bench_find_clip(clips, clips_count, bench_clip_names[s][0]);
        const sw_clip* b = bench_find_clip(clips, clips_count, bench_clip_names[s][1]);
        if (a && b) {
            g->clips[0][0] = a;
            g->clips[0][1] = b;
            found = true;
        }
    }
    if (!found) {
        bench_error("%s: no clips named Walking and Running (or walk and run)", who);
        return false;
    }
    found = false;
    for (size_t s = 0; s < sizeof bench_chain_names / sizeof bench_chain_names[0] && !found; ++s) {
        const char* const(*n)[3] = bench_chain_names[s];
        found =
            sw_ik_find_two_bone(g->skel, n[0][0], n[0][1], n[0][2], g->chains[0]) == SW_RESULT_OK &&
            sw_ik_find_two_bone(g->skel, n[1][0], n[1][1], n[1][2], g->chains[1]) == SW_RESULT_OK;
    }
    if (!found)
        bench_error("%s: no two-bone chains (UpperArm/LowerArm/Palm2 or UpLeg/Leg/Foot, left "
                    "and right)",
                    who);
    return found;
}

/* Frames of clip i: the builder's rate (the key grid, or resampled), doubled
 * while the measured error exceeds the quantized codec's precision, so both
 * codecs stand within the same accuracy where a rate up to 1000 Hz allows it. */
static bool bench_rig_frames(bench_rig* g, int i, const char* who) {
    sw_frames_options fopt;
    memset(&fopt, 0, sizeof fopt);
    fopt.shell = BENCH_SHELL;
    sw_frames_stats fst;
    sw_error err;
    memset(&err, 0, sizeof err);
    for (;;) {
        const sw_result fr =
            sw_frames_build(g->skel, g->clips[0][i], &fopt, NULL, &g->clips[2][i], &fst, &err);
        if (fr != SW_RESULT_OK) {
            bench_error("%s: frames of %s: %s (%s)", who, sw_clip_name(g->clips[0][i]),
                        sw_result_str(fr), err.check ? err.check : "?");
            g->clips[2][i] = NULL;
            return false;
        }
        if (fst.error.max <= BENCH_PRECISION || 2.0f * fst.rate > 1000.0f) break;
        sw_clip_destroy(g->clips[2][i], NULL);
        g->clips[2][i] = NULL;
        fopt.rate = 2.0f * fst.rate;
    }
    g->codec_bytes[2] += g->clips[2][i]->size;
    if (fst.rate > g->codec_rate[2]) g->codec_rate[2] = fst.rate;
    return true;
}

typedef struct bench_codec_model {
    const bench_rig* rig;
    const sw_clip* clip;
    sw_xform4* pose;
} bench_codec_model;

static bool bench_codec_model_at(void* ctx, float t, sw_mat4* out) {
    const bench_codec_model* m = (const bench_codec_model*)ctx;
    const sw_sample_job job = {.clip = m->clip,
                               .skeleton = m->rig->skel,
                               .time = t,
                               .out = m->pose,
                               .out_count = m->rig->skel->packets_count};
    return sw_sample_job_run(&job) == SW_RESULT_OK &&
           bench_rig_l2m(m->rig, sw__soa_best(), m->pose, out, false, 0) == SW_RESULT_OK;
}

/* The error of codec k (both clips, all joints) by bench_measure. */
static float bench_rig_codec_error(const bench_rig* g, int k) {
    const uint32_t n = g->skel->joints_count;
    uint32_t* joints = (uint32_t*)malloc(n * sizeof(uint32_t));
    bench_codec_model m = {
        g, NULL, (sw_xform4*)aligned_alloc(16, g->skel->packets_count * sizeof(sw_xform4))};
    double worst = NAN;
    if (joints && m.pose) {
        worst = 0.0;
        for (uint32_t j = 0; j < n; ++j)
            joints[j] = j;
        for (int i = 0; i < 2; ++i) {
            m.clip = g->clips[k][i];
            const double e = bench_measure(g, i, joints, n, bench_codec_model_at, &m);
            worst = e > worst || isnan(e) ? e : worst;
        }
    }
    free(joints);
    free(m.pose);
    return (float)worst;
}

/* Each clip's shared table, where its codec has one (the quantized
 * clips'). False on failure (reported). */
static bool bench_rig_tables(bench_rig* g, const char* who) {
    for (int k = 0; k < BENCH_CODECS; ++k)
        for (int i = 0; i < 2; ++i) {
            const uint32_t words = sw_sample_table_size(g->clips[k][i]);
            if (words == 0) continue;
            g->tables[k][i] =
                (uint32_t*)aligned_alloc(16, ((size_t)words * 4u + 15u) & ~(size_t)15u);
            const sw_result r = g->tables[k][i]
                                    ? sw_sample_table_init(g->clips[k][i], g->tables[k][i], words)
                                    : SW_RESULT_OUT_OF_MEMORY;
            if (r != SW_RESULT_OK) {
                bench_error("%s: the table of %s: %s", who, sw_clip_name(g->clips[k][i]),
                            sw_result_str(r));
                return false;
            }
        }
    return true;
}

/* Codecs: raw as loaded; quantized by the compressor and frames by their
 * builder, each with its error against the raw clip measured. False on
 * failure (reported; the caller frees the rig). */
static bool bench_rig_codecs(bench_rig* g, const char* who) {
    g->codec_bytes[0] = (uint64_t)g->clips[0][0]->size + g->clips[0][1]->size;
    sw_compress_options opt;
    memset(&opt, 0, sizeof opt);
    opt.precision = BENCH_PRECISION;
    opt.shell = BENCH_SHELL;
    sw_error err;
    memset(&err, 0, sizeof err);
    for (int i = 0; i < 2; ++i) {
        const sw_result r =
            sw_compress_clip(g->skel, g->clips[0][i], &opt, NULL, &g->clips[1][i], NULL, &err);
        if (r != SW_RESULT_OK) {
            bench_error("%s: compressing %s: %s (%s)", who, sw_clip_name(g->clips[0][i]),
                        sw_result_str(r), err.check ? err.check : "?");
            return false;
        }
        g->codec_bytes[1] += g->clips[1][i]->size;
        const float qrate = sw_compress_sample_rate(g->clips[0][i]);
        if (qrate > g->codec_rate[1]) g->codec_rate[1] = qrate;
        if (!bench_rig_frames(g, i, who)) return false;
    }
    if (!bench_rig_tables(g, who)) return false;
    for (int k = 0; k < BENCH_CODECS; ++k) {
        g->codec_error[k] = bench_rig_codec_error(g, k);
        if (!isfinite(g->codec_error[k])) {
            bench_error("%s: measuring the %s codec failed", who, bench_codec_names[k]);
            return false;
        }
    }
    return true;
}

bool bench_rig_load(bench_rig* g, const char* path) {
    memset(g, 0, sizeof *g);
    const sw_clip* const* clips = NULL;
    uint32_t clips_count = 0;
    if (!bench_rig_open(g, path, &clips, &clips_count)) return false;
    const char* who = path ? path : "built-in humanoid";
    if (bench_rig_find(g, clips, clips_count, who) && bench_rig_codecs(g, who)) return true;
    bench_rig_free(g);
    return false;
}

bool bench_rig_reorder(const bench_rig* g, const uint8_t* detail, bench_rig* out) {
    memset(out, 0, sizeof *out);
    snprintf(out->name, sizeof out->name, "%s", g->name);
    const sw_clip* raw[2] = {g->clips[0][0], g->clips[0][1]};
    const sw_scene in = {.skeleton = g->skel, .clips = raw, .clips_count = 2};
    uint16_t order[SW_SKELETON_MAX_JOINTS];
    const uint32_t n = g->skel->joints_count;
    sw_error err;
    memset(&err, 0, sizeof err);
    sw_result r = sw_joint_order_by_detail(g->skel, detail, n, order, n, &err);
    if (r == SW_RESULT_OK) r = sw_scene_reorder_joints(&in, order, NULL, &out->scene, &err);
    if (r != SW_RESULT_OK) {
        bench_error("%s: detail-major order: %s (%s)", g->name, sw_result_str(r),
                    err.check ? err.check : "?");
        return false;
    }
    out->skel = out->scene.skeleton;
    if (bench_rig_find(out, out->scene.clips, 2, g->name) && bench_rig_codecs(out, g->name))
        return true;
    bench_rig_free(out);
    return false;
}

/* Largest distance between the measured points of two model matrices. */
static double bench_points_error(const sw_mat4* a, const sw_mat4* b) {
    double worst = 0.0;
    for (int p = 0; p < 4; ++p) {
        float d2 = 0.0f;
        for (int c = 0; c < 3; ++c) {
            float pa = a->m[12 + c], pb = b->m[12 + c];
            if (p < 3) { /* BENCH_SHELL along axis p, each matrix's axis normalized */
                float la = 0.0f, lb = 0.0f;
                for (int r = 0; r < 3; ++r) {
                    la += a->m[4 * p + r] * a->m[4 * p + r];
                    lb += b->m[4 * p + r] * b->m[4 * p + r];
                }
                pa += BENCH_SHELL * a->m[4 * p + c] / (la > 0.0f ? sqrtf(la) : 1.0f);
                pb += BENCH_SHELL * b->m[4 * p + c] / (lb > 0.0f ? sqrtf(lb) : 1.0f);
            }
            d2 += (pa - pb) * (pa - pb);
        }
        if ((double)sqrtf(d2) > worst) worst = (double)sqrtf(d2);
    }
    return worst;
}

double bench_measure(const bench_rig* g, int clip, const uint32_t* joints, uint32_t count,
                     bench_model_fn test_model, void* ctx) {
    const sw_clip* raw = g->clips[0][clip];
    const uint32_t n = g->skel->joints_count;
    sw_mat4* ref = (sw_mat4*)malloc(n * sizeof(sw_mat4));
    sw_mat4* test = (sw_mat4*)malloc(count * sizeof(sw_mat4));
    bench_codec_model m = {
        g, raw, (sw_xform4*)aligned_alloc(16, g->skel->packets_count * sizeof(sw_xform4))};
    double worst = ref && test && m.pose ? 0.0 : NAN;
    const float rate = sw_compress_sample_rate(raw);
    const uint32_t steps = sw_compress_samples_count(raw, rate);
    for (uint32_t s = 0; s < steps && isfinite(worst); ++s) {
        const float t = fminf((float)s / rate, raw->duration);
        if (!bench_codec_model_at(&m, t, ref) || !test_model(ctx, t, test)) {
            worst = NAN;
            break;
        }
        for (uint32_t j = 0; j < count; ++j) {
            const double e = bench_points_error(&ref[joints[j]], &test[j]);
            if (e > worst) worst = e;
        }
    }
    free(ref);
    free(test);
    free(m.pose);
    return worst;
}

sw_result bench_rig_l2m(const bench_rig* g, const sw__soa_ops* ops, const sw_xform4* pose,
                        sw_mat4* model, bool subtree, uint32_t root) {
    const sw_local_to_model_job job = {.skeleton = g->skel,
                                       .local = pose,
                                       .local_count = g->skel->packets_count,
                                       .subtree = subtree,
                                       .subtree_root = root,
                                       .out = model,
                                       .out_count = g->skel->joints_count};
    return sw__local_to_model_job_run_with(&job, ops);
}

sw_result bench_rig_ik(const bench_rig* g, uint32_t k, const sw_mat4* model, sw_vec3 target,
                       sw_vec3 pole, sw_xform4* pose, bool* reached) {
    const uint32_t* ch = g->chains[k];
    const sw_ik_two_bone_job job = {.skeleton = g->skel,
                                    .model = model,
                                    .model_count = g->skel->joints_count,
                                    .start_joint = ch[0],
                                    .mid_joint = ch[1],
                                    .end_joint = ch[2],
                                    .target = target,
                                    .pole_mode = SW_IK_POLE_MODE_TARGET,
                                    .pole = pole,
                                    .weight = 1.0f,
                                    .pose = pose,
                                    .pose_count = g->skel->packets_count,
                                    .reached = reached};
    return sw_ik_two_bone_job_run(&job);
}

static sw_vec3 bench_position(const sw_mat4* m) {
    return sw_vec3_make(m->m[12], m->m[13], m->m[14]);
}

void bench_place_target(const bench_rig* g, const sw_mat4* m, uint32_t k, uint32_t* rng,
                        sw_vec3* target, sw_vec3* pole) {
    const uint32_t* ch = g->chains[k];
    const sw_vec3 p0 = bench_position(&m[ch[0]]), p1 = bench_position(&m[ch[1]]),
                  p2 = bench_position(&m[ch[2]]);
    const float limb = sw_vec3_length(sw_vec3_sub(p1, p0)) + sw_vec3_length(sw_vec3_sub(p2, p1));
    const sw_vec3 dir =
        sw_vec3_make(bench_rand(rng) - 0.5f, bench_rand(rng) - 0.5f, bench_rand(rng) - 0.5f);
    *target = sw_vec3_add(p2, sw_vec3_scale(dir, 0.5f * limb));
    const sw_vec3 mid = sw_vec3_scale(sw_vec3_add(p0, p2), 0.5f);
    *pole = sw_vec3_add(p1, sw_vec3_sub(p1, mid));
}
