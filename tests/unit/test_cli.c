/* The sinew CLI (cli/): runs the built binary (SINEW_CLI_PATH) and checks its
 * output against the independent BVH parser and FK of bvh_fk.h, its exit
 * codes, and its one-line failure messages naming the check. */
#define _POSIX_C_SOURCE 200809L /* mkdtemp, WEXITSTATUS */
#include "test_util.h"

#include <dirent.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bvh_fk.h"

typedef struct run_result {
    int code;
    char* out;
    char* err;
} run_result;

static char g_dir[256]; /* scratch folder for this run */

static bool cli_available(void) {
    if (SINEW_CLI_PATH[0] == '\0') {
        print_message("skipped: the CLI is not built (SINEW_BUILD_CLI=OFF)\n");
        return false;
    }
    return true;
}

static char* slurp(const char* path) {
    char* s = fk_read_text(path, NULL);
    if (!s) {
        s = (char*)malloc(1);
        s[0] = '\0';
    }
    return s;
}

/* Runs `sinew ARGS` with stdout and stderr captured. */
static run_result run(const char* args) {
    char out[512], err[512], cmd[4096];
    snprintf(out, sizeof out, "%s/stdout.txt", g_dir);
    snprintf(err, sizeof err, "%s/stderr.txt", g_dir);
    snprintf(cmd, sizeof cmd, "'%s' %s >'%s' 2>'%s'", SINEW_CLI_PATH, args, out, err);
    int status = system(cmd);
    run_result r;
    r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    r.out = slurp(out);
    r.err = slurp(err);
    return r;
}

static void run_free(run_result* r) {
    free(r->out);
    free(r->err);
}

static int count_lines(const char* s) {
    int n = 0;
    for (; *s; ++s)
        n += *s == '\n';
    return n;
}

/* Finds the joints' "t" arrays of `sample --json` output, in order. */
static int parse_sample_json(const char* json, double* t, int cap, char names[][64]) {
    int n = 0;
    const char* p = json;
    while ((p = strstr(p, "{\"name\": \"")) != NULL && n < cap) {
        p += 10;
        const char* q = strchr(p, '"');
        if (!q) break;
        size_t len = (size_t)(q - p) < 63 ? (size_t)(q - p) : 63;
        memcpy(names[n], p, len);
        names[n][len] = '\0';
        const char* ta = strstr(q, "\"t\": [");
        if (!ta || sscanf(ta + 6, "%lf, %lf, %lf", &t[3 * n], &t[3 * n + 1], &t[3 * n + 2]) != 3) {
            break;
        }
        ++n;
        p = ta;
    }
    return n;
}

/* FK reference of 01_01 at `seconds`, between the two keys around it at the
 * fraction of the clip's float key times. */
static void reference_at(const fk_bvh* ref, double seconds, double* pos) {
    const float rate = (float)(1.0 / (double)(float)ref->frame_time);
    const float tf = (float)seconds;
    int k = (int)floor((double)tf * (double)rate);
    if ((float)k / rate > tf) --k;
    if ((float)(k + 1) / rate <= tf) ++k;
    const float t0 = (float)k / rate, t1 = (float)(k + 1) / rate;
    const double alpha = ((double)tf - (double)t0) / ((double)t1 - (double)t0);
    fk_pose(ref, k, alpha, 1.0, pos, NULL);
}

typedef struct fixture {
    char path[512];
    char* text;
    fk_bvh ref;
} fixture;

static bool load_0101(fixture* fx) {
    if (!sw_test_model_path(fx->path, sizeof fx->path, "BVH/01_01.bvh")) return false;
    fx->text = fk_read_text(fx->path, NULL);
    assert_non_null(fx->text);
    assert_int_equal(fk_parse(fx->text, &fx->ref), 0);
    return true;
}

static void free_fixture(fixture* fx) {
    fk_free(&fx->ref);
    free(fx->text);
}

