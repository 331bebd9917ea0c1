/* sinew bench [--json] [--processes N] [--quick] [--asset FILE]: the runtime's cost
 * per character, stage by stage, against ozz-animation's figures (issue #9).
 *
 * Rigs: RobotExpressive (--asset, else $SINEW_ASSETS/RobotExpressive.glb,
 * else ../shared/assets/RobotExpressive.glb; skipped with a note when absent
 * and not asked for), Walking + Running, IK on both arms; and the built-in
 * humanoid (sw_showcase_humanoid), walk + run, IK on both legs. Each rig runs
 * with 8 and with 1000 characters, each character with its own state (clip
 * times at different phases, a blend weight, IK targets and caches), 1/60 s
 * steps, one thread. Every sampling stage runs on each codec: the raw clip
 * and the quantized clip of sinew/tools/compress.h (1 mm, ozz's default
 * tolerance, with its measured error printed beside it).
 *
 * Crowd run (sinew/crowd.h on a sinew/pool.h pool): characters of each rig
 * on a grid around the viewpoint, each an animator blend space of the two
 * clips with its own blend and phase plus the two IK chains in the post
 * callback, on 1 and 2 threads, without and with LOD. A probe crowd of 1000
 * characters (--quick: 64, and nothing more) gives the size that should fit
 * in 16.7 ms; a crowd of that size is then run, and its ns per character
 * per frame gives the characters that fit. The 2-thread speedup comes from
 * one crowd whose frames alternate between the 1- and 2-thread pools (median
 * of the per-pair ratios, their spread, wall and process CPU ms per frame).
 * The budget: crowds fed their measured update time against 16.7 ms, the
 * LOD bias they settle at and the largest crowd whose median frame held.
 *
 * Processes: the parent runs itself (/proc/self/exe) N times with the hidden
 * flag --child, one process after the other; a child measures every row once
 * (the median of a few repetitions in that process) and prints tab-separated
 * lines; the parent reports the median and the minimum over the processes. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "common.h"
#include "sinew/crowd.h"
#include "sinew/showcase/character.h"
#include "sinew/tools/compress.h"
#include "sinew/tools/frames.h"

int cli_bench(int argc, char** argv);

static const char* cli__bench_usage =
    "usage: sinew bench [--json] [--processes N] [--quick] [--asset FILE]";

enum {
    BENCH_STAGE_SEQUENTIAL,
    BENCH_STAGE_SEEK,
    BENCH_STAGE_BLEND,
    BENCH_STAGE_L2M,
    BENCH_STAGE_IK,
    BENCH_STAGE_FRAME,
    BENCH_STAGES
};

/* The rows of issue #9, with ozz-animation's figures on RobotExpressive (ns per
 * character per frame; two-bone IK: per solve) for 8 and 1000 characters. */
static const struct {
    const char* key;
    const char* label;
    bool per_codec; /* samples clips, so runs once per codec */
    double ozz[2];
} bench_stages[BENCH_STAGES] = {
    {"sample_sequential", "sample one clip, sequential playback", true, {244.0, 774.0}},
    {"sample_seek", "sample one clip, random seek", true, {794.0, 936.0}},
    {"blend", "blend 2 layers", false, {122.0, 365.0}},
    {"local_to_model", "local-to-model", false, {304.0, 479.0}},
    {"two_bone_ik", "two-bone IK, per solve", false, {140.0, 153.0}},
    {"full_frame", "full frame: 2 samples, blend, l2m, 2 x (IK, apply, partial l2m)", true,
     {1473.0, 3011.0}},
};

#define BENCH_COUNTS 2
static const uint32_t bench_counts[BENCH_COUNTS] = {8u, 1000u};

#define BENCH_CODECS 3 /* raw, quantized, frames */
static const char* const bench_codec_names[BENCH_CODECS] = {"raw", "quantized", "frames"};
#define BENCH_PRECISION 0.001f /* compressor precision (model units): ozz's default tolerance */
#define BENCH_SHELL 0.1f       /* error-measure vertex distance: ozz's default distance */

/* Codecs a stage runs on: every codec when it samples clips, else one. */
static int bench_stage_codecs(int stage) {
    return bench_stages[stage].per_codec ? BENCH_CODECS : 1;
}

#define BENCH_RIGS 2 /* RobotExpressive, humanoid */
#define BENCH_MAX_PROCESSES 64
#define BENCH_DT (1.0f / 60.0f)
#define BENCH_TARGET 1.5 /* issue #9: at least 1.5x faster than ozz */

/* ---- the rigs ---- */

typedef struct bench_rig {
    char name[64];
    char file[1024]; /* "" for the built-in humanoid */
    sw_asset asset;
    sw_scene scene;
    const sw_skeleton* skel;
    const sw_clip* clips[BENCH_CODECS][2];
    uint64_t codec_bytes[BENCH_CODECS];
    float codec_error[BENCH_CODECS];
    float codec_rate[BENCH_CODECS]; /* samples per second (raw: 0, keys as stored) */
    uint32_t chains[2][3]; /* start, mid, end joints of the two IK chains */
} bench_rig;

static const char* const bench_chain_names[][2][3] = {
    {{"UpperArmL", "LowerArmL", "Palm2L"}, {"UpperArmR", "LowerArmR", "Palm2R"}},
    {{"LeftUpLeg", "LeftLeg", "LeftFoot"}, {"RightUpLeg", "RightLeg", "RightFoot"}},
};
static const char* const bench_clip_names[][2] = {{"Walking", "Running"}, {"walk", "run"}};

static void bench_rig_free(bench_rig* g) {
    for (int k = 1; k < BENCH_CODECS; ++k)
        for (int i = 0; i < 2; ++i)
            if (g->clips[k][i]) sw_clip_destroy(g->clips[k][i], NULL);
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

/* Loads a rig: the file (RobotExpressive or another asset with its clip and
 * chain names) or, with path NULL, the built-in humanoid; then the codecs. */
static bool bench_rig_load(bench_rig* g, const char* path) {
    memset(g, 0, sizeof *g);
    sw_error err;
    memset(&err, 0, sizeof err);
    const sw_clip* const* clips = NULL;
    uint32_t clips_count = 0;
    if (path) {
        snprintf(g->file, sizeof g->file, "%s", path);
        const sw_result r = sw_asset_open(path, NULL, &g->asset, &err);
        if (r != SW_RESULT_OK) {
            cli_report("bench", path, g->asset.format, r, &err);
            g->file[0] = '\0';
            return false;
        }
        const char* base = strrchr(path, '/');
        snprintf(g->name, sizeof g->name, "%s", base ? base + 1 : path);
        char* dot = strrchr(g->name, '.');
        if (dot && dot != g->name) *dot = '\0';
        g->skel = g->asset.skeleton;
        clips = g->asset.clips;
        clips_count = g->asset.clips_count;
    } else {
        const sw_result r = sw_showcase_humanoid(NULL, &g->scene, NULL, &err);
        if (r != SW_RESULT_OK) {
            cli_error("bench", "built-in humanoid: %s (%s)", sw_result_str(r),
                      err.check ? err.check : "?");
            return false;
        }
        snprintf(g->name, sizeof g->name, "humanoid");
        g->skel = g->scene.skeleton;
        clips = g->scene.clips;
        clips_count = g->scene.clips_count;
    }
    const char* who = path ? path : "built-in humanoid";
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
        cli_error("bench", "%s: no clips named Walking and Running (or walk and run)", who);
        bench_rig_free(g);
        return false;
    }
    found = false;
    for (size_t s = 0; s < sizeof bench_chain_names / sizeof bench_chain_names[0] && !found;
         ++s) {
        const char* const(*n)[3] = bench_chain_names[s];
        found = sw_ik_find_two_bone(g->skel, n[0][0], n[0][1], n[0][2], g->chains[0]) ==
                    SW_RESULT_OK &&
                sw_ik_find_two_bone(g->skel, n[1][0], n[1][1], n[1][2], g->chains[1]) ==
                    SW_RESULT_OK;
    }
    if (!found) {
        cli_error("bench", "%s: no two-bone chains (UpperArm/LowerArm/Palm2 or "
                           "UpLeg/Leg/Foot, left and right)", who);
        bench_rig_free(g);
        return false;
    }
    /* Codecs: raw as loaded; quantized by the compressor and frames by their
     * builder, each with its error against the raw clip measured. */
    g->codec_bytes[0] = (uint64_t)g->clips[0][0]->size + g->clips[0][1]->size;
    g->codec_error[0] = 0.0f;
    sw_compress_options opt;
    memset(&opt, 0, sizeof opt);
    opt.precision = BENCH_PRECISION;
    opt.shell = BENCH_SHELL;
    for (int i = 0; i < 2; ++i) {
        sw_compress_stats st;
        const sw_result r =
            sw_compress_clip(g->skel, g->clips[0][i], &opt, NULL, &g->clips[1][i], &st, &err);
        if (r != SW_RESULT_OK) {
            cli_error("bench", "%s: compressing %s: %s (%s)", who, sw_clip_name(g->clips[0][i]),
                      sw_result_str(r), err.check ? err.check : "?");
            bench_rig_free(g);
            return false;
        }
        g->codec_bytes[1] += g->clips[1][i]->size;
        if (st.error.max > g->codec_error[1]) g->codec_error[1] = st.error.max;
        const float qrate = sw_compress_sample_rate(g->clips[0][i]);
        if (qrate > g->codec_rate[1]) g->codec_rate[1] = qrate;
        /* Frames: the builder's rate (the key grid, or resampled), doubled
         * while the measured error exceeds the quantized codec's precision, so
         * both codecs stand within ozz's tolerance where a rate up to 1000 Hz
         * allows it; the error and rate are reported either way. */
        sw_frames_options fopt;
        memset(&fopt, 0, sizeof fopt);
        fopt.shell = BENCH_SHELL;
        sw_frames_stats fst;
        for (;;) {
            const sw_result fr = sw_frames_build(g->skel, g->clips[0][i], &fopt, NULL,
                                                 &g->clips[2][i], &fst, &err);
            if (fr != SW_RESULT_OK) {
                cli_error("bench", "%s: frames of %s: %s (%s)", who,
                          sw_clip_name(g->clips[0][i]), sw_result_str(fr),
                          err.check ? err.check : "?");
                g->clips[2][i] = NULL;
                bench_rig_free(g);
                return false;
            }
            if (fst.error.max <= BENCH_PRECISION || 2.0f * fst.rate > 1000.0f) break;
            sw_clip_destroy(g->clips[2][i], NULL);
            g->clips[2][i] = NULL;
            fopt.rate = 2.0f * fst.rate;
        }
        g->codec_bytes[2] += g->clips[2][i]->size;
        if (fst.error.max > g->codec_error[2]) g->codec_error[2] = fst.error.max;
        if (fst.rate > g->codec_rate[2]) g->codec_rate[2] = fst.rate;
    }
    return true;
}

