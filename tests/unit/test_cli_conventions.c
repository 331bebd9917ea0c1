/* The CLI's conventions (issue 17, findings 2 and 6), run on the built
 * binary: outputs take the format of their extension (checked by the files'
 * magic and by reading them back), refused extensions and outputs that are
 * inputs (same file through a hard link too) stop before any work and leave
 * the files as they were; every verb answers --help / -h / help VERB; the
 * --json reports parse and hold the counts of the BVH parser of bvh_fk.h;
 * batch import skips unknown extensions; sample outside the clip says what it
 * did, and --loop wraps. */
#define _POSIX_C_SOURCE 200809L /* mkdtemp, link */
#define SCRATCH_NAME "test_cli_conv"
#include "cli_run.h"

#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bvh_fk.h"
#include "sinew/showcase/character.h"
#include "sinew/tools/writers/output.h"

/* 01_01.bvh copied into the scratch folder as a.bvh, and its joints count
 * (no End Sites) and duration from the independent parser. */
typedef struct source {
    char path[512];
    int joints;
    double duration;
} source;

static bool load_source(source* s) {
    char model[512];
    if (!sw_test_model_path(model, sizeof model, "BVH/01_01.bvh")) return false;
    char* text = fk_read_text(model, NULL);
    assert_non_null(text);
    fk_bvh ref;
    assert_int_equal(fk_parse(text, &ref), 0);
    s->joints = 0;
    for (int k = 0; k < ref.count; ++k)
        s->joints += !ref.joints[k].end_site;
    s->duration = (double)(ref.frames - 1) * ref.frame_time;
    fk_free(&ref);
    snprintf(s->path, sizeof s->path, "%s/a.bvh", g_dir);
    FILE* f = fopen(s->path, "wb");
    assert_non_null(f);
    assert_int_equal(fputs(text, f) >= 0, 1);
    fclose(f);
    free(text);
    return true;
}

static bool starts_with_file(const char* path, const char* magic) {
    char buf[16] = "";
    FILE* f = fopen(path, "rb");
    if (!f) return false;
    const size_t n = fread(buf, 1, strlen(magic), f);
    fclose(f);
    return n == strlen(magic) && memcmp(buf, magic, n) == 0;
}

static bool exists(const char* path) {
    struct stat st;
    return stat(path, &st) == 0;
}

static int entries(const char* dir) {
    DIR* d = opendir(dir);
    int n = 0;
    for (struct dirent* e = d ? readdir(d) : NULL; e; e = readdir(d))
        n += e->d_name[0] != '.';
    if (d) closedir(d);
    return n;
}

/* Parses out as one JSON object (fails the test otherwise). */
static void parse_json(sw__json* j, const char* out) {
    sw_error e;
    memset(&e, 0, sizeof e);
    if (sw__json_parse(j, out, strlen(out), NULL, &e) != SW_RESULT_OK)
        fail_msg("not JSON (%s at %llu): %s", e.check, (unsigned long long)e.offset, out);
}

static void assert_json_string(const sw__json* j, int32_t obj, const char* key, const char* want) {
    char got[1024];
    if (!sw__json_string(j, sw__json_find(j, obj, key), got, sizeof got, NULL))
        fail_msg("no string \"%s\"", key);
    assert_string_equal(got, want);
}

/* The joints' model-space translations of `sample --json` (the "t" arrays). */
static int sample_t(const char* args, double* t, int cap) {
    run_result r = run(args);
    assert_int_equal(r.code, 0);
    sw__json j;
    parse_json(&j, r.out);
    const int32_t joints = sw__json_find(&j, 0, "joints");
    const int n = (int)sw__json_len(&j, joints);
    assert_true(n <= cap);
    for (int k = 0; k < n; ++k) {
        const int32_t jt = sw__json_at(&j, joints, (uint32_t)k);
        assert_true(sw__json_numbers(&j, sw__json_find(&j, jt, "t"), &t[3 * k], 3));
    }
    sw__json_free(&j, NULL);
    run_free(&r);
    return n;
}

