/* sinew mirror IN -o OUT.sinew|OUT.glb|OUT.gltf [--json] [--clips A,B] [--axis x|y|z]
 * [--pair A,B]... [asset options]: every clip mirrored
 * (sinew/tools/builders/mirror_bake.h; the meshes' bind pose as the
 * reference when there are skinned meshes), written with the skeleton and
 * the meshes as they are, in the format of OUT's extension. */
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "sinew/retarget/mirror.h"
#include "sinew/tools/builders/mirror_bake.h"

int cli_mirror(int argc, char** argv);

#define CLI__MIRROR_MAX_PAIRS 128

typedef struct mirror_args {
    const char* in;
    const char* out;
    bool json;
    cli_asset_args asset;
    sw_mirror_axis axis;
    sw_mirror_pair pairs[CLI__MIRROR_MAX_PAIRS]; /* names point into argv */
    uint32_t pairs_count;
} mirror_args;

/* "--axis V": x, y or z in either case. */
static int mirror_parse_axis(const char* v, sw_mirror_axis* out) {
    const char c = v[0] != '\0' && v[1] == '\0' ? (char)(v[0] | 0x20) : '\0';
    if (c < 'x' || c > 'z') {
        cli_error("mirror", "--axis needs x, y or z, got \"%s\"", v);
        return CLI_EXIT_USAGE;
    }
    *out = c == 'x' ? SW_MIRROR_AXIS_X : c == 'y' ? SW_MIRROR_AXIS_Y : SW_MIRROR_AXIS_Z;
    return CLI_EXIT_OK;
}

/* "--pair A,B": split in place (argv strings are the program's). */
static int mirror_parse_pair(char* v, mirror_args* a) {
    char* comma = strchr(v, ',');
    if (!comma || comma == v || comma[1] == '\0' || strchr(comma + 1, ',')) {
        cli_error("mirror", "--pair needs two joint names A,B, got \"%s\"", v);
        return CLI_EXIT_USAGE;
    }
    if (a->pairs_count == CLI__MIRROR_MAX_PAIRS) {
        cli_error("mirror", "at most %d --pair options", CLI__MIRROR_MAX_PAIRS);
        return CLI_EXIT_USAGE;
    }
    *comma = '\0';
    a->pairs[a->pairs_count].a = v;
    a->pairs[a->pairs_count].b = comma + 1;
    ++a->pairs_count;
    return CLI_EXIT_OK;
}

static int mirror_parse(int argc, char** argv, mirror_args* a) {
    for (int i = 1; i < argc; ++i) {
        const char* s = argv[i];
        const int used = cli_asset_option("mirror", argc, argv, &i, &a->asset);
        if (used < 0) return CLI_EXIT_USAGE;
        if (used > 0) continue;
        const bool valued = strcmp(s, "-o") == 0 || strcmp(s, "--output") == 0 ||
                            strcmp(s, "--axis") == 0 || strcmp(s, "--pair") == 0;
        int rc = CLI_EXIT_OK;
        if (valued && i + 1 >= argc) {
            cli_error("mirror", "%s needs a value", s);
            return CLI_EXIT_USAGE;
        } else if (strcmp(s, "--axis") == 0) {
            rc = mirror_parse_axis(argv[++i], &a->axis);
        } else if (strcmp(s, "--pair") == 0) {
            rc = mirror_parse_pair(argv[++i], a);
        } else if (valued) {
            a->out = argv[++i];
        } else if (strcmp(s, "--json") == 0) {
            a->json = true;
        } else if (s[0] == '-' && s[1] != '\0') {
            return cli_unknown_option("mirror", s);
        } else if (!a->in) {
            a->in = s;
        } else {
            cli_error("mirror", "one input FILE expected");
            return CLI_EXIT_USAGE;
        }
        if (rc != CLI_EXIT_OK) return rc;
    }
    if (!a->in || !a->out) return cli_usage_error("mirror");
    return cli_output_check("mirror", "-o", a->out, SW_OUTPUT_FORMATS_ALL, &a->in, 1);
}

/* The mirror of the asset's skeleton (its meshes' bind pose as the
 * reference when it has skinned meshes); prints the failure. */