/* ---- per-character state and the stages ---- */

typedef struct bench_set {
    const bench_rig* rig;
    uint32_t chars, packets, joints;
    sw_xform4* pose;     /* chars * 3 poses: layer a, layer b, blended */
    sw_mat4* model;      /* chars * joints */
    uint32_t* cursors;   /* chars * 2 caches * cursors_per */
    uint32_t cursors_per;
    sw_sample_cache* cache; /* chars * 2 */
    float* time;            /* chars * 2: clip times */
    float* weight;          /* chars: blend weight of layer b */
    sw_vec3* target;        /* chars * 2: IK targets */
    sw_vec3* pole;          /* chars * 2: IK pole points */
    sw_ik_two_bone_rotations* solved; /* chars * 2: the per-solve row's results */
    uint32_t rng;
    sw_result failed; /* first job failure */
} bench_set;

static float bench_rand(uint32_t* s) {
    *s ^= *s << 13;
    *s ^= *s >> 17;
    *s ^= *s << 5;
    return (float)(*s >> 8) / 16777216.0f;
}

static double bench_now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static sw_xform4* bench_pose(const bench_set* s, uint32_t c, uint32_t k) {
    return s->pose + ((size_t)c * 3u + k) * s->packets;
}

static sw_mat4* bench_model(const bench_set* s, uint32_t c) {
    return s->model + (size_t)c * s->joints;
}

static void bench_check(bench_set* s, sw_result r) {
    if (r != SW_RESULT_OK && s->failed == SW_RESULT_OK) s->failed = r;
}

static void bench_sample(bench_set* s, const sw_clip* clip, float t, sw_sample_cache* cache,
                         sw_xform4* out) {
    const sw_sample_job job = {.clip = clip, .skeleton = s->rig->skel, .time = t,
                               .cache = cache, .out = out, .out_count = s->packets};
    bench_check(s, sw_sample_job_run(&job));
}

static void bench_blend(bench_set* s, uint32_t c) {
    const float w = s->weight[c];
    const sw_blend_layer layers[2] = {{.pose = bench_pose(s, c, 0), .weight = 1.0f - w},
                                      {.pose = bench_pose(s, c, 1), .weight = w}};
    const sw_blend_job job = {.layers = layers, .layers_count = 2,
                              .rest_pose = sw_skeleton_rest_pose(s->rig->skel),
                              .packets_count = s->packets, .out = bench_pose(s, c, 2),
                              .out_count = s->packets};
    bench_check(s, sw_blend_job_run(&job));
}

/* Local-to-model of a local pose of the rig: all joints, or the sub-tree of `root`. */
static sw_result bench_rig_l2m(const bench_rig* g, const sw_xform4* pose, sw_mat4* model,
                               bool subtree, uint32_t root) {
    const sw_local_to_model_job job = {.skeleton = g->skel, .local = pose,
                                       .local_count = g->skel->packets_count,
                                       .subtree = subtree, .subtree_root = root, .out = model,
                                       .out_count = g->skel->joints_count};
    return sw_local_to_model_job_run(&job);
}

/* The two-bone IK job of the rig's chain k towards `target` (pole point `pole`) on pose. */
static sw_ik_two_bone_job bench_rig_ik_job(const bench_rig* g, uint32_t k, const sw_mat4* model,
                                           sw_vec3 target, sw_vec3 pole, sw_xform4* pose) {
    const uint32_t* ch = g->chains[k];
    const sw_ik_two_bone_job job = {
        .skeleton = g->skel, .model = model, .model_count = g->skel->joints_count,
        .start_joint = ch[0], .mid_joint = ch[1], .end_joint = ch[2], .target = target,
        .pole_mode = SW_IK_POLE_MODE_TARGET, .pole = pole, .weight = 1.0f, .pose = pose,
        .pose_count = g->skel->packets_count};
    return job;
}

/* Two-bone IK of the rig's chain k, solved and written into pose. */
static sw_result bench_rig_ik(const bench_rig* g, uint32_t k, const sw_mat4* model,
                              sw_vec3 target, sw_vec3 pole, sw_xform4* pose) {
    const sw_ik_two_bone_job job = bench_rig_ik_job(g, k, model, target, pole, pose);
    return sw_ik_two_bone_job_run(&job);
}

/* Local-to-model of character c's blended pose: all joints, or the sub-tree of `root`. */
static void bench_l2m(bench_set* s, uint32_t c, bool subtree, uint32_t root) {
    bench_check(s, bench_rig_l2m(s->rig, bench_pose(s, c, 2), bench_model(s, c), subtree, root));
}

/* Two-bone IK of chain k of character c, written into its blended pose. */
static void bench_ik(bench_set* s, uint32_t c, uint32_t k) {
    bench_check(s, bench_rig_ik(s->rig, k, bench_model(s, c), s->target[2u * c + k],
                                s->pole[2u * c + k], bench_pose(s, c, 2)));
}

/* The per-solve row, measured as ozz measures its IKTwoBoneJob: chain k of
 * character c solved from its model matrices into two model-space correction
 * rotations, not written back (the full frame writes them back). */
static void bench_ik_solve(bench_set* s, uint32_t c, uint32_t k) {
    const sw_ik_two_bone_job job =
        bench_rig_ik_job(s->rig, k, bench_model(s, c), s->target[2u * c + k],
                         s->pole[2u * c + k], bench_pose(s, c, 2));
    bench_check(s, sw_ik_two_bone_job_solve(&job, &s->solved[2u * c + k]));
}

static float bench_advance(bench_set* s, uint32_t c, uint32_t layer, const sw_clip* clip) {
    float t = s->time[2u * c + layer] + BENCH_DT;
    if (t > clip->duration) t = clip->duration > 0.0f ? fmodf(t, clip->duration) : 0.0f;
    s->time[2u * c + layer] = t;
    return t;
}

static sw_vec3 bench_position(const sw_mat4* m) {
    return sw_vec3_make(m->m[12], m->m[13], m->m[14]);
}

/* An IK target for chain k of a pose with model matrices `m`: the end joint
 * moved by a random offset of up to a quarter of the limb's length per axis;
 * the pole point lies beyond the mid joint, away from the start-end midpoint. */
