/* The benchmark harness `sinew bench` calls (library sinew_bench): the
 * runtime's cost per character, stage by stage, measured beside ozz-animation
 * 0.16.0 in the same processes, interleaved (issues #9, #16).
 *
 * Rigs: RobotExpressive (the asset file; skipped with a note when absent),
 * Walking + Running, IK on both arms; and the built-in humanoid
 * (sw_showcase_humanoid), walk + run, IK on both legs. Each rig runs with 8
 * and with 1000 characters, each character with its own state (clip times at
 * different phases, a blend weight, IK targets and caches), 1/60 s steps, one
 * thread, timed in this thread's CPU time. Every sampling stage runs on each
 * codec: the raw clip, the quantized clip of sinew/tools/builders/compress.h (1 mm,
 * the headline: ozz's kind of codec at the same accuracy) and the frames
 * codec (speed for memory). sinew runs on the kernel path chosen at run time
 * and on SSE2.
 *
 * ozz (RobotExpressive only, when scripts/anchors has built it): the same
 * rows with ozz's jobs on ozz's conversion of the same file (the skin's
 * joints, the same tolerance in world units), built for SSE2 (ozz's default)
 * and AVX2, each in a module of its own loaded at run time. Each repetition
 * of a row runs every side once, the order rotating between repetitions.
 *
 * Crowd run (sinew/scale/crowd.h on a sinew/scale/pool.h pool): see bench_crowd_all in
 * crowd.c. Processes: the parent runs the child N times, one after the
 * other; a child measures every row once (the median of a few repetitions)
 * and prints tab-separated lines that bench_collect parses. */
#ifndef SINEW_BENCH_H
#define SINEW_BENCH_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "ozz_side.h"
#include "sinew/scale/crowd.h"

#define BENCH_COUNTS 2
#define BENCH_CODECS 3         /* raw, quantized, frames */
#define BENCH_HEADLINE_CODEC 1 /* quantized: like-for-like with ozz's memory and accuracy */
#define BENCH_PATHS 2          /* sinew's kernels: the run-time choice, SSE2 */
#define BENCH_OZZ_BUILDS 2     /* ozz built for SSE2 (its default), for AVX2 */
#define BENCH_SIDES (BENCH_PATHS + BENCH_OZZ_BUILDS)
#define BENCH_RIGS 2 /* RobotExpressive, humanoid */
#define BENCH_MAX_PROCESSES 64
#define BENCH_DT (1.0f / 60.0f)
#define BENCH_TARGET 1.5           /* issue #16: at least 1.5x ozz per joint */
#define BENCH_PRECISION 0.001f     /* compressor precision, world units (m) */
#define BENCH_SHELL 0.1f           /* error-measure distance from each joint (m) */
#define BENCH_FRAME_NS 16.7e6      /* a 60 Hz frame */
#define BENCH_SPEEDUP_TARGET 1.8   /* issue #9: 2 threads at least 1.8x one */
#define BENCH_CROWD_BUDGET 0.0167f /* seconds: a 60 Hz frame */
#define BENCH_BUDGET_FRAMES 120u   /* frames per budget run; the last 40 are reported */
#define BENCH_BUDGET_TAIL 40u
#define BENCH_SKIP_FIELDS 8      /* numbers of a "crowdskip" line after the rig */
#define BENCH_CROWD_SPACING 1.5f /* metres between characters on the grid */
#define BENCH_PAIR_FIELDS 13
#define BENCH_LOD_LEVELS 4      /* joint LOD levels of the "crowdlod" run (lod.c) */
#define BENCH_LOD_COUNTS 2      /* its crowds: 8 characters, and 1000 (64 with --quick) */
#define BENCH_LOD_MAX_FRAMES 48 /* its timed frames per level */
#define BENCH_SKIN_SETS 2       /* RobotExpressive's meshes, the synthetic cylinder */
#define BENCH_SKIN_KINDS 3      /* lbs, dq, morph */
#define BENCH_SKIN_PATHS 2      /* the scalar reference, the run-time path */

typedef struct bench_stage_info {
    const char* key;
    const char* label;
    bool per_codec; /* samples clips, so runs once per codec */
    bool floor;     /* sinew's sides time a floor, not a job; ozz's the job it bounds */
} bench_stage_info;

