/* sinew convert IN -o OUT.sinew|OUT.glb|OUT.gltf [--json] [--scale S] [--end-sites]
 * [--codec raw|frames] [--rate R] [--precision P] [--shell D]: writes the
 * skeleton, clips and meshes in the format of OUT's extension
 * (sinew/tools/writers/output.h). With --codec frames (.sinew only) the
 * clips are stored as frames (sinew/tools/builders/frames.h; --precision
 * doubles the rate until the error is within P) and one line per clip
 * reports the rate and the measured error vs the raw clip. With
 * --lod-order the joints are written in their detail-major order by the
 * crowd's derived detail (sw_crowd_joint_detail, sw_joint_order_by_detail):
 * joint LOD levels then keep a prefix of the joints. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "sinew/tools/builders/frames.h"
#include "sinew/tools/builders/joint_order.h"

typedef struct convert_args {
    const char* in;
    const char* out;
    sw_asset_options opt;
    bool frames, json, lod_order;
    sw_frames_options fo;
} convert_args;

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

static int convert_parse(int argc, char** argv, convert_args* a) {
    for (int i = 1; i < argc; ++i) {
        const char* s = argv[i];
        const char* next = i + 1 < argc ? argv[i + 1] : NULL;
        if ((strcmp(s, "-o") == 0 || strcmp(s, "--output") == 0) && next) {
            a->out = argv[++i];
        } else if (strcmp(s, "--scale") == 0 && next) {
            if (!cli_parse_scale("convert", "--scale", argv[++i], &a->opt.scale))
                return CLI_EXIT_USAGE;
        } else if (strcmp(s, "--end-sites") == 0) {
            a->opt.end_sites = true;
        } else if (strcmp(s, "--json") == 0) {
            a->json = true;
        } else if (strcmp(s, "--lod-order") == 0) {
            a->lod_order = true;
        } else if (strcmp(s, "--codec") == 0) {
            const char* v = i + 1 < argc ? argv[++i] : "";
            if (strcmp(v, "frames") != 0 && strcmp(v, "raw") != 0) {
                cli_error("convert", "--codec takes raw or frames");
                return CLI_EXIT_USAGE;
            }
            a->frames = strcmp(v, "frames") == 0;
        } else if (strcmp(s, "--rate") == 0 || strcmp(s, "--precision") == 0 ||
                   strcmp(s, "--shell") == 0) {
            float* dst = s[2] == 'r' ? &a->fo.rate : s[2] == 'p' ? &a->fo.precision : &a->fo.shell;
            ++i;
            if (!cli_convert_positive(s, next, s[2] == 'r' ? 1000.0f : 1e30f, dst))
                return CLI_EXIT_USAGE;
        } else if (s[0] == '-' && s[1] != '\0') {
            if (!next &&
                (strcmp(s, "-o") == 0 || strcmp(s, "--output") == 0 || strcmp(s, "--scale") == 0)) {
                cli_error("convert", "%s needs a value", s);
                return CLI_EXIT_USAGE;
            }
            return cli_unknown_option("convert", s);
        } else if (!a->in) {
            a->in = s;
        } else {
            cli_error("convert", "one input FILE expected");
            return CLI_EXIT_USAGE;
        }
    }
    if (!a->in || !a->out) return cli_usage_error("convert");
    /* frames clips exist only in archives */
    return cli_output_check("convert", "-o", a->out,
                            a->frames ? (uint32_t)SW_OUTPUT_FORMAT_SINEW : SW_OUTPUT_FORMATS_ALL,
                            &a->in, 1);
}

/* A frames build's failure on one line naming the clip: for a precision
 * not held at the highest rate, the error, joint and time measured there. */
static void cli_convert_frames_failure(const char* in, const sw_scene* sc, uint32_t c,
                                       const sw_frames_options* o, const sw_frames_stats* st,
                                       sw_result r, sw_error* err) {
    char what[sizeof err->detail];
    const char* clip = sw_clip_name(sc->clips[c]);
    if (r == SW_RESULT_LIMIT && err->check && strcmp(err->check, "error within precision") == 0) {
        snprintf(
            what, sizeof what,
            "clip %u \"%s\": frames at %g Hz (doubled up to 1000 Hz) leave error %.6g at joint "
            "\"%s\" (%.4g s), over --precision %g; ask for a larger one, or keep the raw "
            "codec",
            c, clip, (double)st->rate, (double)st->error.max,
            sw_skeleton_joint_name(sc->skeleton, st->error.worst_joint),
            (double)st->error.worst_time, (double)o->precision);
    } else {
        snprintf(what, sizeof what, "clip %u \"%.80s\"%s%.150s", c, clip,
                 err->detail[0] ? ": " : "", err->detail);
    }
    memcpy(err->detail, what, sizeof what);
    cli_report("convert", in, SW_ASSET_FORMAT_NONE, r, err);
}

/* Frames clips of every clip of sc (freed by the caller with sw_clip_destroy)
 * and their figures; false after printing a failure. */
static bool cli_convert_frames(const char* in, const sw_scene* sc, const sw_frames_options* o,
                               const sw_clip** frames, sw_frames_stats* stats) {
    for (uint32_t c = 0; c < sc->clips_count; ++c) {
        const sw_clip* clip = sc->clips[c];
        if (cli_refuse_non_raw("convert", in, c, clip)) return false;
        sw_error err;
        memset(&err, 0, sizeof err);
        sw_result r = sw_frames_build(sc->skeleton, clip, o, NULL, &frames[c], &stats[c], &err);
        if (r != SW_RESULT_OK) {
            cli_convert_frames_failure(in, sc, c, o, &stats[c], r, &err);
            return false;
        }
    }
    return true;
}