static void bench_place_target(const bench_rig* g, const sw_mat4* m, uint32_t k, uint32_t* rng,
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

static void bench_set_free(bench_set* s) {
    free(s->pose);
    free(s->model);
    free(s->cursors);
    free(s->cache);
    free(s->time);
    free(s->weight);
    free(s->target);
    free(s->pole);
    free(s->solved);
    memset(s, 0, sizeof *s);
}

/* Allocates the state of `chars` characters at random phases and weights; fills
 * their poses (layer a, layer b, blended) and model matrices, and places each
 * IK target a random offset (up to a quarter of the limb) from the end joint. */
static bool bench_set_init(bench_set* s, const bench_rig* g, uint32_t chars) {
    memset(s, 0, sizeof *s);
    s->rig = g;
    s->chars = chars;
    s->packets = g->skel->packets_count;
    s->joints = g->skel->joints_count;
    s->rng = 0x9E3779B9u ^ chars;
    uint32_t cursors = 1u;
    for (int k = 0; k < BENCH_CODECS; ++k)
        for (int i = 0; i < 2; ++i)
            if (g->clips[k][i]->tracks_count > cursors) cursors = g->clips[k][i]->tracks_count;
    s->cursors_per = cursors;
    s->pose = (sw_xform4*)aligned_alloc(16, (size_t)chars * 3u * s->packets * sizeof(sw_xform4));
    s->model = (sw_mat4*)aligned_alloc(16, (size_t)chars * s->joints * sizeof(sw_mat4));
    s->cursors = (uint32_t*)calloc((size_t)chars * 2u * cursors, sizeof(uint32_t));
    s->cache = (sw_sample_cache*)calloc((size_t)chars * 2u, sizeof(sw_sample_cache));
    s->time = (float*)calloc((size_t)chars * 2u, sizeof(float));
    s->weight = (float*)calloc(chars, sizeof(float));
    s->target = (sw_vec3*)calloc((size_t)chars * 2u, sizeof(sw_vec3));
    s->pole = (sw_vec3*)calloc((size_t)chars * 2u, sizeof(sw_vec3));
    s->solved = (sw_ik_two_bone_rotations*)calloc((size_t)chars * 2u, sizeof *s->solved);
    if (!s->pose || !s->model || !s->cursors || !s->cache || !s->time || !s->weight ||
        !s->target || !s->pole || !s->solved) {
        bench_set_free(s);
        cli_error("bench", "out of memory");
        return false;
    }
    for (uint32_t c = 0; c < chars; ++c) {
        for (uint32_t i = 0; i < 2u; ++i) {
            const size_t slot = 2u * (size_t)c + i;
            sw_sample_cache_init(&s->cache[slot], s->cursors + slot * cursors, cursors);
            s->time[slot] = bench_rand(&s->rng) * g->clips[0][i]->duration;
            bench_sample(s, g->clips[0][i], s->time[slot], NULL, bench_pose(s, c, i));
        }
        s->weight[c] = bench_rand(&s->rng);
        bench_blend(s, c);
        bench_l2m(s, c, false, 0);
        for (uint32_t k = 0; k < 2u; ++k)
            bench_place_target(g, bench_model(s, c), k, &s->rng, &s->target[2u * c + k],
                               &s->pole[2u * c + k]);
    }
    if (s->failed != SW_RESULT_OK) {
        cli_error("bench", "%s: preparing %u characters: %s", g->name, chars,
                  sw_result_str(s->failed));
        bench_set_free(s);
        return false;
    }
    return true;
}

/* Runs a stage `frames` times over every character; returns ns per character
 * per frame (two-bone IK: per solve), or NAN when a job failed. */
static double bench_stage_run(bench_set* s, int stage, int codec, uint32_t frames) {
    const sw_clip* const* clips = s->rig->clips[codec];
    const double t0 = bench_now_ns();
    for (uint32_t f = 0; f < frames; ++f) {
        for (uint32_t c = 0; c < s->chars; ++c) {
            switch (stage) {
            case BENCH_STAGE_SEQUENTIAL:
                bench_sample(s, clips[0], bench_advance(s, c, 0, clips[0]), &s->cache[2u * c],
                             bench_pose(s, c, 0));
                break;
            case BENCH_STAGE_SEEK:
                bench_sample(s, clips[0], bench_rand(&s->rng) * clips[0]->duration, NULL,
                             bench_pose(s, c, 0));
                break;
            case BENCH_STAGE_BLEND:
                bench_blend(s, c);
                break;
            case BENCH_STAGE_L2M:
                bench_l2m(s, c, false, 0);
                break;
            case BENCH_STAGE_IK:
                bench_ik_solve(s, c, 0);
                bench_ik_solve(s, c, 1);
                break;
            default: /* BENCH_STAGE_FRAME */
                for (uint32_t i = 0; i < 2u; ++i)
                    bench_sample(s, clips[i], bench_advance(s, c, i, clips[i]),
                                 &s->cache[2u * c + i], bench_pose(s, c, i));
                bench_blend(s, c);
                bench_l2m(s, c, false, 0);
                for (uint32_t k = 0; k < 2u; ++k) {
                    bench_ik(s, c, k);
                    bench_l2m(s, c, true, s->rig->chains[k][0]);
                }
                break;
            }
        }
    }
    const double ns = bench_now_ns() - t0;
    if (s->failed != SW_RESULT_OK) return NAN;
    const double per = stage == BENCH_STAGE_IK ? 2.0 : 1.0;
    return ns / ((double)frames * (double)s->chars * per);
}

static int bench_cmp_double(const void* a, const void* b) {
    const double x = *(const double*)a, y = *(const double*)b;
    return (x > y) - (x < y);
}

static double bench_median(const double* v, int n) {
    double tmp[BENCH_MAX_PROCESSES];
    memcpy(tmp, v, sizeof(double) * (size_t)n);
    qsort(tmp, (size_t)n, sizeof(double), bench_cmp_double);
    return n % 2 ? tmp[n / 2] : 0.5 * (tmp[n / 2 - 1] + tmp[n / 2]);
}

/* ---- the crowd run (sinew/crowd.h on a sinew/pool.h pool) ---- */

#define BENCH_CROWD_CHARACTERS 1000u   /* the probe crowd */
#define BENCH_CROWD_QUICK 64u             /* the probe crowd of --quick (no second run) */
#define BENCH_CROWD_MAX_CHARACTERS 100000u /* largest crowd of the confirming run */
#define BENCH_CROWD_SPACING 1.5f      /* metres between characters on the grid */
#define BENCH_FRAME_NS 16.7e6         /* a 60 Hz frame */
#define BENCH_SPEEDUP_TARGET 1.8      /* issue #9: 2 threads at least 1.8x one */

/* LOD levels of the "with LOD" run: full detail to 10 m, every 2nd frame from
 * 10 m, every 4th frame with the leaf joints at rest from 20 m. */
static const sw_crowd_level bench_lod_levels[3] = {
    {0.0f, 1u, 0u}, {10.0f, 2u, 0u}, {20.0f, 4u, 1u}};

/* The crowd's post callback: the two IK chains on the character's local pose
 * (local-to-model into the worker's scratch, IK on chain 0, local-to-model of
 * its sub-tree, IK on chain 1); the crowd then runs local-to-model. */
typedef struct bench_crowd {
    const bench_rig* rig;
    sw_vec3* target;  /* characters * 2, model space */
    sw_vec3* pole;    /* characters * 2 */
    sw_mat4* scratch; /* 2 workers * joints */
    sw_result failed[2]; /* per worker */
} bench_crowd;

static void bench_crowd_post(void* user, uint32_t character, sw_xform4* pose,
                             uint32_t packets_count, uint32_t worker) {
    bench_crowd* b = (bench_crowd*)user;
    const bench_rig* g = b->rig;
    (void)packets_count;
    sw_mat4* model = b->scratch + (size_t)worker * g->skel->joints_count;
    sw_result r = bench_rig_l2m(g, pose, model, false, 0);
    for (uint32_t k = 0; k < 2u && r == SW_RESULT_OK; ++k) {
        r = bench_rig_ik(g, k, model, b->target[2u * character + k],
                         b->pole[2u * character + k], pose);
        if (r == SW_RESULT_OK && k == 0u) r = bench_rig_l2m(g, pose, model, true, g->chains[0][0]);
    }
    if (r != SW_RESULT_OK && b->failed[worker] == SW_RESULT_OK) b->failed[worker] = r;
}

/* Creates a crowd of `chars` characters of the rig (a blend space of its two
 * clips of `codec`, random blends and phases, the IK post callback at keys),
 * with the LOD levels when `lod`, and a per-frame budget of `budget`
 * seconds (0: none). NULL on failure (reported). */
static sw_crowd* bench_crowd_make(const bench_rig* g, int codec, const sw_animator_bound* bound,
                                  bench_crowd* b, uint32_t chars, bool lod, float budget) {
    sw_crowd_desc d;
    memset(&d, 0, sizeof d);
    d.bound = bound;
    d.characters_count = chars;
    d.threads = 2;
    d.levels = lod ? bench_lod_levels : NULL;
    d.levels_count = lod ? 3u : 0u;
    d.post = bench_crowd_post;
    d.post_user = b;
    d.budget = budget;
    sw_crowd* crowd = NULL;
    sw_error err;
    memset(&err, 0, sizeof err);
    sw_result r = sw_crowd_create(&d, NULL, &crowd, &err);
    if (r != SW_RESULT_OK) {
        cli_error("bench", "%s: crowd: %s (%s)", g->name, sw_result_str(r),
                  err.check ? err.check : "?");
        return NULL;
    }
    uint32_t side = 1u;
    while (side * side < chars) ++side;
    const float half = 0.5f * BENCH_CROWD_SPACING * (float)(side - 1u);
    uint32_t rng = 0x2545F491u;
    const float longest = g->clips[codec][0]->duration > g->clips[codec][1]->duration
                              ? g->clips[codec][0]->duration
                              : g->clips[codec][1]->duration;
    for (uint32_t i = 0; i < chars && r == SW_RESULT_OK; ++i) {
        sw_crowd_set_position(crowd, i,
                              sw_vec3_make(BENCH_CROWD_SPACING * (float)(i % side) - half, 0.0f,
                                           BENCH_CROWD_SPACING * (float)(i / side) - half));
        sw_crowd_params(crowd, i)[0] = bench_rand(&rng);
        uint32_t events = 0;
        r = sw_animator_update(sw_crowd_instance(crowd, i), bound, sw_crowd_params(crowd, i),
                               sw_crowd_params_count(crowd), bench_rand(&rng) * longest, NULL,
                               0, &events, NULL);
    }
    if (r != SW_RESULT_OK) {
        cli_error("bench", "%s: crowd setup: %s", g->name, sw_result_str(r));
        sw_crowd_destroy(crowd);
        return NULL;
    }
    return crowd;
}

/* Destroys the crowd; false (reported) when r or a post callback failed. */
static bool bench_crowd_done(const bench_rig* g, sw_crowd* crowd, bench_crowd* b, sw_result r) {
    sw_crowd_destroy(crowd);
    if (r == SW_RESULT_OK && b->failed[0] != SW_RESULT_OK) r = b->failed[0];
    if (r == SW_RESULT_OK && b->failed[1] != SW_RESULT_OK) r = b->failed[1];
    if (r != SW_RESULT_OK) cli_error("bench", "%s: crowd update: %s", g->name, sw_result_str(r));
    return r == SW_RESULT_OK;
}

#define BENCH_CROWD_WARM 8u /* frames before timing */
static const sw_vec3 bench_crowd_eye = {0.0f, 1.7f, 0.0f};

/* Runs a crowd (bench_crowd_make) for `frames` timed frames after a warm-up,
 * on `pool`; returns ns per character per frame, or NAN on failure.
 * levels_out (optional) receives the characters per LOD level of the last
 * frame. */
static double bench_crowd_run(const bench_rig* g, int codec, const sw_animator_bound* bound,
                              bench_crowd* b, uint32_t chars, bool lod, sw_pool* pool,
                              uint32_t frames, uint32_t levels_out[3]) {
    sw_crowd* crowd = bench_crowd_make(g, codec, bound, b, chars, lod, 0.0f);
    if (!crowd) return NAN;
    sw_result r = SW_RESULT_OK;
    double t0 = 0.0;
    for (uint32_t f = 0; f < BENCH_CROWD_WARM + frames && r == SW_RESULT_OK; ++f) {
        if (f == BENCH_CROWD_WARM) t0 = bench_now_ns();
        r = sw_crowd_update(crowd, BENCH_DT, bench_crowd_eye, pool);
    }
    const double ns = bench_now_ns() - t0;
    if (levels_out) {
        sw_crowd_stats st;
        sw_crowd_get_stats(crowd, &st);
        for (int l = 0; l < 3; ++l) levels_out[l] = st.per_level[l];
    }
    if (!bench_crowd_done(g, crowd, b, r)) return NAN;
    return ns / ((double)frames * (double)chars);
}

static double bench_cpu_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* Value at fraction q (0..1) of v[0..n) (sorted in place; nearest rank). */
static double bench_quantile(double* v, int n, double q) {
    qsort(v, (size_t)n, sizeof(double), bench_cmp_double);
    int k = (int)floor(q * (double)(n - 1) + 0.5);
    return v[k < 0 ? 0 : k >= n ? n - 1 : k];
}

#define BENCH_CROWD_PAIRS 48u

/* The 2-thread speedup, robust to load from other processes: one crowd,
 * whose frames alternate between the 1- and the 2-thread pool (the order
 * within a pair alternating too; the outputs do not depend on the pool),
 * each frame timed (wall and this process's CPU time). Prints a "crowdpair"
 * line: characters, pairs, the ratio wall(1 thread) / wall(2 threads) of
 * each pair as median, quartiles, min and max, and the median wall and CPU
 * ms per frame of each thread count. False on failure (reported). */
static bool bench_crowd_pair(const bench_rig* g, int rig_slot, int codec,
                             const sw_animator_bound* bound, bench_crowd* b, uint32_t chars,
                             bool lod, sw_pool* const pools[2], uint32_t pairs) {
    sw_crowd* crowd = bench_crowd_make(g, codec, bound, b, chars, lod, 0.0f);
    if (!crowd) return false;
    double ratio[BENCH_CROWD_PAIRS], wall[2][BENCH_CROWD_PAIRS], cpu[2][BENCH_CROWD_PAIRS];
    if (pairs > BENCH_CROWD_PAIRS) pairs = BENCH_CROWD_PAIRS;
    sw_result r = SW_RESULT_OK;
    for (uint32_t f = 0; f < BENCH_CROWD_WARM && r == SW_RESULT_OK; ++f)
        r = sw_crowd_update(crowd, BENCH_DT, bench_crowd_eye, pools[f % 2u]);
    for (uint32_t p = 0; p < pairs && r == SW_RESULT_OK; ++p) {
        for (uint32_t h = 0; h < 2u && r == SW_RESULT_OK; ++h) {
            const uint32_t t = (p + h) % 2u; /* 0: one thread, 1: two */
            const double w0 = bench_now_ns(), c0 = bench_cpu_ns();
            r = sw_crowd_update(crowd, BENCH_DT, bench_crowd_eye, pools[t]);
            cpu[t][p] = (bench_cpu_ns() - c0) * 1e-6;
            wall[t][p] = (bench_now_ns() - w0) * 1e-6;
        }
        ratio[p] = wall[0][p] / wall[1][p];
    }
    if (!bench_crowd_done(g, crowd, b, r)) return false;
    const int n = (int)pairs;
    printf("crowdpair\t%d\t%d\t%u\t%u", rig_slot, lod ? 1 : 0, chars, pairs);
    printf("\t%.6g\t%.6g\t%.6g", bench_quantile(ratio, n, 0.5), bench_quantile(ratio, n, 0.25),
           bench_quantile(ratio, n, 0.75));
    printf("\t%.6g\t%.6g", bench_quantile(ratio, n, 0.0), bench_quantile(ratio, n, 1.0));
    for (int t = 0; t < 2; ++t)
        printf("\t%.6g\t%.6g", bench_quantile(wall[t], n, 0.5), bench_quantile(cpu[t], n, 0.5));
    printf("\t%d\n", codec);
    return true;
}

#define BENCH_CROWD_BUDGET 0.0167f /* seconds: a 60 Hz frame */
#define BENCH_BUDGET_FRAMES 120u   /* frames per budget run; the last 40 are reported */
#define BENCH_BUDGET_TAIL 40u

/* The budget controller on 2 threads with LOD: a crowd of `chars` fed with
 * the measured time of each update against 16.7 ms. Prints a "crowdbudget"
 * line: characters, the bias at the end, the median and worst frame ms and
 * the frames over budget among the last BENCH_BUDGET_TAIL, and the
 * characters per LOD level of the last frame. *settled_ok: the tail's
 * median is within the budget. False on failure (reported). */
static bool bench_crowd_budget(const bench_rig* g, int rig_slot, int codec,
                               const sw_animator_bound* bound, bench_crowd* b, uint32_t chars,
                               sw_pool* pool, bool* settled_ok) {
    sw_crowd* crowd = bench_crowd_make(g, codec, bound, b, chars, true, BENCH_CROWD_BUDGET);
    if (!crowd) return false;
    double tail[BENCH_BUDGET_TAIL];
    uint32_t over = 0;
    sw_result r = SW_RESULT_OK;
    for (uint32_t f = 0; f < BENCH_BUDGET_FRAMES && r == SW_RESULT_OK; ++f) {
        const double t0 = bench_now_ns();
        r = sw_crowd_update(crowd, BENCH_DT, bench_crowd_eye, pool);
        const double s = (bench_now_ns() - t0) * 1e-9;
        sw_crowd_feed_time(crowd, (float)s);
        if (f >= BENCH_BUDGET_FRAMES - BENCH_BUDGET_TAIL) {
            tail[f - (BENCH_BUDGET_FRAMES - BENCH_BUDGET_TAIL)] = s * 1e3;
            over += s > (double)BENCH_CROWD_BUDGET;
        }
    }
    sw_crowd_stats st;
    sw_crowd_get_stats(crowd, &st);
    const uint32_t bias = sw_crowd_lod_bias(crowd);
    if (!bench_crowd_done(g, crowd, b, r)) return false;
    const double med = bench_quantile(tail, (int)BENCH_BUDGET_TAIL, 0.5);
    *settled_ok = med <= 1e3 * (double)BENCH_CROWD_BUDGET;
    printf("crowdbudget\t%d\t%u\t%u\t%.6g\t%.6g\t%u\t%u\t%u\t%u\n", rig_slot, chars, bias,
           med, bench_quantile(tail, (int)BENCH_BUDGET_TAIL, 1.0), over, st.per_level[0],
           st.per_level[1], st.per_level[2]);
    return true;
}

/* The crowd figures of one rig on `codec`: without and with LOD, on 1 and 2
 * threads; prints "crowd" lines. False on failure (reported). */
static bool bench_crowd_all(const bench_rig* g, int rig_slot, int codec, bool quick) {
    const uint32_t chars = quick ? BENCH_CROWD_QUICK : BENCH_CROWD_CHARACTERS;
    const uint32_t frames = quick ? 4u : 48u; /* a multiple of the slowest LOD rate */
    const sw_clip* clips[2] = {g->clips[codec][0], g->clips[codec][1]};
    const sw_animator_param_desc params[] = {{"blend", SW_ANIMATOR_PARAM_TYPE_FLOAT, 0.0f}};
    const sw_animator_member_desc members[] = {{sw_clip_name(clips[0]), 0.0f, 0.0f},
                                               {sw_clip_name(clips[1]), 1.0f, 0.0f}};
    const sw_animator_blend_space_desc spaces[] = {
        {"mix", "blend", NULL, members, 2, NULL, 0, false}};
    const sw_animator_state_desc states[] = {
        {"Mix", SW_ANIMATOR_MOTION_BLEND_SPACE, "mix", false, 0.0f, NULL}};
    const sw_animator_machine_desc machines[] = {{"Main", states, 1, NULL, 0, NULL}};
    const sw_animator_layer_desc layers[] = {{"base", "Main", SW_ANIMATOR_LAYER_MODE_DEFAULT,
                                              0.0f, NULL, NULL, 0,
                                              SW_ANIMATOR_REFERENCE_DEFAULT}};
    const sw_animator_desc desc = {params, 1, spaces, 1, machines, 1, layers, 1, NULL, 0.0f};
    const sw_animator* def = NULL;
    sw_error err;
    memset(&err, 0, sizeof err);
    sw_result r = sw_animator_create(&desc, NULL, &def, &err);
    const size_t bound_size = r == SW_RESULT_OK ? sw_animator_bound_size(def, g->skel) : 0u;
    void* bound_mem = bound_size ? sw_alloc(NULL, bound_size, 16) : NULL;
    const sw_animator_bound* bound = NULL;
    if (r == SW_RESULT_OK)
        r = bound_mem ? sw_animator_bind(def, g->skel, clips, 2, bound_mem, bound_size, &bound,
                                         &err)
                      : SW_RESULT_OUT_OF_MEMORY;
    bench_crowd b;
    memset(&b, 0, sizeof b);
    b.rig = g;
    const uint32_t most = quick ? chars : BENCH_CROWD_MAX_CHARACTERS;
    b.target = (sw_vec3*)calloc((size_t)most * 2u, sizeof(sw_vec3));
    b.pole = (sw_vec3*)calloc((size_t)most * 2u, sizeof(sw_vec3));
    b.scratch = (sw_mat4*)aligned_alloc(16, 2u * (size_t)g->skel->joints_count * sizeof(sw_mat4));
    sw_pool* pools[2] = {NULL, NULL};
    if (r == SW_RESULT_OK && (!b.target || !b.pole || !b.scratch)) r = SW_RESULT_OUT_OF_MEMORY;
    if (r == SW_RESULT_OK) r = sw_pool_create(1, NULL, &pools[0]);
    if (r == SW_RESULT_OK) r = sw_pool_create(2, NULL, &pools[1]);
    if (r == SW_RESULT_OK) {
        /* IK targets around the rest pose's end joints (the crowd's poses vary). */
        r = bench_rig_l2m(g, sw_skeleton_rest_pose(g->skel), b.scratch, false, 0);
        uint32_t rng = 0x68E31DA4u;
        for (uint32_t c = 0; c < most && r == SW_RESULT_OK; ++c)
            for (uint32_t k = 0; k < 2u; ++k)
                bench_place_target(g, b.scratch, k, &rng, &b.target[2u * c + k],
                                   &b.pole[2u * c + k]);
    }
    bool ok = r == SW_RESULT_OK;
    if (!ok)
        cli_error("bench", "%s: crowd setup: %s (%s)", g->name, sw_result_str(r),
                  err.check ? err.check : "?");
    uint32_t fit1[2] = {chars, chars}, fit2 = chars;
    for (int lod = 0; lod < 2 && ok; ++lod) {
        for (uint32_t t = 1; t <= 2u && ok; ++t) {
            /* A probe crowd, then (except --quick) a crowd of the size the
             * probe says fits in a frame, whose figure is the one reported. */
            uint32_t levels[3] = {chars, 0u, 0u};
            uint32_t size = chars;
            double ns = bench_crowd_run(g, codec, bound, &b, size, lod != 0, pools[t - 1u],
                                        frames, levels);
            if (!quick && isfinite(ns)) {
                const double fit = floor(BENCH_FRAME_NS / ns);
                size = fit < (double)chars                        ? chars
                       : fit > (double)BENCH_CROWD_MAX_CHARACTERS ? BENCH_CROWD_MAX_CHARACTERS
                                                                  : (uint32_t)fit;
                ns = bench_crowd_run(g, codec, bound, &b, size, lod != 0, pools[t - 1u], frames,
                                     levels);
            }
            ok = isfinite(ns);
            if (ok)
                printf("crowd\t%d\t%d\t%u\t%u\t%d\t%.9g\t%u\t%u\t%u\n", rig_slot, lod, t, size,
                       codec, ns, levels[0], levels[1], levels[2]);
            if (t == 1u) fit1[lod] = size;
            else fit2 = size;
        }
        /* the 2-thread speedup, 1- and 2-thread frames interleaved, on the
         * crowd that fits one thread's frame */
        if (ok)
            ok = bench_crowd_pair(g, rig_slot, codec, bound, &b, fit1[lod], lod != 0, pools,
                                  quick ? 4u : BENCH_CROWD_PAIRS);
    }
    /* the budget: a crowd of the size that fits 2 threads with LOD at bias
     * 0, then larger by half while the controller holds 16.7 ms (or smaller
     * by a third until it does): the largest held is what it sustains */
    bool grow = true;
    for (uint32_t k = 0, size = fit2; k < (quick ? 1u : 5u) && ok; ++k) {
        bool held = false;
        ok = bench_crowd_budget(g, rig_slot, codec, bound, &b, size, pools[1], &held);
        if (k == 0) grow = held;
        if (held != grow) break;
        const uint32_t next = grow ? size + size / 2u : size - size / 3u;
        if (next > BENCH_CROWD_MAX_CHARACTERS || next < 64u) break;
        size = next;
    }
    sw_pool_destroy(pools[0]);
    sw_pool_destroy(pools[1]);
    free(b.target);
    free(b.pole);
    free(b.scratch);
    if (bound_mem) sw_free(NULL, bound_mem, bound_size);
    if (def) sw_animator_destroy(def, NULL);
    return ok;
}

/* ---- the child: measures every row once, prints tab-separated lines ---- */

typedef struct bench_opts {
    bool json, quick, child;
    int processes;
    const char* asset; /* robot file: given, or found at the default places; NULL: none */
    bool asset_given;
} bench_opts;

static int bench_child(const bench_opts* o) {
    /* Character-frames per repetition, repetitions per process (median taken). */
    const uint32_t work = o->quick ? 400u : 24000u;
    const int reps = o->quick ? 1 : 5;
    printf("sinew-bench\t1\n");
    int rig_index = 0;
    for (int rig_slot = 0; rig_slot < BENCH_RIGS; ++rig_slot) {
        const char* path = rig_slot == 0 ? o->asset : NULL;
        if (rig_slot == 0 && !path) continue;
        bench_rig g;
        if (!bench_rig_load(&g, path)) return CLI_EXIT_FAIL;
        printf("rig\t%d\t%s\t%s\t%u\t%s\t%s", rig_slot, g.name, g.file[0] ? g.file : "-",
               g.skel->joints_count, sw_clip_name(g.clips[0][0]), sw_clip_name(g.clips[0][1]));
        for (int k = 0; k < 2; ++k)
            for (int j = 0; j < 3; ++j)
                printf("\t%s", sw_skeleton_joint_name(g.skel, g.chains[k][j]));
        printf("\n");
        for (int k = 0; k < BENCH_CODECS; ++k)
            printf("codec\t%d\t%d\t%llu\t%.9g\t%.9g\n", rig_slot, k,
                   (unsigned long long)g.codec_bytes[k], (double)g.codec_error[k],
                   (double)g.codec_rate[k]);
        double frame_ns[BENCH_CODECS] = {0};
        for (int ci = 0; ci < BENCH_COUNTS; ++ci) {
            bench_set s;
            if (!bench_set_init(&s, &g, bench_counts[ci])) {
                bench_rig_free(&g);
                return CLI_EXIT_FAIL;
            }
            uint32_t frames = work / s.chars;
            if (frames < 1u) frames = 1u;
            for (int st = 0; st < BENCH_STAGES; ++st) {
                for (int k = 0; k < bench_stage_codecs(st); ++k) {
                    double v[BENCH_MAX_PROCESSES];
                    (void)bench_stage_run(&s, st, k, frames); /* warm up */
                    for (int r = 0; r < reps; ++r)
                        v[r] = bench_stage_run(&s, st, k, frames);
                    if (s.failed != SW_RESULT_OK) {
                        cli_error("bench", "%s: %s failed: %s", g.name, bench_stages[st].key,
                                  sw_result_str(s.failed));
                        bench_set_free(&s);
                        bench_rig_free(&g);
                        return CLI_EXIT_FAIL;
                    }
                    const double med = bench_median(v, reps);
                    printf("row\t%d\t%d\t%d\t%d\t%.9g\n", rig_slot, ci, st, k, med);
                    if (st == BENCH_STAGE_FRAME && ci == BENCH_COUNTS - 1) frame_ns[k] = med;
                }
            }
            bench_set_free(&s);
        }
        /* The crowd plays the codec with this process's fastest full frame. */
        int crowd_codec = 0;
        for (int k = 1; k < BENCH_CODECS; ++k)
            if (frame_ns[k] < frame_ns[crowd_codec]) crowd_codec = k;
        if (!bench_crowd_all(&g, rig_slot, crowd_codec, o->quick)) {
            bench_rig_free(&g);
            return CLI_EXIT_FAIL;
        }
        bench_rig_free(&g);
        ++rig_index;
    }
    fflush(stdout);
    return rig_index > 0 ? CLI_EXIT_OK : CLI_EXIT_FAIL;
}

/* ---- the parent: runs the children, aggregates, reports ---- */

typedef struct bench_meta {
    bool present;
    char name[64];
    char file[1024];
    uint32_t joints;
    char clips[2][64];
    char chains[2][3][64];
    uint64_t codec_bytes[BENCH_CODECS];
    double codec_error[BENCH_CODECS];
    double codec_rate[BENCH_CODECS];
} bench_meta;

typedef struct bench_results {
    bench_meta rigs[BENCH_RIGS];
    /* [rig][count][stage][codec][process] */
    double v[BENCH_RIGS][BENCH_COUNTS][BENCH_STAGES][BENCH_CODECS][BENCH_MAX_PROCESSES];
    int n[BENCH_RIGS][BENCH_COUNTS][BENCH_STAGES][BENCH_CODECS];
    /* crowd: [rig][lod][threads - 1][process] ns per character per frame */
    double crowd[BENCH_RIGS][2][2][BENCH_MAX_PROCESSES];
    int crowd_n[BENCH_RIGS][2][2];
    double crowd_size[BENCH_RIGS][2][2][BENCH_MAX_PROCESSES]; /* characters measured */
    int crowd_codec[BENCH_RIGS];                 /* of the last process */
    uint32_t crowd_levels[BENCH_RIGS][2][2][3];  /* characters per LOD level, last process */
    uint32_t crowd_probe;                        /* characters of the probe crowd */
    bool crowd_confirmed;                        /* a crowd of the fitted size was run */
    /* interleaved 1/2-thread frames: [rig][lod] fields of the last process's
     * "crowdpair" line (characters, pairs, ratio median q1 q3 min max, wall
     * and CPU ms of 1 and 2 threads); the median ratio of every process */
    double pair[BENCH_RIGS][2][11];
    double pair_ratio[BENCH_RIGS][2][BENCH_MAX_PROCESSES];
    int pair_n[BENCH_RIGS][2];
    /* budget runs of the last process: characters, bias, median ms, worst ms,
     * frames over, characters per level */
    double budget[BENCH_RIGS][8][8];
    int budget_n[BENCH_RIGS];
    int budget_process[BENCH_RIGS];
} bench_results;

/* Splits a line at tabs in place; returns the number of fields (at most cap). */
static int bench_split(char* line, char** f, int cap) {
    int n = 0;
    char* p = line;
    while (n < cap) {
        f[n++] = p;
        char* t = strchr(p, '\t');
        if (!t) break;
        *t = '\0';
        p = t + 1;
    }
    return n;
}

static bool bench_parse_child(char* text, int process, bench_results* res) {
    bool header = false;
    for (char* line = text; line && *line;) {
        char* nl = strchr(line, '\n');
        if (nl) *nl = '\0';
        char* f[16];
        const int n = bench_split(line, f, 16);
        if (n == 2 && strcmp(f[0], "sinew-bench") == 0) {
            header = strcmp(f[1], "1") == 0;
        } else if (n == 13 && strcmp(f[0], "rig") == 0) {
            const int r = atoi(f[1]);
            if (r < 0 || r >= BENCH_RIGS) return false;
            bench_meta* m = &res->rigs[r];
            m->present = true;
            snprintf(m->name, sizeof m->name, "%s", f[2]);
            snprintf(m->file, sizeof m->file, "%s", strcmp(f[3], "-") == 0 ? "" : f[3]);
            m->joints = (uint32_t)strtoul(f[4], NULL, 10);
            snprintf(m->clips[0], sizeof m->clips[0], "%s", f[5]);
            snprintf(m->clips[1], sizeof m->clips[1], "%s", f[6]);
            for (int k = 0; k < 2; ++k)
                for (int j = 0; j < 3; ++j)
                    snprintf(m->chains[k][j], sizeof m->chains[k][j], "%s", f[7 + 3 * k + j]);
        } else if (n == 6 && strcmp(f[0], "codec") == 0) {
            const int r = atoi(f[1]), k = atoi(f[2]);
            if (r < 0 || r >= BENCH_RIGS || k < 0 || k >= BENCH_CODECS) return false;
            res->rigs[r].codec_bytes[k] = strtoull(f[3], NULL, 10);
            res->rigs[r].codec_error[k] = strtod(f[4], NULL);
            res->rigs[r].codec_rate[k] = strtod(f[5], NULL);
        } else if (n == 6 && strcmp(f[0], "row") == 0) {
            const int r = atoi(f[1]), ci = atoi(f[2]), st = atoi(f[3]), k = atoi(f[4]);
            if (r < 0 || r >= BENCH_RIGS || ci < 0 || ci >= BENCH_COUNTS || st < 0 ||
                st >= BENCH_STAGES || k < 0 || k >= BENCH_CODECS)
                return false;
            const double ns = strtod(f[5], NULL);
            if (!(ns > 0.0) || !isfinite(ns)) return false;
            int* cnt = &res->n[r][ci][st][k];
            if (*cnt != process) return false; /* one figure per row per process */
            res->v[r][ci][st][k][(*cnt)++] = ns;
        } else if (n == 10 && strcmp(f[0], "crowd") == 0) {
            const int r = atoi(f[1]), lod = atoi(f[2]), t = atoi(f[3]), k = atoi(f[5]);
            if (r < 0 || r >= BENCH_RIGS || lod < 0 || lod > 1 || t < 1 || t > 2 || k < 0 ||
                k >= BENCH_CODECS)
                return false;
            const double ns = strtod(f[6], NULL);
            if (!(ns > 0.0) || !isfinite(ns)) return false;
            int* cnt = &res->crowd_n[r][lod][t - 1];
            if (*cnt != process) return false;
            res->crowd_size[r][lod][t - 1][*cnt] = strtod(f[4], NULL);
            res->crowd[r][lod][t - 1][(*cnt)++] = ns;
            res->crowd_codec[r] = k;
            for (int l = 0; l < 3; ++l)
                res->crowd_levels[r][lod][t - 1][l] = (uint32_t)strtoul(f[7 + l], NULL, 10);
        } else if (n == 15 && strcmp(f[0], "crowdpair") == 0) {
            const int r = atoi(f[1]), lod = atoi(f[2]);
            if (r < 0 || r >= BENCH_RIGS || lod < 0 || lod > 1) return false;
            for (int k = 0; k < 11; ++k)
                res->pair[r][lod][k] = strtod(f[3 + k], NULL);
            int* cnt = &res->pair_n[r][lod];
            if (*cnt != process || !(res->pair[r][lod][2] > 0.0)) return false;
            res->pair_ratio[r][lod][(*cnt)++] = res->pair[r][lod][2];
        } else if (n == 10 && strcmp(f[0], "crowdbudget") == 0) {
            const int r = atoi(f[1]);
            if (r < 0 || r >= BENCH_RIGS) return false;
            if (res->budget_process[r] != process) { /* keep the last process's runs */
                res->budget_process[r] = process;
                res->budget_n[r] = 0;
            }
            if (res->budget_n[r] >= 8) return false;
            double* row = res->budget[r][res->budget_n[r]++];
            for (int k = 0; k < 8; ++k)
                row[k] = strtod(f[2 + k], NULL);
        } else {
            return false;
        }
        line = nl ? nl + 1 : NULL;
    }
    return header;
}

/* Runs one child process; its stdout is collected into *out (malloc'd). */
static int bench_run_child(const bench_opts* o, char** out) {
    int fds[2];
    *out = NULL;
    if (pipe(fds) != 0) return -1;
    fflush(stdout);
    fflush(stderr);
    const pid_t pid = fork();
    if (pid < 0) {
        close(fds[0]);
        close(fds[1]);
        return -1;
    }
    if (pid == 0) {
        close(fds[0]);
        if (dup2(fds[1], STDOUT_FILENO) < 0) _exit(127);
        close(fds[1]);
        char* args[8];
        int a = 0;
        args[a++] = (char*)"sinew";
        args[a++] = (char*)"bench";
        args[a++] = (char*)"--child";
        if (o->quick) args[a++] = (char*)"--quick";
        if (o->asset) {
            args[a++] = (char*)"--asset";
            args[a++] = (char*)o->asset;
        }
        args[a] = NULL;
        execv("/proc/self/exe", args);
        _exit(127);
    }
    close(fds[1]);
    size_t cap = 4096, len = 0;
    char* buf = (char*)malloc(cap);
    for (;;) {
        if (buf && len + 1024 > cap) {
            char* grown = (char*)realloc(buf, cap * 2);
            if (!grown) {
                free(buf);
                buf = NULL;
            } else {
                buf = grown;
                cap *= 2;
            }
        }
        char scratch[1024];
        char* dst = buf ? buf + len : scratch;
        const ssize_t got = read(fds[0], dst, 1023);
        if (got <= 0) break;
        if (buf) len += (size_t)got;
    }
    close(fds[0]);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0) {
    }
    if (!buf) return -1;
    buf[len] = '\0';
    *out = buf;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* The fastest codec of a rig at a count: the lowest full-frame median. */
static int bench_headline_codec(const bench_results* res, int r, int ci) {
    int best = 0;
    double best_ns = INFINITY;
    for (int k = 0; k < BENCH_CODECS; ++k) {
        const int n = res->n[r][ci][BENCH_STAGE_FRAME][k];
        const double m = n ? bench_median(res->v[r][ci][BENCH_STAGE_FRAME][k], n) : INFINITY;
        if (m < best_ns) {
            best_ns = m;
            best = k;
        }
    }
    return best;
}

static double bench_min(const double* v, int n) {
    double m = v[0];
    for (int i = 1; i < n; ++i)
        if (v[i] < m) m = v[i];
    return m;
}

/* One row's figures over the processes. */
typedef struct bench_row {
    const double* v; /* per process */
    int n;
    double median, min, ozz;
} bench_row;

static bench_row bench_row_get(const bench_results* res, int r, int ci, int st, int k) {
    bench_row row;
    row.v = res->v[r][ci][st][k];
    row.n = res->n[r][ci][st][k];
    row.median = bench_median(row.v, row.n);
    row.min = bench_min(row.v, row.n);
    row.ozz = bench_stages[st].ozz[ci];
    return row;
}

static void bench_machine(char* cpu, size_t cap, double* load) {
    snprintf(cpu, cap, "unknown");
    *load = -1.0;
    FILE* f = fopen("/proc/cpuinfo", "r");
    if (f) {
        char line[512];
        while (fgets(line, sizeof line, f)) {
            if (strncmp(line, "model name", 10) == 0) {
                const char* c = strchr(line, ':');
                if (c) {
                    c += c[1] == ' ' ? 2 : 1;
                    snprintf(cpu, cap, "%s", c);
                    char* nl = strchr(cpu, '\n');
                    if (nl) *nl = '\0';
                }
                break;
            }
        }
        fclose(f);
    }
    f = fopen("/proc/loadavg", "r");
    if (f) {
        if (fscanf(f, "%lf", load) != 1) *load = -1.0;
        fclose(f);
    }
}

static void bench_json_numbers(const double* v, int n) {
    printf("[");
    for (int p = 0; p < n; ++p) {
        if (p) printf(", ");
        cli_json_number(stdout, v[p]);
    }
    printf("]");
}

/* Speedup of 2 threads over 1 (medians), without or with LOD. */
static double bench_crowd_speedup(const bench_results* res, int r, int lod) {
    return bench_median(res->crowd[r][lod][0], res->crowd_n[r][lod][0]) /
           bench_median(res->crowd[r][lod][1], res->crowd_n[r][lod][1]);
}

static void bench_print_crowd_json(const bench_results* res, int r) {
    printf("{\"probe_characters\": %u, \"confirmed\": %s, \"codec\": \"%s\", \"frame_ns\": ",
           res->crowd_probe, res->crowd_confirmed ? "true" : "false",
           bench_codec_names[res->crowd_codec[r]]);
    cli_json_number(stdout, BENCH_FRAME_NS);
    printf(", \"spacing\": ");
    cli_json_number(stdout, (double)BENCH_CROWD_SPACING);
    printf(",\n       \"lod_levels\": [");
    for (int l = 0; l < 3; ++l) {
        printf("%s{\"distance\": ", l ? ", " : "");
        cli_json_number(stdout, (double)bench_lod_levels[l].distance);
        printf(", \"rate\": %u, \"joint_cut\": %u}", bench_lod_levels[l].rate,
               bench_lod_levels[l].joint_cut);
    }
    printf("],\n       \"rows\": [");
    for (int lod = 0; lod < 2; ++lod) {
        for (int t = 0; t < 2; ++t) {
            const double* v = res->crowd[r][lod][t];
            const int n = res->crowd_n[r][lod][t];
            const double med = bench_median(v, n);
            printf("%s\n         {\"threads\": %d, \"lod\": %s, \"median_ns\": ",
                   lod || t ? "," : "", t + 1, lod ? "true" : "false");
            cli_json_number(stdout, med);
            printf(", \"min_ns\": ");
            cli_json_number(stdout, bench_min(v, n));
            printf(", \"fit\": %.0f, \"processes\": ", floor(BENCH_FRAME_NS / med));
            bench_json_numbers(v, n);
            printf(",\n          \"characters\": ");
            bench_json_numbers(res->crowd_size[r][lod][t], n);
            const uint32_t* lv = res->crowd_levels[r][lod][t];
            printf(", \"per_level\": [%u, %u, %u]}", lv[0], lv[1], lv[2]);
        }
    }
    printf("],\n       \"speedup_without_lod\": ");
    cli_json_number(stdout, bench_crowd_speedup(res, r, 0));
    printf(", \"speedup_with_lod\": ");
    cli_json_number(stdout, bench_crowd_speedup(res, r, 1));
    printf(", \"speedup_target\": ");
    cli_json_number(stdout, BENCH_SPEEDUP_TARGET);
    static const char* const pair_keys[11] = {
        "characters", "pairs", "ratio_median", "ratio_q1", "ratio_q3", "ratio_min",
        "ratio_max", "wall_ms_1", "cpu_ms_1", "wall_ms_2", "cpu_ms_2"};
    printf(",\n       \"interleaved\": [");
    for (int lod = 0, first = 1; lod < 2; ++lod) {
        if (res->pair_n[r][lod] == 0) continue;
        double v[BENCH_MAX_PROCESSES];
        memcpy(v, res->pair_ratio[r][lod], sizeof(double) * (size_t)res->pair_n[r][lod]);
        printf("%s{\"lod\": %s, \"speedup\": ", first ? "" : ", ", lod ? "true" : "false");
        cli_json_number(stdout, bench_median(v, res->pair_n[r][lod]));
        printf(", \"processes\": ");
        bench_json_numbers(res->pair_ratio[r][lod], res->pair_n[r][lod]);
        for (int k = 0; k < 11; ++k) {
            printf(", \"%s\": ", pair_keys[k]);
            cli_json_number(stdout, res->pair[r][lod][k]);
        }
        printf("}");
        first = 0;
    }
    static const char* const budget_keys[5] = {"characters", "bias", "median_ms", "worst_ms",
                                               "frames_over"};
    printf("],\n       \"budget\": {\"seconds\": ");
    cli_json_number(stdout, (double)BENCH_CROWD_BUDGET);
    printf(", \"frames\": %u, \"tail\": %u, \"runs\": [", BENCH_BUDGET_FRAMES, BENCH_BUDGET_TAIL);
    for (int k = 0; k < res->budget_n[r]; ++k) {
        const double* b = res->budget[r][k];
        printf("%s{", k ? ", " : "");
        for (int j = 0; j < 5; ++j) {
            printf("%s\"%s\": ", j ? ", " : "", budget_keys[j]);
            cli_json_number(stdout, b[j]);
        }
        printf(", \"per_level\": [%.0f, %.0f, %.0f], \"held\": %s}", b[5], b[6], b[7],
               b[2] <= 1e3 * (double)BENCH_CROWD_BUDGET ? "true" : "false");
    }
    printf("]}}");
}

static void bench_print_crowd_text(const bench_results* res, int r) {
    printf("\n  crowd: characters %g m apart around the viewpoint, codec %s, each: animator "
           "blend space (2 samples, blend), 2 x two-bone IK, local-to-model; a probe of %u "
           "characters%s\n",
           (double)BENCH_CROWD_SPACING, bench_codec_names[res->crowd_codec[r]],
           res->crowd_probe,
           res->crowd_confirmed ? ", then the crowd the probe says fits in 16.7 ms"
                                : " only (--quick)");
    printf("  LOD: full to %g m, every %u frames from %g m, every %u frames with leaf joints at "
           "rest from %g m\n",
           (double)bench_lod_levels[1].distance, bench_lod_levels[1].rate,
           (double)bench_lod_levels[1].distance, bench_lod_levels[2].rate,
           (double)bench_lod_levels[2].distance);
    printf("  %-8s %-5s %10s %9s %9s %10s  %s\n", "threads", "LOD", "measured", "median", "min",
           "fit", "per LOD level (last process)");
    for (int lod = 0; lod < 2; ++lod) {
        for (int t = 0; t < 2; ++t) {
            const double* v = res->crowd[r][lod][t];
            const int n = res->crowd_n[r][lod][t];
            const double med = bench_median(v, n);
            const uint32_t* lv = res->crowd_levels[r][lod][t];
            printf("  %-8d %-5s %10.0f %9.1f %9.1f %10.0f  %u %u %u\n", t + 1, lod ? "on" : "off",
                   bench_median(res->crowd_size[r][lod][t], n), med, bench_min(v, n),
                   floor(BENCH_FRAME_NS / med), lv[0], lv[1], lv[2]);
        }
    }
    printf("  2 threads / 1 thread, separate runs above: %.2fx without LOD, %.2fx with LOD\n",
           bench_crowd_speedup(res, r, 0), bench_crowd_speedup(res, r, 1));
    for (int lod = 0; lod < 2; ++lod) {
        const double* q = res->pair[r][lod];
        if (res->pair_n[r][lod] == 0) continue;
        double v[BENCH_MAX_PROCESSES];
        memcpy(v, res->pair_ratio[r][lod], sizeof(double) * (size_t)res->pair_n[r][lod]);
        printf("  2 threads / 1 thread, interleaved frames, LOD %s, %.0f characters: %.2fx "
               "(target %.1fx; median over processes; last process: quartiles %.2f-%.2f, "
               "range %.2f-%.2f over %.0f pairs)\n"
               "    median per frame: 1 thread %.2f ms wall, %.2f ms CPU (%.0f%% of 1 core); 2 "
               "threads %.2f ms wall, %.2f ms CPU (%.0f%% of 2 cores); below 100%%: the "
               "process waited (other processes on the cores, or workers idle); CPU ns per "
               "character: %.0f (1 thread), %.0f (2 threads)\n",
               lod ? "on" : "off", q[0], bench_median(v, res->pair_n[r][lod]),
               BENCH_SPEEDUP_TARGET, q[3], q[4], q[5], q[6], q[1], q[7], q[8],
               100.0 * q[8] / q[7], q[9], q[10], 100.0 * q[10] / (2.0 * q[9]),
               1e6 * q[8] / q[0], 1e6 * q[10] / q[0]);
    }
    if (res->budget_n[r] > 0)
        printf("  budget 16.7 ms, 2 threads, LOD, fed the measured update time (%u frames; last "
               "%u reported):\n  %10s %5s %10s %9s %6s  %s\n",
               BENCH_BUDGET_FRAMES, BENCH_BUDGET_TAIL, "characters", "bias", "median ms",
               "worst ms", "over", "per LOD level");
    double sustained = 0.0;
    for (int k = 0; k < res->budget_n[r]; ++k) {
        const double* b = res->budget[r][k];
        const bool held = b[2] <= 1e3 * (double)BENCH_CROWD_BUDGET;
        if (held && b[0] > sustained) sustained = b[0];
        printf("  %10.0f %5.0f %10.2f %9.2f %6.0f  %.0f %.0f %.0f%s\n", b[0], b[1], b[2], b[3],
               b[4], b[5], b[6], b[7], held ? "" : "  (not held)");
    }
    if (res->budget_n[r] > 0)
        printf("  sustained within the budget: %.0f characters (largest crowd tried whose median "
               "frame held)\n",
               sustained);
}

static void bench_print_json(const bench_opts* o, const bench_results* res, const char* skipped) {
    char cpu[256];
    double load;
    bench_machine(cpu, sizeof cpu, &load);
    printf("{\n  \"processes\": %d,\n  \"quick\": %s,\n  \"dt\": ", o->processes,
           o->quick ? "true" : "false");
    cli_json_number(stdout, (double)BENCH_DT);
    printf(",\n  \"threads\": 1,\n  \"machine\": {\"cpu\": ");
    cli_json_string(stdout, cpu);
    printf(", \"cores\": %ld, \"load\": ", sysconf(_SC_NPROCESSORS_ONLN));
    cli_json_number(stdout, load);
    printf("},\n  \"ozz\": \"ozz-animation on RobotExpressive (issue #9), ns per character per "
           "frame\",\n  \"target_ratio\": ");
    cli_json_number(stdout, BENCH_TARGET);
    printf(",\n  \"skipped\": [");
    if (skipped) cli_json_string(stdout, skipped);
    printf("],\n  \"assets\": [");
    bool first_rig = true;
    for (int r = 0; r < BENCH_RIGS; ++r) {
        const bench_meta* m = &res->rigs[r];
        if (!m->present) continue;
        printf("%s\n    {\"name\": ", first_rig ? "" : ",");
        first_rig = false;
        cli_json_string(stdout, m->name);
        printf(", \"file\": ");
        if (m->file[0])
            cli_json_string(stdout, m->file);
        else
            printf("null");
        printf(", \"joints\": %u,\n     \"clips\": [", m->joints);
        cli_json_string(stdout, m->clips[0]);
        printf(", ");
        cli_json_string(stdout, m->clips[1]);
        printf("],\n     \"chains\": [");
        for (int k = 0; k < 2; ++k) {
            printf("%s[", k ? ", " : "");
            for (int j = 0; j < 3; ++j) {
                if (j) printf(", ");
                cli_json_string(stdout, m->chains[k][j]);
            }
            printf("]");
        }
        printf("],\n     \"codecs\": [");
        for (int k = 0; k < BENCH_CODECS; ++k) {
            printf("%s\n       {\"name\": \"%s\", \"bytes\": %llu, \"max_error\": ", k ? "," : "",
                   bench_codec_names[k], (unsigned long long)m->codec_bytes[k]);
            cli_json_number(stdout, m->codec_error[k]);
            printf(", \"rate\": ");
            cli_json_number(stdout, m->codec_rate[k]);
            if (k > 0) {
                printf(", \"shell\": ");
                cli_json_number(stdout, (double)BENCH_SHELL);
            }
            if (k == 1) {
                printf(", \"precision\": ");
                cli_json_number(stdout, (double)BENCH_PRECISION);
            }
            printf("}");
        }
        printf("],\n     \"rows\": [");
        bool first_row = true;
        for (int ci = 0; ci < BENCH_COUNTS; ++ci) {
            const int head = bench_headline_codec(res, r, ci);
            for (int st = 0; st < BENCH_STAGES; ++st) {
                for (int k = 0; k < bench_stage_codecs(st); ++k) {
                    const bench_row row = bench_row_get(res, r, ci, st, k);
                    const int n = row.n;
                    const double* v = row.v;
                    const double med = row.median, mn = row.min, ozz = row.ozz;
                    printf("%s\n       {\"stage\": \"%s\", \"characters\": %u, \"codec\": ",
                           first_row ? "" : ",", bench_stages[st].key, bench_counts[ci]);
                    first_row = false;
                    if (bench_stages[st].per_codec)
                        printf("\"%s\", \"max_error\": ", bench_codec_names[k]);
                    else
                        printf("null, \"max_error\": ");
                    if (bench_stages[st].per_codec)
                        cli_json_number(stdout, m->codec_error[k]);
                    else
                        printf("null");
                    printf(", \"headline\": %s,\n        \"median_ns\": ",
                           !bench_stages[st].per_codec || k == head ? "true" : "false");
                    cli_json_number(stdout, med);
                    printf(", \"min_ns\": ");
                    cli_json_number(stdout, mn);
                    printf(", \"ns_per_joint\": ");
                    cli_json_number(stdout, med / (double)m->joints);
                    printf(", \"min_ns_per_joint\": ");
                    cli_json_number(stdout, mn / (double)m->joints);
                    printf(", \"ozz_ns\": ");
                    cli_json_number(stdout, ozz);
                    printf(", \"ratio\": ");
                    cli_json_number(stdout, ozz / med);
                    printf(", \"target_met\": %s,\n        \"processes\": ",
                           ozz / med >= BENCH_TARGET ? "true" : "false");
                    bench_json_numbers(v, n);
                    printf("}");
                }
            }
        }
        printf("],\n     \"crowd\": ");
        bench_print_crowd_json(res, r);
        printf("}");
    }
    printf("]\n}\n");
}

static void bench_print_text(const bench_opts* o, const bench_results* res, const char* skipped) {
    char cpu[256];
    double load;
    bench_machine(cpu, sizeof cpu, &load);
    printf("sinew bench: median and min of %d process%s, ns per character per frame "
           "(two-bone IK: per solve), 1/60 s steps, one thread%s\n",
           o->processes, o->processes == 1 ? "" : "es",
           o->quick ? ", --quick (short runs: rough figures)" : "");
    printf("machine: %s, %ld cores, load %.2f (a shared machine: figures are noisy)\n", cpu,
           sysconf(_SC_NPROCESSORS_ONLN), load);
    printf("ozz: ozz-animation on RobotExpressive (issue #9); ratio = ozz / sinew median, "
           "target >= %.1f\n",
           BENCH_TARGET);
    if (skipped) printf("skipped: %s\n", skipped);
    for (int r = 0; r < BENCH_RIGS; ++r) {
        const bench_meta* m = &res->rigs[r];
        if (!m->present) continue;
        printf("\n%s%s%s%s: %u joints, clips %s + %s, IK %s-%s-%s and %s-%s-%s\n", m->name,
               m->file[0] ? " (" : "", m->file, m->file[0] ? ")" : "", m->joints, m->clips[0],
               m->clips[1], m->chains[0][0], m->chains[0][1], m->chains[0][2], m->chains[1][0],
               m->chains[1][1], m->chains[1][2]);
        printf("  codecs (both clips; max error against raw, model units, shell %g):\n"
               "    raw %llu bytes (exact); quantized %llu bytes at %g Hz, max error %.3g "
               "(precision %g); frames %llu bytes at %g Hz, max error %.3g\n",
               (double)BENCH_SHELL, (unsigned long long)m->codec_bytes[0],
               (unsigned long long)m->codec_bytes[1], m->codec_rate[1], m->codec_error[1],
               (double)BENCH_PRECISION, (unsigned long long)m->codec_bytes[2], m->codec_rate[2],
               m->codec_error[2]);
        for (int ci = 0; ci < BENCH_COUNTS; ++ci) {
            const int head = bench_headline_codec(res, r, ci);
            printf("\n  %u characters (* = headline codec, the fastest full frame: %s)\n",
                   bench_counts[ci], bench_codec_names[head]);
            printf("  %-58s %-9s %8s %9s %9s %8s %7s %6s\n", "stage", "codec", "error", "median",
                   "min", "ns/joint", "ozz", "ratio");
            for (int st = 0; st < BENCH_STAGES; ++st) {
                for (int k = 0; k < bench_stage_codecs(st); ++k) {
                    const bench_row row = bench_row_get(res, r, ci, st, k);
                    const double med = row.median, mn = row.min, ozz = row.ozz;
                    const bool per = bench_stages[st].per_codec;
                    char error[32] = "-";
                    if (per) snprintf(error, sizeof error, "%.3g", m->codec_error[k]);
                    printf("%c %-58s %-9s %8s %9.1f %9.1f %8.2f %7.0f %5.2fx\n",
                           per && k == head ? '*' : ' ', bench_stages[st].label,
                           per ? bench_codec_names[k] : "-", error, med, mn,
                           med / (double)m->joints, ozz, ozz / med);
                }
            }
        }
        bench_print_crowd_text(res, r);
    }
}

static bool bench_parse_processes(const char* s, int* out) {
    double v = 0.0;
    if (!cli_parse_double(s, &v) || v != floor(v) || v < 1.0 || v > BENCH_MAX_PROCESSES) {
        cli_error("bench", "--processes needs a whole number in [1, %d], got \"%s\"",
                  BENCH_MAX_PROCESSES, s ? s : "");
        return false;
    }
    *out = (int)v;
    return true;
}

static bool bench_file_exists(const char* path) {
    FILE* f = fopen(path, "rb");
    if (!f) return false;
    fclose(f);
    return true;
}

int cli_bench(int argc, char** argv) {
    bench_opts o;
    memset(&o, 0, sizeof o);
    for (int i = 1; i < argc; ++i) {
        const char* a = argv[i];
        if (strcmp(a, "--json") == 0) {
            o.json = true;
        } else if (strcmp(a, "--quick") == 0) {
            o.quick = true;
        } else if (strcmp(a, "--child") == 0) {
            o.child = true;
        } else if (strcmp(a, "--processes") == 0 || strcmp(a, "--asset") == 0) {
            if (i + 1 >= argc) {
                cli_error("bench", "%s needs a value\n%s", a, cli__bench_usage);
                return CLI_EXIT_USAGE;
            }
            if (strcmp(a, "--asset") == 0) {
                o.asset = argv[++i];
                o.asset_given = true;
            } else if (!bench_parse_processes(argv[++i], &o.processes)) {
                return CLI_EXIT_USAGE;
            }
        } else {
            cli_error("bench", "unknown argument \"%s\"\n%s", a, cli__bench_usage);
            return CLI_EXIT_USAGE;
        }
    }
    if (o.child) return bench_child(&o);
    if (o.processes == 0) o.processes = o.quick ? 2 : 5;
    const uint32_t probe = o.quick ? BENCH_CROWD_QUICK : BENCH_CROWD_CHARACTERS;

    /* RobotExpressive: --asset, $SINEW_ASSETS, ../shared/assets. */
    char found[1024];
    char skipped[1200];
    const char* skip = NULL;
    if (!o.asset) {
        const char* dir = getenv("SINEW_ASSETS");
        snprintf(found, sizeof found, "%s/RobotExpressive.glb",
                 dir && *dir ? dir : "../shared/assets");
        if (bench_file_exists(found)) {
            o.asset = found;
        } else {
            snprintf(skipped, sizeof skipped,
                     "RobotExpressive: %s not found (set SINEW_ASSETS or pass --asset)", found);
            skip = skipped;
        }
    }

    bench_results* res = (bench_results*)calloc(1, sizeof *res);
    if (!res) {
        cli_error("bench", "out of memory");
        return CLI_EXIT_FAIL;
    }
    res->crowd_probe = probe;
    res->crowd_confirmed = !o.quick;
    const bool bar = isatty(STDERR_FILENO) != 0;
    for (int p = 0; p < o.processes; ++p) {
        if (bar) fprintf(stderr, "\rsinew bench: process %d/%d", p + 1, o.processes);
        char* out = NULL;
        const int code = bench_run_child(&o, &out);
        if (code != 0 || !out || !bench_parse_child(out, p, res)) {
            if (bar) fputc('\n', stderr);
            if (code == 0)
                cli_error("bench", "process %d printed unexpected output", p + 1);
            else
                cli_error("bench", "process %d failed (exit %d)", p + 1, code);
            free(out);
            free(res);
            return CLI_EXIT_FAIL;
        }
        free(out);
    }
    if (bar) fputc('\n', stderr);
    /* Every row must have one figure per process. */
    for (int r = 0; r < BENCH_RIGS; ++r) {
        if (!res->rigs[r].present) continue;
        for (int ci = 0; ci < BENCH_COUNTS; ++ci)
            for (int st = 0; st < BENCH_STAGES; ++st)
                for (int k = 0; k < bench_stage_codecs(st); ++k)
                    if (res->n[r][ci][st][k] != o.processes) {
                        cli_error("bench", "%s: row %s missing from a process",
                                  res->rigs[r].name, bench_stages[st].key);
                        free(res);
                        return CLI_EXIT_FAIL;
                    }
        for (int lod = 0; lod < 2; ++lod)
            for (int t = 0; t < 2; ++t)
                if (res->crowd_n[r][lod][t] != o.processes) {
                    cli_error("bench", "%s: crowd figures missing from a process",
                              res->rigs[r].name);
                    free(res);
                    return CLI_EXIT_FAIL;
                }
    }
    if (o.json)
        bench_print_json(&o, res, skip);
    else
        bench_print_text(&o, res, skip);
    free(res);
    return CLI_EXIT_OK;
}
