/* sinew bench [--json] [--processes N] [--quick] [--no-crowd] [--asset FILE] [--ozz DIR]
 *             [--profile STAGE:SIDE]:
 * the runtime's cost per character, stage by stage, beside ozz-animation
 * run in the same processes (issue #16); --profile runs one side of one
 * stage alone in this process, for an instruction count under callgrind. The harness is
 * bench/harness (library sinew_bench, bench.h); this verb parses, calls it and prints.
 * RobotExpressive: --asset, else $SINEW_ASSETS/RobotExpressive.glb, else
 * ../shared/assets/RobotExpressive.glb (skipped with a note when absent).
 * ozz: the modules and files scripts/anchors built into the build folder
 * (--ozz: another folder of skeleton.ozz and the clips); without them sinew
 * is reported alone, with the reason. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"
#include "common.h"

int cli_bench(int argc, char** argv);

static const char* cli__bench_usage =
    "usage: sinew bench [--json] [--processes N] [--quick] [--no-crowd] [--asset FILE] "
    "[--ozz DIR]\n"
    "       sinew bench --profile STAGE:SIDE [--asset FILE] [--ozz DIR]\n"
    "  STAGE: sample_sequential sample_seek blend local_to_model two_bone_ik full_frame\n"
    "  SIDE: sinew sinew-sse2 ozz-sse2 ozz-avx2 (8 characters, 1000 frames; count with\n"
    "  valgrind --tool=callgrind --toggle-collect=bench_profile_run)";

static void bench_json_numbers(const double* v, int n) {
    printf("[");
    for (int p = 0; p < n; ++p) {
        if (p) printf(", ");
        cli_json_number(stdout, v[p]);
    }
    printf("]");
}

/* Median CPU ns per character of a codec's joint LOD level in crowd c (NaN
 * when absent). */
static double bench_lod_ns(const bench_results* res, int r, int c, int k, int l) {
    const int n = res->lod_n[r][c][k][l];
    return n > 0 ? bench_median_of(res->lod[r][c][k][l], n) : NAN;
}

/* "joint_lod": the frames, and per crowd its characters and per level its
 * cut, kept joints and per codec the median ns per character and per kept
 * joint, and every process's ns per character. */
static void bench_print_lod_json(const bench_results* res, int r) {
    if (res->lod_n[r][0][0][0] == 0) return;
    printf(",\n       \"joint_lod\": {\"joint_order\": \"detail-major by depth\", \"frames\": %u, "
           "\"crowds\": [",
           res->lod_frames[r]);
    for (int c = 0; c < BENCH_LOD_COUNTS; ++c) {
        printf("%s{\"characters\": %u, \"levels\": [", c ? ", " : "", res->lod_chars[r][c]);
        for (int l = 0; l < BENCH_LOD_LEVELS; ++l) {
            printf("%s{\"cut\": %u, \"kept_joints\": %u", l ? ", " : "", res->lod_cut[r][l],
                   res->lod_kept[r][l]);
            for (int k = 0; k < BENCH_CODECS; ++k) {
                const double ns = bench_lod_ns(res, r, c, k, l);
                printf(", \"%s\": {\"ns_per_character\": ", bench_codec_names[k]);
                cli_json_number(stdout, ns);
                printf(", \"ns_per_kept_joint\": ");
                cli_json_number(stdout, ns / (double)res->lod_kept[r][l]);
                printf(", \"processes\": ");
                bench_json_numbers(res->lod[r][c][k][l], res->lod_n[r][c][k][l]);
                printf("}");
            }
            printf("}");
        }
        printf("]}");
    }
    printf("]}");
}

/* The joint LOD table: a row per level, ns per character and per kept
 * joint for each codec, and the cost relative to level 0. */