extern const bench_stage_info bench_stages[BENCH_STAGES];
extern const uint32_t bench_counts[BENCH_COUNTS];
extern const char* const bench_codec_names[BENCH_CODECS];
/* sinew's paths then ozz's builds: "sinew", "sinew-sse2", "ozz-sse2", "ozz-avx2" */
extern const char* const bench_side_names[BENCH_SIDES];
extern const char* const bench_path_names[BENCH_PATHS];
extern const char* const bench_ozz_build_names[BENCH_OZZ_BUILDS];
extern const char* const bench_skin_kinds[BENCH_SKIN_KINDS];
extern const char* const bench_skin_sets[BENCH_SKIN_SETS];
/* LOD levels of the crowd's "with LOD" run: full detail to 10 m, every 2nd
 * frame from 10 m, every 4th frame with the leaf joints at rest from 20 m. */
extern const sw_crowd_level bench_lod_levels[3];
/* The same-work rules, stated in the output. */
extern const char* const bench_rules;

typedef struct bench_opts {
    bool quick;
    bool no_crowd; /* the rows only */
    int processes;
    const char* asset;             /* RobotExpressive file; NULL: none (rig skipped) */
    const char* ozz_data;          /* folder of skeleton.ozz and the clips; NULL: built default */
    const char* self;              /* executable of the child (the CLI: /proc/self/exe) */
    const char* const* child_args; /* its arguments before --quick/--asset, NULL-ended */
} bench_opts;

typedef struct bench_meta {
    bool present;
    char name[64];
    char file[1024];
    uint32_t joints;
    char clips[2][64];
    char chains[2][3][64];
    uint64_t codec_bytes[BENCH_CODECS];
    double codec_error[BENCH_CODECS]; /* max error against raw, bench_measure's rule */
    double codec_rate[BENCH_CODECS];
    char path_names[BENCH_PATHS][16]; /* sinew's kernel paths as run */
    uint32_t ik_chains;               /* chains solved in the check frame */
    uint32_t ik_reached;              /* of them, reported reached */
    double ik_worst;                  /* worst end-target distance / limb among reached */
} bench_meta;

/* ozz's side, RobotExpressive only. */
typedef struct bench_ozz_meta {
    bool present;   /* at least one ozz build ran */
    char note[512]; /* why not, when absent */
    bool builds[BENCH_OZZ_BUILDS];
    uint32_t joints;
    uint64_t bytes;
    double error;     /* max error against sinew's raw clip, bench_measure's rule */
    double tolerance; /* ozz's optimizer tolerance in its skeleton units, when read */
    uint32_t ik_chains, ik_reached;
    double ik_worst;
} bench_ozz_meta;

