/* The rows: each stage over N characters, sinew on both kernel paths and
 * ozz on both builds, interleaved repetition by repetition. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../bench_util.h"
#include "blend_floor.h"
#include "harness_internal.h"

const bench_stage_info bench_stages[BENCH_STAGES] = {
    {"sample_sequential", "sample one clip, sequential playback", true, false},
    {"sample_seek", "sample one clip, cold seek (fresh cache, random time)", true, false},
    {"blend", "blend 2 layers", false, false},
    {"blend_floor", "blend's memory floor (sinew: w0 a + w1 b; ozz: its blend)", false, true},
    {"local_to_model", "local-to-model", false, false},
    {"two_bone_ik", "two-bone IK per solve, written as local rotations", false, false},
    {"full_frame", "full frame: 2 samples, blend, l2m, 2 x (IK, write, partial l2m)", true, false},
};
const uint32_t bench_counts[BENCH_COUNTS] = {8u, 1000u};
const char* const bench_codec_names[BENCH_CODECS] = {"raw", "quantized", "frames"};

#define BENCH_SEEKS 4096u /* random seek times, read in turn by both sides */

typedef struct bench_set {
    const bench_rig* rig;
    const sw__soa_ops* ops; /* the kernel path of the run */
    uint32_t chars, packets, joints;
    sw_xform4* pose;   /* chars * 3 poses: layer a, layer b, blended */
    sw_mat4* model;    /* chars * joints */
    uint32_t* cursors; /* chars * 2 caches * cursors_per */
    uint32_t cursors_per;
    sw_sample_cache* cache; /* chars * 2 */
    float* time;            /* chars * 2: clip times */
    float* weight;          /* chars: blend weight of layer b */
    sw_vec3* target;        /* chars * 2: IK targets */
    sw_vec3* pole;          /* chars * 2: IK pole points */
    bool* reached;          /* chars * 2: of the last IK */
    float* seeks;           /* BENCH_SEEKS fractions of the clip */
    uint32_t seek_next;
    uint32_t rng;
    sw_result failed; /* first job failure */
} bench_set;

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
    const sw_sample_job job = {.clip = clip,
                               .skeleton = s->rig->skel,
                               .time = t,
                               .cache = cache,
                               .out = out,
                               .out_count = s->packets};
    bench_check(s, sw__sample_job_run_with(&job, NULL, s->ops));
}

static void bench_blend(bench_set* s, uint32_t c) {
    const float w = s->weight[c];
    const sw_blend_layer layers[2] = {{.pose = bench_pose(s, c, 0), .weight = 1.0f - w},
                                      {.pose = bench_pose(s, c, 1), .weight = w}};
    const sw_blend_job job = {.layers = layers,
                              .layers_count = 2,
                              .rest_pose = sw_skeleton_rest_pose(s->rig->skel),
                              .packets_count = s->packets,
                              .out = bench_pose(s, c, 2),
                              .out_count = s->packets};
    bench_check(s, sw__blend_job_run_with(&job, s->ops));
}

/* The blend's memory floor for character c (blend_floor.h): its two poses
 * read and its blended pose written as bench_blend reads and writes them,
 * on the instruction set of the set's kernel path. */
static void bench_blend_floor_run(const bench_set* s, uint32_t c) {
    const float w = s->weight[c];
    void (*floor)(const sw_xform4*, const sw_xform4*, float, float, sw_xform4*, uint32_t) =
        bench_blend_floor;
#ifdef BENCH_BLEND_FLOOR_AVX2
    if (strcmp(s->ops->name, "avx2") == 0) floor = bench_blend_floor_avx2;
#endif
    floor(bench_pose(s, c, 0), bench_pose(s, c, 1), 1.0f - w, w, bench_pose(s, c, 2), s->packets);
}

/* Local-to-model of character c's blended pose: all joints, or the sub-tree of `root`. */
static void bench_l2m(bench_set* s, uint32_t c, bool subtree, uint32_t root) {
    bench_check(
        s, bench_rig_l2m(s->rig, s->ops, bench_pose(s, c, 2), bench_model(s, c), subtree, root));
}

