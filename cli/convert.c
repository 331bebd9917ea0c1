/* sinew convert IN.bvh -o OUT.sinew [--scale S] [--end-sites]: writes a .sinew archive. */
#include <string.h>

#include "common.h"
#include "sinew/tools/archive_writer.h"

int cli_convert(int argc, char** argv) {
    const char* in = NULL;
    const char* out = NULL;
    sw_asset_options opt;
    memset(&opt, 0, sizeof opt);
    for (int i = 1; i < argc; ++i) {
        const char* a = argv[i];
        if (strcmp(a, "-o") == 0 || strcmp(a, "--output") == 0) {
            if (i + 1 >= argc) {
                cli_error("convert", "%s needs a path", a);
                return CLI_EXIT_USAGE;
            }
            out = argv[++i];
        } else if (strcmp(a, "--scale") == 0) {
            if (i + 1 >= argc || !cli_parse_scale("convert", argv[i + 1], &opt.scale)) {
                if (i + 1 >= argc) cli_error("convert", "--scale needs a number");
                return CLI_EXIT_USAGE;
            }
            ++i;
        } else if (strcmp(a, "--end-sites") == 0) {
            opt.end_sites = true;
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
        cli_error("convert", "usage: sinew convert IN.bvh -o OUT.sinew [--scale S] [--end-sites]");
        return CLI_EXIT_USAGE;
    }
    sw_asset asset;
    sw_error err;
    sw_result r = sw_asset_open(in, &opt, &asset, &err);
    if (r != SW_RESULT_OK) {
        cli_report("convert", in, asset.format, r, &err);
        return CLI_EXIT_FAIL;
    }
    if (asset.format != SW_ASSET_FORMAT_BVH) {
        /* An archive may hold more than the asset exposes (other skeletons,
         * meshes): rewriting it here would drop them silently. */
        cli_error("convert", "%s: already a .sinew archive (convert reads BVH)", in);
        sw_asset_free(&asset);
        return CLI_EXIT_FAIL;
    }
    cli_warn_asset("convert", in, &asset);
    const sw_skeleton* skeletons[1] = {asset.skeleton};
    sw_archive_contents contents;
    memset(&contents, 0, sizeof contents);
    contents.skeletons = skeletons;
    contents.skeletons_count = 1;
    contents.clips = asset.clips;
    contents.clips_count = asset.clips_count;
    r = sw_archive_write_file(&contents, out, &err);
    sw_asset_free(&asset);
    if (r != SW_RESULT_OK) {
        cli_report("convert", out, SW_ASSET_FORMAT_SINEW, r, &err);
        return CLI_EXIT_FAIL;
    }
    return CLI_EXIT_OK;
}