static double max_diff(const double* a, const double* b, int n) {
    double worst = 0.0;
    for (int i = 0; i < 3 * n; ++i)
        worst = fmax(worst, fabs(a[i] - b[i]));
    return worst;
}

/* ---- finding 2: outputs as named ---- */

/* Each verb's output takes the format of its extension; the .gltf with its
 * .bin and the .glb sample as the source does. */
static void test_output_format_follows_extension(void** state) {
    (void)state;
    source s;
    if (!cli_available() || !load_source(&s)) return;
    static const struct {
        const char* verb; /* %1$s: the source, %2$s: the output */
        const char* out;
        const char* magic;
    } cases[] = {
        {"convert '%s' -o '%s'", "c.glb", "glTF"},
        {"convert '%s' -o '%s'", "c.sinew", "SINEWARC"},
        {"import '%s' -o '%s'", "i.glb", "glTF"},
        {"export '%s' -o '%s'", "e.sinew", "SINEWARC"},
        {"mirror '%s' -o '%s'", "m.gltf", "{"},
        {"export '%s' -o '%s'", "e.gltf", "{"},
        {"retarget '%s' --to default -o '%s'", "r.glb", "glTF"},
    };
    char args[2048], out[600];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        snprintf(out, sizeof out, "%s/%s", g_dir, cases[i].out);
        snprintf(args, sizeof args, cases[i].verb, s.path, out);
        run_result r = run(args);
        if (r.code != 0) fail_msg("%s: exit %d: %s", args, r.code, r.err);
        run_free(&r);
        if (!starts_with_file(out, cases[i].magic)) fail_msg("%s: not %s", out, cases[i].magic);
    }
    /* the .gltf names its .bin beside it, which holds the buffer */
    char bin[600];
    snprintf(out, sizeof out, "%s/e.gltf", g_dir);
    assert_true(sw_output_gltf_bin_path(out, bin, sizeof bin));
    char* text = slurp(out);
    sw__json j;
    parse_json(&j, text);
    const int32_t buf0 = sw__json_at(&j, sw__json_find(&j, 0, "buffers"), 0);
    assert_json_string(&j, buf0, "uri", "e.bin");
    struct stat st;
    assert_int_equal(stat(bin, &st), 0);
    assert_true((double)st.st_size >= json_num(&j, buf0, "byteLength"));
    sw__json_free(&j, NULL);
    free(text);
    /* the glTF files sample as the BVH does (float keys: 1e-3 file units) */
    double a[3 * 64], b[3 * 64];
    snprintf(args, sizeof args, "sample '%s' --time 3.5 --json", s.path);
    const int n = sample_t(args, a, 64);
    assert_int_equal(n, s.joints);
    static const char* const written[] = {"c.glb", "e.gltf", "c.sinew"};
    for (size_t k = 0; k < 3; ++k) {
        snprintf(args, sizeof args, "sample '%s/%s' --time 3.5 --json", g_dir, written[k]);
        assert_int_equal(sample_t(args, b, 64), n);
        if (max_diff(a, b, n) > 1e-3) fail_msg("%s: %g off", written[k], max_diff(a, b, n));
    }
}

/* Unknown and refused extensions stop with exit 2 and one line before any
 * work: nothing is written. */
static void test_output_refused_extensions(void** state) {
    (void)state;
    source s;
    if (!cli_available() || !load_source(&s)) return;
    static const struct {
        const char* args; /* %s: the source, then the scratch folder */
        const char* out;
        const char* says;
    } cases[] = {
        {"convert '%s' -o '%s/x.fbx'", "x.fbx", "unknown output extension"},
        {"import '%s' -o '%s/noext'", "noext", "unknown output extension"},
        {"compress '%s' -o '%s/x.glb'", "x.glb", "only .sinew"},
        {"convert '%s' --codec frames -o '%s/f.gltf'", "f.gltf", "only .sinew"},
        {"retarget '%s' --to default -o '%s/r.bvh'", "r.bvh", "unknown output extension"},
    };
    char args[2048], out[600];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        snprintf(args, sizeof args, cases[i].args, s.path, g_dir);
        run_result r = run(args);
        if (r.code != 2) fail_msg("%s: exit %d", args, r.code);
        assert_int_equal(count_lines(r.err), 1);
        if (!strstr(r.err, cases[i].says)) fail_msg("%s: %s", args, r.err);
        assert_string_equal(r.out, "");
        run_free(&r);
        snprintf(out, sizeof out, "%s/%s", g_dir, cases[i].out);
        assert_false(exists(out));
    }
    assert_int_equal(entries(g_dir), 1 + 2); /* a.bvh, stdout.txt, stderr.txt */
}

