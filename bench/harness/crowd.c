/* The crowd run (sinew/scale/crowd.h on a sinew/scale/pool.h pool): characters of a rig
 * on a grid around the viewpoint, each an animator blend space of the two
 * clips with its own blend and phase plus the two IK chains in the post
 * callback, on 1 and 2 threads, without and with LOD. A probe crowd of 1000
 * characters (--quick: 64, and nothing more) gives the size that should fit
 * in 16.7 ms; a crowd of that size is then run, and its ns per character
 * per frame gives the characters that fit. The 2-thread speedup comes from
 * one crowd whose frames alternate between the 1- and 2-thread pools, each
 * frame timed by the wall clock and by each pool thread's own CPU clock: the
 * CPU ratio (one thread's CPU time over the busiest thread's of a 2-thread
 * frame) does not count time the threads spent descheduled, so it survives a
 * loaded machine, and the CPU time per character gives the throughput per
 * core. The budget: crowds fed their measured update time against 16.7 ms,
 * the LOD bias they settle at and the largest crowd whose median frame held. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../bench_util.h"
#include "harness_internal.h"
#include "sinew/scale/crowd.h"
#include "sinew/scale/pool.h"

#define BENCH_CROWD_CHARACTERS 1000u       /* the probe crowd */
#define BENCH_CROWD_QUICK 64u              /* the probe crowd of --quick (no second run) */
#define BENCH_CROWD_MAX_CHARACTERS 100000u /* largest crowd of the confirming run */

const sw_crowd_level bench_lod_levels[3] = {{0.0f, 1u, 0u}, {10.0f, 2u, 0u}, {20.0f, 4u, 1u}};

/* The crowd's post callback: the two IK chains on the character's local pose
 * (local-to-model into the worker's scratch, IK on chain 0, local-to-model of
 * its sub-tree, IK on chain 1); the crowd then runs local-to-model. */
typedef struct bench_crowd {
    const bench_rig* rig;
    sw_vec3* target;     /* characters * 2, model space */
    sw_vec3* pole;       /* characters * 2 */
    sw_mat4* scratch;    /* 2 workers * joints */
    sw_result failed[2]; /* per worker */
} bench_crowd;

static void bench_crowd_post(void* user, uint32_t character, sw_xform4* pose,
                             uint32_t packets_count, uint32_t worker) {
    bench_crowd* b = (bench_crowd*)user;
    const bench_rig* g = b->rig;
    (void)packets_count;
    sw_mat4* model = b->scratch + (size_t)worker * g->skel->joints_count;
    const sw__soa_ops* ops = sw__soa_best();
    sw_result r = bench_rig_l2m(g, ops, pose, model, false, 0);
    for (uint32_t k = 0; k < 2u && r == SW_RESULT_OK; ++k) {
        r = bench_rig_ik(g, k, model, b->target[2u * character + k], b->pole[2u * character + k],
                         pose, NULL);
        if (r == SW_RESULT_OK && k == 0u)
            r = bench_rig_l2m(g, ops, pose, model, true, g->chains[0][0]);
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
    d.post_marks_dirty = true; /* the IK targets are set once, before the first update */
    d.budget = budget;
    sw_crowd* crowd = NULL;
    sw_error err;
    memset(&err, 0, sizeof err);
    sw_result r = sw_crowd_create(&d, NULL, &crowd, &err);
    if (r != SW_RESULT_OK) {
        bench_error("%s: crowd: %s (%s)", g->name, sw_result_str(r), err.check ? err.check : "?");
        return NULL;
    }
    uint32_t side = 1u;
    while (side * side < chars)
        ++side;
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
                               sw_crowd_params_count(crowd), bench_rand(&rng) * longest, NULL, 0,
                               &events, NULL);
    }
    if (r != SW_RESULT_OK) {
        bench_error("%s: crowd setup: %s", g->name, sw_result_str(r));
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
    if (r != SW_RESULT_OK) bench_error("%s: crowd update: %s", g->name, sw_result_str(r));
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
        for (int l = 0; l < 3; ++l)
            levels_out[l] = st.per_level[l];
    }
    if (!bench_crowd_done(g, crowd, b, r)) return NAN;
    return ns / ((double)frames * (double)chars);
}

