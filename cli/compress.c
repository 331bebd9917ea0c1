/* sinew compress IN -o OUT.sinew [--precision P] [--shell D] [--rate R] [--json]
 * [--plot FILE.png] [asset options]: error-bounded compression of every clip
 * (sinew/tools/builders/compress.h), with its measured figures. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common.h"
#include "sinew/tools/builders/compress.h"
#include "sinew/tools/writers/plot.h"

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

#define CLI_PLOT_WIDTH 1200
#define CLI_PLOT_HEIGHT 600
#define CLI_PLOT_SHOWN 8 /* joints in colour, with a legend entry: the worst */

/* What --plot drew, for --json: the clip, the worst joints (worst first)
 * with their largest error and palette index, the scales and the area. */
typedef struct cli__plot_info {
    uint32_t clip, shown;
    uint32_t joints[CLI_PLOT_SHOWN];
    float joint_max[CLI_PLOT_SHOWN];
    float t_max, e_max;
    sw_plot_area area;
} cli__plot_info;

/* The `shown` joints of largest error max[j], worst first, into out. */
static uint32_t cli__worst_joints(const float* max, uint32_t J, uint32_t* out) {
    uint32_t n = 0;
    for (uint32_t j = 0; j < J; ++j) {
        uint32_t k = n < CLI_PLOT_SHOWN ? n++ : CLI_PLOT_SHOWN;
        if (k == CLI_PLOT_SHOWN && !(max[j] > max[out[CLI_PLOT_SHOWN - 1]])) continue;
        if (k == CLI_PLOT_SHOWN) k = CLI_PLOT_SHOWN - 1;
        for (; k > 0 && max[j] > max[out[k - 1]]; --k)
            out[k] = out[k - 1];
        out[k] = j;
    }
    return n;
}

/* The chart's series: the worst joints in colour, the precision line, the
 * other joints in grey (ys: J rows of N errors; t: N times). */
static void cli__plot_series(const sw_skeleton* skel, const float* t, const float* ys, uint32_t N,
                             const float prec[2], const float t2[2], cli__plot_info* info,
                             sw_plot_series* s, char (*names)[48]) {
    uint32_t k = 0;
    for (; k < info->shown; ++k) {
        const uint32_t j = info->joints[k];
        snprintf(names[k], sizeof names[k], "%.22s %.3g", sw_skeleton_joint_name(skel, j),
                 (double)info->joint_max[k]);
        s[k] = (sw_plot_series){.name = names[k],
                                .x = t,
                                .y = ys + (size_t)j * N,
                                .count = N,
                                .index = sw_plot_color(k),
                                .width = 2};
    }
    snprintf(names[k], sizeof names[k], "precision %.3g", (double)prec[0]);
    s[k] = (sw_plot_series){
        .name = names[k], .x = t2, .y = prec, .count = 2, .index = SW_RASTER_INK, .width = 2};
    const uint32_t J = skel->joints_count;
    snprintf(names[k + 1], sizeof names[k + 1], "other %u joints", J - info->shown);
    for (uint32_t j = 0, o = 0; j < J; ++j) {
        bool shown = false;
        for (uint32_t w = 0; w < info->shown; ++w)
            shown = shown || info->joints[w] == j;
        if (shown) continue;
        s[k + 1 + o] = (sw_plot_series){.name = o ? NULL : names[k + 1],
                                        .x = t,
                                        .y = ys + (size_t)j * N,
                                        .count = N,
                                        .index = SW_PLOT_FAINT,
                                        .width = 1};
        ++o;
    }
}