/* An output that is an input (by name, through a hard link, the --character
 * of demo) is refused with exit 2 and the input keeps its bytes. */
static void test_output_not_input(void** state) {
    (void)state;
    source s;
    if (!cli_available() || !load_source(&s)) return;
    size_t before_size = 0;
    void* before = sw_test_read_file(s.path, &before_size);
    char args[2048], glb[600], link_path[600];
    snprintf(args, sizeof args, "convert '%s' -o '%s'", s.path, s.path);
    run_result r = run(args);
    assert_int_equal(r.code, 2);
    assert_non_null(strstr(r.err, "the same file"));
    run_free(&r);
    size_t after_size = 0;
    void* after = sw_test_read_file(s.path, &after_size);
    assert_int_equal(after_size, before_size);
    assert_memory_equal(after, before, before_size);
    free(after);
    free(before);
    /* a hard link has another name and the same inode */
    snprintf(glb, sizeof glb, "%s/h.glb", g_dir);
    snprintf(link_path, sizeof link_path, "%s/link.glb", g_dir);
    run_expect(0, "convert '%s' -o '%s'", s.path, glb);
    assert_int_equal(link(glb, link_path), 0);
    static const char* const verbs[] = {"export", "mirror", "import"};
    for (size_t i = 0; i < 3; ++i) {
        snprintf(args, sizeof args, "%s '%s' -o '%s'", verbs[i], glb, link_path);
        r = run(args);
        if (r.code != 2) fail_msg("%s: exit %d", args, r.code);
        assert_non_null(strstr(r.err, "the same file"));
        run_free(&r);
    }
    /* demo --character DIR/demo.glb --out DIR would overwrite its character */
    char demo[600];
    snprintf(demo, sizeof demo, "%s/demo.glb", g_dir);
    assert_int_equal(rename(glb, demo), 0);
    before = sw_test_read_file(demo, &before_size);
    snprintf(args, sizeof args, "demo --character '%s' --out '%s' --seconds 0.1", demo, g_dir);
    r = run(args);
    assert_int_equal(r.code, 2);
    assert_non_null(strstr(r.err, "the same file"));
    run_free(&r);
    after = sw_test_read_file(demo, &after_size);
    assert_int_equal(after_size, before_size);
    assert_memory_equal(after, before, before_size);
    free(after);
    free(before);
    snprintf(args, sizeof args, "%s/metrics.json", g_dir);
    assert_false(exists(args));
}

/* ---- finding 6: conventions ---- */

/* Every verb answers --help, -h and `help VERB` with its usage and an example. */
static void test_help_every_verb(void** state) {
    (void)state;
    if (!cli_available()) return;
    static const char* const verbs[] = {"info",   "import",   "export",   "convert",
                                        "sample", "validate", "play",     "compress",
                                        "demo",   "mirror",   "retarget", "bench"};
    static const char* const forms[] = {"%s --help", "%s -h", "help %s", "%s x.bvh --help"};
    char args[256], usage[64], example[64];
    for (size_t v = 0; v < sizeof verbs / sizeof verbs[0]; ++v) {
        snprintf(usage, sizeof usage, "usage: sinew %s ", verbs[v]);
        snprintf(example, sizeof example, "example:\n  sinew %s ", verbs[v]);
        for (size_t f = 0; f < sizeof forms / sizeof forms[0]; ++f) {
            snprintf(args, sizeof args, forms[f], verbs[v]);
            run_result r = run(args);
            if (r.code != 0) fail_msg("%s: exit %d", args, r.code);
            if (strncmp(r.out, usage, strlen(usage)) != 0) fail_msg("%s: %s", args, r.out);
            if (!strstr(r.out, example)) fail_msg("%s: no example: %s", args, r.out);
            assert_string_equal(r.err, "");
            run_free(&r);
        }
    }
    run_result r = run("help frobnicate");
    assert_int_equal(r.code, 2);
    assert_int_equal(count_lines(r.err), 1);
    run_free(&r);
}

