/* Running the built sinew CLI (SINEW_CLI_PATH) from a test with its stdout
 * and stderr captured (header-only), in the scratch folder g_dir of
 * scratch.h (the includer defines SCRATCH_NAME). */
#ifndef SINEW_TEST_CLI_RUN_H
#define SINEW_TEST_CLI_RUN_H

#include <stdarg.h>
#include <sys/wait.h>

#include "scratch.h"
#include "test_util.h"
#include "tools/readers/json.h"

typedef struct run_result {
    int code;
    char* out;
    char* err;
} run_result;

static inline bool cli_available(void) {
    if (SINEW_CLI_PATH[0] == '\0') {
        print_message("skipped: the CLI is not built (SINEW_BUILD_CLI=OFF)\n");
        return false;
    }
    return true;
}

/* The whole file as a NUL-terminated string ("" when it cannot be read). */
static inline char* slurp(const char* path) {
    size_t n = 0;
    char* data = (char*)sw_test_read_file(path, &n);
    char* s = (char*)malloc(n + 1u);
    assert_non_null(s);
    if (data) memcpy(s, data, n);
    s[data ? n : 0u] = '\0';
    free(data);
    return s;
}

/* Runs `sinew ARGS` (a shell command line after the binary) with stdout and
 * stderr captured. */
static inline run_result run(const char* args) {
    char out[512], err[512], cmd[4096];
    snprintf(out, sizeof out, "%s/stdout.txt", g_dir);
    snprintf(err, sizeof err, "%s/stderr.txt", g_dir);
    const int w = snprintf(cmd, sizeof cmd, "'%s' %s >'%s' 2>'%s'", SINEW_CLI_PATH, args, out, err);
    if (w < 0 || (size_t)w >= sizeof cmd) fail_msg("command line too long: %s", args);
    int status = system(cmd);
    run_result r;
    r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    r.out = slurp(out);
    r.err = slurp(err);
    return r;
}

static inline void run_free(run_result* r) {
    free(r->out);
    free(r->err);
}

/* Runs `sinew` with the arguments formatted from fmt (printf-style) and
 * requires exit status `code`, its output dropped. */
#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static inline void
run_expect(int code, const char* fmt, ...) {
    char args[4096];
    va_list ap;
    va_start(ap, fmt);
    const int n = vsnprintf(args, sizeof args, fmt, ap);
    va_end(ap);
    assert_true(n > 0 && (size_t)n < sizeof args);
    run_result r = run(args);
    if (r.code != code) fail_msg("sinew %s: exit %d, expected %d: %s", args, r.code, code, r.err);
    run_free(&r);
}

static inline int count_lines(const char* s) {
    int n = 0;
    for (; *s; ++s)
        n += *s == '\n';
    return n;
}

/* The number / boolean at `key` of object obj (fails the test when absent). */
static inline double json_num(const sw__json* j, int32_t obj, const char* key) {
    double v = NAN;
    if (!sw__json_number(j, sw__json_find(j, obj, key), &v)) fail_msg("no number \"%s\"", key);
    return v;
}

static inline bool json_true(const sw__json* j, int32_t obj, const char* key) {
    bool b = false;
    if (!sw__json_bool(j, sw__json_find(j, obj, key), &b)) fail_msg("no boolean \"%s\"", key);
    return b;
}

#endif