/* Draws the errors ys (J rows of N, at rate) into png. */
static int cli__plot_draw(const char* png, const sw_skeleton* skel, const sw_clip* raw,
                          const sw_clip_error* e, const float* ys, uint32_t N, float rate,
                          float precision, cli__plot_info* info) {
    const uint32_t J = skel->joints_count;
    float* t = (float*)malloc(sizeof(float) * N);
    sw_plot_series* s = (sw_plot_series*)calloc(J + 1u, sizeof *s);
    char names[CLI_PLOT_SHOWN + 2][48];
    sw_raster r;
    memset(&r, 0, sizeof r);
    sw_result res = !t || !s ? SW_RESULT_OUT_OF_MEMORY
                             : sw_plot_init(&r, CLI_PLOT_WIDTH, CLI_PLOT_HEIGHT, NULL);
    if (res == SW_RESULT_OK) {
        for (uint32_t i = 0; i < N; ++i) /* the measure's sample times */
            t[i] = fminf((float)i / rate, raw->duration);
        info->t_max = N > 1 ? t[N - 1] : 1.0f / rate;
        const float top = 1.05f * fmaxf(e->max, precision);
        const float step = sw_plot_nice_step(top, 5);
        info->e_max = step * ceilf(top / step);
        const float prec[2] = {precision, precision}, t2[2] = {0.0f, info->t_max};
        cli__plot_series(skel, t, ys, N, prec, t2, info, s, names);
        char title[160];
        snprintf(title, sizeof title, "decoded error per joint: %.40s (max %.4g at %.24s, %.3f s)",
                 sw_clip_name(raw), (double)e->max, sw_skeleton_joint_name(skel, e->worst_joint),
                 (double)e->worst_time);
        const sw_plot_desc d = {.title = title,
                                .x_label = "time (s)",
                                .y_label = "error (clip units)",
                                .x_min = 0.0f,
                                .x_max = info->t_max,
                                .y_min = 0.0f,
                                .y_max = info->e_max,
                                .series = s,
                                .series_count = J + 1u};
        res = sw_plot_draw(&r, &d, &info->area);
    }
    if (res == SW_RESULT_OK) res = sw_raster_write_png(&r, png);
    sw_raster_free(&r);
    free(t);
    free(s);
    if (res != SW_RESULT_OK) {
        cli_error("compress", "--plot: cannot write %s (%s)", png, sw_result_str(res));
        return CLI_EXIT_FAIL;
    }
    return CLI_EXIT_OK;
}

/* Error of every joint over time for one clip (sw_clip_error_measure), as
 * a PNG chart (sinew/tools/writers/plot.h): the worst joints in colour, the
 * others in grey, the precision line. */