/* Value at fraction q (0..1) of v[0..n) (sorted in place; nearest rank). */
static double bench_quantile(double* v, int n, double q) {
    qsort(v, (size_t)n, sizeof(double), bench_cmp_double);
    int k = (int)floor(q * (double)(n - 1) + 0.5);
    return v[k < 0 ? 0 : k >= n ? n - 1 : k];
}

#define BENCH_CROWD_PAIRS 48u

/* The CPU clocks of a pool's threads (worker 0: the caller), found by runs
 * of one chunk per thread that each wait 0.2 ms so that every thread claims
 * one. False when a thread never showed up. */
typedef struct bench_clocks {
    clockid_t id[2];
    bool got[2];
} bench_clocks;

static void bench_clock_fn(void* ctx, uint32_t begin, uint32_t end, uint32_t worker) {
    bench_clocks* c = (bench_clocks*)ctx;
    (void)begin;
    (void)end;
    if (worker < 2u && !c->got[worker])
        c->got[worker] = pthread_getcpuclockid(pthread_self(), &c->id[worker]) == 0;
    const double t0 = bench_now_ns();
    while (bench_now_ns() - t0 < 2e5) {
    }
}

static bool bench_pool_clocks(sw_pool* pool, bench_clocks* c) {
    const uint32_t n = sw_pool_threads(pool);
    memset(c, 0, sizeof *c);
    for (int tries = 0; tries < 100 && !(c->got[0] && (n < 2u || c->got[1])); ++tries)
        if (sw_pool_run(pool, bench_clock_fn, c, n, 1) != SW_RESULT_OK) return false;
    return c->got[0] && (n < 2u || c->got[1]);
}

