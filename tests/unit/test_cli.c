/* The sinew CLI (cli/): runs the built binary (SINEW_CLI_PATH) and checks its
 * output against the independent BVH parser and FK of bvh_fk.h and the
 * independent glTF evaluator of gltf_eval.h, its exit codes, and its
 * one-line failure messages naming the check; import / export / batch
 * import over assimp-testmodels; `bench --quick --json` parsed and its
 * figures checked for consistency, the crowd's interleaved speedup and
 * budget runs included (no timing thresholds). */
#define _POSIX_C_SOURCE 200809L /* mkdtemp, WEXITSTATUS */
#define SCRATCH_NAME "test_cli"
#include "cli_run.h"

#include <dirent.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "bvh_fk.h"
/* The evaluator's morph weight helper is not needed here. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#include "gltf_eval.h"
#pragma GCC diagnostic pop
#include "sinew/showcase/character.h"
#include "sinew/tools/readers/asset.h"
#include "sinew/tools/readers/gltf.h"
#include "sinew/tools/writers/file.h"

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

/* Model matrices of asset a's clip 0 at t. */
static void model_of(const sw_asset* a, float t, sw_mat4* model) {
    const sw_skeleton* sk = a->skeleton;
    sw_xform4* pose = (sw_xform4*)sw_alloc(NULL, sizeof(sw_xform4) * sk->packets_count, 16);
    assert_non_null(pose);
    sw_test_model_at(sk, a->clips[0], t, pose, model);
    sw_free(NULL, pose, sizeof(sw_xform4) * sk->packets_count);
}

/* convert --lod-order: the archive's joints are in detail-major order (the
 * crowd's derived detail keeps a prefix at cut 1, as many joints as on the
 * BVH's skeleton) and its clip moves every joint, found by name, to the
 * same model matrix as the BVH's. */
static void test_convert_lod_order(void** state) {
    (void)state;
    if (!cli_available()) return;
    fixture fx;
    if (!load_0101(&fx)) return;
    char out[512];
    snprintf(out, sizeof out, "%s/01_01_lod.sinew", g_dir);
    run_expect(0, "convert '%s' -o '%s' --lod-order", fx.path, out);
    sw_asset a, b;
    assert_int_equal(sw_asset_open(fx.path, NULL, &a, NULL), SW_RESULT_OK);
    assert_int_equal(sw_asset_open(out, NULL, &b, NULL), SW_RESULT_OK);
    const uint32_t n = a.skeleton->joints_count;
    assert_int_equal(b.skeleton->joints_count, n);
    uint8_t da[SW_SKELETON_MAX_JOINTS], db[SW_SKELETON_MAX_JOINTS];
    uint8_t keep[SW_SKELETON_MAX_JOINTS / 4];
    sw_crowd_joint_detail(a.skeleton, 0.0f, da, n);
    sw_crowd_joint_detail(b.skeleton, 0.0f, db, n);
    const uint32_t kept = sw_joint_subset_from_detail(a.skeleton, da, 1u, keep, sizeof keep);
    assert_true(kept > 0u && kept < n);
    assert_int_equal(sw_joint_subset_from_detail(b.skeleton, db, 1u, keep, sizeof keep), kept);
    for (uint32_t k = 0; k < n; ++k)
        assert_int_equal(((unsigned)keep[k / 4u] >> (k % 4u)) & 1u, k < kept ? 1u : 0u);
    sw_mat4 ma[SW_SKELETON_MAX_JOINTS], mb[SW_SKELETON_MAX_JOINTS];
    model_of(&a, 8.3333f, ma);
    model_of(&b, 8.3333f, mb);
    for (uint32_t k = 0; k < n; ++k) {
        const int32_t j = sw_skeleton_find_joint(a.skeleton, sw_skeleton_joint_name(b.skeleton, k));
        assert_true(j >= 0);
        assert_memory_equal(&ma[j], &mb[k], sizeof(sw_mat4));
    }
    sw_asset_free(&a);
    sw_asset_free(&b);
    free_fixture(&fx);
}

/* convert --codec frames: the archive holds frames clips (info names the
 * codec), each clip reported with its measured error; sampling it matches
 * the BVH reference as the raw archive does (the frames are the 120 Hz keys;
 * between them nlerp) and `validate` accepts it. */
static void test_convert_frames(void** state) {
    (void)state;
    if (!cli_available()) return;
    fixture fx;
    if (!load_0101(&fx)) return;
    char args[2048], out[512];
    snprintf(out, sizeof out, "%s/01_01_frames.sinew", g_dir);
    snprintf(args, sizeof args, "convert '%s' -o '%s' --codec frames --shell 3", fx.path, out);
    run_result r = run(args);
    assert_int_equal(r.code, 0);
    assert_non_null(strstr(r.out, "frames at 120 Hz (the keys)"));
    const char* e = strstr(r.out, "max error ");
    assert_non_null(e);
    const double err = strtod(e + 10, NULL);
    assert_true(err > 0.0 && err < 0.5); /* test_frames measures 0.444 (a turn at 0.002 s) */
    run_free(&r);
    snprintf(args, sizeof args, "info '%s' --json", out);
    r = run(args);
    assert_int_equal(r.code, 0);
    assert_non_null(strstr(r.out, "\"codec\": \"frames\""));
    run_free(&r);
    snprintf(args, sizeof args, "info '%s'", fx.path);
    r = run(args);
    assert_int_equal(r.code, 0);
    assert_non_null(strstr(r.out, "codec raw"));
    run_free(&r);
    snprintf(args, sizeof args, "sample '%s' --time 8.3333 --json", out);
    r = run(args);
    assert_int_equal(r.code, 0);
    assert_true(check_sample_output(&fx, r.out, 8.3333, 1.0) <= 0.002);
    run_free(&r);
    run_expect(0, "validate '%s'", out);
    /* verbs that rebuild clips from raw keys refuse a frames clip, naming
     * its codec, and write nothing */
    const char* const rebuild[] = {"compress", "mirror"};
    for (int v = 0; v < 2; ++v) {
        char target[512];
        snprintf(target, sizeof target, "%s/refused_%s.sinew", g_dir, rebuild[v]);
        snprintf(args, sizeof args, "%s '%s' -o '%s'", rebuild[v], out, target);
        r = run(args);
        assert_int_equal(r.code, 1);
        assert_int_equal(count_lines(r.err), 1);
        assert_non_null(strstr(r.err, "is stored with the frames codec;"));
        assert_non_null(strstr(r.err, "works on raw clips"));
        assert_null(fopen(target, "rb"));
        run_free(&r);
    }
    /* --precision: the rate doubles until the measured error is within it */
    snprintf(args, sizeof args, "convert '%s' -o '%s' --codec frames --shell 3 --precision 0.1",
             fx.path, out);
    r = run(args);
    assert_int_equal(r.code, 0);
    assert_non_null(strstr(r.out, "(the keys)"));
    e = strstr(r.out, "max error ");
    assert_non_null(e);
    assert_true(strtod(e + 10, NULL) <= 0.1);
    assert_null(strstr(r.out, "frames at 120 Hz"));
    run_free(&r);
    /* bad codec or rate: usage errors */
    snprintf(args, sizeof args, "convert '%s' -o '%s' --codec zip", fx.path, out);
    r = run(args);
    assert_true(r.code != 0);
    assert_int_equal(count_lines(r.err), 1);
    run_free(&r);
    snprintf(args, sizeof args, "convert '%s' -o '%s' --codec frames --rate 0", fx.path, out);
    r = run(args);
    assert_true(r.code != 0);
    assert_int_equal(count_lines(r.err), 1);
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
    assert_non_null(strstr(r.err, "No such file or directory"));
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
    run_expect(0, "convert '%s' -o '%s/boxing.sinew' --scale 0.01 --end-sites", path, g_dir);
    snprintf(args, sizeof args, "info '%s/boxing.sinew' --json", g_dir);
    r = run(args);
    assert_int_equal(r.code, 0);
    assert_non_null(strstr(r.out, "\"joints_count\": 26"));
    assert_non_null(strstr(r.out, "\"name\": \"Head_end\""));
    run_free(&r);
}

