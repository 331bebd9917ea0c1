/* sinew import IN -o OUT.sinew|OUT.glb|OUT.gltf [--json] [--clips A,B] [--scale S] [--isolate]
 *              [--timeout MS]
 * sinew import --batch PATH... [-o OUTDIR] [--json] [--timeout MS] [--clips ...] [--scale S]
 *
 * Imports any readable file (see sinew/tools/readers/asset.h) with its
 * skeleton, clips and meshes, in the format of OUT's extension
 * (sinew/tools/writers/output.h: written to a temporary file and renamed, so
 * a failure leaves no output). Batch mode imports every model file under the
 * given folders (by extension; others are listed as skipped) and the given
 * files, each in a child process with a time limit, and prints one line per
 * file (OUTDIR receives .sinew archives). */
#define _POSIX_C_SOURCE 200809L

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "common.h"

#define IMPORT_BATCH_TIMEOUT_MS 10000u

/* ---- batch ------------------------------------------------------------------ */

typedef struct path_list {
    char** items;
    size_t count, cap;
} path_list;

static bool list_add(path_list* l, const char* path) {
    if (l->count == l->cap) {
        size_t cap = l->cap ? 2u * l->cap : 64u;
        char** grown = (char**)realloc(l->items, cap * sizeof(char*));
        if (!grown) return false;
        l->items = grown;
        l->cap = cap;
    }
    size_t n = strlen(path) + 1u;
    char* copy = (char*)malloc(n);
    if (!copy) return false;
    memcpy(copy, path, n);
    l->items[l->count++] = copy;
    return true;
}

static void list_free(path_list* l) {
    for (size_t i = 0; i < l->count; ++i)
        free(l->items[i]);
    free(l->items);
    memset(l, 0, sizeof *l);
}

static int cmp_str(const void* a, const void* b) {
    return strcmp(*(char* const*)a, *(char* const*)b);
}

/* Adds the regular files under `path` (recursively, sorted), or `path`
 * itself when it is a file. Files found in folders whose extension no
 * reader knows go to `skipped`. Symbolic links to folders are not followed. */
static bool collect(const char* path, const sw_asset_options* opt, path_list* out,
                    path_list* skipped, int depth) {
    struct stat st;
    if (stat(path, &st) != 0) return list_add(out, path); /* reported when opened */
    if (!S_ISDIR(st.st_mode)) {
        if (depth == 0 || sw_asset_extension_known(path, opt)) return list_add(out, path);
        return list_add(skipped, path);
    }
    if (depth > 32) return true;
    DIR* d = opendir(path);
    if (!d) return list_add(out, path);
    path_list names = {0};
    bool ok = true;
    for (struct dirent* e = readdir(d); e && ok; e = readdir(d)) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
        ok = list_add(&names, e->d_name);
    }
    closedir(d);
    if (names.count) qsort(names.items, names.count, sizeof(char*), cmp_str);
    for (size_t i = 0; i < names.count && ok; ++i) {
        size_t n = strlen(path) + strlen(names.items[i]) + 2u;
        char* child = (char*)malloc(n);
        if (!child) {
            ok = false;
            break;
        }
        snprintf(child, n, "%s/%s", path, names.items[i]);
        struct stat cs;
        if (lstat(child, &cs) == 0 && S_ISLNK(cs.st_mode) && stat(child, &cs) == 0 &&
            S_ISDIR(cs.st_mode)) {
            free(child);
            continue;
        }
        ok = collect(child, opt, out, skipped, depth + 1);
        free(child);
    }
    list_free(&names);
    return ok;
}

static double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* OUTDIR/<path with '/' turned into '_'>.sinew */
static void batch_out_path(const char* dir, const char* path, char* buf, size_t cap) {
    int n = snprintf(buf, cap, "%s/", dir);
    size_t at = n > 0 ? (size_t)n : 0u;
    for (const char* p = path; *p && at + 7u < cap; ++p) {
        buf[at++] = (*p == '/' || *p == '\\') ? '_' : *p;
    }
    snprintf(buf + at, cap - at, ".sinew");
}