static void bench_print_lod_text(const bench_results* res, int r) {
    if (res->lod_n[r][0][0][0] == 0) return;
    for (int c = 0; c < BENCH_LOD_COUNTS; ++c) {
        printf("  joint LOD, joints in detail-major order by depth, %u characters all at one "
               "level, 1 thread, rate 1, blend of 2 clips + local-to-model, no IK (median CPU ns "
               "per character per frame over %u frames; "
               "per kept joint; vs level 0):\n  %5s %4s %5s",
               res->lod_chars[r][c], res->lod_frames[r], "level", "cut", "kept");
        for (int k = 0; k < BENCH_CODECS; ++k)
            printf("  %25s", bench_codec_names[k]);
        printf("\n");
        for (int l = 0; l < BENCH_LOD_LEVELS; ++l) {
            printf("  %5d %4u %5u", l, res->lod_cut[r][l], res->lod_kept[r][l]);
            for (int k = 0; k < BENCH_CODECS; ++k) {
                const double ns = bench_lod_ns(res, r, c, k, l);
                printf("  %8.0f ns %6.1f/j %5.0f%%", ns, ns / (double)res->lod_kept[r][l],
                       100.0 * ns / bench_lod_ns(res, r, c, k, 0));
            }
            printf("\n");
        }
    }
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
            const double med = bench_median_of(v, n);
            printf("%s\n         {\"threads\": %d, \"lod\": %s, \"median_ns\": ",
                   lod || t ? "," : "", t + 1, lod ? "true" : "false");
            cli_json_number(stdout, med);
            printf(", \"min_ns\": ");
            cli_json_number(stdout, bench_min_of(v, n));
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
    static const char* const pair_keys[BENCH_PAIR_FIELDS] = {
        "characters",       "pairs",          "wall_ratio_median", "wall_ratio_q1", "wall_ratio_q3",
        "wall_ratio_min",   "wall_ratio_max", "wall_ms_1",         "cpu_ms_1",      "wall_ms_2",
        "cpu_ms_2_busiest", "cpu_ms_2_both",  "cpu_ratio_median"};
    printf(",\n       \"interleaved\": [");
    for (int lod = 0, first = 1; lod < 2; ++lod) {
        if (res->pair_n[r][lod] == 0) continue;
        printf("%s{\"lod\": %s, \"speedup_wall\": ", first ? "" : ", ", lod ? "true" : "false");
        cli_json_number(stdout, bench_median_of(res->pair_ratio[r][lod], res->pair_n[r][lod]));
        printf(", \"speedup_cpu\": ");
        cli_json_number(stdout, bench_median_of(res->pair_cpu_ratio[r][lod], res->pair_n[r][lod]));
        printf(", \"speedup_throughput\": ");
        cli_json_number(stdout, 2.0 * res->pair[r][lod][8] / res->pair[r][lod][11]);
        printf(", \"processes_wall\": ");
        bench_json_numbers(res->pair_ratio[r][lod], res->pair_n[r][lod]);
        printf(", \"processes_cpu\": ");
        bench_json_numbers(res->pair_cpu_ratio[r][lod], res->pair_n[r][lod]);
        for (int k = 0; k < BENCH_PAIR_FIELDS; ++k) {
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
    printf("]}");
    if (res->skip_n[r] > 0) {
        static const char* const skip_keys[BENCH_SKIP_FIELDS] = {
            "characters",          "frames",
            "all_shown_cpu_ms",    "hidden_90_cpu_ms",
            "unchanged_90_cpu_ms", "all_evaluations",
            "hidden_evaluations",  "unchanged_evaluations"};
        printf(",\n       \"skip\": {");
        for (int k = 0; k < BENCH_SKIP_FIELDS; ++k) {
            printf("%s\"%s\": ", k ? ", " : "", skip_keys[k]);
            cli_json_number(stdout, res->skip[r][k]);
        }
        printf(", \"hidden_ratio\": ");
        bench_json_numbers(res->skip_ratio[r][0], res->skip_n[r]);
        printf(", \"unchanged_ratio\": ");
        bench_json_numbers(res->skip_ratio[r][1], res->skip_n[r]);
        printf("}");
    }
    bench_print_lod_json(res, r);
    printf("}");
}

static void bench_print_crowd_text(const bench_results* res, int r) {
    printf("\n  crowd: characters %g m apart around the viewpoint, codec %s, each: animator "
           "blend space (2 samples, blend), 2 x two-bone IK, local-to-model; a probe of %u "
           "characters%s\n",
           (double)BENCH_CROWD_SPACING, bench_codec_names[res->crowd_codec[r]], res->crowd_probe,
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
            const double med = bench_median_of(v, n);
            const uint32_t* lv = res->crowd_levels[r][lod][t];
            printf("  %-8d %-5s %10.0f %9.1f %9.1f %10.0f  %u %u %u\n", t + 1, lod ? "on" : "off",
                   bench_median_of(res->crowd_size[r][lod][t], n), med, bench_min_of(v, n),
                   floor(BENCH_FRAME_NS / med), lv[0], lv[1], lv[2]);
        }
    }
    printf("  2 threads / 1 thread, separate runs above: %.2fx without LOD, %.2fx with LOD\n",
           bench_crowd_speedup(res, r, 0), bench_crowd_speedup(res, r, 1));
    for (int lod = 0; lod < 2; ++lod) {
        const double* q = res->pair[r][lod];
        const int n = res->pair_n[r][lod];
        if (n == 0) continue;
        printf("  2 threads / 1 thread, frames alternating, LOD %s, %.0f characters, %.0f "
               "pairs (target %.1fx):\n"
               "    from CPU time (survives a loaded machine): %.2fx = 2 x one thread's CPU ms / "
               "both threads' CPU ms of a 2-thread frame (the speedup of an idle machine, the "
               "work split evenly by the pool's chunks; last process)\n"
               "    per-thread CPU time: %.2fx (one thread's CPU ms / the busiest thread's of "
               "a 2-thread frame; near 1 when the other thread hardly ran; median over "
               "processes)\n"
               "    wall clock: %.2fx (median over processes; last process: quartiles %.2f-%.2f, "
               "range %.2f-%.2f)\n"
               "    median per frame: 1 thread %.2f ms wall, %.2f ms CPU; 2 threads %.2f ms "
               "wall, %.2f ms CPU on the busiest thread, %.2f ms on both; throughput %.0f "
               "characters per CPU-ms on 1 thread, %.0f on 2 (%.0f%% per core)\n",
               lod ? "on" : "off", q[0], q[1], BENCH_SPEEDUP_TARGET, 2.0 * q[8] / q[11],
               bench_median_of(res->pair_cpu_ratio[r][lod], n),
               bench_median_of(res->pair_ratio[r][lod], n), q[3], q[4], q[5], q[6], q[7], q[8],
               q[9], q[10], q[11], q[0] / q[8], q[0] / q[11], 100.0 * q[8] / q[11]);
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
    if (res->skip_n[r] > 0) {
        const double* k = res->skip[r];
        printf("  skipped work, %.0f characters, 1 thread, no LOD, %.0f interleaved frames "
               "(median CPU ms per frame; evaluations of the last frame):\n"
               "    all shown and playing %.3f ms (%.0f); 90%% off-screen %.3f ms (%.0f), "
               "%.1f%%; 90%% unchanged %.3f ms (%.0f), %.1f%% of all shown (median over "
               "processes %.1f%% and %.1f%%; target at most 20%%)\n",
               k[0], k[1], k[2], k[5], k[3], k[6], 100.0 * k[3] / k[2], k[4], k[7],
               100.0 * k[4] / k[2], 100.0 * bench_median_of(res->skip_ratio[r][0], res->skip_n[r]),
               100.0 * bench_median_of(res->skip_ratio[r][1], res->skip_n[r]));
    }
    bench_print_lod_text(res, r);
}

/* What a floor row's figures and ratios are (bench_stage_info.floor). */
static const char bench_floor_note[] =
    "a floor row (floor true in the JSON) times on sinew's sides the bytes of the job it bounds "
    "with the least arithmetic over them (blend_floor: both poses read, w0 a + w1 b stored), "
    "and on ozz's sides ozz's job again in the same rotation: its ratios are the most any "
    "such job on sinew's data could reach against ozz, not a target";

/* ozz's figure for a row, NaN when ozz did not run it. */
static double bench_ozz_of(const bench_results* res, int r, int ci, int st, int k, int b) {
    if (r != 0 || !res->ozz.builds[b]) return NAN;
    if (bench_stages[st].per_codec && k != BENCH_HEADLINE_CODEC) return NAN;
    return bench_ozz_median(res, ci, st, b);
}

/* The ratios of a row: ozz / sinew per character and per joint, for sinew's
 * run-time path against ozz's AVX2 build and sinew's SSE2 path against ozz's
 * SSE2 build ([0]: per character, [1]: per joint). */
typedef struct bench_ratios {
    double avx2[2], sse2[2];
} bench_ratios;

static bench_ratios bench_ratios_of(const bench_results* res, int r, int ci, int st, int k) {
    const double joints = (double)res->rigs[r].joints, ozz_joints = (double)res->ozz.joints;
    const double s0 = bench_row_median(res, r, ci, st, k, 0);
    const double s1 = bench_row_median(res, r, ci, st, k, 1);
    const double o0 = bench_ozz_of(res, r, ci, st, k, 0), o1 = bench_ozz_of(res, r, ci, st, k, 1);
    const bench_ratios q = {{o1 / s0, (o1 / ozz_joints) / (s0 / joints)},
                            {o0 / s1, (o0 / ozz_joints) / (s1 / joints)}};
    return q;
}

/* A side's figures: {"path": name, "median_ns": m, "min_ns": m, "ns_per_joint":
 * m / joints, "processes": [...]}, or null. */
static void bench_json_side(const double* v, int n, double joints, const char* name) {
    if (n == 0) {
        printf("null");
        return;
    }
    const double med = bench_median_of(v, n);
    printf("{\"path\": ");
    cli_json_string(stdout, name);
    printf(", \"median_ns\": ");
    cli_json_number(stdout, med);
    printf(", \"min_ns\": ");
    cli_json_number(stdout, bench_min_of(v, n));
    printf(", \"ns_per_joint\": ");
    cli_json_number(stdout, med / joints);
    printf(", \"processes\": ");
    bench_json_numbers(v, n);
    printf("}");
}

static void bench_json_row(const bench_results* res, int r, int ci, int st, int k) {
    const bench_meta* m = &res->rigs[r];
    const bool per = bench_stages[st].per_codec;
    printf("\n       {\"stage\": \"%s\", \"characters\": %u, \"codec\": ", bench_stages[st].key,
           bench_counts[ci]);
    if (per)
        printf("\"%s\", \"max_error\": ", bench_codec_names[k]);
    else
        printf("null, \"max_error\": ");
    if (per)
        cli_json_number(stdout, m->codec_error[k]);
    else
        printf("null");
    const bool floor = bench_stages[st].floor;
    printf(", \"headline\": %s, \"floor\": %s,\n        \"sinew\": {",
           !floor && (!per || k == BENCH_HEADLINE_CODEC) ? "true" : "false",
           floor ? "true" : "false");
    static const char* const side_keys[BENCH_PATHS] = {"run_time", "baseline"};
    for (int p = 0; p < BENCH_PATHS; ++p) {
        printf("%s\"%s\": ", p ? ", " : "", side_keys[p]);
        bench_json_side(res->v[r][ci][st][k][p], res->n[r][ci][st][k][p], (double)m->joints,
                        m->path_names[p]);
    }
    printf("},\n        \"ozz\": {");
    for (int b = 0; b < BENCH_OZZ_BUILDS; ++b) {
        const bool has = isfinite(bench_ozz_of(res, r, ci, st, k, b));
        printf("%s\"%s\": ", b ? ", " : "", bench_ozz_build_names[b]);
        bench_json_side(res->ozz_v[ci][st][b], has ? res->ozz_n[ci][st][b] : 0,
                        (double)res->ozz.joints, bench_ozz_build_names[b]);
    }
    const bench_ratios q = bench_ratios_of(res, r, ci, st, k);
    const double* ratios[2] = {q.avx2, q.sse2};
    static const char* const ratio_keys[2] = {"ratio_run_time", "ratio_baseline"};
    printf("}");
    bool any = false, met = true;
    for (int i = 0; i < 2; ++i) {
        printf(", \"%s\": {\"per_character\": ", ratio_keys[i]);
        cli_json_number(stdout, ratios[i][0]);
        printf(", \"per_joint\": ");
        cli_json_number(stdout, ratios[i][1]);
        printf("}");
        if (!floor && isfinite(ratios[i][1])) {
            any = true;
            met = met && ratios[i][1] >= BENCH_TARGET;
        }
    }
    printf(", \"target_met\": %s}", !any ? "null" : met ? "true" : "false");
}

static void bench_json_ozz(const bench_results* res) {
    const bench_ozz_meta* z = &res->ozz;
    printf("{\"present\": %s", z->present ? "true" : "false");
    if (!z->present) {
        printf(", \"note\": ");
        cli_json_string(stdout, z->note[0] ? z->note : "RobotExpressive absent");
        printf("}");
        return;
    }
    printf(", \"version\": \"0.16.0\", \"builds\": [");
    for (int b = 0, first = 1; b < BENCH_OZZ_BUILDS; ++b)
        if (z->builds[b]) {
            printf("%s\"%s\"", first ? "" : ", ", bench_ozz_build_names[b]);
            first = 0;
        }
    printf("], \"joints\": %u, \"bytes\": %llu, \"max_error\": ", z->joints,
           (unsigned long long)z->bytes);
    cli_json_number(stdout, z->error);
    printf(",\n    \"ik\": {\"chains\": %u, \"reached\": %u, \"worst\": ", z->ik_chains,
           z->ik_reached);
    cli_json_number(stdout, z->ik_worst);
    printf("}}");
}

static void bench_json_rig(const bench_results* res, int r) {
    const bench_meta* m = &res->rigs[r];
    printf("{\"name\": ");
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
    printf("],\n     \"ik\": {\"chains\": %u, \"reached\": %u, \"worst\": ", m->ik_chains,
           m->ik_reached);
    cli_json_number(stdout, m->ik_worst);
    printf("},\n     \"codecs\": [");
    for (int k = 0; k < BENCH_CODECS; ++k) {
        printf("%s\n       {\"name\": \"%s\", \"bytes\": %llu, \"max_error\": ", k ? "," : "",
               bench_codec_names[k], (unsigned long long)m->codec_bytes[k]);
        cli_json_number(stdout, m->codec_error[k]);
        printf(", \"rate\": ");
        cli_json_number(stdout, m->codec_rate[k]);
        if (k == 1) {
            printf(", \"precision\": ");
            cli_json_number(stdout, (double)BENCH_PRECISION);
        }
        printf("}");
    }
    printf("],\n     \"rows\": [");
    bool first = true;
    for (int ci = 0; ci < BENCH_COUNTS; ++ci)
        for (int st = 0; st < BENCH_STAGES; ++st)
            for (int k = 0; k < (bench_stages[st].per_codec ? BENCH_CODECS : 1); ++k) {
                if (!first) printf(",");
                first = false;
                bench_json_row(res, r, ci, st, k);
            }
    printf("],\n     \"crowd\": ");
    if (res->crowd_n[r][0][0] > 0)
        bench_print_crowd_json(res, r);
    else
        printf("null");
    printf("}");
}

/* "skinning": [{"set", "what", "vertices", "morph_vertices", "rows": [{"kind",
 * "path", "ns_per_vertex", "processes"}], ...]. */
static void bench_json_skin(const bench_results* res) {
    printf(",\n  \"skinning\": [");
    for (int set = 0, first = 1; set < BENCH_SKIN_SETS; ++set) {
        if (!res->skin_present[set]) continue;
        printf("%s\n    {\"set\": \"%s\", \"what\": ", first ? "" : ",", bench_skin_sets[set]);
        first = 0;
        cli_json_string(stdout, res->skin_what[set]);
        printf(", \"vertices\": %llu, \"morph_vertices\": %llu, \"rows\": [",
               (unsigned long long)res->skin_vertices[set][0],
               (unsigned long long)res->skin_vertices[set][1]);
        for (int kind = 0, f2 = 1; kind < BENCH_SKIN_KINDS; ++kind)
            for (int p = 0; p < BENCH_SKIN_PATHS; ++p) {
                const int n = res->skin_n[set][kind][p];
                if (n == 0) continue;
                printf("%s\n      {\"kind\": \"%s\", \"path\": ", f2 ? "" : ",",
                       bench_skin_kinds[kind]);
                f2 = 0;
                cli_json_string(stdout, res->skin_path_names[p]);
                printf(", \"ns_per_vertex\": ");
                cli_json_number(stdout, bench_median_of(res->skin[set][kind][p], n));
                printf(", \"processes\": ");
                bench_json_numbers(res->skin[set][kind][p], n);
                printf("}");
            }
        printf("]}");
    }
    printf("]");
}

static void bench_print_json(const bench_opts* o, const bench_results* res, const char* skipped) {
    char cpu[256];
    int family, model;
    double load;
    bench_machine(cpu, sizeof cpu, &family, &model, &load);
    printf("{\n  \"processes\": %d,\n  \"quick\": %s,\n  \"dt\": ", o->processes,
           o->quick ? "true" : "false");
    cli_json_number(stdout, (double)BENCH_DT);
    printf(",\n  \"threads\": 1,\n  \"time\": \"thread CPU\",\n  \"machine\": {\"cpu\": ");
    cli_json_string(stdout, cpu);
    printf(", \"family\": %d, \"model\": %d, \"cores\": %ld, \"load\": ", family, model,
           sysconf(_SC_NPROCESSORS_ONLN));
    cli_json_number(stdout, load);
    printf("},\n  \"rules\": ");
    cli_json_string(stdout, bench_rules);
    printf(",\n  \"ratios\": \"ozz / sinew: ratio_run_time sinew's run-time path against "
           "ozz's AVX2 build, ratio_baseline sinew's baseline path (SSE2 on x86-64) against "
           "ozz's SSE2 build; %s\",\n  \"target_ratio_per_joint\": ",
           bench_floor_note);
    cli_json_number(stdout, BENCH_TARGET);
    printf(",\n  \"ozz\": ");
    bench_json_ozz(res);
    printf(",\n  \"skipped\": [");
    if (skipped) cli_json_string(stdout, skipped);
    printf("],\n  \"assets\": [");
    for (int r = 0, first = 1; r < BENCH_RIGS; ++r) {
        if (!res->rigs[r].present) continue;
        printf("%s\n    ", first ? "" : ",");
        first = 0;
        bench_json_rig(res, r);
    }
    printf("]");
    bench_json_skin(res);
    printf("\n}\n");
}

static void bench_text_figure(double v) {
    if (isfinite(v))
        printf(" %8.1f", v);
    else
        printf(" %8s", "-");
}

static void bench_text_ratio(double v) {
    if (isfinite(v))
        printf(" %6.2fx", v);
    else
        printf(" %7s", "-");
}

static void bench_text_rows(const bench_results* res, int r, int ci) {
    const bench_meta* m = &res->rigs[r];
    printf("\n  %u characters: ns per character per frame (IK: per solve); ratio = ozz / "
           "sinew (avx2: sinew %s vs ozz AVX2; sse2: sinew %s vs ozz SSE2)\n",
           bench_counts[ci], m->path_names[0], m->path_names[1]);
    printf("  %-60s %-9s %8s %8s %8s %8s %8s %7s %7s %7s %7s\n", "stage", "codec", "error", "sinew",
           "sinew", "ozz", "ozz", "avx2", "avx2", "sse2", "sse2");
    printf("  %-60s %-9s %8s %8s %8s %8s %8s %7s %7s %7s %7s\n", "", "", "mm", m->path_names[0],
           m->path_names[1], "sse2", "avx2", "/char", "/joint", "/char", "/joint");
    for (int st = 0; st < BENCH_STAGES; ++st)
        for (int k = 0; k < (bench_stages[st].per_codec ? BENCH_CODECS : 1); ++k) {
            const bool per = bench_stages[st].per_codec;
            char error[32] = "-";
            if (per) snprintf(error, sizeof error, "%.3f", 1e3 * m->codec_error[k]);
            printf("%c %-60s %-9s %8s", per && k == BENCH_HEADLINE_CODEC ? '*' : ' ',
                   bench_stages[st].label, per ? bench_codec_names[k] : "-", error);
            for (int p = 0; p < BENCH_PATHS; ++p)
                bench_text_figure(bench_row_median(res, r, ci, st, k, p));
            for (int b = 0; b < BENCH_OZZ_BUILDS; ++b)
                bench_text_figure(bench_ozz_of(res, r, ci, st, k, b));
            const bench_ratios q = bench_ratios_of(res, r, ci, st, k);
            bench_text_ratio(q.avx2[0]);
            bench_text_ratio(q.avx2[1]);
            bench_text_ratio(q.sse2[0]);
            bench_text_ratio(q.sse2[1]);
            printf("\n");
        }
}

static void bench_text_ozz(const bench_results* res) {
    const bench_ozz_meta* z = &res->ozz;
    if (!z->present) {
        printf("ozz: not run: %s; sinew is reported alone\n",
               z->note[0] ? z->note : "RobotExpressive absent");
        return;
    }
    printf("ozz: ozz-animation 0.16.0 built by scripts/anchors (%s%s%s), on RobotExpressive "
           "as gltf2ozz converts it: %u joints, Walking + Running %llu bytes, max error %.3f "
           "mm; IK check: %u of %u chains reached, worst %.2g of the limb\n",
           z->builds[0] ? "SSE2" : "", z->builds[0] && z->builds[1] ? " and " : "",
           z->builds[1] ? "AVX2" : "", z->joints, (unsigned long long)z->bytes, 1e3 * z->error,
           z->ik_reached, z->ik_chains, z->ik_worst);
}

static void bench_print_skin_text(const bench_results* res) {
    printf("\nCPU skinning (sinew/core/skin.h, docs/skinning.md): ns per vertex, positions and "
           "normals, one thread, median over processes; lbs = linear blend, dq = dual "
           "quaternion; morph = the mesh with the most targets, all of them weighted\n");
    printf("  %-16s %-5s %9s %9s %9s %8s\n", "set", "kind", "vertices", res->skin_path_names[0],
           res->skin_path_names[1], "speedup");
    for (int set = 0; set < BENCH_SKIN_SETS; ++set) {
        if (!res->skin_present[set]) continue;
        printf("  %s: %s\n", bench_skin_sets[set], res->skin_what[set]);
        for (int kind = 0; kind < BENCH_SKIN_KINDS; ++kind) {
            if (res->skin_n[set][kind][0] == 0) continue;
            const double s = bench_median_of(res->skin[set][kind][0], res->skin_n[set][kind][0]);
            const double f = bench_median_of(res->skin[set][kind][1], res->skin_n[set][kind][1]);
            printf("  %-16s %-5s %9llu %9.2f %9.2f %7.2fx\n", "", bench_skin_kinds[kind],
                   (unsigned long long)res->skin_vertices[set][kind == 2], s, f, s / f);
        }
    }
}

static void bench_print_text(const bench_opts* o, const bench_results* res, const char* skipped) {
    char cpu[256];
    int family, model;
    double load;
    bench_machine(cpu, sizeof cpu, &family, &model, &load);
    printf("sinew bench: median of %d process%s, this thread's CPU time, 1/60 s steps, one "
           "thread%s\n",
           o->processes, o->processes == 1 ? "" : "es",
           o->quick ? ", --quick (short runs: rough figures)" : "");
    printf("machine: %s (family %d, model %d), %ld cores, load %.2f (a shared machine: "
           "figures are noisy)\n",
           cpu, family, model, sysconf(_SC_NPROCESSORS_ONLN), load);
    printf("rules: %s\n", bench_rules);
    printf("headline (*): the quantized codec, ozz's kind (keyframes at a tolerance) at the "
           "same accuracy; frames trades memory for speed; target: ratio per joint >= %.1f; "
           "%s\n",
           BENCH_TARGET, bench_floor_note);
    bench_text_ozz(res);
    if (skipped) printf("skipped: %s\n", skipped);
    for (int r = 0; r < BENCH_RIGS; ++r) {
        const bench_meta* m = &res->rigs[r];
        if (!m->present) continue;
        printf("\n%s%s%s%s: %u joints, clips %s + %s, IK %s-%s-%s and %s-%s-%s\n", m->name,
               m->file[0] ? " (" : "", m->file, m->file[0] ? ")" : "", m->joints, m->clips[0],
               m->clips[1], m->chains[0][0], m->chains[0][1], m->chains[0][2], m->chains[1][0],
               m->chains[1][1], m->chains[1][2]);
        printf("  codecs (both clips; max error against raw, mm, the rules' measure):\n"
               "    raw %llu bytes; quantized %llu bytes at %g Hz, max error %.3f (precision "
               "%g mm); frames %llu bytes at %g Hz, max error %.3f\n",
               (unsigned long long)m->codec_bytes[0], (unsigned long long)m->codec_bytes[1],
               m->codec_rate[1], 1e3 * m->codec_error[1], 1e3 * (double)BENCH_PRECISION,
               (unsigned long long)m->codec_bytes[2], m->codec_rate[2], 1e3 * m->codec_error[2]);
        printf("  IK check (full frame, 1000 characters): %u of %u chains reached, worst %.2g "
               "of the limb\n",
               m->ik_reached, m->ik_chains, m->ik_worst);
        for (int ci = 0; ci < BENCH_COUNTS; ++ci)
            bench_text_rows(res, r, ci);
        if (!o->no_crowd) bench_print_crowd_text(res, r);
    }
    bench_print_skin_text(res);
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

/* STAGE:SIDE of --profile into *stage, *side; false (reported) when either
 * is unknown. */
static bool bench_parse_profile(const char* s, int* stage, int* side) {
    const char* colon = strchr(s, ':');
    *stage = *side = -1;
    for (int st = 0; colon && st < BENCH_STAGES; ++st)
        if (strlen(bench_stages[st].key) == (size_t)(colon - s) &&
            strncmp(s, bench_stages[st].key, (size_t)(colon - s)) == 0)
            *stage = st;
    for (int i = 0; colon && i < BENCH_SIDES; ++i)
        if (strcmp(colon + 1, bench_side_names[i]) == 0) *side = i;
    if (*stage < 0 || *side < 0) {
        cli_error("bench", "--profile needs STAGE:SIDE, got \"%s\"\n%s", s, cli__bench_usage);
        return false;
    }
    return true;
}

/* Options; -1 on a usage error (reported), 1 in the hidden child mode, 2
 * with --profile (*stage, *side). */
static int bench_parse_args(int argc, char** argv, bench_opts* o, bool* json, int* stage,
                            int* side) {
    bool child = false;
    for (int i = 1; i < argc; ++i) {
        const char* a = argv[i];
        if (strcmp(a, "--json") == 0) {
            *json = true;
        } else if (strcmp(a, "--quick") == 0) {
            o->quick = true;
        } else if (strcmp(a, "--no-crowd") == 0) {
            o->no_crowd = true;
        } else if (strcmp(a, "--child") == 0) {
            child = true;
        } else if (strcmp(a, "--profile") == 0) {
            if (i + 1 >= argc) {
                cli_error("bench", "%s needs a value\n%s", a, cli__bench_usage);
                return -1;
            }
            if (!bench_parse_profile(argv[++i], stage, side)) return -1;
        } else if (strcmp(a, "--processes") == 0 || strcmp(a, "--asset") == 0 ||
                   strcmp(a, "--ozz") == 0) {
            if (i + 1 >= argc) {
                cli_error("bench", "%s needs a value\n%s", a, cli__bench_usage);
                return -1;
            }
            if (strcmp(a, "--asset") == 0)
                o->asset = argv[++i];
            else if (strcmp(a, "--ozz") == 0)
                o->ozz_data = argv[++i];
            else if (!bench_parse_processes(argv[++i], &o->processes))
                return -1;
        } else {
            cli_error("bench", "unknown argument \"%s\"\n%s", a, cli__bench_usage);
            return -1;
        }
    }
    return child ? 1 : *stage >= 0 ? 2 : 0;
}

int cli_bench(int argc, char** argv) {
    static const char* const child_args[] = {"sinew", "bench", "--child", NULL};
    bench_opts o;
    memset(&o, 0, sizeof o);
    bool json = false;
    int stage = -1, side = -1;
    const int mode = bench_parse_args(argc, argv, &o, &json, &stage, &side);
    if (mode < 0) return CLI_EXIT_USAGE;
    if (mode == 1) return bench_child(&o, stdout) == 0 ? CLI_EXIT_OK : CLI_EXIT_FAIL;
    if (o.processes == 0) o.processes = o.quick ? 2 : 5;
    o.self = "/proc/self/exe";
    o.child_args = child_args;

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
    if (mode == 2) {
        if (skip) fprintf(stderr, "sinew bench: %s\n", skip);
        return bench_profile(&o, stage, side, stdout) == 0 ? CLI_EXIT_OK : CLI_EXIT_FAIL;
    }
    bench_results* res = bench_collect(&o);
    if (!res) return CLI_EXIT_FAIL;
    if (json)
        bench_print_json(&o, res, skip);
    else
        bench_print_text(&o, res, skip);
    free(res);
    return CLI_EXIT_OK;
}