/* The report of a verb that wrote a file: the common fields. */
static void check_written(const char* json, const char* in, const char* out, const char* format,
                          int joints, int clips) {
    sw__json j;
    parse_json(&j, json);
    assert_json_string(&j, 0, "file", in);
    assert_json_string(&j, 0, "output", out);
    assert_json_string(&j, 0, "output_format", format);
    if (joints >= 0) assert_int_equal((int)json_num(&j, 0, "joints_count"), joints);
    assert_int_equal((int)json_num(&j, 0, "clips_count"), clips);
    assert_int_equal((int)json_num(&j, 0, "meshes_count"), 0);
    sw__json_free(&j, NULL);
}

/* --json on import, export, convert, mirror, retarget and validate. */
static void test_json_reports(void** state) {
    (void)state;
    source s;
    if (!cli_available() || !load_source(&s)) return;
    char args[2048], out[600];
    static const struct {
        const char* args;
        const char* out;
        const char* format;
    } cases[] = {
        {"import '%s' -o '%s' --json", "i.sinew", "sinew"},
        {"export '%s' -o '%s' --json", "e.glb", "glb"},
        {"convert '%s' -o '%s' --json", "c.gltf", "gltf"},
        {"convert '%s' -o '%s' --json --codec frames", "f.sinew", "sinew"},
        {"mirror '%s' -o '%s' --json", "m.sinew", "sinew"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        snprintf(out, sizeof out, "%s/%s", g_dir, cases[i].out);
        snprintf(args, sizeof args, cases[i].args, s.path, out);
        run_result r = run(args);
        if (r.code != 0) fail_msg("%s: exit %d: %s", args, r.code, r.err);
        check_written(r.out, s.path, out, cases[i].format, s.joints, 1);
        run_free(&r);
    }
    /* retarget onto the built-in humanoid: its joints, and how many mapped */
    sw_scene human;
    memset(&human, 0, sizeof human);
    assert_int_equal(sw_showcase_humanoid(NULL, &human, NULL, NULL), SW_RESULT_OK);
    const int target_joints = (int)human.skeleton->joints_count;
    snprintf(out, sizeof out, "%s/r.glb", g_dir);
    snprintf(args, sizeof args, "retarget '%s' --to default -o '%s' --json", s.path, out);
    run_result r = run(args);
    assert_int_equal(r.code, 0);
    sw__json j;
    parse_json(&j, r.out);
    assert_json_string(&j, 0, "target", "default");
    assert_int_equal((int)json_num(&j, 0, "joints_count"), target_joints);
    const double mapped = json_num(&j, 0, "mapped");
    assert_true(mapped >= 1.0 && mapped <= (double)target_joints);
    assert_true(json_num(&j, 0, "scale") > 0.0);
    sw__json_free(&j, NULL);
    sw_scene_free(&human, NULL);
    run_free(&r);
    /* validate: ok with the counts, or the failed check */
    snprintf(args, sizeof args, "validate '%s' --json", s.path);
    r = run(args);
    assert_int_equal(r.code, 0);
    parse_json(&j, r.out);
    assert_true(json_true(&j, 0, "ok"));
    assert_int_equal((int)json_num(&j, 0, "joints_count"), s.joints);
    assert_json_string(&j, 0, "format", "bvh");
    sw__json_free(&j, NULL);
    run_free(&r);
    snprintf(args, sizeof args, "validate '%s/stdout.txt' --json --in-process", g_dir);
    r = run(args);
    assert_int_equal(r.code, 1);
    parse_json(&j, r.out);
    assert_false(json_true(&j, 0, "ok"));
    assert_int_equal(sw__json_type_of(&j, sw__json_find(&j, 0, "check")), SW__JSON_STRING);
    sw__json_free(&j, NULL);
    assert_int_equal(count_lines(r.err), 1);
    run_free(&r);
}

/* demo --json: the files it wrote (sizes as on disk) and metrics.json's document. */
static void test_json_demo(void** state) {
    (void)state;
    if (!cli_available()) return;
    char args[1024], dir[600];
    snprintf(dir, sizeof dir, "%s/demo", g_dir);
    snprintf(args, sizeof args,
             "demo --out '%s' --seconds 0.2 --fps 10 --frame-size 16x16 --no-physics --json", dir);
    run_result r = run(args);
    if (r.code != 0) fail_msg("exit %d: %s", r.code, r.err);
    sw__json j;
    parse_json(&j, r.out);
    char glb[700], png[700], metrics[700];
    snprintf(glb, sizeof glb, "%s/demo.glb", dir);
    snprintf(png, sizeof png, "%s/demo.png", dir);
    snprintf(metrics, sizeof metrics, "%s/metrics.json", dir);
    assert_json_string(&j, 0, "glb", glb);
    assert_json_string(&j, 0, "png", png);
    assert_json_string(&j, 0, "metrics_file", metrics);
    struct stat st;
    assert_int_equal(stat(glb, &st), 0);
    assert_int_equal((double)st.st_size, json_num(&j, 0, "glb_bytes"));
    double size[2];
    assert_true(sw__json_numbers(&j, sw__json_find(&j, 0, "png_size"), size, 2));
    /* three columns; the overview, then close-ups of the 7 actors of a scene
     * without ragdolls that are not props or targets, three to a row */
    assert_int_equal((int)size[0], 3 * 16);
    assert_int_equal((int)size[1], (1 + 3) * 16);
    const int32_t m = sw__json_find(&j, 0, "metrics");
    assert_int_equal(sw__json_type_of(&j, m), SW__JSON_OBJECT);
    assert_near(json_num(&j, m, "seconds"), 0.2, 1e-12);
    assert_int_equal((int)json_num(&j, m, "frames"), 3); /* 0, 0.1, 0.2 s */
    sw__json_free(&j, NULL);
    run_free(&r);
    char* file = slurp(metrics); /* the file is the same document */
    parse_json(&j, file);
    assert_int_equal((int)json_num(&j, 0, "frames"), 3);
    sw__json_free(&j, NULL);
    free(file);
}

/* batch import takes model extensions only; the others are listed as skipped. */
static void test_batch_skips_unknown_extensions(void** state) {
    (void)state;
    source s;
    if (!cli_available() || !load_source(&s)) return;
    char dir[600], path[700], args[2048];
    snprintf(dir, sizeof dir, "%s/batch", g_dir);
    assert_int_equal(mkdir(dir, 0700), 0);
    static const char* const others[] = {"notes.txt", "picture.jpg", "texture.tga"};
    for (size_t i = 0; i < 3; ++i) {
        snprintf(path, sizeof path, "%s/%s", dir, others[i]);
        FILE* f = fopen(path, "wb");
        assert_non_null(f);
        fputs("not a model\n", f);
        fclose(f);
    }
    snprintf(path, sizeof path, "%s/walk.BVH", dir);
    assert_int_equal(rename(s.path, path), 0);
    snprintf(args, sizeof args, "import --batch '%s'", dir);
    run_result r = run(args);
    assert_int_equal(r.code, 0);
    assert_non_null(strstr(r.out, "4 files: 1 imported, 0 failed, 3 skipped"));
    for (size_t i = 0; i < 3; ++i) {
        char line[800];
        snprintf(line, sizeof line, "skip  %s/%s: ", dir, others[i]);
        if (!strstr(r.out, line)) fail_msg("no \"%s\" in %s", line, r.out);
    }
    run_free(&r);
    snprintf(args, sizeof args, "import --batch '%s' --json", dir);
    r = run(args);
    assert_int_equal(r.code, 0);
    sw__json j;
    parse_json(&j, r.out);
    assert_int_equal((int)json_num(&j, 0, "imported"), 1);
    assert_int_equal((int)json_num(&j, 0, "failed"), 0);
    assert_int_equal((int)json_num(&j, 0, "skipped"), 3);
    const int32_t files = sw__json_find(&j, 0, "files");
    assert_int_equal(sw__json_len(&j, files), 4);
    const int32_t first = sw__json_at(&j, files, 0);
    assert_json_string(&j, first, "file", path);
    assert_json_string(&j, first, "status", "ok");
    assert_int_equal((int)json_num(&j, first, "joints_count"), s.joints);
    sw__json_free(&j, NULL);
    run_free(&r);
}

/* sample outside the clip: clamped with a note naming the time it used, or
 * wrapped with --loop. */
static void test_sample_outside_clip(void** state) {
    (void)state;
    source s;
    if (!cli_available() || !load_source(&s)) return;
    char args[1024];
    double a[3 * 64], b[3 * 64];
    snprintf(args, sizeof args, "sample '%s' --time -1", s.path);
    run_result r = run(args);
    assert_int_equal(r.code, 0);
    assert_int_equal(count_lines(r.err), 1);
    assert_non_null(strstr(r.err, "outside clip"));
    assert_non_null(strstr(r.err, "sampled at 0 s"));
    run_free(&r);
    snprintf(args, sizeof args, "sample '%s' --time 0 --json", s.path);
    const int n = sample_t(args, a, 64);
    snprintf(args, sizeof args, "sample '%s' --time -1 --json", s.path);
    assert_int_equal(sample_t(args, b, 64), n);
    assert_true(max_diff(a, b, n) == 0.0);
    /* 1e30 plays the last frame */
    snprintf(args, sizeof args, "sample '%s' --time %.9g --json", s.path, s.duration);
    sample_t(args, a, 64);
    snprintf(args, sizeof args, "sample '%s' --time 1e30 --json", s.path);
    sample_t(args, b, 64);
    assert_true(max_diff(a, b, n) < 1e-4);
    snprintf(args, sizeof args, "sample '%s' --time 1e30", s.path);
    r = run(args);
    assert_non_null(strstr(r.err, "outside clip"));
    run_free(&r);
    /* --loop: one duration later (and earlier) is the same pose; no note */
    snprintf(args, sizeof args, "sample '%s' --time 2.25 --json", s.path);
    sample_t(args, a, 64);
    const double later[2] = {2.25 + s.duration, 2.25 - s.duration};
    for (int k = 0; k < 2; ++k) {
        snprintf(args, sizeof args, "sample '%s' --time %.9g --loop --json", s.path, later[k]);
        sample_t(args, b, 64);
        if (max_diff(a, b, n) > 1e-3) fail_msg("--loop at %g: %g off", later[k], max_diff(a, b, n));
        snprintf(args, sizeof args, "sample '%s' --time %.9g --loop", s.path, later[k]);
        r = run(args);
        assert_string_equal(r.err, "");
        run_free(&r);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_output_format_follows_extension, scratch_fresh),
        cmocka_unit_test_setup(test_output_refused_extensions, scratch_fresh),
        cmocka_unit_test_setup(test_output_not_input, scratch_fresh),
        cmocka_unit_test_setup(test_help_every_verb, scratch_fresh),
        cmocka_unit_test_setup(test_json_reports, scratch_fresh),
        cmocka_unit_test_setup(test_json_demo, scratch_fresh),
        cmocka_unit_test_setup(test_batch_skips_unknown_extensions, scratch_fresh),
        cmocka_unit_test_setup(test_sample_outside_clip, scratch_fresh),
    };
    return cmocka_run_group_tests(tests, scratch_setup, scratch_teardown);
}