/* One batch entry: a line, or an element of the JSON "files" array. */
static void batch_print(bool json, bool first, const char* path, const char* status,
                        const sw_asset* a, const char* detail, double ms) {
    if (!json) {
        printf("%-5s %s: ", status, path);
        if (a && strcmp(status, "ok") == 0) {
            printf("%s, %u joints, %u clips, %u meshes", cli_format_name(a->format),
                   a->skeleton->joints_count, a->clips_count, a->meshes_count);
        } else {
            if (a) printf("%s: ", cli_format_name(a->format));
            /* One line: assimp messages may hold newlines. */
            for (const char* p = detail; *p; ++p)
                putchar(*p == '\n' || *p == '\r' ? ' ' : *p);
        }
        if (ms >= 0.0) printf(" (%.0f ms)", ms);
        putchar('\n');
        return;
    }
    printf("%s\n  {\"file\": ", first ? "" : ",");
    cli_json_string(stdout, path);
    printf(", \"status\": \"%s\"", status);
    if (a) printf(", \"format\": \"%s\"", cli_format_name(a->format));
    if (a && strcmp(status, "ok") == 0) {
        printf(", \"joints_count\": %u, \"clips_count\": %u, \"meshes_count\": %u",
               a->skeleton->joints_count, a->clips_count, a->meshes_count);
    } else {
        printf(", \"reason\": ");
        cli_json_string(stdout, detail);
    }
    if (ms >= 0.0) {
        printf(", \"ms\": ");
        cli_json_number(stdout, ms);
    }
    printf("}");
}

/* Imports one file of a batch (into out_dir when given); returns true when it went. */
static bool batch_one(const char* path, const char* out_dir, const sw_asset_options* opt, bool json,
                      bool first) {
    const double t0 = now_seconds();
    sw_asset a;
    sw_error err = SW_ERROR_INIT;
    sw_result r = cli_asset_open(path, opt, &a, &err);
    if (r == SW_RESULT_OK && out_dir) {
        char out[4096];
        batch_out_path(out_dir, path, out, sizeof out);
        r = sw_output_check(out, SW_OUTPUT_FORMAT_SINEW, &path, 1, NULL, &err);
        if (r == SW_RESULT_OK) {
            const sw_scene scene = cli_asset_scene(&a, a.clips, a.clips_count);
            r = sw_output_write(&scene, out, &err);
        }
    }
    const double ms = 1000.0 * (now_seconds() - t0);
    if (r == SW_RESULT_OK) {
        batch_print(json, first, path, "ok", &a, "", ms);
        sw_asset_free(&a);
        return true;
    }
    char detail[512];
    int n = snprintf(detail, sizeof detail, "%s", sw_result_str(r));
    if (err.check && n > 0 && (size_t)n < sizeof detail)
        n += snprintf(detail + n, sizeof detail - (size_t)n, " (check \"%s\")", err.check);
    if (a.warning[0] && n > 0 && (size_t)n < sizeof detail)
        snprintf(detail + n, sizeof detail - (size_t)n, ": %s", a.warning);
    batch_print(json, first, path, "fail", &a, detail, ms);
    return false;
}

static int import_batch(const path_list* inputs, const char* out_dir, cli_asset_args* args,
                        bool json) {
    sw_asset_options opt = args->opt;
    cli_asset_readers(&opt);
    path_list files = {0}, skipped = {0};
    for (size_t i = 0; i < inputs->count; ++i) {
        if (!collect(inputs->items[i], &opt, &files, &skipped, 0)) {
            cli_error("import", "out of memory listing %s", inputs->items[i]);
            list_free(&files);
            list_free(&skipped);
            return CLI_EXIT_FAIL;
        }
    }
    opt.isolate = true;
    if (opt.timeout_ms == 0) opt.timeout_ms = IMPORT_BATCH_TIMEOUT_MS;
    size_t ok = 0;
    const double start = now_seconds();
    if (json) printf("{\"files\": [");
    for (size_t i = 0; i < files.count; ++i) {
        ok += batch_one(files.items[i], out_dir, &opt, json, i == 0);
        fflush(stdout);
    }
    for (size_t i = 0; i < skipped.count; ++i)
        batch_print(json, files.count + i == 0, skipped.items[i], "skip", NULL,
                    "not a model file extension", -1.0);
    const double seconds = now_seconds() - start;
    if (json) {
        printf("\n ], \"imported\": %zu, \"failed\": %zu, \"skipped\": %zu, \"seconds\": ", ok,
               files.count - ok, skipped.count);
        cli_json_number(stdout, seconds);
        printf("}\n");
    } else {
        printf("%zu files: %zu imported, %zu failed, %zu skipped, %.1f s\n",
               files.count + skipped.count, ok, files.count - ok, skipped.count, seconds);
    }
    const int code = ok == files.count ? CLI_EXIT_OK : CLI_EXIT_FAIL;
    list_free(&files);
    list_free(&skipped);
    return code;
}

