/* The child: measures every row once in this process and prints lines. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <string.h>

#include "harness_internal.h"

const char* const bench_rules =
    "same work: both sides run the same characters (8 and 1000, each with its own clip "
    "times, blend weight and IK targets), the same clips at the same times (cold seek: a "
    "fresh cache or context at the same random time), two-bone IK written into the local "
    "pose on both sides, and local-to-model of the chain's sub-tree after it; same accuracy: "
    "ozz's optimizer tolerance is set in world units to sinew's precision (1 mm at 0.1 m "
    "from each joint, divided by the armature's scale above ozz's root), and both errors "
    "are measured against the raw clip by one rule (each joint and 3 points 0.1 m along "
    "its axes, at the raw clip's key rate); same joints: ozz keeps the skin's joints, sinew the "
    "skin's "
    "and their ancestors, so the ratio is also given per joint; same optimisation: ozz's "
    "libraries at -O3 (its Release build), sinew's runtime at " SINEW_RUNTIME_OPT
    " in this build (-O3 in its default and Release builds), each column's instruction set "
    "named; time: each thread's CPU time, repetitions interleaved between the sides, each "
    "side (each of sinew's paths, each ozz build) on its own copy of the characters' state, "
    "so that none runs on data the side before it left in the caches; caches: one per "
    "character and clip on both sides (ozz's SamplingJob::Context, sinew's sw_sample_cache), "
    "sinew's reading one table per quantized clip that all characters share "
    "(sw_sample_table_init: each segment's parsed track headers, made once; ozz's format "
    "has no headers to parse), each cache sized for that (sw_sample_cache_size_with_table)";

/* The rig's ozz side: its lines, and whether it ran. */
static bool bench_child_ozz(const bench_opts* o, const bench_rig* g, bench_ozz_side* ozz,
                            FILE* out) {
    if (!bench_ozz_open(ozz, g, o->ozz_data)) {
        fprintf(out, "ozznote\t%s\n", ozz->note);
        return false;
    }
    uint64_t bytes = 0;
    for (int b = 0; b < BENCH_OZZ_BUILDS; ++b)
        if (ozz->api[b]) bytes = ozz->api[b]->bytes(ozz->oz[b]);
    fprintf(out, "ozz\t%u\t%llu\t%.9g\t%d\t%d\n", ozz->joints, (unsigned long long)bytes,
            bench_ozz_error(ozz, g), ozz->api[0] != NULL, ozz->api[1] != NULL);
    return true;
}

/* One rig: its description, its rows and its crowd. */
static bool bench_child_rig(const bench_opts* o, int rig_slot, FILE* out) {
    bench_rig g;
    if (!bench_rig_load(&g, rig_slot == 0 ? o->asset : NULL)) return false;
    fprintf(out, "rig\t%d\t%s\t%s\t%u\t%s\t%s", rig_slot, g.name, g.file[0] ? g.file : "-",
            g.skel->joints_count, sw_clip_name(g.clips[0][0]), sw_clip_name(g.clips[0][1]));
    for (int k = 0; k < 2; ++k)
        for (int j = 0; j < 3; ++j)
            fprintf(out, "\t%s", sw_skeleton_joint_name(g.skel, g.chains[k][j]));
    fprintf(out, "\n");
    for (int k = 0; k < BENCH_CODECS; ++k)
        fprintf(out, "codec\t%d\t%d\t%llu\t%.9g\t%.9g\n", rig_slot, k,
                (unsigned long long)g.codec_bytes[k], (double)g.codec_error[k],
                (double)g.codec_rate[k]);
    bench_ozz_side ozz;
    const bool with_ozz = rig_slot == 0 && bench_child_ozz(o, &g, &ozz, out);
    double frame_ns[BENCH_CODECS] = {0};
    bool ok = bench_rows_all(&g, rig_slot, with_ozz ? &ozz : NULL, o->quick, out, frame_ns);
    if (with_ozz) bench_ozz_close(&ozz);
    /* The crowd plays the codec with this process's fastest full frame. */
    int crowd_codec = 0;
    for (int k = 1; k < BENCH_CODECS; ++k)
        if (frame_ns[k] < frame_ns[crowd_codec]) crowd_codec = k;
    ok = ok && (o->no_crowd || bench_crowd_all(&g, rig_slot, crowd_codec, o->quick, out));
    ok = ok && (o->no_crowd || bench_lod_all(&g, rig_slot, o->quick, out));
    bench_rig_free(&g);
    return ok;
}

int bench_child(const bench_opts* o, FILE* out) {
    fprintf(out, "sinew-bench\t2\n");
    int rigs = 0;
    for (int rig_slot = 0; rig_slot < BENCH_RIGS; ++rig_slot) {
        if (rig_slot == 0 && !o->asset) continue;
        if (!bench_child_rig(o, rig_slot, out)) return 1;
        ++rigs;
    }
    if (!bench_skin_all(o->asset, o->quick, out)) return 1;
    fflush(out);
    return rigs > 0 ? 0 : 1;
}

int bench_profile(const bench_opts* o, int stage, int side, FILE* out) {
    if (!o->asset) {
        bench_error("--profile needs RobotExpressive (set SINEW_ASSETS or pass --asset)");
        return 1;
    }
    bench_rig g;
    if (!bench_rig_load(&g, o->asset)) return 1;
    bench_ozz_side ozz;
    const bool with_ozz = bench_ozz_open(&ozz, &g, o->ozz_data);
    bool ok = true;
    if (side >= BENCH_PATHS && !with_ozz) {
        bench_error("%s: %s", bench_side_names[side], ozz.note);
        ok = false;
    }
    ok = ok &&
         bench_rows_profile(&g, with_ozz ? &ozz : NULL, stage, side, bench_counts[0], 1000u, out);
    if (with_ozz) bench_ozz_close(&ozz);
    bench_rig_free(&g);
    return ok ? 0 : 1;
}
