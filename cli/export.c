/* sinew export IN -o OUT.glb [--clips A,B] [--scale S] [--isolate] [--timeout MS]:
 * writes skeleton, skinned meshes and clips as glTF 2.0 binary (written to a
 * temporary file and renamed, so a failure leaves no output). */
#include <string.h>

#include "common.h"
#include "sinew/tools/writers/gltf_export.h"

int cli_export(int argc, char** argv) {
    cli_asset_args args;
    memset(&args, 0, sizeof args);
    const char* in = NULL;
    const char* out = NULL;
    for (int i = 1; i < argc; ++i) {
        const char* a = argv[i];
        int used = cli_asset_option("export", argc, argv, &i, &args);
        if (used < 0) return CLI_EXIT_USAGE;
        if (used) continue;
        if (strcmp(a, "-o") == 0 || strcmp(a, "--output") == 0) {
            if (i + 1 >= argc) {
                cli_error("export", "%s needs a path", a);
                return CLI_EXIT_USAGE;
            }
            out = argv[++i];
        } else if (a[0] == '-' && a[1] != '\0') {
            cli_error("export", "unknown option \"%s\"", a);
            return CLI_EXIT_USAGE;
        } else if (!in) {
            in = a;
        } else {
            cli_error("export", "one input FILE expected");
            return CLI_EXIT_USAGE;
        }
    }
    if (!in || !out) {
        cli_error("export", "usage: sinew export IN -o OUT.glb [--clips A,B] [--scale S] "
                            "[--isolate] [--timeout MS]");
        return CLI_EXIT_USAGE;
    }
    sw_asset asset;
    sw_error err;
    sw_result r = cli_asset_open(in, &args.opt, &asset, &err);
    if (r != SW_RESULT_OK) {
        cli_report("export", in, asset.format, r, &err);
        return CLI_EXIT_FAIL;
    }
    cli_warn_asset("export", in, &asset);
    /* The asset already holds only the requested clips. */
    sw_scene scene;
    memset(&scene, 0, sizeof scene);
    scene.skeleton = asset.skeleton;
    scene.clips = (const sw_clip**)(uintptr_t)asset.clips;
    scene.clips_count = asset.clips_count;
    scene.meshes = (const sw_mesh**)(uintptr_t)asset.meshes;
    scene.meshes_count = asset.meshes_count;
    r = sw_gltf_export_file(&scene, NULL, out, &err);
    int code = CLI_EXIT_OK;
    if (r != SW_RESULT_OK) {
        cli_report("export", out, SW_ASSET_FORMAT_NONE, r, &err);
        code = CLI_EXIT_FAIL;
    } else {
        printf("%s: %u joints, %u clips, %u meshes\n", out, asset.skeleton->joints_count,
               asset.clips_count, asset.meshes_count);
    }
    sw_asset_free(&asset);
    return code;
}