/* ---- verb ------------------------------------------------------------------- */

typedef struct import_args {
    cli_asset_args asset;
    const char* out;
    bool batch, json;
    path_list inputs;
} import_args;

static int import_parse(int argc, char** argv, import_args* a) {
    for (int i = 1; i < argc; ++i) {
        const char* s = argv[i];
        int used = cli_asset_option("import", argc, argv, &i, &a->asset);
        if (used < 0) return CLI_EXIT_USAGE;
        if (used) continue;
        if (strcmp(s, "-o") == 0 || strcmp(s, "--output") == 0) {
            if (i + 1 >= argc) {
                cli_error("import", "%s needs a path", s);
                return CLI_EXIT_USAGE;
            }
            a->out = argv[++i];
        } else if (strcmp(s, "--batch") == 0) {
            a->batch = true;
        } else if (strcmp(s, "--json") == 0) {
            a->json = true;
        } else if (s[0] == '-' && s[1] != '\0') {
            return cli_unknown_option("import", s);
        } else if (!list_add(&a->inputs, s)) {
            cli_error("import", "out of memory");
            return CLI_EXIT_FAIL;
        }
    }
    if (a->inputs.count == 0 || (!a->batch && (a->inputs.count != 1 || !a->out)))
        return cli_usage_error("import");
    if (!a->batch) {
        return cli_output_check("import", "-o", a->out, SW_OUTPUT_FORMATS_ALL,
                                (const char* const*)a->inputs.items, 1);
    }
    struct stat st;
    if (a->out && (stat(a->out, &st) != 0 || !S_ISDIR(st.st_mode))) {
        cli_error("import", "--batch: -o must be an existing folder");
        return CLI_EXIT_USAGE;
    }
    return CLI_EXIT_OK;
}

static int import_one(const import_args* a) {
    const char* in = a->inputs.items[0];
    sw_asset asset;
    sw_error err;
    sw_result r = cli_asset_open(in, &a->asset.opt, &asset, &err);
    if (r != SW_RESULT_OK) {
        cli_report("import", in, asset.format, r, &err);
        return CLI_EXIT_FAIL;
    }
    cli_warn_asset("import", in, &asset);
    const sw_scene scene = cli_asset_scene(&asset, asset.clips, asset.clips_count);
    const int code = cli_write_scene("import", a->out, &scene);
    if (code == CLI_EXIT_OK && a->json) {
        cli_json_written(stdout, in, cli_format_name(asset.format), a->out, &scene);
        printf("}\n");
    } else if (code == CLI_EXIT_OK) {
        printf("%s: %s, %u joints, %u clips, %u meshes\n", a->out, cli_format_name(asset.format),
               asset.skeleton->joints_count, asset.clips_count, asset.meshes_count);
    }
    sw_asset_free(&asset);
    return code;
}

int cli_import(int argc, char** argv) {
    import_args a;
    memset(&a, 0, sizeof a);
    int code = import_parse(argc, argv, &a);
    if (code == CLI_EXIT_OK)
        code = a.batch ? import_batch(&a.inputs, a.out, &a.asset, a.json) : import_one(&a);
    list_free(&a.inputs);
    return code;
}
