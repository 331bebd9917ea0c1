/* sinew validate FILE [--isolate] [--timeout MS] [--scale S] [--end-sites]
 * [--in-process] [--clips A,B]: loads with every check and reports OK or
 * the failed check. --isolate runs the reader in a child process (a crash,
 * a hang or memory exhaustion there is reported here), as import does. */
#include <string.h>

#include "common.h"

int cli_validate(int argc, char** argv) {
    const char* path = NULL;
    cli_asset_args args;
    memset(&args, 0, sizeof args);
    for (int i = 1; i < argc; ++i) {
        const int taken = cli_asset_option("validate", argc, argv, &i, &args);
        if (taken < 0) return CLI_EXIT_USAGE;
        if (taken > 0) continue;
        if (argv[i][0] == '-' && argv[i][1] != '\0') {
            cli_error("validate", "unknown option \"%s\"", argv[i]);
            return CLI_EXIT_USAGE;
        }
        if (path) {
            cli_error("validate", "one FILE expected");
            return CLI_EXIT_USAGE;
        }
        path = argv[i];
    }
    if (!path) {
        cli_error("validate", "usage: sinew validate FILE [--isolate] [--timeout MS] [--scale S] "
                              "[--end-sites] [--in-process] [--clips A,B]");
        return CLI_EXIT_USAGE;
    }
    sw_asset a;
    sw_error err;
    sw_result r = cli_asset_open(path, &args.opt, &a, &err);
    if (r != SW_RESULT_OK) {
        cli_report("validate", path, a.format, r, &err);
        return CLI_EXIT_FAIL;
    }
    cli_warn_asset("validate", path, &a);
    printf("%s: OK (%s, %u joints, %u clips, %u meshes)\n", path, cli_format_name(a.format),
           a.skeleton->joints_count, a.clips_count, a.meshes_count);
    sw_asset_free(&a);
    return CLI_EXIT_OK;
}
