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
#include "sinew/tools/writers/archive_writer.h"

int cli_compress(int argc, char** argv);

static const char* cli__compress_usage =
    "usage: sinew compress IN -o OUT.sinew [--precision P] [--shell D] [--rate R] [--json]\n"
    "       [--plot FILE.png] [--scale S] [--clips A,B] [--isolate]";

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

int cli_compress(int argc, char** argv) {
    const char* in = NULL;
    const char* out = NULL;
    const char* plot = NULL;
    bool json = false;
    sw_compress_options copt;
    memset(&copt, 0, sizeof copt);
    copt.precision = 0.01f;
    copt.shell = 3.0f;
    cli_asset_args aa;
    memset(&aa, 0, sizeof aa);
    for (int i = 1; i < argc; ++i) {
        const char* a = argv[i];
        int used = cli_asset_option("compress", argc, argv, &i, &aa);
        if (used < 0) return CLI_EXIT_USAGE;
        if (used > 0) continue;
        if (strcmp(a, "-o") == 0 || strcmp(a, "--output") == 0 || strcmp(a, "--plot") == 0) {
            if (i + 1 >= argc) {
                cli_error("compress", "%s needs a path", a);
                return CLI_EXIT_USAGE;
            }
            if (strcmp(a, "--plot") == 0)
                plot = argv[++i];
            else
                out = argv[++i];
        } else if (strcmp(a, "--precision") == 0 || strcmp(a, "--shell") == 0 ||
                   strcmp(a, "--rate") == 0) {
            float* dst = strcmp(a, "--precision") == 0 ? &copt.precision
                         : strcmp(a, "--shell") == 0   ? &copt.shell
                                                       : &copt.rate;
            if (i + 1 >= argc) {
                cli_error("compress", "%s needs a number", a);
                return CLI_EXIT_USAGE;
            }
            if (!cli__positive(a, argv[++i], dst)) return CLI_EXIT_USAGE;
        } else if (strcmp(a, "--json") == 0) {
            json = true;
        } else if (a[0] == '-' && a[1] != '\0') {
            cli_error("compress", "unknown option \"%s\"", a);
            return CLI_EXIT_USAGE;
        } else if (!in) {
            in = a;
        } else {
            cli_error("compress", "one input FILE expected");
            return CLI_EXIT_USAGE;
        }
    }
    if (!in || !out) {
        cli_error("compress", "%s", cli__compress_usage);
        return CLI_EXIT_USAGE;
    }
    sw_asset asset;
    sw_error err;
    memset(&err, 0, sizeof err);
    sw_result r = cli_asset_open(in, &aa.opt, &asset, &err);
    if (r != SW_RESULT_OK) {
        cli_report("compress", in, asset.format, r, &err);
        return CLI_EXIT_FAIL;
    }
    cli_warn_asset("compress", in, &asset);
    const uint32_t n = asset.clips_count;
    const sw_clip** packed = (const sw_clip**)calloc(n ? n : 1u, sizeof *packed);
    sw_compress_stats* stats = (sw_compress_stats*)calloc(n ? n : 1u, sizeof *stats);
    float* rates = (float*)calloc(n ? n : 1u, sizeof *rates);
    if (!packed || !stats || !rates) {
        free(packed);
        free(stats);
        free(rates);
        sw_asset_free(&asset);
        cli_error("compress", "out of memory");
        return CLI_EXIT_FAIL;
    }
    const bool bar = n > 1u && isatty(STDERR_FILENO);
    int rc = CLI_EXIT_OK;
    for (uint32_t c = 0; c < n && rc == CLI_EXIT_OK; ++c) {
        const sw_clip* clip = asset.clips[c];
        if (bar) cli__progress(c, n, sw_clip_name(clip));
        if (cli_refuse_non_raw("compress", in, c, clip)) {
            rc = CLI_EXIT_FAIL;
            break;
        }
        sw_compress_options o = copt;
        rates[c] = o.rate > 0.0f ? o.rate : sw_compress_sample_rate(clip);
        o.rate = rates[c];
        r = sw_compress_clip(asset.skeleton, clip, &o, NULL, &packed[c], &stats[c], &err);
        if (r != SW_RESULT_OK) {
            cli_report("compress", in, asset.format, r, &err);
            rc = CLI_EXIT_FAIL;
        }
    }
    if (bar && rc == CLI_EXIT_OK) cli__progress(n, n, "done");
    if (rc == CLI_EXIT_OK) {
        rc = cli_write_asset_archive("compress", out, &asset, packed, n);
    }
    if (rc == CLI_EXIT_OK) {
        uint64_t raw_total = 0, packed_total = 0;
        double seconds = 0.0;
        float max_error = 0.0f, p99 = 0.0f;
        uint32_t worst = 0;
        for (uint32_t c = 0; c < n; ++c) {
            raw_total += stats[c].raw_bytes;
            packed_total += stats[c].compressed_bytes;
            seconds += stats[c].seconds;
            if (stats[c].error.p99 > p99) p99 = stats[c].error.p99;
            if (stats[c].error.max > max_error) {
                max_error = stats[c].error.max;
                worst = c;
            }
        }
        const double ratio = packed_total ? (double)raw_total / (double)packed_total : 0.0;
        if (json) {
            printf("{\"file\": ");
            cli_json_string(stdout, in);
            printf(", \"output\": ");
            cli_json_string(stdout, out);
            printf(", \"precision\": ");
            cli_json_number(stdout, copt.precision);
            printf(", \"shell\": ");
            cli_json_number(stdout, copt.shell);
            printf(", \"clips\": [");
            for (uint32_t c = 0; c < n; ++c) {
                const sw_compress_stats* s = &stats[c];
                printf("%s\n  {\"name\": ", c ? "," : "");
                cli_json_string(stdout, sw_clip_name(asset.clips[c]));
                printf(", \"joints\": %u, \"samples\": %u, \"rate\": ",
                       asset.skeleton->joints_count, s->error.samples_count);
                cli_json_number(stdout, rates[c]);
                printf(", \"raw_bytes\": %llu, \"compressed_bytes\": %llu, \"ratio\": ",
                       (unsigned long long)s->raw_bytes, (unsigned long long)s->compressed_bytes);
                cli_json_number(stdout, s->ratio);
                printf(", \"max_error\": ");
                cli_json_number(stdout, s->error.max);
                printf(", \"p99_error\": ");
                cli_json_number(stdout, s->error.p99);
                printf(", \"worst_joint\": ");
                cli_json_string(stdout,
                                sw_skeleton_joint_name(asset.skeleton, s->error.worst_joint));
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
        } else {
            printf("%-24s %10s %10s %7s %10s %10s %-16s %8s %7s\n", "clip", "raw B", "packed B",
                   "ratio", "max err", "p99 err", "worst joint", "at s", "time s");
            for (uint32_t c = 0; c < n; ++c) {
                const sw_compress_stats* s = &stats[c];
                printf("%-24.24s %10llu %10llu %7.2f %10.4g %10.4g %-16.16s %8.3f %7.2f\n",
                       sw_clip_name(asset.clips[c]), (unsigned long long)s->raw_bytes,
                       (unsigned long long)s->compressed_bytes, s->ratio, (double)s->error.max,
                       (double)s->error.p99,
                       sw_skeleton_joint_name(asset.skeleton, s->error.worst_joint),
                       (double)s->error.worst_time, s->seconds);
            }
            printf("%-24s %10llu %10llu %7.2f %10.4g %10.4g %-16s %8s %7.2f\n", "total",
                   (unsigned long long)raw_total, (unsigned long long)packed_total, ratio,
                   (double)max_error, (double)p99, "", "", seconds);
        }
        if (plot && n > 0) {
            rc = cli__plot(plot, asset.skeleton, asset.clips[worst], packed[worst], copt.shell,
                           rates[worst], copt.precision);
        }
    }
    for (uint32_t c = 0; c < n; ++c)
        sw_clip_destroy(packed[c], NULL);
    free(packed);
    free(stats);
    free(rates);
    sw_asset_free(&asset);
    return rc;
}
