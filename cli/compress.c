/* sinew compress IN -o OUT.sinew [--precision P] [--shell D] [--rate R] [--json]
 * [--plot FILE.png] [asset options]: error-bounded compression of every clip
 * (sinew/tools/builders/compress.h), with its measured figures. */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common.h"
#include "sinew/tools/builders/compress.h"

int cli_compress(int argc, char** argv);

static bool cli__positive(const char* opt, const char* s, float* out) {
    double v = 0.0;
    if (!cli_parse_double(s, &v) || !(v > 0.0) || !((float)v > 0.0f) || !isfinite((float)v)) {
        cli_error("compress", "%s needs a finite number > 0, got \"%s\"", opt, s ? s : "");
        return false;
    }
    *out = (float)v;
    return true;
}

static void cli__progress(uint32_t done, uint32_t total, const char* name) {
    const int width = 30;
    int fill = total ? (int)((uint64_t)done * (uint64_t)width / total) : width;
    fprintf(stderr, "\r[");
    for (int i = 0; i < width; ++i)
        fputc(i < fill ? '#' : ' ', stderr);
    fprintf(stderr, "] %u/%u %-32.32s", done, total, name);
    if (done == total) fputc('\n', stderr);
    fflush(stderr);
}

/* Error of every joint over time for one clip, as a PNG through gnuplot. */
static int cli__plot(const char* png, const sw_skeleton* skel, const sw_clip* raw,
                     const sw_clip* packed, float shell, float rate, float precision) {
    sw_clip_error_desc d = {
        .skeleton = skel, .reference = raw, .clip = packed, .shell = shell, .rate = rate};
    const uint32_t N = sw_compress_samples_count(raw, rate);
    const uint32_t J = skel->joints_count;
    d.errors_count = (uint64_t)N * J;
    d.errors = (float*)malloc(sizeof(float) * (size_t)d.errors_count);
    if (!d.errors) {
        cli_error("compress", "--plot: out of memory");
        return CLI_EXIT_FAIL;
    }
    sw_clip_error e;
    sw_error err;
    if (sw_clip_error_measure(&d, NULL, &e, &err) != SW_RESULT_OK) {
        free(d.errors);
        cli_error("compress", "--plot: measuring failed (%s)", err.check ? err.check : "?");
        return CLI_EXIT_FAIL;
    }
    char data[] = "/tmp/sinew_compress_plot_XXXXXX";
    int fd = mkstemp(data);
    FILE* f = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!f) {
        free(d.errors);
        cli_error("compress", "--plot: cannot write a temporary file");
        return CLI_EXIT_FAIL;
    }
    for (uint32_t i = 0; i < N; ++i) {
        fprintf(f, "%.6f", (double)i / (double)rate);
        for (uint32_t j = 0; j < J; ++j)
            fprintf(f, " %.9g", (double)d.errors[(size_t)i * J + j]);
        fputc('\n', f);
    }
    fclose(f);
    free(d.errors);
    FILE* gp = popen("gnuplot 2>/dev/null", "w");
    if (!gp) {
        remove(data);
        cli_error("compress", "--plot: cannot run gnuplot");
        return CLI_EXIT_FAIL;
    }
    fprintf(gp, "set terminal pngcairo size 1200,600\nset output '%s'\n", png);
    fprintf(gp, "set xlabel 'time (s)'\nset ylabel 'error (clip units)'\n");
    fprintf(gp, "set title 'decoded error per joint: %s (max %.4g at %s, %.3f s)'\n",
            sw_clip_name(raw), (double)e.max, sw_skeleton_joint_name(skel, e.worst_joint),
            (double)e.worst_time);
    fprintf(gp, "set key outside right font ',7'\n");
    fprintf(gp, "plot %.9g title 'precision' lw 2 lc rgb 'black'", (double)precision);
    for (uint32_t j = 0; j < J; ++j) {
        fprintf(gp, ", '%s' using 1:%u with lines title '", data, j + 2u);
        for (const char* p = sw_skeleton_joint_name(skel, j); *p; ++p)
            if (*p != '\'' && *p != '_') fputc(*p, gp);
        fprintf(gp, "'");
    }
    fprintf(gp, "\n");
    int status = pclose(gp);
    remove(data);
    if (status == -1 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        if (WIFEXITED(status) && WEXITSTATUS(status) == 127) {
            cli_error("compress", "--plot: gnuplot is not installed (apt install gnuplot-nox); "
                                  "the archive was written without the plot");
        } else {
            cli_error("compress", "--plot: gnuplot failed (exit %d)",
                      WIFEXITED(status) ? WEXITSTATUS(status) : -1);
        }
        return CLI_EXIT_FAIL;
    }
    return CLI_EXIT_OK;
}

typedef struct cli__compress_args {
    const char* in;
    const char* out;
    const char* plot;
    bool json;
    sw_compress_options copt;
    cli_asset_args aa;
} cli__compress_args;

