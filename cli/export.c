/* sinew export IN -o OUT.glb|OUT.gltf|OUT.sinew [--json] [--clips A,B] [--scale S] [--isolate]
 * [--timeout MS]: writes skeleton, skinned meshes and clips in the format of
 * OUT's extension (sinew/tools/writers/output.h: glTF 2.0 for .glb and
 * .gltf; written to a temporary file and renamed, so a failure leaves no
 * output). */
#include <string.h>

#include "common.h"

int cli_export(int argc, char** argv) {
    cli_asset_args args;
    memset(&args, 0, sizeof args);
    const char* in = NULL;
    const char* out = NULL;
    bool json = false;
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
        } else if (strcmp(a, "--json") == 0) {
            json = true;
        } else if (a[0] == '-' && a[1] != '\0') {
            return cli_unknown_option("export", a);
        } else if (!in) {
            in = a;
        } else {
            cli_error("export", "one input FILE expected");
            return CLI_EXIT_USAGE;
        }
    }
    if (!in || !out) return cli_usage_error("export");
    int code = cli_output_check("export", "-o", out, SW_OUTPUT_FORMATS_ALL, &in, 1);
    if (code != CLI_EXIT_OK) return code;
    sw_asset asset;
    sw_error err;
    sw_result r = cli_asset_open(in, &args.opt, &asset, &err);
    if (r != SW_RESULT_OK) {
        cli_report("export", in, asset.format, r, &err);
        return CLI_EXIT_FAIL;
    }
    cli_warn_asset("export", in, &asset);
    /* The asset already holds only the requested clips. */
    const sw_scene scene = cli_asset_scene(&asset, asset.clips, asset.clips_count);
    code = cli_write_scene("export", out, &scene);
    if (code == CLI_EXIT_OK && json) {
        cli_json_written(stdout, in, cli_format_name(asset.format), out, &scene);
        printf("}\n");
    } else if (code == CLI_EXIT_OK) {
        printf("%s: %u joints, %u clips, %u meshes\n", out, asset.skeleton->joints_count,
               asset.clips_count, asset.meshes_count);
    }
    sw_asset_free(&asset);
    return code;
}