/* Checks `sample --json` output against the FK at `seconds`; returns the max deviation. */
static double check_sample_output(const fixture* fx, const char* json, double seconds,
                                  double scale) {
    double t[3 * 64];
    char names[64][64];
    int n = parse_sample_json(json, t, 64, names);
    assert_int_equal(n, 31);
    double* pos = (double*)malloc((size_t)fx->ref.count * 3 * sizeof(double));
    reference_at(&fx->ref, seconds, pos);
    double worst = 0.0;
    int j = 0;
    for (int k = 0; k < fx->ref.count; ++k) {
        if (fx->ref.joints[k].end_site) continue;
        assert_string_equal(names[j], fx->ref.joints[k].name);
        for (int a = 0; a < 3; ++a) {
            double d = fabs(t[3 * j + a] - pos[3 * k + a] * scale);
            if (d > worst) worst = d;
        }
        ++j;
    }
    free(pos);
    return worst;
}

static void test_help_and_version(void** state) {
    (void)state;
    if (!cli_available()) return;
    run_result r = run("help");
    assert_int_equal(r.code, 0);
    assert_non_null(strstr(r.out, "usage: sinew"));
    assert_non_null(strstr(r.out, "sample"));
    run_free(&r);
    r = run("--help");
    assert_int_equal(r.code, 0);
    run_free(&r);
    r = run("--version");
    assert_int_equal(r.code, 0);
    char expect[64];
    snprintf(expect, sizeof expect, "sinew %d.%d.%d\n", SINEW_VERSION_MAJOR, SINEW_VERSION_MINOR,
             SINEW_VERSION_PATCH);
    assert_string_equal(r.out, expect);
    run_free(&r);
    r = run("frobnicate");
    assert_true(r.code != 0);
    assert_int_equal(count_lines(r.err), 1);
    run_free(&r);
    r = run("");
    assert_true(r.code != 0);
    run_free(&r);
    r = run("sample /dev/null");
    assert_true(r.code != 0); /* no --time */
    run_free(&r);
}

static void test_sample_bvh_against_fk(void** state) {
    (void)state;
    if (!cli_available()) return;
    fixture fx;
    if (!load_0101(&fx)) return;
    char args[2048];
    snprintf(args, sizeof args, "sample '%s' --time 8.3333 --json", fx.path);
    run_result r = run(args);
    assert_int_equal(r.code, 0);
    assert_string_equal(r.err, "");
    assert_non_null(strstr(r.out, "{\"clip\": \"motion\", \"time\": 8.3333, \"joints\": ["));
    double worst = check_sample_output(&fx, r.out, 8.3333, 1.0);
    print_message("sample 01_01.bvh --time 8.3333: max deviation from FK %.3g file units\n", worst);
    assert_true(worst <= 0.002);
    run_free(&r);
    /* --scale multiplies positions. */
    snprintf(args, sizeof args, "sample '%s' --time 8.3333 --json --scale 0.056444", fx.path);
    r = run(args);
    assert_int_equal(r.code, 0);
    assert_true(check_sample_output(&fx, r.out, 8.3333, 0.056444) <= 0.002 * 0.056444);
    run_free(&r);
    /* Clip by name and by index; an unknown clip fails. */
    snprintf(args, sizeof args, "sample '%s' --time 2 --clip motion", fx.path);
    r = run(args);
    assert_int_equal(r.code, 0);
    assert_non_null(strstr(r.out, "Hips"));
    run_free(&r);
    snprintf(args, sizeof args, "sample '%s' --time 2 --clip 1", fx.path);
    r = run(args);
    assert_true(r.code != 0);
    assert_int_equal(count_lines(r.err), 1);
    run_free(&r);
    free_fixture(&fx);
}