static double bench_clock_ns(clockid_t id) {
    struct timespec ts;
    clock_gettime(id, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

#define BENCH_SKIP_FRAMES 48u

/* Work skipped when nothing changed or nobody sees it: three crowds of
 * `chars` characters without LOD on `pool` (one thread: the caller), their
 * frames interleaved and each timed by the calling thread's CPU clock (so
 * time descheduled on a loaded machine is not counted): all shown and
 * playing; 90 % of the characters off-screen (the caller's flag); 90 %
 * frozen (their state's rate parameter at 0). Prints a "crowdskip" line:
 * characters, frames, the median CPU ms per frame of each crowd, the
 * evaluations of the last frame of each. False on failure (reported). */
static bool bench_crowd_skip(const bench_rig* g, int rig_slot, int codec,
                             const sw_animator_bound* bound, bench_crowd* b, uint32_t chars,
                             sw_pool* pool, uint32_t frames, FILE* out) {
    sw_crowd* crowds[3] = {NULL, NULL, NULL};
    for (int k = 0; k < 3; ++k)
        if (!(crowds[k] = bench_crowd_make(g, codec, bound, b, chars, false, 0.0f))) break;
    sw_result r = crowds[2] ? SW_RESULT_OK : SW_RESULT_OUT_OF_MEMORY;
    for (uint32_t i = 0; i < chars && r == SW_RESULT_OK; ++i) {
        sw_crowd_set_visible(crowds[1], i, i % 10u == 0u);
        sw_crowd_params(crowds[2], i)[1] = i % 10u == 0u ? 1.0f : 0.0f;
    }
    double ms[3][BENCH_SKIP_FRAMES];
    uint32_t evals[3] = {0, 0, 0};
    if (frames > BENCH_SKIP_FRAMES) frames = BENCH_SKIP_FRAMES;
    for (uint32_t f = 0; f < BENCH_CROWD_WARM + frames && r == SW_RESULT_OK; ++f) {
        for (uint32_t k = 0; k < 3u && r == SW_RESULT_OK; ++k) {
            const uint32_t c = (f + k) % 3u; /* the order rotates */
            const double t0 = bench_clock_ns(CLOCK_THREAD_CPUTIME_ID);
            r = sw_crowd_update(crowds[c], BENCH_DT, bench_crowd_eye, pool);
            const double t1 = bench_clock_ns(CLOCK_THREAD_CPUTIME_ID);
            if (f >= BENCH_CROWD_WARM) ms[c][f - BENCH_CROWD_WARM] = (t1 - t0) * 1e-6;
        }
    }
    for (int k = 0; k < 3; ++k) {
        sw_crowd_stats st;
        sw_crowd_get_stats(crowds[k], &st);
        evals[k] = st.evaluations;
        if (k < 2) sw_crowd_destroy(crowds[k]);
    }
    if (!bench_crowd_done(g, crowds[2], b, r)) return false;
    const int n = (int)frames;
    fprintf(out, "crowdskip\t%d\t%u\t%u\t%.6g\t%.6g\t%.6g\t%u\t%u\t%u\n", rig_slot, chars, frames,
            bench_quantile(ms[0], n, 0.5), bench_quantile(ms[1], n, 0.5),
            bench_quantile(ms[2], n, 0.5), evals[0], evals[1], evals[2]);
    return true;
}

/* One crowd frame on pool t, timed: wall ms, the CPU ms of each pool thread. */
static sw_result bench_crowd_frame(sw_crowd* crowd, sw_pool* pool, const bench_clocks* clocks,
                                   double* wall, double cpu[2]) {
    double c0[2] = {0.0, 0.0};
    for (int w = 0; w < 2; ++w)
        if (clocks->got[w]) c0[w] = bench_clock_ns(clocks->id[w]);
    const double w0 = bench_now_ns();
    const sw_result r = sw_crowd_update(crowd, BENCH_DT, bench_crowd_eye, pool);
    *wall = (bench_now_ns() - w0) * 1e-6;
    for (int w = 0; w < 2; ++w)
        cpu[w] = clocks->got[w] ? (bench_clock_ns(clocks->id[w]) - c0[w]) * 1e-6 : 0.0;
    return r;
}

/* The 2-thread speedup, robust to load from other processes: one crowd,
 * whose frames alternate between the 1- and the 2-thread pool (the order
 * within a pair alternating too; the outputs do not depend on the pool),
 * each frame timed by the wall clock and by each pool thread's CPU clock.
 * Prints a "crowdpair" line: characters, pairs, the wall ratio (1 thread / 2
 * threads) of each pair as median, quartiles, min and max; the median wall
 * and CPU ms per frame of 1 thread; of 2 threads the median wall, busiest
 * thread's CPU and both threads' CPU ms; the median per-pair CPU ratio (1
 * thread's CPU / the busiest thread's of 2). False on failure (reported). */
static bool bench_crowd_pair(const bench_rig* g, int rig_slot, int codec,
                             const sw_animator_bound* bound, bench_crowd* b, uint32_t chars,
                             bool lod, sw_pool* const pools[2], uint32_t pairs, FILE* out) {
    bench_clocks clocks[2];
    if (!bench_pool_clocks(pools[0], &clocks[0]) || !bench_pool_clocks(pools[1], &clocks[1])) {
        bench_error("%s: the pool threads' CPU clocks were not found", g->name);
        return false;
    }
    sw_crowd* crowd = bench_crowd_make(g, codec, bound, b, chars, lod, 0.0f);
    if (!crowd) return false;
    double ratio[BENCH_CROWD_PAIRS], cpu_ratio[BENCH_CROWD_PAIRS], wall[2][BENCH_CROWD_PAIRS];
    double cpu1[BENCH_CROWD_PAIRS], cpu2_max[BENCH_CROWD_PAIRS], cpu2_sum[BENCH_CROWD_PAIRS];
    if (pairs > BENCH_CROWD_PAIRS) pairs = BENCH_CROWD_PAIRS;
    sw_result r = SW_RESULT_OK;
    for (uint32_t f = 0; f < BENCH_CROWD_WARM && r == SW_RESULT_OK; ++f)
        r = sw_crowd_update(crowd, BENCH_DT, bench_crowd_eye, pools[f % 2u]);
    for (uint32_t p = 0; p < pairs && r == SW_RESULT_OK; ++p) {
        for (uint32_t h = 0; h < 2u && r == SW_RESULT_OK; ++h) {
            const uint32_t t = (p + h) % 2u; /* 0: one thread, 1: two */
            double cpu[2];
            r = bench_crowd_frame(crowd, pools[t], &clocks[t], &wall[t][p], cpu);
            if (t == 0u) {
                cpu1[p] = cpu[0];
            } else {
                cpu2_max[p] = cpu[0] > cpu[1] ? cpu[0] : cpu[1];
                cpu2_sum[p] = cpu[0] + cpu[1];
            }
        }
        ratio[p] = wall[0][p] / wall[1][p];
        cpu_ratio[p] = cpu1[p] / cpu2_max[p];
    }
    if (!bench_crowd_done(g, crowd, b, r)) return false;
    const int n = (int)pairs;
    fprintf(out, "crowdpair\t%d\t%d\t%u\t%u", rig_slot, lod ? 1 : 0, chars, pairs);
    fprintf(out, "\t%.6g\t%.6g\t%.6g", bench_quantile(ratio, n, 0.5),
            bench_quantile(ratio, n, 0.25), bench_quantile(ratio, n, 0.75));
    fprintf(out, "\t%.6g\t%.6g", bench_quantile(ratio, n, 0.0), bench_quantile(ratio, n, 1.0));
    fprintf(out, "\t%.6g\t%.6g", bench_quantile(wall[0], n, 0.5), bench_quantile(cpu1, n, 0.5));
    fprintf(out, "\t%.6g\t%.6g\t%.6g", bench_quantile(wall[1], n, 0.5),
            bench_quantile(cpu2_max, n, 0.5), bench_quantile(cpu2_sum, n, 0.5));
    fprintf(out, "\t%.6g\t%d\n", bench_quantile(cpu_ratio, n, 0.5), codec);
    return true;
}

/* The budget controller on 2 threads with LOD: a crowd of `chars` fed with
 * the measured time of each update against 16.7 ms. Prints a "crowdbudget"
 * line: characters, the bias at the end, the median and worst frame ms and
 * the frames over budget among the last BENCH_BUDGET_TAIL, and the
 * characters per LOD level of the last frame. *settled_ok: the tail's
 * median is within the budget. False on failure (reported). */
static bool bench_crowd_budget(const bench_rig* g, int rig_slot, int codec,
                               const sw_animator_bound* bound, bench_crowd* b, uint32_t chars,
                               sw_pool* pool, bool* settled_ok, FILE* out) {
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
    fprintf(out, "crowdbudget\t%d\t%u\t%u\t%.6g\t%.6g\t%u\t%u\t%u\t%u\n", rig_slot, chars, bias,
            med, bench_quantile(tail, (int)BENCH_BUDGET_TAIL, 1.0), over, st.per_level[0],
            st.per_level[1], st.per_level[2]);
    return true;
}

sw_result bench_mix_bind(const bench_rig* g, int codec, bench_mix* m, sw_error* err) {
    const sw_clip* clips[2] = {g->clips[codec][0], g->clips[codec][1]};
    const sw_animator_param_desc params[] = {{"blend", SW_ANIMATOR_PARAM_TYPE_FLOAT, 0.0f},
                                             {"rate", SW_ANIMATOR_PARAM_TYPE_FLOAT, 1.0f}};
    const sw_animator_member_desc members[] = {{sw_clip_name(clips[0]), 0.0f, 0.0f},
                                               {sw_clip_name(clips[1]), 1.0f, 0.0f}};
    const sw_animator_blend_space_desc spaces[] = {
        {"mix", "blend", NULL, members, 2, NULL, 0, false}};
    const sw_animator_state_desc states[] = {
        {"Mix", SW_ANIMATOR_MOTION_BLEND_SPACE, "mix", false, 0.0f, "rate"}};
    const sw_animator_machine_desc machines[] = {{"Main", states, 1, NULL, 0, NULL}};
    const sw_animator_layer_desc layers[] = {{"base", "Main", SW_ANIMATOR_LAYER_MODE_DEFAULT, 0.0f,
                                              NULL, NULL, 0, SW_ANIMATOR_REFERENCE_DEFAULT}};
    const sw_animator_desc desc = {.params = params,
                                   .params_count = 2,
                                   .blend_spaces = spaces,
                                   .blend_spaces_count = 1,
                                   .machines = machines,
                                   .machines_count = 1,
                                   .layers = layers,
                                   .layers_count = 1};
    memset(m, 0, sizeof *m);
    sw_result r = sw_animator_create(&desc, NULL, &m->def, err);
    if (r != SW_RESULT_OK) return r;
    m->size = sw_animator_bound_size(m->def, g->skel);
    m->mem = sw_alloc(NULL, m->size, 16);
    if (!m->mem) return SW_RESULT_OUT_OF_MEMORY;
    return sw_animator_bind(m->def, g->skel, clips, 2, m->mem, m->size, &m->bound, err);
}

void bench_mix_free(bench_mix* m) {
    if (m->mem) sw_free(NULL, m->mem, m->size);
    if (m->def) sw_animator_destroy(m->def, NULL);
    memset(m, 0, sizeof *m);
}

bool bench_crowd_all(const bench_rig* g, int rig_slot, int codec, bool quick, FILE* out) {
    const uint32_t chars = quick ? BENCH_CROWD_QUICK : BENCH_CROWD_CHARACTERS;
    const uint32_t frames = quick ? 4u : 48u; /* a multiple of the slowest LOD rate */
    sw_error err;
    memset(&err, 0, sizeof err);
    bench_mix mix;
    sw_result r = bench_mix_bind(g, codec, &mix, &err);
    const sw_animator_bound* bound = mix.bound;
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
        r = bench_rig_l2m(g, sw__soa_best(), sw_skeleton_rest_pose(g->skel), b.scratch, false, 0);
        uint32_t rng = 0x68E31DA4u;
        for (uint32_t c = 0; c < most && r == SW_RESULT_OK; ++c)
            for (uint32_t k = 0; k < 2u; ++k)
                bench_place_target(g, b.scratch, k, &rng, &b.target[2u * c + k],
                                   &b.pole[2u * c + k]);
    }
    bool ok = r == SW_RESULT_OK;
    if (!ok)
        bench_error("%s: crowd setup: %s (%s)", g->name, sw_result_str(r),
                    err.check ? err.check : "?");
    uint32_t fit1[2] = {chars, chars}, fit2 = chars;
    for (int lod = 0; lod < 2 && ok; ++lod) {
        for (uint32_t t = 1; t <= 2u && ok; ++t) {
            /* A probe crowd, then (except --quick) a crowd of the size the
             * probe says fits in a frame, whose figure is the one reported. */
            uint32_t levels[3] = {chars, 0u, 0u};
            uint32_t size = chars;
            double ns =
                bench_crowd_run(g, codec, bound, &b, size, lod != 0, pools[t - 1u], frames, levels);
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
                fprintf(out, "crowd\t%d\t%d\t%u\t%u\t%d\t%.9g\t%u\t%u\t%u\n", rig_slot, lod, t,
                        size, codec, ns, levels[0], levels[1], levels[2]);
            if (t == 1u)
                fit1[lod] = size;
            else
                fit2 = size;
        }
        /* the 2-thread speedup, 1- and 2-thread frames interleaved, on the
         * crowd that fits one thread's frame */
        if (ok)
            ok = bench_crowd_pair(g, rig_slot, codec, bound, &b, fit1[lod], lod != 0, pools,
                                  quick ? 4u : BENCH_CROWD_PAIRS, out);
    }
    /* skipped work: the probe-sized crowd on one thread */
    if (ok) ok = bench_crowd_skip(g, rig_slot, codec, bound, &b, chars, pools[0], frames, out);
    /* the budget: a crowd of the size that fits 2 threads with LOD at bias
     * 0, then larger by half while the controller holds 16.7 ms (or smaller
     * by a third until it does): the largest held is what it sustains */
    bool grow = true;
    for (uint32_t k = 0, size = fit2; k < (quick ? 1u : 5u) && ok; ++k) {
        bool held = false;
        ok = bench_crowd_budget(g, rig_slot, codec, bound, &b, size, pools[1], &held, out);
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
    bench_mix_free(&mix);
    return ok;
}