/* Options into *a; CLI_EXIT_OK or CLI_EXIT_USAGE (the line printed). */
static int cli__compress_parse(int argc, char** argv, cli__compress_args* a) {
    memset(a, 0, sizeof *a);
    a->copt.precision = 0.01f;
    a->copt.shell = 3.0f;
    for (int i = 1; i < argc; ++i) {
        const char* s = argv[i];
        int used = cli_asset_option("compress", argc, argv, &i, &a->aa);
        if (used < 0) return CLI_EXIT_USAGE;
        if (used > 0) continue;
        if (strcmp(s, "-o") == 0 || strcmp(s, "--output") == 0 || strcmp(s, "--plot") == 0) {
            if (i + 1 >= argc) {
                cli_error("compress", "%s needs a path", s);
                return CLI_EXIT_USAGE;
            }
            if (strcmp(s, "--plot") == 0)
                a->plot = argv[++i];
            else
                a->out = argv[++i];
        } else if (strcmp(s, "--precision") == 0 || strcmp(s, "--shell") == 0 ||
                   strcmp(s, "--rate") == 0) {
            float* dst = strcmp(s, "--precision") == 0 ? &a->copt.precision
                         : strcmp(s, "--shell") == 0   ? &a->copt.shell
                                                       : &a->copt.rate;
            if (i + 1 >= argc) {
                cli_error("compress", "%s needs a number", s);
                return CLI_EXIT_USAGE;
            }
            if (!cli__positive(s, argv[++i], dst)) return CLI_EXIT_USAGE;
        } else if (strcmp(s, "--json") == 0) {
            a->json = true;
        } else if (s[0] == '-' && s[1] != '\0') {
            return cli_unknown_option("compress", s);
        } else if (!a->in) {
            a->in = s;
        } else {
            cli_error("compress", "one input FILE expected");
            return CLI_EXIT_USAGE;
        }
    }
    if (!a->in || !a->out) return cli_usage_error("compress");
    return cli_output_check("compress", "-o", a->out, SW_OUTPUT_FORMAT_SINEW, &a->in, 1);
}

/* Compresses every clip of the asset into packed[] with stats[]; one line
 * naming the clip, the joint, the time and the error when a bound cannot be
 * held. */
static int cli__compress_run(const cli__compress_args* a, const sw_asset* asset,
                             const sw_clip** packed, sw_compress_stats* stats) {
    const uint32_t n = asset->clips_count;
    const bool bar = n > 1u && isatty(STDERR_FILENO);
    for (uint32_t c = 0; c < n; ++c) {
        const sw_clip* clip = asset->clips[c];
        if (bar) cli__progress(c, n, sw_clip_name(clip));
        if (cli_refuse_non_raw("compress", a->in, c, clip)) return CLI_EXIT_FAIL;
        sw_error err;
        memset(&err, 0, sizeof err);
        sw_result r =
            sw_compress_clip(asset->skeleton, clip, &a->copt, NULL, &packed[c], &stats[c], &err);
        if (r == SW_RESULT_LIMIT && err.check && strcmp(err.check, "error within precision") == 0) {
            const sw_clip_error* e = &stats[c].error;
            cli_error("compress",
                      "%s: clip \"%s\": error %.6g at joint \"%s\", %.4f s, exceeds the precision "
                      "%g at every rate up to 1000 Hz",
                      a->in, sw_clip_name(clip), (double)e->max,
                      sw_skeleton_joint_name(asset->skeleton, e->worst_joint),
                      (double)e->worst_time, (double)a->copt.precision);
            return CLI_EXIT_FAIL;
        }
        if (r != SW_RESULT_OK) {
            cli_report("compress", a->in, asset->format, r, &err);
            return CLI_EXIT_FAIL;
        }
    }
    if (bar) cli__progress(n, n, "done");
    return CLI_EXIT_OK;
}