/* sw_json_quote against literals written by hand: escapes, valid UTF-8
 * kept, each invalid byte replaced, snprintf-like truncation. */
static void test_json_quote(void** state) {
    (void)state;
    const char* cases[][2] = {
        {"a\"b\\c\n\x01", "\"a\\\"b\\\\c\\u000a\\u0001\""},
        {"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80", "\"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\""},
        {"Hi\xffps", "\"Hi?ps\""},
        {"\xc0\xaf", "\"??\""},           /* overlong '/' */
        {"\xed\xa0\x80", "\"???\""},      /* a surrogate */
        {"\xf4\x90\x80\x80", "\"????\""}, /* past U+10FFFF */
        {"x\xe2\x82", "\"x??\""},         /* cut short */
        {"", "\"\""},
    };
    char buf[64];
    for (size_t i = 0; i < sizeof cases / sizeof *cases; ++i) {
        assert_int_equal(sw_json_quote(cases[i][0], buf, sizeof buf), strlen(cases[i][1]));
        assert_string_equal(buf, cases[i][1]);
        assert_int_equal(sw_json_quote(cases[i][0], NULL, 0), strlen(cases[i][1]));
    }
    assert_int_equal(sw_json_quote("abc", buf, 3), 5); /* too small: cut, terminated */
    assert_string_equal(buf, "\"a");
}

/* Joint names that are not valid UTF-8 (a BVH takes the bytes as they are)
 * come out of `sample --json` and `info --json` as valid JSON and UTF-8,
 * each invalid byte replaced by '?' as the glTF exporter does. */
static void test_json_output_invalid_utf8(void** state) {
    (void)state;
    if (!cli_available()) return;
    char path[512], args[1024];
    snprintf(path, sizeof path, "%s/names.bvh", g_dir);
    const char bvh[] =
        "HIERARCHY\nROOT Hi\xffps\n{\n OFFSET 0 0 0\n CHANNELS 3 Zrotation Xrotation "
        "Yrotation\n JOINT Sp\xc0\xafine\n {\n  OFFSET 0 1 0\n  CHANNELS 3 Zrotation "
        "Xrotation Yrotation\n  End Site\n  {\n   OFFSET 0 1 0\n  }\n }\n}\n"
        "MOTION\nFrames: 1\nFrame Time: 0.1\n0 0 0 0 0 0\n";
    write_bytes(path, bvh, sizeof bvh - 1u);
    const char* verbs[] = {"sample '%s' --time 0 --json", "info '%s' --json"};
    for (int v = 0; v < 2; ++v) {
        snprintf(args, sizeof args, verbs[v], path);
        run_result r = run(args);
        assert_int_equal(r.code, 0);
        for (const unsigned char* p = (const unsigned char*)r.out; *p; ++p)
            assert_true(*p < 0x80u); /* the names were the only non-ASCII bytes */
        assert_non_null(strstr(r.out, "\"Hi?ps\""));
        assert_non_null(strstr(r.out, "\"Sp??ine\""));
        sw__json j;
        sw_error e;
        const char* open = strchr(r.out, '{');
        assert_non_null(open);
        assert_int_equal(sw__json_parse(&j, open, strlen(open), NULL, &e), SW_RESULT_OK);
        sw__json_free(&j, NULL);
        run_free(&r);
    }
}

/* validate --isolate opens the file in a child process, as import does:
 * the same OK line, the same failed check (the 100,000-deep JSON here)
 * reported from the child. */
static void test_validate_isolate(void** state) {
    (void)state;
    if (!cli_available()) return;
    char args[1024], deep[512];
    snprintf(args, sizeof args, "validate '%s/gltf/tiny.gltf' --isolate --timeout 20000",
             SINEW_TEST_DATA);
    run_result r = run(args);
    assert_int_equal(r.code, 0);
    assert_non_null(strstr(r.out, "tiny.gltf: OK (gltf, "));
    run_free(&r);
    snprintf(deep, sizeof deep, "%s/deep.gltf", g_dir);
    enum { DEPTH = 100000 };
    char* text = (char*)malloc(2 * DEPTH + 64);
    int n = snprintf(text, 64, "{\"asset\":{\"version\":\"2.0\"},\"extras\":");
    memset(text + n, '[', DEPTH);
    memset(text + n + DEPTH, ']', DEPTH);
    text[n + 2 * DEPTH] = '}';
    write_bytes(deep, text, (size_t)n + 2u * DEPTH + 1u);
    free(text);
    for (int isolate = 0; isolate < 2; ++isolate) {
        snprintf(args, sizeof args, "validate '%s'%s", deep, isolate ? " --isolate" : "");
        r = run(args);
        assert_int_equal(r.code, 1);
        assert_non_null(strstr(r.err, "check \"json nesting depth (at most 256)\""));
        run_free(&r);
    }
    r = run("validate --isolate");
    assert_int_equal(r.code, 2);
    run_free(&r);
}

/* ---- import, export, batch ---- */

static bool file_exists(const char* path) {
    struct stat st;
    return stat(path, &st) == 0;
}

/* Node of the evaluator's document named `name` (unnamed nodes: node_<i>). */
static int ge_node_named(const ge_doc* d, const char* name) {
    const ge_val* nodes = ge_get(&d->root, "nodes");
    for (size_t i = 0; i < nodes->n; ++i) {
        const ge_val* nm = ge_get(&nodes->items[i], "name");
        char fallback[32];
        snprintf(fallback, sizeof fallback, "node_%zu", i);
        if (!strcmp(nm ? nm->str : fallback, name)) return (int)i;
    }
    return -1;
}

static int ge_anim_named(const ge_doc* d, const char* name) {
    const ge_val* anims = ge_get(&d->root, "animations");
    for (size_t k = 0; anims && k < anims->n; ++k) {
        const ge_val* nm = ge_get(&anims->items[k], "name");
        if (nm && !strcmp(nm->str, name)) return (int)k;
    }
    return -1;
}

/* `sample --json` output against the evaluator's world translations of the
 * glTF file `gltf` (animation `clip` at `time`); returns the largest error. */
static double check_sample_against_gltf(const char* json, const char* gltf, const char* clip,
                                        double time, int want_joints) {
    static double t[3 * SW_SKELETON_MAX_JOINTS];
    static char names[SW_SKELETON_MAX_JOINTS][64];
    int n = parse_sample_json(json, t, SW_SKELETON_MAX_JOINTS, names);
    assert_int_equal(n, want_joints);
    ge_doc d;
    ge_load(&d, gltf);
    int a = ge_anim_named(&d, clip);
    assert_true(a >= 0);
    const ge_val* nodes = ge_get(&d.root, "nodes");
    double* world = (double*)malloc(nodes->n * 16 * sizeof(double));
    ge_world(&d, a, time, world);
    double worst = 0.0;
    for (int j = 0; j < n; ++j) {
        int node = ge_node_named(&d, names[j]);
        if (node < 0) fail_msg("joint %s is not a node of %s", names[j], gltf);
        for (int k = 0; k < 3; ++k) {
            double e = fabs(world[16 * node + 12 + k] - t[3 * j + k]);
            if (e > worst) worst = e;
        }
    }
    free(world);
    ge_free(&d);
    return worst;
}