static int mirror_create(const mirror_args* a, const sw_asset* asset, const sw_mirror** out) {
    sw_mirror_desc md;
    memset(&md, 0, sizeof md);
    md.skeleton = asset->skeleton;
    md.axis = a->axis;
    md.pairs = a->pairs;
    md.pairs_count = a->pairs_count;
    const uint32_t joints = asset->skeleton->joints_count;
    sw_mat4* frames = (sw_mat4*)malloc(sizeof(sw_mat4) * joints);
    if (frames && asset->meshes_count &&
        sw_mirror_bind_frames(asset->skeleton, asset->meshes, asset->meshes_count, frames,
                              joints) == SW_RESULT_OK) {
        md.frames = frames;
        md.frames_count = joints;
    }
    sw_error err;
    memset(&err, 0, sizeof err);
    const sw_result r = sw_mirror_create(&md, NULL, out, &err);
    free(frames);
    if (r == SW_RESULT_OK) return CLI_EXIT_OK;
    if (err.index >= 0 && (uint64_t)err.index < a->pairs_count && r != SW_RESULT_BAD_DATA) {
        cli_error("mirror", "%s: --pair %s,%s: %s (%s)", a->in, a->pairs[err.index].a,
                  a->pairs[err.index].b, sw_result_str(r), err.check ? err.check : "?");
    } else if (r == SW_RESULT_BAD_DATA && err.index >= 0 && err.check &&
               strcmp(err.check, "twin of parent is parent of twin") == 0) {
        cli_error("mirror", "%s: joint %s: %s (%s); give its twin with --pair", a->in,
                  sw_skeleton_joint_name(asset->skeleton, (uint32_t)err.index), sw_result_str(r),
                  err.check);
    } else {
        cli_report("mirror", a->in, asset->format, r, &err);
    }
    return CLI_EXIT_FAIL;
}

/* Every clip mirrored into clips (n entries, zeroed); prints the failure. */
static int mirror_bake(const char* in, const sw_asset* asset, const sw_mirror* mirror,
                       const sw_clip** clips) {
    for (uint32_t c = 0; c < asset->clips_count; ++c) {
        if (cli_refuse_non_raw("mirror", in, c, asset->clips[c])) return CLI_EXIT_FAIL;
    }
    for (uint32_t c = 0; c < asset->clips_count; ++c) {
        sw_error err;
        memset(&err, 0, sizeof err);
        const sw_result r = sw_mirror_bake_clip(asset->skeleton, mirror, asset->clips[c], NULL,
                                                NULL, &clips[c], &err);
        if (r != SW_RESULT_OK) {
            cli_error("mirror", "%s: clip %u (%s): %s (%s)", in, c, sw_clip_name(asset->clips[c]),
                      sw_result_str(r), err.check ? err.check : "?");
            return CLI_EXIT_FAIL;
        }
    }
    return CLI_EXIT_OK;
}

static void mirror_print(const mirror_args* a, const sw_asset* asset, const sw_mirror* mirror,
                         const sw_scene* written) {
    static const char axes[] = "?XYZ";
    if (a->json) {
        cli_json_written(stdout, a->in, cli_format_name(asset->format), a->out, written);
        printf(", \"axis\": \"%c\", \"pairs_count\": %u}\n", axes[mirror->axis & 3u],
               mirror->pairs_count);
        return;
    }
    printf("%s: %u joints, %u twin pairs, plane normal %c, %u clips mirrored, %u meshes\n", a->out,
           asset->skeleton->joints_count, mirror->pairs_count, axes[mirror->axis & 3u],
           written->clips_count, written->meshes_count);
}

int cli_mirror(int argc, char** argv) {
    mirror_args a;
    memset(&a, 0, sizeof a);
    int rc = mirror_parse(argc, argv, &a);
    if (rc != CLI_EXIT_OK) return rc;
    sw_asset asset;
    sw_error err;
    memset(&err, 0, sizeof err);
    const sw_result r = cli_asset_open(a.in, &a.asset.opt, &asset, &err);
    if (r != SW_RESULT_OK) {
        cli_report("mirror", a.in, asset.format, r, &err);
        return CLI_EXIT_FAIL;
    }
    cli_warn_asset("mirror", a.in, &asset);
    const sw_mirror* mirror = NULL;
    const uint32_t n = asset.clips_count;
    const sw_clip** clips = (const sw_clip**)calloc(n ? n : 1u, sizeof *clips);
    rc = clips ? mirror_create(&a, &asset, &mirror) : CLI_EXIT_FAIL;
    if (!clips) cli_error("mirror", "out of memory");
    if (rc == CLI_EXIT_OK) rc = mirror_bake(a.in, &asset, mirror, clips);
    const sw_scene scene = cli_asset_scene(&asset, clips, n);
    if (rc == CLI_EXIT_OK) rc = cli_write_scene("mirror", a.out, &scene);
    if (rc == CLI_EXIT_OK) mirror_print(&a, &asset, mirror, &scene);
    for (uint32_t c = 0; c < n && clips; ++c)
        sw_clip_destroy(clips[c], NULL);
    free(clips);
    sw_mirror_destroy(mirror, NULL);
    sw_asset_free(&asset);
    return rc;
}