static void test_convert_then_sample(void** state) {
    (void)state;
    if (!cli_available()) return;
    fixture fx;
    if (!load_0101(&fx)) return;
    char args[2048], out[512];
    snprintf(out, sizeof out, "%s/01_01.sinew", g_dir);
    snprintf(args, sizeof args, "convert '%s' -o '%s'", fx.path, out);
    run_result r = run(args);
    assert_int_equal(r.code, 0);
    run_free(&r);
    snprintf(args, sizeof args, "sample '%s' --time 8.3333 --json", fx.path);
    run_result from_bvh = run(args);
    snprintf(args, sizeof args, "sample '%s' --time 8.3333 --json", out);
    run_result from_sinew = run(args);
    assert_int_equal(from_sinew.code, 0);
    /* Same clip, same sampler: identical text. */
    assert_string_equal(from_sinew.out, from_bvh.out);
    assert_true(check_sample_output(&fx, from_sinew.out, 8.3333, 1.0) <= 0.002);
    run_free(&from_bvh);
    run_free(&from_sinew);
    /* --scale on an archive scales the model translations too. */
    snprintf(args, sizeof args, "sample '%s' --time 8.3333 --json --scale 0.5", out);
    r = run(args);
    assert_int_equal(r.code, 0);
    assert_true(check_sample_output(&fx, r.out, 8.3333, 0.5) <= 0.001);
    run_free(&r);
    snprintf(args, sizeof args, "info '%s' --json", out);
    r = run(args);
    assert_int_equal(r.code, 0);
    assert_non_null(strstr(r.out, "\"format\": \"sinew\""));
    assert_non_null(strstr(r.out, "\"joints_count\": 31"));
    assert_non_null(strstr(r.out, "\"name\": \"motion\""));
    run_free(&r);
    snprintf(args, sizeof args, "info '%s'", out);
    r = run(args);
    assert_int_equal(r.code, 0);
    assert_non_null(strstr(r.out, "\n  Hips\n    LHipJoint\n      LeftUpLeg\n"));
    run_free(&r);
    /* An archive is not converted again (it could hold more than one skeleton's data). */
    snprintf(args, sizeof args, "convert '%s' -o '%s/again.sinew'", out, g_dir);
    r = run(args);
    assert_true(r.code != 0);
    assert_int_equal(count_lines(r.err), 1);
    run_free(&r);
    snprintf(args, sizeof args, "validate '%s'", out);
    r = run(args);
    assert_int_equal(r.code, 0);
    assert_non_null(strstr(r.out, "OK"));
    run_free(&r);
    free_fixture(&fx);
}

/* Writes `size` bytes of `data` to path. */
static void write_bytes(const char* path, const void* data, size_t size) {
    FILE* f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, size, f), size);
    fclose(f);
}

static void expect_check_failure(const char* verb, const char* path) {
    char args[2048];
    snprintf(args, sizeof args, "%s '%s'%s", verb, path,
             strcmp(verb, "sample") == 0 ? " --time 1" : "");
    run_result r = run(args);
    if (r.code == 0 || count_lines(r.err) != 1 || !strstr(r.err, "check \"")) {
        fail_msg("%s: exit %d, stderr \"%s\"", args, r.code, r.err);
    }
    char prefix[64];
    snprintf(prefix, sizeof prefix, "sinew: %s: ", verb);
    assert_memory_equal(r.err, prefix, strlen(prefix));
    assert_string_equal(r.out, "");
    run_free(&r);
}

static void test_corrupt_archives(void** state) {
    (void)state;
    if (!cli_available()) return;
    fixture fx;
    if (!load_0101(&fx)) return;
    char args[2048], good[512], bad[512];
    snprintf(good, sizeof good, "%s/good.sinew", g_dir);
    snprintf(bad, sizeof bad, "%s/bad.sinew", g_dir);
    snprintf(args, sizeof args, "convert '%s' -o '%s'", fx.path, good);
    run_result r = run(args);
    assert_int_equal(r.code, 0);
    run_free(&r);
    size_t size = 0;
    uint8_t* bytes = (uint8_t*)sw_test_read_file(good, &size);
    assert_non_null(bytes);
    /* The first half. */
    write_bytes(bad, bytes, size / 2);
    expect_check_failure("info", bad);
    expect_check_failure("sample", bad);
    expect_check_failure("validate", bad);
    /* One flipped byte in the header, in the chunk table and in the data. */
    const size_t at[3] = {13, 40, size / 2};
    for (int i = 0; i < 3; ++i) {
        bytes[at[i]] ^= 0x5A;
        write_bytes(bad, bytes, size);
        expect_check_failure("info", bad);
        expect_check_failure("sample", bad);
        bytes[at[i]] ^= 0x5A;
    }
    /* A broken BVH names the line. */
    write_bytes(bad, fx.text, 300);
    snprintf(args, sizeof args, "info '%s'", bad);
    r = run(args);
    assert_true(r.code != 0);
    assert_non_null(strstr(r.err, "check \""));
    assert_non_null(strstr(r.err, ", line "));
    run_free(&r);
    free(bytes);
    free_fixture(&fx);
}

