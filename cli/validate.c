/* sinew validate FILE [--json] [--isolate] [--timeout MS] [--scale S] [--end-sites]
 * [--in-process] [--clips A,B]: loads with every check and reports OK or
 * the failed check. --isolate runs the reader in a child process (a crash,
 * a hang or memory exhaustion there is reported here), as import does. */
#include <string.h>

#include "common.h"

/* The JSON report: {"file", "ok", "format", then the counts and the
 * warning, or the result and the failed check}. */
static void validate_json(const char* path, const sw_asset* a, sw_result r, const sw_error* err) {
    printf("{\"file\": ");
    cli_json_string(stdout, path);
    printf(", \"ok\": %s, \"format\": \"%s\"", r == SW_RESULT_OK ? "true" : "false",
           cli_format_name(a->format));
    if (r == SW_RESULT_OK) {
        printf(", \"joints_count\": %u, \"clips_count\": %u, \"meshes_count\": %u",
               a->skeleton->joints_count, a->clips_count, a->meshes_count);
    } else {
        printf(", \"result\": \"%s\", \"check\": ", sw_result_str(r));
        cli_json_string(stdout, err->check ? err->check : "");
    }
    printf(", \"warning\": ");
    cli_json_string(stdout, a->warning);
    printf("}\n");
}

int cli_validate(int argc, char** argv) {
    const char* path = NULL;
    bool json = false;
    cli_asset_args args;
    memset(&args, 0, sizeof args);
    for (int i = 1; i < argc; ++i) {
        const int taken = cli_asset_option("validate", argc, argv, &i, &args);
        if (taken < 0) return CLI_EXIT_USAGE;
        if (taken > 0) continue;
        if (strcmp(argv[i], "--json") == 0) {
            json = true;
        } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
            return cli_unknown_option("validate", argv[i]);
        } else if (path) {
            cli_error("validate", "one FILE expected");
            return CLI_EXIT_USAGE;
        } else {
            path = argv[i];
        }
    }
    if (!path) return cli_usage_error("validate");
    sw_asset a;
    sw_error err;
    memset(&err, 0, sizeof err);
    sw_result r = cli_asset_open(path, &args.opt, &a, &err);
    if (json) validate_json(path, &a, r, &err);
    if (r != SW_RESULT_OK) {
        cli_report("validate", path, a.format, r, &err);
        return CLI_EXIT_FAIL;
    }
    cli_warn_asset("validate", path, &a);
    if (!json) {
        printf("%s: OK (%s, %u joints, %u clips, %u meshes)\n", path, cli_format_name(a.format),
               a.skeleton->joints_count, a.clips_count, a.meshes_count);
    }
    sw_asset_free(&a);
    return CLI_EXIT_OK;
}