static void test_import_export_robot(void** state) {
    (void)state;
    char glb[1024];
    if (!cli_available() || !sw_test_asset_path(glb, sizeof glb, "RobotExpressive.glb")) return;
    /* What the library reads, for the counts the CLI must report. */
    sw_scene scene;
    sw_error e;
    assert_int_equal(sw_gltf_read_file(glb, NULL, NULL, &scene, &e), SW_RESULT_OK);
    char archive[512], exported[512], args[2048], want[256];
    snprintf(archive, sizeof archive, "%s/robot.sinew", g_dir);
    snprintf(exported, sizeof exported, "%s/robot.glb", g_dir);

    snprintf(args, sizeof args, "import '%s' -o '%s'", glb, archive);
    run_result r = run(args);
    assert_int_equal(r.code, 0);
    snprintf(want, sizeof want, "%u joints, 14 clips, %u meshes", scene.skeleton->joints_count,
             scene.meshes_count);
    assert_non_null(strstr(r.out, want));
    run_free(&r);

    snprintf(args, sizeof args, "info '%s'", archive);
    r = run(args);
    assert_int_equal(r.code, 0);
    assert_non_null(strstr(r.out, "format: sinew"));
    assert_non_null(strstr(r.out, "clips: 14\n"));
    assert_non_null(strstr(r.out, "\"Walking\": 0.958333 s"));
    snprintf(want, sizeof want, "meshes: %u\n", scene.meshes_count);
    assert_non_null(strstr(r.out, want));
    for (uint32_t m = 0; m < scene.meshes_count; ++m) {
        const sw_mesh* mesh = scene.meshes[m];
        snprintf(want, sizeof want, "\"%s\": %u vertices, %u triangles, palette %u",
                 sw_mesh_name(mesh), mesh->vertices_count, mesh->indices_count / 3u,
                 mesh->palette_count);
        if (!strstr(r.out, want)) fail_msg("info does not list %s", want);
    }
    run_free(&r);

    snprintf(args, sizeof args, "info '%s' --json", archive);
    r = run(args);
    assert_int_equal(r.code, 0);
    assert_non_null(strstr(r.out, "\"meshes\": [\n  {\"name\": "));
    snprintf(want, sizeof want, "\"vertices\": %u, \"triangles\": %u",
             scene.meshes[0]->vertices_count, scene.meshes[0]->indices_count / 3u);
    assert_non_null(strstr(r.out, want));
    run_free(&r);
    snprintf(args, sizeof args, "validate '%s'", archive);
    r = run(args);
    assert_int_equal(r.code, 0);
    snprintf(want, sizeof want, "14 clips, %u meshes", scene.meshes_count);
    assert_non_null(strstr(r.out, want));
    run_free(&r);

    /* Sampling the archive matches the independent evaluator on the file. */
    snprintf(args, sizeof args, "sample '%s' --clip Walking --time 0.5 --json", archive);
    r = run(args);
    assert_int_equal(r.code, 0);
    double err =
        check_sample_against_gltf(r.out, glb, "Walking", 0.5, (int)scene.skeleton->joints_count);
    print_message("sample robot.sinew Walking 0.5 s: max translation error %.3g m\n", err);
    assert_true(err <= 1e-4);
    char* sampled = r.out;
    r.out = NULL;
    run_free(&r);

    /* The glTF file can be sampled directly too, with the same result. */
    snprintf(args, sizeof args, "sample '%s' --clip Walking --time 0.5 --json", glb);
    r = run(args);
    assert_int_equal(r.code, 0);
    assert_string_equal(r.out, sampled);
    run_free(&r);

    /* Export; the .glb re-imports, samples the same, and the independent
     * evaluator reading the exported file agrees. */
    run_expect(0, "export '%s' -o '%s'", archive, exported);
    snprintf(args, sizeof args, "info '%s'", exported);
    r = run(args);
    assert_int_equal(r.code, 0);
    assert_non_null(strstr(r.out, "format: gltf"));
    assert_non_null(strstr(r.out, "clips: 14\n"));
    assert_non_null(strstr(r.out, "\"Walking\": 0.958333 s"));
    snprintf(want, sizeof want, "meshes: %u\n", scene.meshes_count);
    assert_non_null(strstr(r.out, want));
    run_free(&r);
    snprintf(args, sizeof args, "sample '%s' --clip Walking --time 0.5 --json", exported);
    r = run(args);
    assert_int_equal(r.code, 0);
    double err2 = check_sample_against_gltf(r.out, exported, "Walking", 0.5,
                                            (int)scene.skeleton->joints_count);
    double err3 = check_sample_against_gltf(sampled, exported, "Walking", 0.5,
                                            (int)scene.skeleton->joints_count);
    print_message("exported robot.glb: %.3g m against the evaluator, %.3g m against the "
                  "original's sample\n",
                  err2, err3);
    assert_true(err2 <= 1e-4 && err3 <= 1e-4);
    run_free(&r);

    /* Clip selection, and --isolate gives the same archive. */
    char one[512];
    snprintf(one, sizeof one, "%s/walk.sinew", g_dir);
    run_expect(0, "import '%s' -o '%s' --clips Walking,Idle --isolate", glb, one);
    snprintf(args, sizeof args, "info '%s'", one);
    r = run(args);
    /* File order, whatever the order of the list. */
    assert_non_null(strstr(r.out, "clips: 2\n  [0] \"Idle\""));
    assert_non_null(strstr(r.out, "  [1] \"Walking\""));
    run_free(&r);
    free(sampled);
    remove(one);
    remove(archive);
    remove(exported);
    sw_scene_free(&scene, NULL);
}

static void test_import_failures(void** state) {
    (void)state;
    if (!cli_available()) return;
    char out[512], args[2048], path[1024];
    snprintf(out, sizeof out, "%s/fail.sinew", g_dir);
    /* Usage. */
    run_result r = run("import");
    assert_int_equal(r.code, 2);
    run_free(&r);
    run_expect(2, "import a b -o '%s'", out);
    run_expect(2, "import a -o '%s' --timeout 0", out);
    r = run("export x.glb");
    assert_int_equal(r.code, 2);
    run_free(&r);
    /* Missing file, missing clip: exit 1, a named check, no output. */
    snprintf(args, sizeof args, "import /nonexistent/x.glb -o '%s'", out);
    r = run(args);
    assert_int_equal(r.code, 1);
    assert_non_null(strstr(r.err, "check \"open file\""));
    run_free(&r);
    assert_false(file_exists(out));
    if (sw_test_asset_path(path, sizeof path, "RobotExpressive.glb")) {
        snprintf(args, sizeof args, "import '%s' -o '%s' --clips Walking,Moonwalk", path, out);
        r = run(args);
        assert_int_equal(r.code, 1);
        assert_non_null(strstr(r.err, "not found"));
        run_free(&r);
        assert_false(file_exists(out));
    }
    /* Files that crash or hang assimp: a clear error, no output, no crash. */
    static const char* const hostile[] = {"invalid/OutOfMemory.off", "RAW/WithColor.raw",
                                          "OpenGEX/empty_camera.ogex"};
    for (size_t i = 0; i < sizeof hostile / sizeof hostile[0]; ++i) {
        if (!sw_test_model_path(path, sizeof path, hostile[i])) continue;
        snprintf(args, sizeof args, "import '%s' -o '%s' --timeout 3000", path, out);
        r = run(args);
        print_message("%s: exit %d: %s", hostile[i], r.code, r.err);
        assert_int_equal(r.code, 1);
        assert_non_null(strstr(r.err, "check \""));
        run_free(&r);
        assert_false(file_exists(out));
    }
    /* Nor a temporary file beside where the output would have been. */
    DIR* d = opendir(g_dir);
    assert_non_null(d);
    for (struct dirent* e = readdir(d); e; e = readdir(d)) {
        if (!strncmp(e->d_name, "fail.sinew", 10)) fail_msg("left behind: %s", e->d_name);
    }
    closedir(d);
}