static int cli__plot(const char* png, const sw_skeleton* skel, const sw_clip* raw,
                     const sw_clip* packed, float shell, float rate, float precision,
                     cli__plot_info* info) {
    sw_clip_error_desc d = {
        .skeleton = skel, .reference = raw, .clip = packed, .shell = shell, .rate = rate};
    const uint32_t N = sw_compress_samples_count(raw, rate);
    const uint32_t J = skel->joints_count;
    d.errors_count = (uint64_t)N * J;
    d.errors = (float*)malloc(sizeof(float) * (size_t)d.errors_count);
    float* ys = (float*)malloc(sizeof(float) * (size_t)d.errors_count);
    float* max = (float*)calloc(J, sizeof(float));
    sw_clip_error e;
    sw_error err;
    memset(&err, 0, sizeof err);
    const sw_result r = !d.errors || !ys || !max ? SW_RESULT_OUT_OF_MEMORY
                                                 : sw_clip_error_measure(&d, NULL, &e, &err);
    int rc = CLI_EXIT_FAIL;
    if (r != SW_RESULT_OK) {
        cli_error("compress", "--plot: measuring failed (%s: %s)", sw_result_str(r),
                  err.check ? err.check : "?");
    } else {
        for (uint32_t i = 0; i < N; ++i)
            for (uint32_t j = 0; j < J; ++j) {
                const float v = d.errors[(size_t)i * J + j];
                ys[(size_t)j * N + i] = v;
                max[j] = fmaxf(max[j], v);
            }
        info->shown = cli__worst_joints(max, J, info->joints);
        for (uint32_t k = 0; k < info->shown; ++k)
            info->joint_max[k] = max[info->joints[k]];
        rc = cli__plot_draw(png, skel, raw, &e, ys, N, rate, precision, info);
    }
    free(d.errors);
    free(ys);
    free(max);
    return rc;
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
/* The clip of the largest measured error (0 without clips). */
static uint32_t cli__worst_clip(const sw_compress_stats* stats, uint32_t n) {
    uint32_t worst = 0;
    for (uint32_t c = 1; c < n; ++c)
        if (stats[c].error.max > stats[worst].error.max) worst = c;
    return worst;
}

/* The plot's figures as a JSON member (",\n \"plot\": {...}"). */
static void cli__plot_json(const cli__compress_args* a, const sw_asset* asset,
                           const cli__plot_info* p) {
    printf(",\n \"plot\": {\"file\": ");
    cli_json_string(stdout, a->plot);
    printf(", \"width\": %u, \"height\": %u, \"clip\": ", CLI_PLOT_WIDTH, CLI_PLOT_HEIGHT);
    cli_json_string(stdout, sw_clip_name(asset->clips[p->clip]));
    printf(", \"area\": [%d, %d, %d, %d], \"time\": [0, ", p->area.x0, p->area.y0, p->area.x1,
           p->area.y1);
    cli_json_number(stdout, p->t_max);
    printf("], \"error\": [0, ");
    cli_json_number(stdout, p->e_max);
    printf("], \"precision_index\": %u, \"others_index\": %u, \"joints\": [", SW_RASTER_INK,
           SW_PLOT_FAINT);
    for (uint32_t k = 0; k < p->shown; ++k) {
        printf("%s{\"name\": ", k ? ", " : "");
        cli_json_string(stdout, sw_skeleton_joint_name(asset->skeleton, p->joints[k]));
        printf(", \"max_error\": ");
        cli_json_number(stdout, p->joint_max[k]);
        printf(", \"index\": %u}", sw_plot_color(k));
    }
    printf("]}");
}

static void cli__compress_print(const cli__compress_args* a, const sw_asset* asset,
                                const sw_compress_stats* stats, const cli__plot_info* plot) {
    const uint32_t n = asset->clips_count;
    uint64_t raw_total = 0, packed_total = 0;
    double seconds = 0.0;
    float max_error = 0.0f, p99 = 0.0f;
    for (uint32_t c = 0; c < n; ++c) {
        raw_total += stats[c].raw_bytes;
        packed_total += stats[c].compressed_bytes;
        seconds += stats[c].seconds;
        if (stats[c].error.p99 > p99) p99 = stats[c].error.p99;
        if (stats[c].error.max > max_error) max_error = stats[c].error.max;
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
        if (plot)
            printf("plot: %s (%u x %u px): %s, its %u worst joints in colour\n", a->plot,
                   CLI_PLOT_WIDTH, CLI_PLOT_HEIGHT, sw_clip_name(asset->clips[plot->clip]),
                   plot->shown);
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
        printf(", \"tracks\": {\"default\": %u, \"constant\": %u, \"animated\": %u, "
               "\"uniform_scale\": %u}}",
               s->default_tracks, s->constant_tracks, s->animated_tracks, s->uniform_scales);
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
    printf("}");
    if (plot) cli__plot_json(a, asset, plot);
    printf("}\n");
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
    /* The table (or JSON) is printed once the archive is written, with the
     * plot's figures when it was drawn. */
    cli__plot_info plot = {.clip = n ? cli__worst_clip(stats, n) : 0u};
    const bool written = rc == CLI_EXIT_OK;
    if (written && a.plot && n > 0) {
        const uint32_t w = plot.clip;
        rc = cli__plot(a.plot, asset.skeleton, asset.clips[w], packed[w], a.copt.shell,
                       stats[w].rate, a.copt.precision, &plot);
    }
    if (written)
        cli__compress_print(&a, &asset, stats, a.plot && n > 0 && rc == CLI_EXIT_OK ? &plot : NULL);
    for (uint32_t c = 0; packed && c < n; ++c)
        sw_clip_destroy(packed[c], NULL);
    free(packed);
    free(stats);
    sw_asset_free(&asset);
    return rc;
}