typedef struct bench_results {
    bench_meta rigs[BENCH_RIGS];
    bench_ozz_meta ozz;
    /* [rig][count][stage][codec][path][process] ns per character per frame */
    double v[BENCH_RIGS][BENCH_COUNTS][BENCH_STAGES][BENCH_CODECS][BENCH_PATHS]
            [BENCH_MAX_PROCESSES];
    int n[BENCH_RIGS][BENCH_COUNTS][BENCH_STAGES][BENCH_CODECS][BENCH_PATHS];
    /* [count][stage][build][process] */
    double ozz_v[BENCH_COUNTS][BENCH_STAGES][BENCH_OZZ_BUILDS][BENCH_MAX_PROCESSES];
    int ozz_n[BENCH_COUNTS][BENCH_STAGES][BENCH_OZZ_BUILDS];
    /* crowd: [rig][lod][threads - 1][process] ns per character per frame */
    double crowd[BENCH_RIGS][2][2][BENCH_MAX_PROCESSES];
    int crowd_n[BENCH_RIGS][2][2];
    double crowd_size[BENCH_RIGS][2][2][BENCH_MAX_PROCESSES]; /* characters measured */
    int crowd_codec[BENCH_RIGS];                              /* of the last process */
    uint32_t crowd_levels[BENCH_RIGS][2][2][3]; /* characters per LOD level, last process */
    uint32_t crowd_probe;                       /* characters of the probe crowd */
    bool crowd_confirmed;                       /* a crowd of the fitted size was run */
    /* interleaved 1/2-thread frames: [rig][lod] fields of the last process's
     * "crowdpair" line (characters, pairs, ratio median q1 q3 min max, wall
     * and thread-CPU ms of 1 and 2 threads, CPU ms per character-frame of 1
     * and 2 threads); the median ratio of every process */
    double pair[BENCH_RIGS][2][BENCH_PAIR_FIELDS];
    double pair_ratio[BENCH_RIGS][2][BENCH_MAX_PROCESSES];
    double pair_cpu_ratio[BENCH_RIGS][2][BENCH_MAX_PROCESSES];
    int pair_n[BENCH_RIGS][2];
    /* budget runs of the last process: characters, bias, median ms, worst ms,
     * frames over, characters per level */
    double budget[BENCH_RIGS][8][8];
    int budget_n[BENCH_RIGS];
    int budget_process[BENCH_RIGS];
    /* "crowdskip" of the last process (characters, frames, median CPU ms per frame
     * of the all-shown, 90 % hidden and 90 % frozen crowds, their last
     * frame's evaluations) and, per process, hidden / all and frozen / all */
    double skip[BENCH_RIGS][BENCH_SKIP_FIELDS];
    double skip_ratio[BENCH_RIGS][2][BENCH_MAX_PROCESSES];
    int skip_n[BENCH_RIGS];
    /* joint LOD (bench/harness/lod.c): [rig][crowd][codec][level][process] CPU
     * ns per character per frame; per level its cut and kept joints, per
     * crowd its characters, the frames (the last process's) */
    double lod[BENCH_RIGS][BENCH_LOD_COUNTS][BENCH_CODECS][BENCH_LOD_LEVELS][BENCH_MAX_PROCESSES];
    int lod_n[BENCH_RIGS][BENCH_LOD_COUNTS][BENCH_CODECS][BENCH_LOD_LEVELS];
    uint32_t lod_cut[BENCH_RIGS][BENCH_LOD_LEVELS], lod_kept[BENCH_RIGS][BENCH_LOD_LEVELS];
    uint32_t lod_chars[BENCH_RIGS][BENCH_LOD_COUNTS], lod_frames[BENCH_RIGS];
    /* CPU skinning (bench/harness/skin.c): [set][kind][path][process] ns per
     * vertex; per set what was skinned, vertices of the skin and morph
     * passes, the paths' names */
    double skin[BENCH_SKIN_SETS][BENCH_SKIN_KINDS][BENCH_SKIN_PATHS][BENCH_MAX_PROCESSES];
    int skin_n[BENCH_SKIN_SETS][BENCH_SKIN_KINDS][BENCH_SKIN_PATHS];
    bool skin_present[BENCH_SKIN_SETS];
    char skin_what[BENCH_SKIN_SETS][160];
    uint64_t skin_vertices[BENCH_SKIN_SETS][2];
    char skin_path_names[BENCH_SKIN_PATHS][16];
} bench_results;

/* The child: measures every row once in this process and prints the
 * tab-separated lines bench_collect reads to out. Returns 0, or 1 on failure
 * (reported on stderr). */
int bench_child(const bench_opts* o, FILE* out);

/* The profile mode: side `side` (bench_side_names) of stage `stage` on
 * RobotExpressive (o->asset), 8 characters, 1000 frames, in this process,
 * so that `valgrind --tool=callgrind --toggle-collect=bench_profile_run`
 * counts the instructions of that side alone; prints a "profile" line (see
 * bench_rows_profile) to out. Returns 0, or 1 on failure (reported). */
int bench_profile(const bench_opts* o, int stage, int side, FILE* out);

/* The parent: runs o->processes children one after the other and aggregates
 * their lines. NULL on failure (reported on stderr); the caller frees the
 * result with free(). Progress goes to stderr when it is a terminal. */
bench_results* bench_collect(const bench_opts* o);

/* Median and minimum of v[0..n) (n >= 1; v unchanged). */
double bench_median_of(const double* v, int n);
double bench_min_of(const double* v, int n);
/* Medians of a row over the processes (NaN when it has no figures). */
double bench_row_median(const bench_results* res, int rig, int ci, int stage, int codec, int path);
double bench_ozz_median(const bench_results* res, int ci, int stage, int build);
/* Speedup of 2 threads over 1 (medians of separate runs), without or with LOD. */
double bench_crowd_speedup(const bench_results* res, int rig, int lod);
/* The CPU's model name (/proc/cpuinfo), family and model, and the 1-minute
 * load average (-1 when unknown). */
void bench_machine(char* cpu, size_t cap, int* family, int* model, double* load);

#endif