/* Regular files under dir, recursively (symbolic links to folders skipped). */
static int count_files(const char* dir) {
    DIR* d = opendir(dir);
    if (!d) return 0;
    int n = 0;
    struct dirent* e;
    while ((e = readdir(d)) != NULL) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
        char path[2048];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        struct stat st, lst;
        if (stat(path, &st) != 0) {
            ++n;
            continue;
        }
        if (S_ISDIR(st.st_mode)) {
            if (lstat(path, &lst) == 0 && !S_ISLNK(lst.st_mode)) n += count_files(path);
        } else {
            ++n;
        }
    }
    closedir(d);
    return n;
}

/* Batch import of the BVH folder into a folder: one line per file, archives
 * that load. */
static void test_batch_bvh_folder(void** state) {
    (void)state;
    char dir[1024], outdir[512], args[4096];
    if (!cli_available() || !sw_test_model_path(dir, sizeof dir, "BVH/01_01.bvh")) return;
    *strrchr(dir, '/') = '\0';
    snprintf(outdir, sizeof outdir, "%s/batch", g_dir);
    assert_int_equal(mkdir(outdir, 0700), 0);
    snprintf(args, sizeof args, "import --batch '%s' -o '%s'", dir, outdir);
    run_result r = run(args);
    int files = count_files(dir);
    assert_int_equal(count_lines(r.out), files + 1);
    int ok = 0, skipped = 0; /* skipped: not a model file extension (01_nn.bvh.source.txt) */
    for (const char* line = r.out; *line; line = strchr(line, '\n') + 1) {
        if (!strncmp(line, "ok    ", 6))
            ++ok;
        else if (!strncmp(line, "skip  ", 6))
            ++skipped;
        else if (strncmp(line, "fail  ", 6) != 0)
            assert_non_null(strstr(line, " files: "));
    }
    assert_true(ok >= 3);
    assert_int_equal(count_entries(outdir), ok);
    assert_int_equal(r.code, ok + skipped == files ? 0 : 1);
    char archive[2048];
    snprintf(archive, sizeof archive, "%s/%s_01_01.bvh.sinew", outdir, dir);
    for (char* p = archive + strlen(outdir) + 1; *p; ++p) {
        if (*p == '/') *p = '_';
    }
    run_free(&r);
    snprintf(args, sizeof args, "validate '%s'", archive);
    r = run(args);
    assert_int_equal(r.code, 0);
    assert_non_null(strstr(r.out, "31 joints, 1 clips"));
    run_free(&r);
    snprintf(args, sizeof args, "rm -rf '%s'", outdir);
    assert_int_equal(system(args), 0);
}

/* Batch import of the whole assimp-testmodels folder: finishes, one line per
 * file, hostile files reported, never a crash of the CLI. */
static void test_batch_all_models(void** state) {
    (void)state;
    char probe[1024], args[2048];
    if (!cli_available() || !sw_test_model_path(probe, sizeof probe, "BVH/01_01.bvh")) return;
    snprintf(args, sizeof args, "import --batch '%s' --timeout 5000", SINEW_TEST_MODELS);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    run_result r = run(args);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    int files = count_files(SINEW_TEST_MODELS);
    int lines = count_lines(r.out);
    int ok = 0, failed = 0, skipped = 0;
    for (const char* line = r.out; *line; line = strchr(line, '\n') + 1) {
        if (!strncmp(line, "ok    ", 6)) ++ok;
        if (!strncmp(line, "fail  ", 6)) ++failed;
        if (!strncmp(line, "skip  ", 6)) ++skipped;
    }
    print_message("batch import of %d files: %d ok, %d failed, %d skipped, %.1f s\n", files, ok,
                  failed, skipped,
                  (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec));
    assert_true(r.code == 0 || r.code == 1);
    assert_int_equal(lines, files + 1);
    assert_int_equal(ok + failed + skipped, files);
    char summary[128];
    snprintf(summary, sizeof summary, "%d files: %d imported, %d failed, %d skipped", files, ok,
             failed, skipped);
    assert_non_null(strstr(r.out, summary));
    /* assimp allocates without end on this file: stopped by the child's
     * memory limit, or by the time limit where there is none (ASan) */
    assert_true(strstr(r.out, "OutOfMemory.off: assimp: out of memory") ||
                strstr(r.out, "OutOfMemory.off: assimp: limit exceeded"));
    run_free(&r);
}

/* ---- sinew bench ---- */

/* The verb's stages, in its order, whether each runs once per codec, and
 * whether it is a floor row (sinew's sides time the bytes of the job it
 * bounds, ozz's the job: ratios reported, no target). */
static const struct {
    const char* stage;
    bool per_codec, floor;
} bench_expect[] = {
    {"sample_sequential", true, false},
    {"sample_seek", true, false},
    {"blend", false, false},
    {"blend_floor", false, true},
    {"local_to_model", false, false},
    {"two_bone_ik", false, false},
    {"full_frame", true, false},
};

static int cmp_dbl(const void* a, const void* b) {
    const double x = *(const double*)a, y = *(const double*)b;
    return (x > y) - (x < y);
}

static void assert_rel(double a, double b, double rel) {
    if (!(fabs(a - b) <= rel * fabs(b))) fail_msg("%.9g vs %.9g (relative %.3g)", a, b, rel);
}

/* Reads the n numbers of the JSON array arr into v (n entries) sorted
 * ascending; returns their median (the mean of the middle two when n is even). */