static int count_entries(const char* dir) {
    DIR* d = opendir(dir);
    assert_non_null(d);
    int n = 0;
    struct dirent* e;
    while ((e = readdir(d)) != NULL)
        n += e->d_name[0] != '.';
    closedir(d);
    return n;
}

static void test_convert_failure_leaves_no_file(void** state) {
    (void)state;
    if (!cli_available()) return;
    char path[512];
    if (!sw_test_model_path(path, sizeof path, "BVH/01_01.bvh")) return;
    char args[2048], target[1024], sub[512];
    /* A folder that does not exist. */
    snprintf(target, sizeof target, "%s/missing/out.sinew", g_dir);
    snprintf(args, sizeof args, "convert '%s' -o '%s'", path, target);
    run_result r = run(args);
    assert_true(r.code != 0);
    assert_int_equal(count_lines(r.err), 1);
    assert_non_null(strstr(r.err, "check \""));
    run_free(&r);
    struct stat st;
    assert_true(stat(target, &st) != 0);
    /* A target that is a folder: the rename fails, no temporary file stays. */
    snprintf(sub, sizeof sub, "%s/convdir", g_dir);
    assert_int_equal(mkdir(sub, 0700), 0);
    snprintf(target, sizeof target, "%s/target.sinew", sub);
    assert_int_equal(mkdir(target, 0700), 0);
    snprintf(args, sizeof args, "convert '%s' -o '%s'", path, target);
    r = run(args);
    assert_true(r.code != 0);
    assert_int_equal(count_lines(r.err), 1);
    run_free(&r);
    assert_int_equal(count_entries(sub), 1);
    assert_int_equal(count_entries(target), 0);
    rmdir(target);
    rmdir(sub);
    /* An input that fails writes nothing either. */
    snprintf(target, sizeof target, "%s/never.sinew", g_dir);
    snprintf(args, sizeof args, "convert /nonexistent.bvh -o '%s'", target);
    r = run(args);
    assert_true(r.code != 0);
    assert_non_null(strstr(r.err, "check \"open file\""));
    run_free(&r);
    assert_true(stat(target, &st) != 0);
}

static void test_bvh_warning(void** state) {
    (void)state;
    if (!cli_available()) return;
    char path[512], args[1024];
    if (!sw_test_model_path(path, sizeof path, "BVH/Boxing_Toes.bvh")) return;
    snprintf(args, sizeof args, "sample '%s' --time 1.5 --json", path);
    run_result r = run(args);
    assert_int_equal(r.code, 0);
    assert_non_null(strstr(r.err, "warning: declared 3069 frames, found 3070"));
    assert_int_equal(count_lines(r.err), 1);
    assert_non_null(strstr(r.out, "\"name\": \"Hips\""));
    run_free(&r);
    snprintf(args, sizeof args, "convert '%s' -o '%s/boxing.sinew' --scale 0.01 --end-sites", path,
             g_dir);
    r = run(args);
    assert_int_equal(r.code, 0);
    run_free(&r);
    snprintf(args, sizeof args, "info '%s/boxing.sinew' --json", g_dir);
    r = run(args);
    assert_int_equal(r.code, 0);
    assert_non_null(strstr(r.out, "\"joints_count\": 26"));
    assert_non_null(strstr(r.out, "\"name\": \"Head_end\""));
    run_free(&r);
}

static int setup(void** state) {
    (void)state;
    snprintf(g_dir, sizeof g_dir, "/tmp/sinew_test_cli_XXXXXX");
    return mkdtemp(g_dir) ? 0 : -1;
}

static int teardown(void** state) {
    (void)state;
    char cmd[512];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", g_dir);
    return system(cmd) == 0 ? 0 : -1;
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_help_and_version),
        cmocka_unit_test(test_sample_bvh_against_fk),
        cmocka_unit_test(test_convert_then_sample),
        cmocka_unit_test(test_corrupt_archives),
        cmocka_unit_test(test_convert_failure_leaves_no_file),
        cmocka_unit_test(test_bvh_warning),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
