/* sinew convert IN -o OUT.sinew [--scale S] [--end-sites] [--codec raw|frames] [--rate R]
 * [--precision P] [--shell D]: writes a .sinew archive (skeleton, clips,
 * meshes). With --codec frames the clips are stored as frames
 * (sinew/tools/builders/frames.h; --precision doubles the rate until the error is
 * within P) and one line per clip reports the rate and the measured error
 * vs the raw clip. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "sinew/tools/builders/frames.h"
#include "sinew/tools/writers/archive_writer.h"

#define CLI_CONVERT_USAGE                                                                          \
    "usage: sinew convert IN -o OUT.sinew [--scale S] [--end-sites] [--codec raw|frames] "         \
    "[--rate R] [--precision P] [--shell D]"

/* A float option in (0, max]. */
static bool cli_convert_positive(const char* opt, const char* s, float max, float* out) {
    double v;
    if (!s || !cli_parse_double(s, &v) || !(v > 0.0) || !(v <= (double)max)) {
        cli_error("convert", "%s needs a number in (0, %g]", opt, (double)max);
        return false;
    }
    *out = (float)v;
    return true;
}

/* Replaces asset->clips by frames clips (freed by the caller with
 * sw_clip_destroy); prints one line per clip. */
static bool cli_convert_frames(const char* in, const sw_asset* asset, const sw_frames_options* o,
                               const sw_clip** frames) {
    for (uint32_t c = 0; c < asset->clips_count; ++c) {
        const sw_clip* clip = asset->clips[c];
        if (cli_refuse_non_raw("convert", in, c, clip)) return false;
        sw_frames_stats st;
        sw_error err;
        memset(&err, 0, sizeof err);
        sw_result r = sw_frames_build(asset->skeleton, clip, o, NULL, &frames[c], &st, &err);
        if (r != SW_RESULT_OK) {
            cli_report("convert", in, asset->format, r, &err);
            return false;
        }
        printf("clip %u \"%s\": frames at %g Hz (%s), %u frames, %llu -> %llu bytes, max error "
               "%.6g at shell %g\n",
               c, sw_clip_name(clip), (double)st.rate, st.on_keys ? "the keys" : "resampled",
               st.frames_count, (unsigned long long)st.raw_bytes,
               (unsigned long long)st.frames_bytes, (double)st.error.max,
               (double)(o->shell > 0.0f ? o->shell : 1.0f));
    }
    return true;
}

int cli_convert(int argc, char** argv) {
    const char* in = NULL;
    const char* out = NULL;
    sw_asset_options opt;
    memset(&opt, 0, sizeof opt);
    bool frames = false;
    sw_frames_options fo;
    memset(&fo, 0, sizeof fo);
    for (int i = 1; i < argc; ++i) {
        const char* a = argv[i];
        if (strcmp(a, "-o") == 0 || strcmp(a, "--output") == 0) {
            if (i + 1 >= argc) {
                cli_error("convert", "%s needs a path", a);
                return CLI_EXIT_USAGE;
            }
            out = argv[++i];
        } else if (strcmp(a, "--scale") == 0) {
            if (i + 1 >= argc || !cli_parse_scale("convert", "--scale", argv[i + 1], &opt.scale)) {
                if (i + 1 >= argc) cli_error("convert", "--scale needs a number");
                return CLI_EXIT_USAGE;
            }
            ++i;
        } else if (strcmp(a, "--end-sites") == 0) {
            opt.end_sites = true;
        } else if (strcmp(a, "--codec") == 0) {
            const char* v = i + 1 < argc ? argv[++i] : "";
            if (strcmp(v, "frames") == 0) {
                frames = true;
            } else if (strcmp(v, "raw") == 0) {
                frames = false;
            } else {
                cli_error("convert", "--codec takes raw or frames");
                return CLI_EXIT_USAGE;
            }
        } else if (strcmp(a, "--rate") == 0) {
            if (!cli_convert_positive(a, i + 1 < argc ? argv[++i] : NULL, 1000.0f, &fo.rate))
                return CLI_EXIT_USAGE;
        } else if (strcmp(a, "--precision") == 0) {
            if (!cli_convert_positive(a, i + 1 < argc ? argv[++i] : NULL, 1e30f, &fo.precision))
                return CLI_EXIT_USAGE;
        } else if (strcmp(a, "--shell") == 0) {
            if (!cli_convert_positive(a, i + 1 < argc ? argv[++i] : NULL, 1e30f, &fo.shell))
                return CLI_EXIT_USAGE;
        } else if (a[0] == '-' && a[1] != '\0') {
            cli_error("convert", "unknown option \"%s\"", a);
            return CLI_EXIT_USAGE;
        } else if (!in) {
            in = a;
        } else {
            cli_error("convert", "one input FILE expected");
            return CLI_EXIT_USAGE;
        }
    }
    if (!in || !out) {
        cli_error("convert", CLI_CONVERT_USAGE);
        return CLI_EXIT_USAGE;
    }
    sw_asset asset;
    sw_error err;
    sw_result r = cli_asset_open(in, &opt, &asset, &err);
    if (r != SW_RESULT_OK) {
        cli_report("convert", in, asset.format, r, &err);
        return CLI_EXIT_FAIL;
    }
    if (asset.format == SW_ASSET_FORMAT_SINEW) {
        /* An archive may hold more than the asset exposes (other skeletons,
         * meshes): rewriting it here would drop them silently. */
        cli_error("convert",
                  "%s: already a .sinew archive (convert reads BVH, glTF and the "
                  "other imported formats)",
                  in);
        sw_asset_free(&asset);
        return CLI_EXIT_FAIL;
    }
    cli_warn_asset("convert", in, &asset);
    const uint32_t n = asset.clips_count;
    const sw_clip** built = frames ? (const sw_clip**)calloc(n ? n : 1u, sizeof *built) : NULL;
    int rc = CLI_EXIT_OK;
    if (frames && (!built || !cli_convert_frames(in, &asset, &fo, built))) {
        if (!built) cli_error("convert", "out of memory");
        rc = CLI_EXIT_FAIL;
    }
    if (rc == CLI_EXIT_OK) {
        rc = cli_write_asset_archive("convert", out, &asset, frames ? built : asset.clips, n);
    }
    if (built) {
        for (uint32_t c = 0; c < n; ++c)
            sw_clip_destroy(built[c], NULL);
        free(built);
    }
    sw_asset_free(&asset);
    return rc;
}