static double json_sorted_median(const sw__json* j, int32_t arr, double* v, int n) {
    assert_int_equal(sw__json_len(j, arr), (uint32_t)n);
    for (int p = 0; p < n; ++p)
        assert_true(sw__json_number(j, sw__json_at(j, arr, (uint32_t)p), &v[p]));
    qsort(v, (size_t)n, sizeof v[0], cmp_dbl);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* One side of a bench row (sinew on a kernel path, or an ozz build): its
 * median and min those of its positive finite per-process figures,
 * ns_per_joint = median / joints. Returns the median. */
static double check_bench_side(const sw__json* j, int32_t side, int processes, double joints) {
    assert_int_equal(sw__json_type_of(j, side), SW__JSON_OBJECT);
    char path[32];
    assert_true(sw__json_string(j, sw__json_find(j, side, "path"), path, sizeof path, NULL));
    const double med = json_num(j, side, "median_ns"), mn = json_num(j, side, "min_ns");
    assert_true(isfinite(med) && isfinite(mn) && mn > 0.0 && med >= mn);
    double v[16];
    const double want_med =
        json_sorted_median(j, sw__json_find(j, side, "processes"), v, processes);
    assert_true(isfinite(v[0]) && v[0] > 0.0);
    assert_rel(mn, v[0], 1e-7);
    assert_rel(med, want_med, 1e-7);
    assert_rel(json_num(j, side, "ns_per_joint"), med / joints, 1e-6);
    return med;
}

/* The ozz sides and ratios of a row: both ozz builds null when ozz did not
 * run the row (ozz absent, or a codec other than the quantized headline),
 * else each build's figures (null when that build is absent) and the ratios
 * ozz / sinew per character and per joint (run-time path against ozz's AVX2
 * build, baseline path against ozz's SSE2 build), target_met whether every
 * ratio present is at least 1.5; a floor row (floor) has ozz's figures and
 * ratios and target_met null. */
static void check_bench_ozz_row(const sw__json* j, int32_t row, int processes, bool runs,
                                bool floor, double ozz_joints, double joints,
                                const double sinew[2]) {
    const int32_t ozz = sw__json_find(j, row, "ozz");
    static const char* const builds[2] = {"avx2", "sse2"};
    static const char* const ratio_keys[2] = {"ratio_run_time", "ratio_baseline"};
    bool any = false, met = true;
    for (int i = 0; i < 2; ++i) {
        const int32_t side = sw__json_find(j, ozz, builds[i]);
        const int32_t ratio = sw__json_find(j, row, ratio_keys[i]);
        const bool has = sw__json_type_of(j, side) == SW__JSON_OBJECT;
        if (!runs) assert_false(has);
        if (!has) {
            assert_int_equal(sw__json_type_of(j, side), SW__JSON_PRIMITIVE);
            continue;
        }
        const double o = check_bench_side(j, side, processes, ozz_joints);
        const double per_char = json_num(j, ratio, "per_character");
        const double per_joint = json_num(j, ratio, "per_joint");
        assert_rel(per_char, o / sinew[i], 1e-6);
        assert_rel(per_joint, (o / ozz_joints) / (sinew[i] / joints), 1e-6);
        any = true;
        met = met && per_joint >= 1.5;
    }
    const int32_t target = sw__json_find(j, row, "target_met");
    if (floor) { /* null: a floor is no target */
        bool b;
        double v;
        assert_int_equal(sw__json_type_of(j, target), SW__JSON_PRIMITIVE);
        assert_false(sw__json_bool(j, target, &b) || sw__json_number(j, target, &v));
    } else if (!any) {
        assert_false(runs);
        assert_int_equal(sw__json_type_of(j, target), SW__JSON_PRIMITIVE);
    } else {
        assert_true(json_true(j, row, "target_met") == met);
    }
}

/* Checks one asset of `bench --json`: its codecs (raw first and exact, the
 * quantized one within its precision, frames with a finite error), every
 * stage x count (x codec) row once with both sinew paths' figures, the
 * headline the quantized codec (and the rows without a codec), ozz's side
 * on exactly the headline rows when ozz ran (ozz_joints > 0). */
static void check_bench_asset(const sw__json* j, int32_t a, int processes, uint32_t joints,
                              double ozz_joints) {
    assert_int_equal((uint32_t)json_num(j, a, "joints"), joints);
    const int32_t codecs = sw__json_find(j, a, "codecs");
    const uint32_t nc = sw__json_len(j, codecs);
    assert_true(nc >= 2 && nc <= 3);
    int32_t codec_name[3];
    double codec_error[3];
    for (uint32_t k = 0; k < nc; ++k) {
        const int32_t c = sw__json_at(j, codecs, k);
        codec_name[k] = sw__json_find(j, c, "name");
        assert_true(json_num(j, c, "bytes") > 0.0);
        codec_error[k] = json_num(j, c, "max_error");
        assert_true(isfinite(codec_error[k]) && codec_error[k] >= 0.0);
        if (k == 0) {
            assert_true(sw__json_string_is(j, codec_name[k], "raw") && codec_error[k] == 0.0);
        } else if (sw__json_string_is(j, codec_name[k], "quantized")) {
            const double precision = json_num(j, c, "precision");
            assert_true(codec_error[k] > 0.0 && codec_error[k] <= precision);
        } else {
            assert_true(sw__json_string_is(j, codec_name[k], "frames"));
        }
    }

    const int32_t rows = sw__json_find(j, a, "rows");
    const size_t stages = sizeof bench_expect / sizeof bench_expect[0];
    int seen[7][2][3] = {{{0}}};
    const uint32_t n = sw__json_len(j, rows);
    assert_int_equal(n, 2u * (3u * nc + 4u));
    for (uint32_t i = 0; i < n; ++i) {
        const int32_t row = sw__json_at(j, rows, i);
        size_t s = 0;
        while (s < stages &&
               !sw__json_string_is(j, sw__json_find(j, row, "stage"), bench_expect[s].stage))
            ++s;
        assert_true(s < stages);
        const double chars = json_num(j, row, "characters");
        assert_true(chars == 8.0 || chars == 1000.0);
        const int ci = chars == 8.0 ? 0 : 1;
        const int32_t codec = sw__json_find(j, row, "codec");
        uint32_t k = 0;
        bool headline = true;
        if (bench_expect[s].per_codec) {
            char name[32];
            assert_true(sw__json_string(j, codec, name, sizeof name, NULL));
            while (k < nc && !sw__json_string_is(j, codec_name[k], name))
                ++k;
            assert_true(k < nc);
            assert_true(json_num(j, row, "max_error") == codec_error[k]);
            headline = strcmp(name, "quantized") == 0;
        } else {
            assert_int_equal(sw__json_type_of(j, codec), SW__JSON_PRIMITIVE);
        }
        ++seen[s][ci][k];
        headline = headline && !bench_expect[s].floor;
        assert_true(json_true(j, row, "headline") == headline);
        assert_true(json_true(j, row, "floor") == bench_expect[s].floor);
        const int32_t sinew = sw__json_find(j, row, "sinew");
        const double med[2] = {
            check_bench_side(j, sw__json_find(j, sinew, "run_time"), processes, joints),
            check_bench_side(j, sw__json_find(j, sinew, "baseline"), processes, joints)};
        check_bench_ozz_row(j, row, processes,
                            ozz_joints > 0.0 && (headline || bench_expect[s].floor),
                            bench_expect[s].floor, ozz_joints, (double)joints, med);
    }
    for (int ci = 0; ci < 2; ++ci)
        for (size_t s = 0; s < stages; ++s)
            for (uint32_t k = 0; k < nc; ++k)
                assert_int_equal(seen[s][ci][k], bench_expect[s].per_codec || k == 0 ? 1 : 0);
}

static bool is_count(double v) {
    return v >= 0.0 && v == floor(v);
}

/* The crowd's "interleaved" block: one entry per LOD setting, each once; the
 * wall and CPU speedups the medians of the per-process ratios (the last
 * process's the entry's own wall_ratio_median and cpu_ratio_median); the
 * last process's wall ratios ordered min <= q1 <= median <= q3 <= max, all
 * positive; the crowd the one the last process measured on 1 thread with
 * that setting; wall ms per frame positive, CPU ms >= 0, the busiest 2-thread
 * CPU at most both threads' together, the throughput speedup 2 x 1 thread's
 * CPU / both threads' CPU. */
static void check_bench_interleaved(const sw__json* j, int32_t c, int processes,
                                    double last_size[2][2]) {
    const int32_t il = sw__json_find(j, c, "interleaved");
    assert_int_equal(sw__json_type_of(j, il), SW__JSON_ARRAY);
    assert_true(sw__json_len(j, il) >= 1 && sw__json_len(j, il) <= 2);
    bool seen[2] = {false, false};
    for (uint32_t i = 0; i < sw__json_len(j, il); ++i) {
        const int32_t e = sw__json_at(j, il, i);
        const int lod = json_true(j, e, "lod") ? 1 : 0;
        assert_false(seen[lod]);
        seen[lod] = true;
        static const char* const kinds[2][3] = {
            {"speedup_wall", "processes_wall", "wall_ratio_median"},
            {"speedup_cpu", "processes_cpu", "cpu_ratio_median"}};
        for (int k = 0; k < 2; ++k) {
            double v[16];
            const int32_t procs = sw__json_find(j, e, kinds[k][1]);
            assert_rel(json_num(j, e, kinds[k][0]), json_sorted_median(j, procs, v, processes),
                       1e-7);
            assert_true(v[0] > 0.0);
            double last = 0.0;
            assert_true(sw__json_number(j, sw__json_at(j, procs, (uint32_t)processes - 1u), &last));
            assert_rel(json_num(j, e, kinds[k][2]), last, 1e-7);
        }
        const double q[5] = {json_num(j, e, "wall_ratio_min"), json_num(j, e, "wall_ratio_q1"),
                             json_num(j, e, "wall_ratio_median"), json_num(j, e, "wall_ratio_q3"),
                             json_num(j, e, "wall_ratio_max")};
        assert_true(q[0] > 0.0);
        for (int k = 1; k < 5; ++k)
            assert_true(q[k - 1] <= q[k]);
        const double pairs = json_num(j, e, "pairs");
        assert_true(is_count(pairs) && pairs >= 1.0);
        assert_true(json_num(j, e, "characters") == last_size[lod][0]);
        assert_true(json_num(j, e, "wall_ms_1") > 0.0 && json_num(j, e, "wall_ms_2") > 0.0);
        assert_true(json_num(j, e, "cpu_ms_1") >= 0.0 && json_num(j, e, "cpu_ms_2_busiest") >= 0.0);
        assert_true(json_num(j, e, "cpu_ms_2_busiest") <= json_num(j, e, "cpu_ms_2_both"));
        assert_rel(json_num(j, e, "speedup_throughput"),
                   2.0 * json_num(j, e, "cpu_ms_1") / json_num(j, e, "cpu_ms_2_both"), 1e-6);
    }
}

/* The crowd's "budget" block: the budget the frame's (16.7 ms), a tail of
 * at most the frames run; runs (1 to 5) starting at the crowd the last
 * process measured on 2 threads with LOD, growing by half while the first
 * run held (shrinking by a third while it did not) and stopping at the
 * first run that differs; each run's bias within the LOD levels, median <=
 * worst frame, frames over budget within the tail (none when the worst
 * frame is under it, some when over), characters per level summing to the
 * crowd, "held" the median within the budget; the largest held crowd at
 * most the largest tried. */
static void check_bench_budget(const sw__json* j, int32_t c, double frame_ns, double first) {
    const int32_t b = sw__json_find(j, c, "budget");
    assert_int_equal(sw__json_type_of(j, b), SW__JSON_OBJECT);
    const double seconds = json_num(j, b, "seconds");
    assert_rel(seconds * 1e9, frame_ns, 1e-6);
    const double budget_ms = 1e3 * (double)(float)seconds; /* as the writer compares */
    const double frames = json_num(j, b, "frames"), tail = json_num(j, b, "tail");
    assert_true(is_count(frames) && is_count(tail) && tail >= 1.0 && tail <= frames);
    const double levels = (double)sw__json_len(j, sw__json_find(j, c, "lod_levels"));
    const int32_t runs = sw__json_find(j, b, "runs");
    const uint32_t n = sw__json_len(j, runs);
    assert_true(n >= 1 && n <= 5);
    bool grow = false;
    double expect = first, largest = 0.0, largest_held = 0.0;
    for (uint32_t k = 0; k < n; ++k) {
        const int32_t run_k = sw__json_at(j, runs, k);
        const double chars = json_num(j, run_k, "characters");
        assert_true(is_count(chars) && chars >= 1.0);
        assert_true(chars == expect);
        const double bias = json_num(j, run_k, "bias");
        assert_true(is_count(bias) && bias < levels);
        const double med = json_num(j, run_k, "median_ms"), worst = json_num(j, run_k, "worst_ms");
        assert_true(med > 0.0 && med <= worst);
        const double over = json_num(j, run_k, "frames_over");
        assert_true(is_count(over) && over <= tail);
        if (worst < budget_ms * (1.0 - 1e-5)) assert_true(over == 0.0);
        if (worst > budget_ms * (1.0 + 1e-5)) assert_true(over >= 1.0);
        double per_level[3];
        assert_true(sw__json_numbers(j, sw__json_find(j, run_k, "per_level"), per_level, 3));
        assert_true(is_count(per_level[0]) && is_count(per_level[1]) && is_count(per_level[2]));
        assert_true(per_level[0] + per_level[1] + per_level[2] == chars);
        const bool held = json_true(j, run_k, "held");
        assert_true(held == (med <= budget_ms));
        if (k == 0) grow = held;
        if (k + 1 < n) assert_true(held == grow); /* only the last run may differ */
        if (held && chars > largest_held) largest_held = chars;
        if (chars > largest) largest = chars;
        expect = grow ? chars + floor(chars / 2.0) : chars - floor(chars / 3.0);
    }
    assert_true(largest_held <= largest);
}

/* The skipped-work block: the probe-sized crowds, every character evaluated
 * when all are shown and playing, one in ten (i % 10 == 0) when 90 % are
 * off-screen or frozen; each process's ratios, the last one's from its ms. */
static void check_bench_skip(const sw__json* j, int32_t c, int processes, double probe) {
    const int32_t k = sw__json_find(j, c, "skip");
    assert_int_equal(sw__json_type_of(j, k), SW__JSON_OBJECT);
    const double chars = json_num(j, k, "characters");
    assert_true(chars == probe);
    const double tenth = ceil(chars / 10.0);
    assert_true(json_num(j, k, "all_evaluations") == chars);
    assert_true(json_num(j, k, "hidden_evaluations") == tenth);
    assert_true(json_num(j, k, "unchanged_evaluations") == tenth);
    const double all = json_num(j, k, "all_shown_cpu_ms");
    const double hidden = json_num(j, k, "hidden_90_cpu_ms");
    const double frozen = json_num(j, k, "unchanged_90_cpu_ms");
    assert_true(all > 0.0 && hidden > 0.0 && frozen > 0.0);
    const int32_t hr = sw__json_find(j, k, "hidden_ratio"),
                  ur = sw__json_find(j, k, "unchanged_ratio");
    assert_int_equal(sw__json_len(j, hr), (uint32_t)processes);
    assert_int_equal(sw__json_len(j, ur), (uint32_t)processes);
    double h = 0.0, u = 0.0;
    assert_true(sw__json_number(j, sw__json_at(j, hr, (uint32_t)processes - 1u), &h));
    assert_true(sw__json_number(j, sw__json_at(j, ur, (uint32_t)processes - 1u), &u));
    assert_rel(h, hidden / all, 1e-5);
    assert_rel(u, frozen / all, 1e-5);
}

/* The joint LOD block of one asset: two crowds (8 characters, then the
 * probe's), each with 4 levels, level 0 with cut 0, the kept joints falling
 * as the cut falls, per codec the median of the process figures and the
 * cost per kept joint from it. */
static void check_bench_lod(const sw__json* j, int32_t c, int processes, double probe) {
    const int32_t k = sw__json_find(j, c, "joint_lod");
    assert_int_equal(sw__json_type_of(j, k), SW__JSON_OBJECT);
    const int32_t crowds = sw__json_find(j, k, "crowds");
    assert_int_equal(sw__json_len(j, crowds), 2);
    static const char* const codecs[3] = {"raw", "quantized", "frames"};
    for (uint32_t cr = 0; cr < 2u; ++cr) {
        const int32_t crowd = sw__json_at(j, crowds, cr);
        assert_true(json_num(j, crowd, "characters") == (cr == 0u ? 8.0 : probe));
        const int32_t levels = sw__json_find(j, crowd, "levels");
        assert_int_equal(sw__json_len(j, levels), 4);
        double last_kept = 0.0, last_cut = 0.0;
        for (uint32_t l = 0; l < 4u; ++l) {
            const int32_t lv = sw__json_at(j, levels, l);
            const double cut = json_num(j, lv, "cut"), kept = json_num(j, lv, "kept_joints");
            assert_true(kept >= 1.0);
            if (l == 0) {
                assert_true(cut == 0.0);
            } else {
                assert_true(kept <= last_kept);
                assert_true(cut >= 1.0 && (l == 1 || cut <= last_cut));
            }
            last_kept = kept;
            last_cut = cut;
            for (int cd = 0; cd < 3; ++cd) {
                const int32_t o = sw__json_find(j, lv, codecs[cd]);
                double v[16];
                const double m =
                    json_sorted_median(j, sw__json_find(j, o, "processes"), v, processes);
                assert_true(m > 0.0 && isfinite(m));
                assert_rel(json_num(j, o, "ns_per_character"), m, 1e-6);
                assert_rel(json_num(j, o, "ns_per_kept_joint"), m / kept, 1e-6);
            }
        }
    }
}

/* The crowd figures of one asset: 1 and 2 threads without and with LOD, each
 * row's median and min those of its process figures, the characters that fit
 * in 16.7 ms from the median, the speedups from the medians, the crowds
 * measured at least the probe's size (exactly it with --quick) with every
 * character at one LOD level, the codec one of the asset's; its interleaved
 * and budget blocks consistent with those rows. */
static void check_bench_crowd(const sw__json* j, int32_t a, int processes) {
    const int32_t c = sw__json_find(j, a, "crowd");
    assert_int_equal(sw__json_type_of(j, c), SW__JSON_OBJECT);
    const double probe = json_num(j, c, "probe_characters");
    const bool confirmed = json_true(j, c, "confirmed");
    assert_true(probe >= 1.0);
    char codec[32];
    assert_true(sw__json_string(j, sw__json_find(j, c, "codec"), codec, sizeof codec, NULL));
    bool known = false;
    const int32_t codecs = sw__json_find(j, a, "codecs");
    for (uint32_t k = 0; k < sw__json_len(j, codecs); ++k)
        known |= sw__json_string_is(j, sw__json_find(j, sw__json_at(j, codecs, k), "name"), codec);
    assert_true(known);
    const double frame = json_num(j, c, "frame_ns");
    assert_true(frame == 16.7e6);
    assert_int_equal(sw__json_len(j, sw__json_find(j, c, "lod_levels")), 3);
    const int32_t rows = sw__json_find(j, c, "rows");
    assert_int_equal(sw__json_len(j, rows), 4);
    double med[2][2] = {{0}}, last_size[2][2] = {{0}};
    for (uint32_t i = 0; i < 4; ++i) {
        const int32_t row = sw__json_at(j, rows, i);
        const double t = json_num(j, row, "threads");
        assert_true(t == 1.0 || t == 2.0);
        const int lod = json_true(j, row, "lod") ? 1 : 0;
        assert_true(med[lod][(int)t - 1] == 0.0); /* each combination once */
        const double m = json_num(j, row, "median_ns"), mn = json_num(j, row, "min_ns");
        assert_true(isfinite(m) && mn > 0.0 && m >= mn);
        double v[16];
        const double pm = json_sorted_median(j, sw__json_find(j, row, "processes"), v, processes);
        assert_rel(mn, v[0], 1e-7);
        assert_rel(m, pm, 1e-7);
        /* fit = floor(frame / median), up to the median's printed digits */
        const double fit = json_num(j, row, "fit");
        assert_true(fit == floor(fit) && fit <= frame / m * (1.0 + 1e-7) &&
                    fit > frame / m * (1.0 - 1e-7) - 1.0);
        med[lod][(int)t - 1] = m;
        const int32_t sizes = sw__json_find(j, row, "characters");
        assert_int_equal(sw__json_len(j, sizes), (uint32_t)processes);
        double size = 0.0;
        for (int p = 0; p < processes; ++p) {
            assert_true(sw__json_number(j, sw__json_at(j, sizes, (uint32_t)p), &size));
            assert_true(confirmed ? size >= probe : size == probe);
        }
        double per_level[3], placed = 0.0;
        assert_true(sw__json_numbers(j, sw__json_find(j, row, "per_level"), per_level, 3));
        for (int l = 0; l < 3; ++l)
            placed += per_level[l];
        assert_true(placed == size); /* the last process's crowd */
        if (!lod) assert_true(per_level[0] == size);
        last_size[lod][(int)t - 1] = size;
    }
    assert_rel(json_num(j, c, "speedup_without_lod"), med[0][0] / med[0][1], 1e-6);
    assert_rel(json_num(j, c, "speedup_with_lod"), med[1][0] / med[1][1], 1e-6);
    check_bench_interleaved(j, c, processes, last_size);
    check_bench_budget(j, c, frame, last_size[1][1]);
    check_bench_skip(j, c, processes, probe);
    check_bench_lod(j, c, processes, probe);
}

static int32_t bench_asset_named(const sw__json* j, int32_t assets, const char* name) {
    for (uint32_t i = 0; i < sw__json_len(j, assets); ++i) {
        const int32_t a = sw__json_at(j, assets, i);
        if (sw__json_string_is(j, sw__json_find(j, a, "name"), name)) return a;
    }
    fail_msg("no asset \"%s\" in the bench output", name);
    return -1;
}

/* The "skinning" block of `bench --json`: the cylinder set always, the
 * robot's when given, first; each set's rows lbs, dq and morph on the two
 * paths (scalar first), ns per vertex the median of the processes'. */
static void check_bench_skinning(const sw__json* j, bool robot, int processes) {
    const int32_t sets = sw__json_find(j, 0, "skinning");
    assert_int_equal(sw__json_len(j, sets), robot ? 2 : 1);
    for (uint32_t i = 0; i < sw__json_len(j, sets); ++i) {
        const int32_t set = sw__json_at(j, sets, i);
        const bool is_robot = robot && i == 0;
        assert_true(sw__json_string_is(j, sw__json_find(j, set, "set"),
                                       is_robot ? "RobotExpressive" : "cylinder"));
        assert_true(json_num(j, set, "vertices") == (is_robot ? 7214.0 : 16384.0));
        const int32_t rows = sw__json_find(j, set, "rows");
        assert_int_equal(sw__json_len(j, rows), 6);
        for (uint32_t k = 0; k < 6; ++k) {
            const int32_t row = sw__json_at(j, rows, k);
            static const char* const kinds[3] = {"lbs", "dq", "morph"};
            assert_true(sw__json_string_is(j, sw__json_find(j, row, "kind"), kinds[k / 2]));
            if (k % 2 == 0)
                assert_true(sw__json_string_is(j, sw__json_find(j, row, "path"), "scalar"));
            double v[16];
            const double med =
                json_sorted_median(j, sw__json_find(j, row, "processes"), v, processes);
            assert_true(v[0] > 0.0);
            assert_rel(json_num(j, row, "ns_per_vertex"), med, 1e-7);
        }
    }
}

/* `bench --quick --json` with no RobotExpressive to find: the built-in
 * humanoid alone, RobotExpressive named as skipped; the text output lists
 * every stage. */
static void test_bench_humanoid(void** state) {
    (void)state;
    if (!cli_available()) return;
    sw_scene human;
    sw_error e;
    assert_int_equal(sw_showcase_humanoid(NULL, &human, NULL, &e), SW_RESULT_OK);
    const uint32_t joints = human.skeleton->joints_count;
    sw_scene_free(&human, NULL);

    const char* old = getenv("SINEW_ASSETS");
    char* saved = old ? strdup(old) : NULL;
    setenv("SINEW_ASSETS", g_dir, 1); /* a folder without RobotExpressive.glb */
    run_result r = run("bench --quick --json --processes 3");
    run_result text_run = run("bench --quick --processes 1");
    /* restored before any check, so a failure here leaves the later tests their assets */
    if (saved) {
        setenv("SINEW_ASSETS", saved, 1);
        free(saved);
    } else {
        unsetenv("SINEW_ASSETS");
    }
    if (r.code != 0) fail_msg("bench: exit %d: %s", r.code, r.err);
    sw__json j;
    assert_int_equal(sw__json_parse(&j, r.out, strlen(r.out), NULL, &e), SW_RESULT_OK);
    assert_true(json_num(&j, 0, "processes") == 3.0);
    const int32_t skipped = sw__json_find(&j, 0, "skipped");
    assert_int_equal(sw__json_len(&j, skipped), 1);
    char text[1024];
    assert_true(sw__json_string(&j, sw__json_at(&j, skipped, 0), text, sizeof text, NULL));
    assert_non_null(strstr(text, "RobotExpressive"));
    const int32_t assets = sw__json_find(&j, 0, "assets");
    assert_int_equal(sw__json_len(&j, assets), 1);
    const int32_t a = bench_asset_named(&j, assets, "humanoid");
    const int32_t chains = sw__json_find(&j, a, "chains");
    assert_true(
        sw__json_string_is(&j, sw__json_at(&j, sw__json_at(&j, chains, 0), 0), "LeftUpLeg"));
    const int32_t ozz = sw__json_find(&j, 0, "ozz");
    assert_false(json_true(&j, ozz, "present"));
    check_bench_asset(&j, a, 3, joints, 0.0);
    check_bench_crowd(&j, a, 3);
    check_bench_skinning(&j, false, 3);
    sw__json_free(&j, NULL);
    run_free(&r);

    r = text_run;
    assert_int_equal(r.code, 0);
    char want[128];
    snprintf(want, sizeof want, "humanoid: %u joints, clips walk + run", joints);
    assert_non_null(strstr(r.out, want));
    for (size_t s = 0; s < sizeof bench_expect / sizeof bench_expect[0]; ++s) {
        const char* labels[] = {"sample one clip, sequential playback",
                                "sample one clip, cold seek",
                                "blend 2 layers",
                                "blend's memory floor",
                                "local-to-model",
                                "two-bone IK per solve",
                                "full frame: "};
        assert_non_null(strstr(r.out, labels[s]));
    }
    run_free(&r);
}

/* `bench --quick --json --asset RobotExpressive.glb`: both rigs, the robot
 * with the joint count the glTF reader gives, Walking + Running, both arms. */
static void test_bench_robot(void** state) {
    (void)state;
    char glb[1024], args[2048];
    if (!cli_available() || !sw_test_asset_path(glb, sizeof glb, "RobotExpressive.glb")) return;
    sw_scene scene;
    sw_error e;
    assert_int_equal(sw_gltf_read_file(glb, NULL, NULL, &scene, &e), SW_RESULT_OK);
    const uint32_t joints = scene.skeleton->joints_count;
    sw_scene_free(&scene, NULL);
    snprintf(args, sizeof args, "bench --quick --json --processes 2 --asset '%s'", glb);
    run_result r = run(args);
    assert_int_equal(r.code, 0);
    sw__json j;
    assert_int_equal(sw__json_parse(&j, r.out, strlen(r.out), NULL, &e), SW_RESULT_OK);
    const int32_t assets = sw__json_find(&j, 0, "assets");
    assert_int_equal(sw__json_len(&j, assets), 2);
    assert_int_equal(sw__json_len(&j, sw__json_find(&j, 0, "skipped")), 0);
    const int32_t a = bench_asset_named(&j, assets, "RobotExpressive");
    const int32_t clips = sw__json_find(&j, a, "clips");
    assert_true(sw__json_string_is(&j, sw__json_at(&j, clips, 0), "Walking"));
    assert_true(sw__json_string_is(&j, sw__json_at(&j, clips, 1), "Running"));
    const int32_t chains = sw__json_find(&j, a, "chains");
    assert_true(
        sw__json_string_is(&j, sw__json_at(&j, sw__json_at(&j, chains, 0), 0), "UpperArmL"));
    assert_true(sw__json_string_is(&j, sw__json_at(&j, sw__json_at(&j, chains, 1), 2), "Palm2R"));
    /* ozz's side when scripts/anchors built it (test_bench_ozz checks its work) */
    const int32_t ozz = sw__json_find(&j, 0, "ozz");
    const double ozz_joints = json_true(&j, ozz, "present") ? json_num(&j, ozz, "joints") : 0.0;
    if (ozz_joints == 0.0) print_message("ozz-animation absent: sinew's side only\n");
    check_bench_asset(&j, a, 2, joints, ozz_joints);
    check_bench_crowd(&j, a, 2);
    check_bench_skinning(&j, true, 2);
    sw__json_free(&j, NULL);
    run_free(&r);
    /* --profile: one side of one stage, in this process, one line */
    snprintf(args, sizeof args, "bench --profile two_bone_ik:sinew-sse2 --asset '%s'", glb);
    r = run(args);
    assert_int_equal(r.code, 0);
    unsigned chars = 0, frames = 0;
    double ns = 0.0;
    if (sscanf(r.out,
               "profile two_bone_ik on sinew-sse2: %u characters x %u frames, %lf ns per solve",
               &chars, &frames, &ns) != 3)
        fail_msg("profile line: %s", r.out);
    assert_int_equal(chars, 8u);
    assert_int_equal(frames, 1000u);
    assert_true(ns > 0.0);
    run_free(&r);
}

/* Bad command lines exit 2 with one line naming the problem; an unreadable
 * asset exits 1. */
static void test_bench_usage(void** state) {
    (void)state;
    if (!cli_available()) return;
    const char* bad[] = {"bench --processes 0",     "bench --processes",
                         "bench --processes 2.5",   "bench --processes x",
                         "bench --frobnicate",      "bench extra",
                         "bench --asset",           "bench --profile",
                         "bench --profile blend",   "bench --profile bogus:sinew",
                         "bench --profile blend:x", "bench --profile blend:sinew:extra"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        run_result r = run(bad[i]);
        if (r.code != 2) fail_msg("%s: exit %d", bad[i], r.code);
        assert_non_null(strstr(r.err, "sinew: bench: "));
        assert_true(r.out[0] == '\0');
        run_free(&r);
    }
    char args[1024];
    snprintf(args, sizeof args, "bench --quick --processes 1 --asset '%s/missing.glb'", g_dir);
    run_result r = run(args);
    assert_int_equal(r.code, 1);
    assert_non_null(strstr(r.err, "missing.glb"));
    assert_true(r.out[0] == '\0');
    run_free(&r);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_help_and_version),
        cmocka_unit_test(test_sample_bvh_against_fk),
        cmocka_unit_test(test_convert_then_sample),
        cmocka_unit_test(test_convert_frames),
        cmocka_unit_test(test_convert_lod_order),
        cmocka_unit_test(test_corrupt_archives),
        cmocka_unit_test(test_convert_failure_leaves_no_file),
        cmocka_unit_test(test_bvh_warning),
        cmocka_unit_test(test_json_quote),
        cmocka_unit_test(test_json_output_invalid_utf8),
        cmocka_unit_test(test_validate_isolate),
        cmocka_unit_test(test_import_export_robot),
        cmocka_unit_test(test_import_failures),
        cmocka_unit_test(test_batch_bvh_folder),
        cmocka_unit_test(test_batch_all_models),
        cmocka_unit_test(test_bench_humanoid),
        cmocka_unit_test(test_bench_robot),
        cmocka_unit_test(test_bench_usage),
    };
    return cmocka_run_group_tests(tests, scratch_setup, scratch_teardown);
}