/* One clip's frames figures: a line, or an element of the JSON "frames" array. */
static void convert_print_frames(bool json, uint32_t c, const char* name, const sw_frames_stats* st,
                                 float shell) {
    if (!json) {
        printf("clip %u \"%s\": frames at %g Hz (%s), %u frames, %llu -> %llu bytes, max error "
               "%.6g at shell %g\n",
               c, name, (double)st->rate, st->on_keys ? "the keys" : "resampled", st->frames_count,
               (unsigned long long)st->raw_bytes, (unsigned long long)st->frames_bytes,
               (double)st->error.max, (double)shell);
        return;
    }
    printf("%s\n  {\"name\": ", c ? "," : "");
    cli_json_string(stdout, name);
    printf(", \"rate\": ");
    cli_json_number(stdout, st->rate);
    printf(", \"on_keys\": %s, \"frames\": %u, \"raw_bytes\": %llu, \"frames_bytes\": %llu, "
           "\"max_error\": ",
           st->on_keys ? "true" : "false", st->frames_count, (unsigned long long)st->raw_bytes,
           (unsigned long long)st->frames_bytes);
    cli_json_number(stdout, st->error.max);
    printf(", \"shell\": ");
    cli_json_number(stdout, shell);
    printf("}");
}

/* The written file's report (text or JSON); stats: the frames figures or NULL. */
static void convert_print(const convert_args* a, const sw_asset* asset, const sw_scene* written,
                          const sw_frames_stats* stats) {
    const float shell = a->fo.shell > 0.0f ? a->fo.shell : 1.0f;
    if (a->json) {
        cli_json_written(stdout, a->in, cli_format_name(asset->format), a->out, written);
        printf(", \"codec\": \"%s\", \"frames\": [", stats ? "frames" : "raw");
    }
    for (uint32_t c = 0; stats && c < written->clips_count; ++c)
        convert_print_frames(a->json, c, sw_clip_name(asset->clips[c]), &stats[c], shell);
    if (a->json) {
        printf("]}\n");
    } else {
        printf("%s: %s, %u joints, %u clips, %u meshes\n", a->out, cli_format_name(asset->format),
               asset->skeleton->joints_count, written->clips_count, written->meshes_count);
    }
}

/* The asset's scene in its detail-major joint order (owned, freed with
 * sw_scene_free) into *out; false after printing a failure. */
static bool cli_convert_lod_order(const char* in, const sw_asset* asset, sw_scene* out) {
    const sw_skeleton* sk = asset->skeleton;
    uint8_t detail[SW_SKELETON_MAX_JOINTS];
    uint16_t order[SW_SKELETON_MAX_JOINTS];
    sw_crowd_joint_detail(sk, 0.0f, detail, SW_SKELETON_MAX_JOINTS);
    const sw_scene src = cli_asset_scene(asset, asset->clips, asset->clips_count);
    sw_error err = SW_ERROR_INIT;
    sw_result r =
        sw_joint_order_by_detail(sk, detail, sk->joints_count, order, sk->joints_count, &err);
    if (r == SW_RESULT_OK) r = sw_scene_reorder_joints(&src, order, NULL, out, &err);
    if (r != SW_RESULT_OK) cli_report("convert", in, asset->format, r, &err);
    return r == SW_RESULT_OK;
}

int cli_convert(int argc, char** argv) {
    convert_args a;
    memset(&a, 0, sizeof a);
    int rc = convert_parse(argc, argv, &a);
    if (rc != CLI_EXIT_OK) return rc;
    sw_asset asset;
    sw_error err;
    sw_result r = cli_asset_open(a.in, &a.opt, &asset, &err);
    if (r != SW_RESULT_OK) {
        cli_report("convert", a.in, asset.format, r, &err);
        return CLI_EXIT_FAIL;
    }
    if (asset.format == SW_ASSET_FORMAT_SINEW) {
        /* An archive may hold more than the asset exposes (other skeletons,
         * meshes): rewriting it here would drop them silently. */
        cli_error("convert",
                  "%s: already a .sinew archive (convert reads BVH, glTF and the "
                  "other imported formats; export writes archives as glTF)",
                  a.in);
        sw_asset_free(&asset);
        return CLI_EXIT_FAIL;
    }
    cli_warn_asset("convert", a.in, &asset);
    const uint32_t n = asset.clips_count;
    sw_scene ordered;
    memset(&ordered, 0, sizeof ordered);
    if (a.lod_order && !cli_convert_lod_order(a.in, &asset, &ordered)) rc = CLI_EXIT_FAIL;
    const sw_scene src = a.lod_order ? ordered : cli_asset_scene(&asset, asset.clips, n);
    const sw_clip** built = a.frames ? (const sw_clip**)calloc(n ? n : 1u, sizeof *built) : NULL;
    sw_frames_stats* stats = a.frames ? (sw_frames_stats*)calloc(n ? n : 1u, sizeof *stats) : NULL;
    if (rc == CLI_EXIT_OK && a.frames &&
        (!built || !stats || !cli_convert_frames(a.in, &src, &a.fo, built, stats))) {
        if (!built || !stats) cli_error("convert", "out of memory");
        rc = CLI_EXIT_FAIL;
    }
    sw_scene scene = src;
    if (a.frames) scene.clips = built;
    if (rc == CLI_EXIT_OK) rc = cli_write_scene("convert", a.out, &scene);
    if (rc == CLI_EXIT_OK) convert_print(&a, &asset, &scene, stats);
    free(stats);
    if (built) {
        for (uint32_t c = 0; c < n; ++c)
            sw_clip_destroy(built[c], NULL);
        free(built);
    }
    sw_scene_free(&ordered, NULL);
    sw_asset_free(&asset);
    return rc;
}
