/* sinew import IN -o OUT.sinew [--clips A,B] [--scale S] [--isolate] [--timeout MS]
 * sinew import --batch PATH... [-o OUTDIR] [--timeout MS] [--clips ...] [--scale S]
 *
 * Imports any readable file (see sinew/tools/readers/asset.h) into a .sinew archive
 * with its skeleton, clips and meshes; the archive is written to a temporary
 * file and renamed, so a failure leaves no output. Batch mode imports every
 * file under the given folders (and the given files), each in a child
 * process with a time limit, and prints one line per file. */
#define _POSIX_C_SOURCE 200809L

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "common.h"
#include "sinew/tools/writers/archive_writer.h"

#define IMPORT_BATCH_TIMEOUT_MS 10000u

static sw_result import_write(const sw_asset* a, const char* out, sw_error* err) {
    const sw_skeleton* skeletons[1] = {a->skeleton};
    sw_archive_contents k;
    memset(&k, 0, sizeof k);
    k.skeletons = skeletons;
    k.skeletons_count = 1;
    k.clips = a->clips;
    k.clips_count = a->clips_count;
    k.meshes = a->meshes;
    k.meshes_count = a->meshes_count;
    return sw_archive_write_file(&k, out, err);
}

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
 * itself when it is a file. Symbolic links to folders are not followed. */
static bool collect(const char* path, path_list* out, int depth) {
    struct stat st;
    if (stat(path, &st) != 0) return list_add(out, path); /* reported when opened */
    if (!S_ISDIR(st.st_mode)) return list_add(out, path);
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
        ok = collect(child, out, depth + 1);
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

static int import_batch(const path_list* inputs, const char* out_dir, cli_asset_args* args) {
    path_list files = {0};
    for (size_t i = 0; i < inputs->count; ++i) {
        if (!collect(inputs->items[i], &files, 0)) {
            cli_error("import", "out of memory listing %s", inputs->items[i]);
            list_free(&files);
            return CLI_EXIT_FAIL;
        }
    }
    sw_asset_options opt = args->opt;
    opt.isolate = true;
    if (opt.timeout_ms == 0) opt.timeout_ms = IMPORT_BATCH_TIMEOUT_MS;
    size_t ok = 0;
    const double start = now_seconds();
    for (size_t i = 0; i < files.count; ++i) {
        const char* path = files.items[i];
        const double t0 = now_seconds();
        sw_asset a;
        sw_error err = SW_ERROR_INIT;
        sw_result r = cli_asset_open(path, &opt, &a, &err);
        if (r == SW_RESULT_OK && out_dir) {
            char out[4096];
            batch_out_path(out_dir, path, out, sizeof out);
            r = import_write(&a, out, &err);
        }
        const double ms = 1000.0 * (now_seconds() - t0);
        if (r == SW_RESULT_OK) {
            ++ok;
            printf("ok    %s: %s, %u joints, %u clips, %u meshes (%.0f ms)\n", path,
                   cli_format_name(a.format), a.skeleton->joints_count, a.clips_count,
                   a.meshes_count, ms);
            sw_asset_free(&a);
        } else {
            printf("fail  %s: %s: %s", path, cli_format_name(a.format), sw_result_str(r));
            if (err.check) printf(" (check \"%s\")", err.check);
            if (a.warning[0]) {
                /* One line: assimp messages may hold newlines. */
                printf(": ");
                for (const char* p = a.warning; *p; ++p)
                    putchar(*p == '\n' || *p == '\r' ? ' ' : *p);
            }
            printf(" (%.0f ms)\n", ms);
        }
        fflush(stdout);
    }
    printf("%zu files: %zu imported, %zu failed, %.1f s\n", files.count, ok, files.count - ok,
           now_seconds() - start);
    list_free(&files);
    return ok == files.count ? CLI_EXIT_OK : CLI_EXIT_FAIL;
}

/* ---- verb ------------------------------------------------------------------- */

int cli_import(int argc, char** argv) {
    static const char* const usage =
        "usage: sinew import IN -o OUT.sinew [--clips A,B] [--scale S] [--isolate] "
        "[--in-process] [--timeout MS]\n"
        "       sinew import --batch PATH... [-o OUTDIR] [--timeout MS]";
    cli_asset_args args;
    memset(&args, 0, sizeof args);
    const char* out = NULL;
    bool batch = false;
    path_list inputs = {0};
    int code = CLI_EXIT_USAGE;
    for (int i = 1; i < argc; ++i) {
        const char* a = argv[i];
        int used = cli_asset_option("import", argc, argv, &i, &args);
        if (used < 0) goto done;
        if (used) continue;
        if (strcmp(a, "-o") == 0 || strcmp(a, "--output") == 0) {
            if (i + 1 >= argc) {
                cli_error("import", "%s needs a path", a);
                goto done;
            }
            out = argv[++i];
        } else if (strcmp(a, "--batch") == 0) {
            batch = true;
        } else if (a[0] == '-' && a[1] != '\0') {
            cli_error("import", "unknown option \"%s\"", a);
            goto done;
        } else if (!list_add(&inputs, a)) {
            cli_error("import", "out of memory");
            code = CLI_EXIT_FAIL;
            goto done;
        }
    }
    if (inputs.count == 0 || (!batch && (inputs.count != 1 || !out))) {
        cli_error("import", "%s", usage);
        goto done;
    }
    if (batch) {
        if (out) {
            struct stat st;
            if (stat(out, &st) != 0 || !S_ISDIR(st.st_mode)) {
                cli_error("import", "--batch: -o must be an existing folder");
                goto done;
            }
        }
        code = import_batch(&inputs, out, &args);
        goto done;
    }
    const char* in = inputs.items[0];
    sw_asset asset;
    sw_error err;
    sw_result r = cli_asset_open(in, &args.opt, &asset, &err);
    if (r != SW_RESULT_OK) {
        cli_report("import", in, asset.format, r, &err);
        code = CLI_EXIT_FAIL;
        goto done;
    }
    cli_warn_asset("import", in, &asset);
    r = import_write(&asset, out, &err);
    if (r != SW_RESULT_OK) {
        cli_report("import", out, SW_ASSET_FORMAT_SINEW, r, &err);
        code = CLI_EXIT_FAIL;
    } else {
        printf("%s: %s, %u joints, %u clips, %u meshes\n", out, cli_format_name(asset.format),
               asset.skeleton->joints_count, asset.clips_count, asset.meshes_count);
        code = CLI_EXIT_OK;
    }
    sw_asset_free(&asset);
done:
    list_free(&inputs);
    return code;
}