/* Two-bone IK of chain k of character c, written into its blended pose. */
static void bench_ik(bench_set* s, uint32_t c, uint32_t k) {
    const size_t i = 2u * (size_t)c + k;
    bench_check(s, bench_rig_ik(s->rig, k, bench_model(s, c), s->target[i], s->pole[i],
                                bench_pose(s, c, 2), &s->reached[i]));
}

static float bench_advance(bench_set* s, uint32_t c, uint32_t layer, const sw_clip* clip) {
    float t = s->time[2u * c + layer] + BENCH_DT;
    if (t > clip->duration) t = clip->duration > 0.0f ? fmodf(t, clip->duration) : 0.0f;
    s->time[2u * c + layer] = t;
    return t;
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
    free(s->reached);
    free(s->seeks);
    memset(s, 0, sizeof *s);
}

static bool bench_set_alloc(bench_set* s, uint32_t chars) {
    const size_t two = (size_t)chars * 2u;
    s->pose = (sw_xform4*)aligned_alloc(16, (size_t)chars * 3u * s->packets * sizeof(sw_xform4));
    s->model = (sw_mat4*)aligned_alloc(16, (size_t)chars * s->joints * sizeof(sw_mat4));
    s->cursors = (uint32_t*)calloc(two * s->cursors_per, sizeof(uint32_t));
    s->cache = (sw_sample_cache*)calloc(two, sizeof(sw_sample_cache));
    s->time = (float*)calloc(two, sizeof(float));
    s->weight = (float*)calloc(chars, sizeof(float));
    s->target = (sw_vec3*)calloc(two, sizeof(sw_vec3));
    s->pole = (sw_vec3*)calloc(two, sizeof(sw_vec3));
    s->reached = (bool*)calloc(two, sizeof(bool));
    s->seeks = (float*)calloc(BENCH_SEEKS, sizeof(float));
    return s->pose && s->model && s->cursors && s->cache && s->time && s->weight && s->target &&
           s->pole && s->reached && s->seeks;
}

/* Allocates the state of `chars` characters at random phases and weights; fills
 * their poses (layer a, layer b, blended) and model matrices, and places each
 * IK target a random offset (up to a quarter of the limb) from the end joint. */
