/* sinew mirror IN -o OUT.sinew|OUT.glb [--clips A,B] [--axis x|y|z] [--pair A,B]...
 * [asset options]: every clip mirrored (sinew/tools/builders/mirror_bake.h; the
 * meshes' bind pose as the reference when there are skinned meshes), written
 * with the skeleton and the meshes as they are. */
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "sinew/retarget/mirror.h"
#include "sinew/tools/builders/mirror_bake.h"
#include "sinew/tools/writers/gltf_export.h"

int cli_mirror(int argc, char** argv);

#define CLI__MIRROR_MAX_PAIRS 128

static const char* cli__mirror_usage =
    "usage: sinew mirror IN -o OUT.sinew|OUT.glb [--clips A,B] [--axis x|y|z] [--pair A,B]...\n"
    "       [--scale S] [--isolate] [--timeout MS]";

static bool cli__ends_with(const char* s, const char* suffix) {
    size_t n = strlen(s), m = strlen(suffix);
    if (m > n) return false;
    for (size_t i = 0; i < m; ++i) {
        char a = s[n - m + i];
        if (a >= 'A' && a <= 'Z') a = (char)(a - 'A' + 'a');
        if (a != suffix[i]) return false;
    }
    return true;
}

int cli_mirror(int argc, char** argv) {
    const char* in = NULL;
    const char* out = NULL;
    cli_asset_args aa;
    memset(&aa, 0, sizeof aa);
    sw_mirror_desc md;
    memset(&md, 0, sizeof md);
    sw_mirror_pair pairs[CLI__MIRROR_MAX_PAIRS];
    char* pair_text[CLI__MIRROR_MAX_PAIRS];
    uint32_t pairs_count = 0;
    int rc = CLI_EXIT_OK;
    for (int i = 1; i < argc && rc == CLI_EXIT_OK; ++i) {
        const char* a = argv[i];
        int used = cli_asset_option("mirror", argc, argv, &i, &aa);
        if (used < 0) {
            rc = CLI_EXIT_USAGE;
            break;
        }
        if (used > 0) continue;
        if (strcmp(a, "-o") == 0 || strcmp(a, "--output") == 0 || strcmp(a, "--axis") == 0 ||
            strcmp(a, "--pair") == 0) {
            if (i + 1 >= argc) {
                cli_error("mirror", "%s needs a value", a);
                rc = CLI_EXIT_USAGE;
                break;
            }
            const char* v = argv[++i];
            if (a[1] == 'o' || strcmp(a, "--output") == 0) {
                out = v;
            } else if (strcmp(a, "--axis") == 0) {
                if (strcmp(v, "x") == 0 || strcmp(v, "X") == 0)
                    md.axis = SW_MIRROR_AXIS_X;
                else if (strcmp(v, "y") == 0 || strcmp(v, "Y") == 0)
                    md.axis = SW_MIRROR_AXIS_Y;
                else if (strcmp(v, "z") == 0 || strcmp(v, "Z") == 0)
                    md.axis = SW_MIRROR_AXIS_Z;
                else {
                    cli_error("mirror", "--axis needs x, y or z, got \"%s\"", v);
                    rc = CLI_EXIT_USAGE;
                }
            } else {
                const char* comma = strchr(v, ',');
                if (!comma || comma == v || comma[1] == '\0' || strchr(comma + 1, ',')) {
                    cli_error("mirror", "--pair needs two joint names A,B, got \"%s\"", v);
                    rc = CLI_EXIT_USAGE;
                } else if (pairs_count == CLI__MIRROR_MAX_PAIRS) {
                    cli_error("mirror", "at most %d --pair options", CLI__MIRROR_MAX_PAIRS);
                    rc = CLI_EXIT_USAGE;
                } else {
                    char* t = (char*)malloc(strlen(v) + 1);
                    if (!t) {
                        cli_error("mirror", "out of memory");
                        rc = CLI_EXIT_FAIL;
                        break;
                    }
                    memcpy(t, v, strlen(v) + 1);
                    t[comma - v] = '\0';
                    pair_text[pairs_count] = t;
                    pairs[pairs_count].a = t;
                    pairs[pairs_count].b = t + (comma - v) + 1;
                    ++pairs_count;
                }
            }
        } else if (a[0] == '-' && a[1] != '\0') {
            cli_error("mirror", "unknown option \"%s\"", a);
            rc = CLI_EXIT_USAGE;
        } else if (!in) {
            in = a;
        } else {
            cli_error("mirror", "one input FILE expected");
            rc = CLI_EXIT_USAGE;
        }
    }
    if (rc == CLI_EXIT_OK && (!in || !out)) {
        cli_error("mirror", "%s", cli__mirror_usage);
        rc = CLI_EXIT_USAGE;
    }
    if (rc != CLI_EXIT_OK) {
        for (uint32_t p = 0; p < pairs_count; ++p)
            free(pair_text[p]);
        return rc;
    }
    sw_asset asset;
    sw_error err;
    memset(&err, 0, sizeof err);
    sw_result r = cli_asset_open(in, &aa.opt, &asset, &err);
    if (r != SW_RESULT_OK) {
        cli_report("mirror", in, asset.format, r, &err);
        for (uint32_t p = 0; p < pairs_count; ++p)
            free(pair_text[p]);
        return CLI_EXIT_FAIL;
    }
    cli_warn_asset("mirror", in, &asset);
    for (uint32_t c = 0; c < asset.clips_count; ++c) {
        if (cli_refuse_non_raw("mirror", in, c, asset.clips[c])) {
            sw_asset_free(&asset);
            for (uint32_t p = 0; p < pairs_count; ++p)
                free(pair_text[p]);
            return CLI_EXIT_FAIL;
        }
    }
    md.skeleton = asset.skeleton;
    md.pairs = pairs;
    md.pairs_count = pairs_count;
    /* Skinned meshes mirror as meshes with their bind pose as the reference. */
    sw_mat4* frames = (sw_mat4*)malloc(sizeof(sw_mat4) * asset.skeleton->joints_count);
    if (frames && asset.meshes_count &&
        sw_mirror_bind_frames(asset.skeleton, asset.meshes, asset.meshes_count, frames,
                              asset.skeleton->joints_count) == SW_RESULT_OK) {
        md.frames = frames;
        md.frames_count = asset.skeleton->joints_count;
    }
    const sw_mirror* mirror = NULL;
    r = sw_mirror_create(&md, NULL, &mirror, &err);
    free(frames);
    const uint32_t n = asset.clips_count;
    const sw_clip** clips = (const sw_clip**)calloc(n ? n : 1u, sizeof *clips);
    if (r != SW_RESULT_OK) {
        if (err.index >= 0 && (uint64_t)err.index < pairs_count && r != SW_RESULT_BAD_DATA)
            cli_error("mirror", "%s: --pair %s,%s: %s (%s)", in, pairs[err.index].a,
                      pairs[err.index].b, sw_result_str(r), err.check ? err.check : "?");
        else if (r == SW_RESULT_BAD_DATA && err.index >= 0 &&
                 strcmp(err.check, "twin of parent is parent of twin") == 0)
            cli_error("mirror", "%s: joint %s: %s (%s); give its twin with --pair", in,
                      sw_skeleton_joint_name(asset.skeleton, (uint32_t)err.index), sw_result_str(r),
                      err.check);
        else
            cli_report("mirror", in, asset.format, r, &err);
        rc = CLI_EXIT_FAIL;
    } else if (!clips) {
        cli_error("mirror", "out of memory");
        rc = CLI_EXIT_FAIL;
    }
    for (uint32_t c = 0; c < n && rc == CLI_EXIT_OK; ++c) {
        r = sw_mirror_bake_clip(asset.skeleton, mirror, asset.clips[c], NULL, NULL, &clips[c],
                                &err);
        if (r != SW_RESULT_OK) {
            cli_error("mirror", "%s: clip %u (%s): %s (%s)", in, c, sw_clip_name(asset.clips[c]),
                      sw_result_str(r), err.check ? err.check : "?");
            rc = CLI_EXIT_FAIL;
        }
    }
    if (rc == CLI_EXIT_OK && (cli__ends_with(out, ".glb") || cli__ends_with(out, ".gltf"))) {
        sw_scene scene;
        memset(&scene, 0, sizeof scene);
        scene.skeleton = asset.skeleton;
        scene.clips = clips;
        scene.clips_count = n;
        scene.meshes = (const sw_mesh**)(uintptr_t)asset.meshes;
        scene.meshes_count = asset.meshes_count;
        r = sw_gltf_export_file(&scene, NULL, out, &err);
        if (r != SW_RESULT_OK) {
            cli_report("mirror", out, SW_ASSET_FORMAT_NONE, r, &err);
            rc = CLI_EXIT_FAIL;
        }
    } else if (rc == CLI_EXIT_OK) {
        rc = cli_write_asset_archive("mirror", out, &asset, clips, n);
    }
    if (rc == CLI_EXIT_OK) {
        static const char axes[] = "?XYZ";
        printf("%s: %u joints, %u twin pairs, plane normal %c, %u clips mirrored, %u meshes\n", out,
               asset.skeleton->joints_count, mirror->pairs_count, axes[mirror->axis & 3u], n,
               asset.meshes_count);
    }
    for (uint32_t c = 0; c < n && clips; ++c)
        sw_clip_destroy(clips[c], NULL);
    free(clips);
    sw_mirror_destroy(mirror, NULL);
    sw_asset_free(&asset);
    for (uint32_t p = 0; p < pairs_count; ++p)
        free(pair_text[p]);
    return rc;
}
