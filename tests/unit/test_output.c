/* The tools' output policy (sinew/tools/writers/output.h): formats by
 * extension, the checks made before any work (links to an input, the .bin
 * of a .gltf, missing folders), the .gltf + .bin pair against the .glb of
 * the same scene byte for byte (the .gltf is the .glb's JSON chunk with the
 * buffer's uri added, the .bin its BIN chunk) and read back, and failures
 * that leave the folder as it was. */
#define _POSIX_C_SOURCE 200809L /* mkdtemp, link, symlink */
#include "test_util.h"

#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sinew/showcase/character.h"
#include "sinew/tools/readers/asset.h"
#include "sinew/tools/writers/output.h"

#define SCRATCH_NAME "test_output"
#include "scratch.h"

static char* path_in(const char* name) {
    static char buf[4][512];
    static int next;
    char* p = buf[next++ & 3];
    snprintf(p, sizeof buf[0], "%s/%s", g_dir, name);
    return p;
}

static void touch(const char* path, const char* text) {
    FILE* f = fopen(path, "wb");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static int entries(void) {
    DIR* d = opendir(g_dir);
    assert_non_null(d);
    int n = 0;
    for (struct dirent* e = readdir(d); e; e = readdir(d))
        n += e->d_name[0] != '.';
    closedir(d);
    return n;
}

static void test_format_of(void** state) {
    (void)state;
    static const struct {
        const char* path;
        sw_output_format want;
    } cases[] = {
        {"a.sinew", SW_OUTPUT_FORMAT_SINEW},  {"dir/A.GLB", SW_OUTPUT_FORMAT_GLB},
        {"x.y.gltf", SW_OUTPUT_FORMAT_GLTF},  {".glb", SW_OUTPUT_FORMAT_NONE},
        {"dir.glb/x", SW_OUTPUT_FORMAT_NONE}, {"a.bvh", SW_OUTPUT_FORMAT_NONE},
        {"a.glbx", SW_OUTPUT_FORMAT_NONE},    {"", SW_OUTPUT_FORMAT_NONE},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        if (sw_output_format_of(cases[i].path) != cases[i].want) fail_msg("%s", cases[i].path);
    }
    assert_int_equal(sw_output_format_of(NULL), SW_OUTPUT_FORMAT_NONE);
    assert_string_equal(sw_output_extension(SW_OUTPUT_FORMAT_GLTF), ".gltf");
    assert_string_equal(sw_output_extension(SW_OUTPUT_FORMAT_NONE), "");
    char bin[64];
    assert_true(sw_output_gltf_bin_path("d/x.GLTF", bin, sizeof bin));
    assert_string_equal(bin, "d/x.bin");
    assert_false(sw_output_gltf_bin_path("d/x.glb", bin, sizeof bin));
    assert_false(sw_output_gltf_bin_path("d/x.gltf", bin, 7)); /* "d/x.bin" needs 8 */
}

static void expect(sw_result r, const sw_error* e, sw_result want, const char* check) {
    assert_int_equal(r, want);
    if (check) assert_string_equal(e->check, check);
}

static void test_check(void** state) {
    (void)state;
    char* in = path_in("in.glb");
    touch(in, "glTF");
    assert_int_equal(link(in, path_in("hard.glb")), 0);
    assert_int_equal(symlink(in, path_in("soft.glb")), 0);
    const char* inputs[2] = {NULL, in};
    sw_error e;
    sw_output_format f = SW_OUTPUT_FORMAT_SINEW;
    static const char* const same[] = {"in.glb", "hard.glb", "soft.glb"};
    for (int k = 0; k < 3; ++k) {
        sw_result r = sw_output_check(path_in(same[k]), SW_OUTPUT_FORMATS_ALL, inputs, 2, &f, &e);
        expect(r, &e, SW_RESULT_OVERLAP, "output is not an input");
        assert_int_equal(e.index, 1);
        assert_int_equal(e.offset, 0);
        assert_int_equal(f, SW_OUTPUT_FORMAT_NONE);
    }
    /* the .bin beside a .gltf counts too */
    char* bin_in = path_in("pair.bin");
    touch(bin_in, "");
    inputs[0] = bin_in;
    sw_result r = sw_output_check(path_in("pair.gltf"), SW_OUTPUT_FORMATS_ALL, inputs, 2, &f, &e);
    expect(r, &e, SW_RESULT_OVERLAP, "output is not an input");
    assert_int_equal(e.index, 0);
    assert_int_equal(e.offset, 1);
    r = sw_output_check(path_in("new.gltf"), SW_OUTPUT_FORMATS_ALL, inputs, 2, &f, &e);
    assert_int_equal(r, SW_RESULT_OK);
    assert_int_equal(f, SW_OUTPUT_FORMAT_GLTF);
    /* extensions */
    r = sw_output_check(path_in("x.fbx"), SW_OUTPUT_FORMATS_ALL, NULL, 0, &f, &e);
    expect(r, &e, SW_RESULT_NOT_FOUND, "known output extension");
    r = sw_output_check(path_in("x.glb"), SW_OUTPUT_FORMAT_SINEW, NULL, 0, &f, &e);
    expect(r, &e, SW_RESULT_INVALID_ARGUMENT, "output format allowed");
    assert_int_equal(sw_output_check(path_in("m.json"), 0, NULL, 0, &f, &e), SW_RESULT_OK);
    /* folders */
    r = sw_output_check(path_in("missing/x.glb"), SW_OUTPUT_FORMATS_ALL, NULL, 0, &f, &e);
    expect(r, &e, SW_RESULT_IO, "output folder exists");
    r = sw_output_check(path_in("in.glb/x.glb"), SW_OUTPUT_FORMATS_ALL, NULL, 0, &f, &e);
    expect(r, &e, SW_RESULT_IO, "output folder exists");
    assert_int_equal(mkdir(path_in("d.glb"), 0700), 0);
    r = sw_output_check(path_in("d.glb"), SW_OUTPUT_FORMATS_ALL, NULL, 0, &f, &e);
    expect(r, &e, SW_RESULT_IO, "output is not a folder");
    expect(sw_output_check(NULL, 0, NULL, 0, &f, &e), &e, SW_RESULT_INVALID_ARGUMENT, NULL);
    assert_true(sw_output_same_file(path_in("hard.glb"), in));
    assert_false(sw_output_same_file(path_in("x.fbx"), in));
}

static uint32_t rd32(const uint8_t* p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void test_gltf_pair_matches_glb(void** state) {
    (void)state;
    sw_scene human;
    memset(&human, 0, sizeof human);
    assert_int_equal(sw_showcase_humanoid(NULL, &human, NULL, NULL), SW_RESULT_OK);
    assert_true(human.clips_count > 0 && human.meshes_count > 0);
    sw_error e;
    assert_int_equal(sw_output_write(&human, path_in("h.glb"), &e), SW_RESULT_OK);
    assert_int_equal(sw_output_write(&human, path_in("hu man.gltf"), &e), SW_RESULT_OK);
    assert_int_equal(entries(), 3); /* h.glb, hu man.gltf, hu man.bin: no temporary left */
    size_t glb_size = 0, gltf_size = 0, bin_size = 0;
    uint8_t* glb = (uint8_t*)sw_test_read_file(path_in("h.glb"), &glb_size);
    char* gltf = (char*)sw_test_read_file(path_in("hu man.gltf"), &gltf_size);
    uint8_t* bin = (uint8_t*)sw_test_read_file(path_in("hu man.bin"), &bin_size);
    assert_non_null(glb);
    assert_non_null(gltf);
    assert_non_null(bin);
    /* the .glb's chunks */
    assert_memory_equal(glb, "glTF", 4);
    const uint32_t json_len = rd32(glb + 12);
    const char* json = (const char*)glb + 20;
    const uint8_t* chunk = glb + 20 + json_len;
    assert_memory_equal(chunk + 4, "BIN\0", 4);
    assert_int_equal(bin_size, rd32(chunk));
    assert_memory_equal(bin, chunk + 8, bin_size);
    /* the .gltf: the JSON chunk with the uri (percent-encoded) before
     * byteLength; both padded with spaces to 4 bytes */
    static const char key[] = "\"buffers\":[{";
    static const char uri[] = "\"uri\":\"hu%20man.bin\",";
    const char* at = strstr(json, key);
    assert_non_null(at);
    const size_t head = (size_t)(at - json) + sizeof key - 1u;
    size_t json_n = json_len;
    while (json_n > 0 && json[json_n - 1] == ' ')
        --json_n;
    assert_int_equal(gltf_size % 4u, 0);
    while (gltf_size > 0 && gltf[gltf_size - 1] == ' ')
        --gltf_size;
    assert_int_equal(gltf_size, json_n + sizeof uri - 1u);
    assert_memory_equal(gltf, json, head);
    assert_memory_equal(gltf + head, uri, sizeof uri - 1u);
    assert_memory_equal(gltf + head + sizeof uri - 1u, json + head, json_n - head);
    /* and it reads back */
    sw_asset a;
    assert_int_equal(sw_asset_open(path_in("hu man.gltf"), NULL, &a, &e), SW_RESULT_OK);
    assert_int_equal(a.format, SW_ASSET_FORMAT_GLTF);
    assert_int_equal(a.skeleton->joints_count, human.skeleton->joints_count);
    assert_int_equal(a.clips_count, human.clips_count);
    assert_int_equal(a.meshes_count, human.meshes_count);
    sw_asset_free(&a);
    free(glb);
    free(gltf);
    free(bin);
    /* a failure leaves the folder as it was and the old files as they were */
    touch(path_in("keep.gltf"), "old");
    sw_scene bad = human;
    bad.clips = NULL; /* clips_count without clips */
    assert_int_equal(sw_output_write(&bad, path_in("keep.gltf"), &e), SW_RESULT_INVALID_ARGUMENT);
    expect(sw_output_write(&human, path_in("missing/x.gltf"), &e), &e, SW_RESULT_IO,
           "open temporary file");
    expect(sw_output_write(&human, path_in("x.fbx"), &e), &e, SW_RESULT_NOT_FOUND,
           "known output extension");
    assert_int_equal(entries(), 4);
    char* kept = (char*)sw_test_read_file(path_in("keep.gltf"), &gltf_size);
    assert_int_equal(gltf_size, 3);
    assert_memory_equal(kept, "old", 3);
    free(kept);
    sw_scene_free(&human, NULL);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_format_of),
        cmocka_unit_test_setup(test_check, scratch_fresh),
        cmocka_unit_test_setup(test_gltf_pair_matches_glb, scratch_fresh),
    };
    return cmocka_run_group_tests(tests, scratch_setup, scratch_teardown);
}