static bool bench_set_init(bench_set* s, const bench_rig* g, uint32_t chars) {
    memset(s, 0, sizeof *s);
    s->rig = g;
    s->ops = sw__soa_best();
    s->chars = chars;
    s->packets = g->skel->packets_count;
    s->joints = g->skel->joints_count;
    s->rng = 0x9E3779B9u ^ chars;
    /* each cache sized for the clips it samples, reading their tables where
     * they have one (bench_stage_run) */
    s->cursors_per = 1u;
    for (int k = 0; k < BENCH_CODECS; ++k)
        for (int i = 0; i < 2; ++i) {
            const sw_clip* c = g->clips[k][i];
            const uint32_t need =
                g->tables[k][i] ? sw_sample_cache_size_with_table(c) : sw_sample_cache_size(c);
            if (need > s->cursors_per) s->cursors_per = need;
        }
    if (!bench_set_alloc(s, chars)) {
        bench_set_free(s);
        bench_error("out of memory");
        return false;
    }
    for (uint32_t i = 0; i < BENCH_SEEKS; ++i)
        s->seeks[i] = bench_rand(&s->rng);
    for (uint32_t c = 0; c < chars; ++c) {
        for (uint32_t i = 0; i < 2u; ++i) {
            const size_t slot = 2u * (size_t)c + i;
            sw_sample_cache_init(&s->cache[slot], s->cursors + slot * s->cursors_per,
                                 s->cursors_per);
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
        bench_error("%s: preparing %u characters: %s", g->name, chars, sw_result_str(s->failed));
        bench_set_free(s);
        return false;
    }
    return true;
}

/* One stage for character c on the clips of one codec. */
static void bench_character(bench_set* s, int stage, const sw_clip* const* clips, uint32_t c) {
    switch (stage) {
    case BENCH_STAGE_SEQUENTIAL:
        bench_sample(s, clips[0], bench_advance(s, c, 0, clips[0]), &s->cache[2u * c],
                     bench_pose(s, c, 0));
        break;
    case BENCH_STAGE_SEEK: {
        const float u = s->seeks[s->seek_next];
        s->seek_next = (s->seek_next + 1u) % BENCH_SEEKS;
        bench_sample(s, clips[0], u * clips[0]->duration, NULL, bench_pose(s, c, 0));
        break;
    }
    case BENCH_STAGE_BLEND:
        bench_blend(s, c);
        break;
    case BENCH_STAGE_BLEND_FLOOR:
        bench_blend_floor_run(s, c);
        break;
    case BENCH_STAGE_L2M:
        bench_l2m(s, c, false, 0);
        break;
    case BENCH_STAGE_IK:
        bench_ik(s, c, 0);
        bench_ik(s, c, 1);
        break;
    default: /* BENCH_STAGE_FRAME */
        for (uint32_t i = 0; i < 2u; ++i)
            bench_sample(s, clips[i], bench_advance(s, c, i, clips[i]), &s->cache[2u * c + i],
                         bench_pose(s, c, i));
        bench_blend(s, c);
        bench_l2m(s, c, false, 0);
        for (uint32_t k = 0; k < 2u; ++k) {
            bench_ik(s, c, k);
            bench_l2m(s, c, true, s->rig->chains[k][0]);
        }
        break;
    }
}

/* Runs a stage `frames` times over every character on kernel path ops;
 * returns ns of this thread's CPU time per character per frame (two-bone IK:
 * per solve), or NAN when a job failed. */
static double bench_stage_run(bench_set* s, int stage, int codec, const sw__soa_ops* ops,
                              uint32_t frames) {
    const sw_clip* const* clips = s->rig->clips[codec];
    s->ops = ops;
    /* each cache reads the shared table of the clip it samples (if any) */
    for (uint32_t c = 0; c < 2u * s->chars; ++c)
        s->cache[c].table = s->rig->tables[codec][c % 2u];
    const double t0 = bench_thread_ns();
    for (uint32_t f = 0; f < frames; ++f)
        for (uint32_t c = 0; c < s->chars; ++c)
            bench_character(s, stage, clips, c);
    const double ns = bench_thread_ns() - t0;
    if (s->failed != SW_RESULT_OK) return NAN;
    const double per = stage == BENCH_STAGE_IK ? 2.0 : 1.0;
    return ns / ((double)frames * (double)s->chars * per);
}

/* Chains reported reached and the worst end-to-target distance over limb
 * among them, after a full frame. */
static void bench_set_ik_check(const bench_set* s, uint32_t* reached, double* worst) {
    *reached = 0;
    *worst = 0.0;
    for (uint32_t c = 0; c < s->chars; ++c) {
        const sw_mat4* m = bench_model(s, c);
        for (uint32_t k = 0; k < 2u; ++k) {
            if (!s->reached[2u * c + k]) continue;
            const uint32_t* ch = s->rig->chains[k];
            const sw_vec3 p0 = sw_vec3_make(m[ch[0]].m[12], m[ch[0]].m[13], m[ch[0]].m[14]);
            const sw_vec3 p1 = sw_vec3_make(m[ch[1]].m[12], m[ch[1]].m[13], m[ch[1]].m[14]);
            const sw_vec3 p2 = sw_vec3_make(m[ch[2]].m[12], m[ch[2]].m[13], m[ch[2]].m[14]);
            const float limb =
                sw_vec3_length(sw_vec3_sub(p1, p0)) + sw_vec3_length(sw_vec3_sub(p2, p1));
            const float d = sw_vec3_length(sw_vec3_sub(p2, s->target[2u * c + k]));
            ++*reached;
            if (limb > 0.0f && (double)(d / limb) > *worst) *worst = (double)(d / limb);
        }
    }
}

/* ozz's sets for a sinew set: the same times, weights, seeks, and the IK
 * targets and poles in ozz's model space. */
static bool bench_ozz_sets(const bench_set* s, bench_ozz_side* ozz,
                           bench_ozz_set* sets[BENCH_OZZ_BUILDS]) {
    const size_t two = 2u * (size_t)s->chars;
    float* targets = (float*)malloc(two * 3u * sizeof(float));
    float* poles = (float*)malloc(two * 3u * sizeof(float));
    bool ok = targets && poles;
    for (uint32_t c = 0; c < s->chars && ok; ++c) {
        sw_mat4 inv;
        ok = sw_mat4_inverse(&bench_model(s, c)[ozz->armature], &inv);
        for (uint32_t k = 0; k < 2u && ok; ++k) {
            const size_t i = 2u * (size_t)c + k;
            const sw_vec3 t = bench_ozz_point(&inv, s->target[i]);
            const sw_vec3 p = bench_ozz_point(&inv, s->pole[i]);
            memcpy(targets + 3u * i, &t, 3u * sizeof(float));
            memcpy(poles + 3u * i, &p, 3u * sizeof(float));
        }
    }
    for (int b = 0; b < BENCH_OZZ_BUILDS && ok; ++b)
        if (ozz->api[b]) {
            sets[b] = ozz->api[b]->set_create(ozz->oz[b], s->chars, s->time, s->weight, targets,
                                              poles, s->seeks, BENCH_SEEKS);
            ok = sets[b] != NULL;
        }
    free(targets);
    free(poles);
    if (!ok) bench_error("ozz: preparing %u characters failed", s->chars);
    return ok;
}

#define BENCH_MAX_REPS 16

typedef struct bench_sides {
    bench_set* set[BENCH_PATHS]; /* one per kernel path, as ozz's builds have one each */
    const sw__soa_ops* paths[BENCH_PATHS];
    bench_ozz_side* ozz;
    bench_ozz_set* ozz_sets[BENCH_OZZ_BUILDS];
} bench_sides;

/* Side i of a row: sinew on path i, or ozz build i - BENCH_PATHS; NAN when
 * it failed, -1 when the side is absent. */
static double bench_side_run(bench_sides* d, int i, int stage, int codec, uint32_t frames) {
    if (i < BENCH_PATHS) return bench_stage_run(d->set[i], stage, codec, d->paths[i], frames);
    const int b = i - BENCH_PATHS;
    if (!d->ozz_sets[b]) return -1.0;
    const double ns = d->ozz->api[b]->stage_run(d->ozz_sets[b], stage, frames);
    return ns < 0.0 ? NAN : ns;
}

/* One row: every side warmed once, then `reps` repetitions, each running
 * every side once in an order that rotates; prints the medians (*sinew_ns:
 * sinew's on the run-time path). */
static bool bench_row(bench_sides* d, int rig_slot, int ci, int st, int k, uint32_t frames,
                      int reps, FILE* out, double* sinew_ns) {
    const bool ozz_row = k == BENCH_HEADLINE_CODEC || !bench_stages[st].per_codec;
    const int sides = ozz_row && d->ozz ? BENCH_SIDES : BENCH_PATHS;
    double v[BENCH_SIDES][BENCH_MAX_REPS];
    for (int i = 0; i < sides; ++i)
        (void)bench_side_run(d, i, st, k, frames);
    for (int r = 0; r < reps; ++r)
        for (int j = 0; j < sides; ++j) {
            const int i = (j + r) % sides;
            v[i][r] = bench_side_run(d, i, st, k, frames);
        }
    for (int i = 0; i < sides; ++i) {
        if (v[i][0] < 0.0) continue; /* absent ozz build */
        for (int r = 0; r < reps; ++r)
            if (!isfinite(v[i][r])) {
                bench_error("%s failed (%s)", bench_stages[st].key,
                            i < BENCH_PATHS ? "sinew" : "ozz");
                return false;
            }
        const double med = bench_median(v[i], reps);
        if (i == 0) *sinew_ns = med;
        if (i < BENCH_PATHS)
            fprintf(out, "row\t%d\t%d\t%d\t%d\t%d\t%.9g\n", rig_slot, ci, st, k, i, med);
        else
            fprintf(out, "ozzrow\t%d\t%d\t%d\t%.9g\n", ci, st, i - BENCH_PATHS, med);
    }
    return true;
}

/* The same-work check: one full frame of the headline codec from the same
 * state on both sides (before any row has moved the clip times apart), then
 * the IK targets reached. */
static void bench_ik_lines(bench_sides* d, int rig_slot, uint32_t frames, FILE* out) {
    uint32_t reached;
    double worst;
    (void)bench_stage_run(d->set[0], BENCH_STAGE_FRAME, BENCH_HEADLINE_CODEC, d->paths[0], frames);
    bench_set_ik_check(d->set[0], &reached, &worst);
    fprintf(out, "ik\t%d\t%u\t%u\t%.9g\n", rig_slot, 2u * d->set[0]->chars, reached, worst);
    for (int b = 0; b < BENCH_OZZ_BUILDS; ++b) {
        if (!d->ozz_sets[b]) continue;
        (void)d->ozz->api[b]->stage_run(d->ozz_sets[b], BENCH_STAGE_FRAME, frames);
        d->ozz->api[b]->ik_check(d->ozz_sets[b], &reached, &worst);
        fprintf(out, "ozzik\t%d\t%u\t%u\t%.9g\n", b, 2u * d->set[0]->chars, reached, worst);
    }
}

/* One set per kernel path, each `chars` characters in the same state (the
 * same seed). False on failure (reported; none is left allocated). */
static bool bench_sets_init(bench_set s[BENCH_PATHS], const bench_rig* g, uint32_t chars) {
    for (int p = 0; p < BENCH_PATHS; ++p)
        if (!bench_set_init(&s[p], g, chars)) {
            while (p-- > 0)
                bench_set_free(&s[p]);
            return false;
        }
    return true;
}

/* Blends every character's pose again on each set's path (as its blend row
 * left it), after a floor row wrote its unnormalized sums there. */
static void bench_sets_reblend(bench_set s[BENCH_PATHS]) {
    for (int p = 0; p < BENCH_PATHS; ++p)
        for (uint32_t c = 0; c < s[p].chars; ++c)
            bench_blend(&s[p], c);
}

static void bench_sets_free(bench_set s[BENCH_PATHS]) {
    for (int p = 0; p < BENCH_PATHS; ++p)
        bench_set_free(&s[p]);
}

/* The sides of sets s (one per kernel path): sinew's kernel paths and ozz's
 * sets, made from s[0]'s state (ozz may be NULL). False on failure
 * (reported); the caller frees d's ozz sets either way. */
static bool bench_sides_init(bench_sides* d, bench_set s[BENCH_PATHS], bench_ozz_side* ozz) {
    memset(d, 0, sizeof *d);
    for (int p = 0; p < BENCH_PATHS; ++p)
        d->set[p] = &s[p];
    uint32_t n_paths;
    const sw__soa_ops* const* paths = sw__soa_paths(&n_paths);
    d->paths[0] = sw__soa_best();
    d->paths[1] = paths[n_paths > 1u ? 1u : 0u]; /* the target's baseline: SSE2 on x86-64 */
    d->ozz = ozz;
    return !ozz || bench_ozz_sets(&s[0], ozz, d->ozz_sets);
}

static void bench_sides_free(bench_sides* d) {
    for (int b = 0; b < BENCH_OZZ_BUILDS; ++b)
        if (d->ozz_sets[b]) d->ozz->api[b]->set_free(d->ozz_sets[b]);
}

static bool bench_rows_count(const bench_rig* g, int rig_slot, bench_ozz_side* ozz, int ci,
                             bool quick, FILE* out, double frame_ns[BENCH_CODECS]) {
    const uint32_t work = quick ? 400u : 24000u; /* character-frames per repetition */
    const int reps = quick ? 1 : 5;
    bench_set s[BENCH_PATHS];
    if (!bench_sets_init(s, g, bench_counts[ci])) return false;
    bench_sides d;
    bool ok = bench_sides_init(&d, s, ozz);
    if (ok && ci == BENCH_COUNTS - 1) bench_ik_lines(&d, rig_slot, 1u, out);
    const uint32_t frames = work / s[0].chars > 1u ? work / s[0].chars : 1u;
    for (int st = 0; st < BENCH_STAGES && ok; ++st)
        for (int k = 0; k < (bench_stages[st].per_codec ? BENCH_CODECS : 1) && ok; ++k) {
            double ns = NAN;
            ok = bench_row(&d, rig_slot, ci, st, k, frames, reps, out, &ns);
            if (st == BENCH_STAGE_FRAME && ci == BENCH_COUNTS - 1) frame_ns[k] = ns;
            if (bench_stages[st].floor) bench_sets_reblend(s);
        }
    bench_sides_free(&d);
    if (ok && ci == 0)
        for (int p = 0; p < BENCH_PATHS; ++p)
            fprintf(out, "path\t%d\t%d\t%s\n", rig_slot, p, d.paths[p]->name);
    bench_sets_free(s);
    return ok;
}

bool bench_rows_all(const bench_rig* g, int rig_slot, bench_ozz_side* ozz, bool quick, FILE* out,
                    double frame_ns[BENCH_CODECS]) {
    for (int ci = 0; ci < BENCH_COUNTS; ++ci)
        if (!bench_rows_count(g, rig_slot, ozz, ci, quick, out, frame_ns)) return false;
    return true;
}

const char* const bench_side_names[BENCH_SIDES] = {"sinew", "sinew-sse2", "ozz-sse2", "ozz-avx2"};

/* The span an instruction count covers: side `side` of `stage` (the
 * headline codec) `frames` times over the set (not inlined, so that
 * callgrind's --toggle-collect=bench_profile_run counts it and nothing
 * else). */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((noinline))
#endif
double
bench_profile_run(bench_sides* d, int side, int stage, uint32_t frames) {
    return bench_side_run(d, side, stage, BENCH_HEADLINE_CODEC, frames);
}

bool bench_rows_profile(const bench_rig* g, bench_ozz_side* ozz, int stage, int side,
                        uint32_t chars, uint32_t frames, FILE* out) {
    bench_set s[BENCH_PATHS];
    if (!bench_sets_init(s, g, chars)) return false;
    bench_sides d;
    bool ok = bench_sides_init(&d, s, ozz);
    if (ok && side >= BENCH_PATHS && !d.ozz_sets[side - BENCH_PATHS]) {
        bench_error("%s: ozz's %s build is absent", bench_side_names[side],
                    side == BENCH_PATHS ? "SSE2" : "AVX2");
        ok = false;
    }
    /* warm: one frame as the rows' first run */
    ok = ok && isfinite(bench_side_run(&d, side, stage, BENCH_HEADLINE_CODEC, 1u));
    const double ns = ok ? bench_profile_run(&d, side, stage, frames) : NAN;
    if (ok && !isfinite(ns)) {
        bench_error("%s failed (%s)", bench_stages[stage].key, bench_side_names[side]);
        ok = false;
    }
    if (ok)
        fprintf(out, "profile %s on %s: %u characters x %u frames, %.1f ns per %s\n",
                bench_stages[stage].key, bench_side_names[side], chars, frames, ns,
                stage == BENCH_STAGE_IK ? "solve" : "character-frame");
    bench_sides_free(&d);
    bench_sets_free(s);
    return ok;
}