/* The figures of every clip and their total, as JSON or as a table. */
static void cli__compress_print(const cli__compress_args* a, const sw_asset* asset,
                                const sw_compress_stats* stats, uint32_t* worst) {
    const uint32_t n = asset->clips_count;
    uint64_t raw_total = 0, packed_total = 0;
    double seconds = 0.0;
    float max_error = 0.0f, p99 = 0.0f;
    *worst = 0;
    for (uint32_t c = 0; c < n; ++c) {
        raw_total += stats[c].raw_bytes;
        packed_total += stats[c].compressed_bytes;
        seconds += stats[c].seconds;
        if (stats[c].error.p99 > p99) p99 = stats[c].error.p99;
        if (stats[c].error.max > max_error) {
            max_error = stats[c].error.max;
            *worst = c;
        }
    }
    const double ratio = packed_total ? (double)raw_total / (double)packed_total : 0.0;
    if (!a->json) {
        printf("%-24s %10s %10s %7s %8s %10s %10s %-16s %8s %7s\n", "clip", "raw B", "packed B",
               "ratio", "rate", "max err", "p99 err", "worst joint", "at s", "time s");
        for (uint32_t c = 0; c < n; ++c) {
            const sw_compress_stats* s = &stats[c];
            printf("%-24.24s %10llu %10llu %7.2f %8.3f %10.4g %10.4g %-16.16s %8.3f %7.2f\n",
                   sw_clip_name(asset->clips[c]), (unsigned long long)s->raw_bytes,
                   (unsigned long long)s->compressed_bytes, s->ratio, (double)s->rate,
                   (double)s->error.max, (double)s->error.p99,
                   sw_skeleton_joint_name(asset->skeleton, s->error.worst_joint),
                   (double)s->error.worst_time, s->seconds);
        }
        printf("%-24s %10llu %10llu %7.2f %8s %10.4g %10.4g %-16s %8s %7.2f\n", "total",
               (unsigned long long)raw_total, (unsigned long long)packed_total, ratio, "",
               (double)max_error, (double)p99, "", "", seconds);
        return;
    }
    printf("{\"file\": ");
    cli_json_string(stdout, a->in);
    printf(", \"output\": ");
    cli_json_string(stdout, a->out);
    printf(", \"precision\": ");
    cli_json_number(stdout, a->copt.precision);
    printf(", \"shell\": ");
    cli_json_number(stdout, a->copt.shell);
    printf(", \"clips\": [");
    for (uint32_t c = 0; c < n; ++c) {
        const sw_compress_stats* s = &stats[c];
        printf("%s\n  {\"name\": ", c ? "," : "");
        cli_json_string(stdout, sw_clip_name(asset->clips[c]));
        printf(", \"joints\": %u, \"samples\": %u, \"rate\": ", asset->skeleton->joints_count,
               s->samples_count);
        cli_json_number(stdout, s->rate);
        printf(", \"raw_bytes\": %llu, \"compressed_bytes\": %llu, \"ratio\": ",
               (unsigned long long)s->raw_bytes, (unsigned long long)s->compressed_bytes);
        cli_json_number(stdout, s->ratio);
        printf(", \"max_error\": ");
        cli_json_number(stdout, s->error.max);
        printf(", \"p99_error\": ");
        cli_json_number(stdout, s->error.p99);
        printf(", \"worst_joint\": ");
        cli_json_string(stdout, sw_skeleton_joint_name(asset->skeleton, s->error.worst_joint));
        printf(", \"worst_time\": ");
        cli_json_number(stdout, s->error.worst_time);
        printf(", \"seconds\": ");
        cli_json_number(stdout, s->seconds);
        printf(", \"tracks\": {\"default\": %u, \"constant\": %u, \"animated\": %u}}",
               s->default_tracks, s->constant_tracks, s->animated_tracks);
    }
    printf("],\n \"total\": {\"raw_bytes\": %llu, \"compressed_bytes\": %llu, \"ratio\": ",
           (unsigned long long)raw_total, (unsigned long long)packed_total);
    cli_json_number(stdout, ratio);
    printf(", \"max_error\": ");
    cli_json_number(stdout, max_error);
    printf(", \"p99_error\": ");
    cli_json_number(stdout, p99);
    printf(", \"seconds\": ");
    cli_json_number(stdout, seconds);
    printf("}}\n");
}

int cli_compress(int argc, char** argv) {
    cli__compress_args a;
    int rc = cli__compress_parse(argc, argv, &a);
    if (rc != CLI_EXIT_OK) return rc;
    sw_asset asset;
    sw_error err;
    memset(&err, 0, sizeof err);
    sw_result r = cli_asset_open(a.in, &a.aa.opt, &asset, &err);
    if (r != SW_RESULT_OK) {
        cli_report("compress", a.in, asset.format, r, &err);
        return CLI_EXIT_FAIL;
    }
    cli_warn_asset("compress", a.in, &asset);
    const uint32_t n = asset.clips_count;
    const sw_clip** packed = (const sw_clip**)calloc(n ? n : 1u, sizeof *packed);
    sw_compress_stats* stats = (sw_compress_stats*)calloc(n ? n : 1u, sizeof *stats);
    if (!packed || !stats) {
        cli_error("compress", "out of memory");
        rc = CLI_EXIT_FAIL;
    }
    if (rc == CLI_EXIT_OK) rc = cli__compress_run(&a, &asset, packed, stats);
    const sw_scene scene = cli_asset_scene(&asset, packed, n);
    if (rc == CLI_EXIT_OK) rc = cli_write_scene("compress", a.out, &scene);
    if (rc == CLI_EXIT_OK) {
        uint32_t worst = 0;
        cli__compress_print(&a, &asset, stats, &worst);
        if (a.plot && n > 0) {
            rc = cli__plot(a.plot, asset.skeleton, asset.clips[worst], packed[worst], a.copt.shell,
                           stats[worst].rate, a.copt.precision);
        }
    }
    for (uint32_t c = 0; packed && c < n; ++c)
        sw_clip_destroy(packed[c], NULL);
    free(packed);
    free(stats);
    sw_asset_free(&asset);
    return rc;
}
