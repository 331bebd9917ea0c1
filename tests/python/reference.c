/* python_reference: the C side of the Python binding's bit-for-bit tests
 * (tests/python). Runs sinew's jobs on an asset the way a C program does
 * and writes the results to stdout as raw little-endian float bytes, which
 * the pytest suite compares with what the Python API returns.
 *
 *   python_reference pose FILE CLIP TIME
 *       sampled local pose (packets * 40 floats), model matrices
 *       (joints * 16), then the skinning palette of each mesh.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sinew/assimp/assimp_import.h"
#include "sinew/sinew.h"
#include "sinew/tools/readers/asset.h"

static int fail(const char* what, sw_result r, const sw_error* err) {
    fprintf(stderr, "python_reference: %s: %s (%s)\n", what, sw_result_str(r),
            err && err->check ? err->check : "");
    return 1;
}

static sw_result open_asset(const char* path, sw_asset* a, sw_error* err) {
    static const sw_asset_reader readers[] = {SW_ASSIMP_ASSET_READER};
    sw_asset_options opt;
    memset(&opt, 0, sizeof opt);
    opt.readers = readers;
    opt.readers_count = 1;
    return sw_asset_open(path, &opt, a, err);
}

static void put(const void* p, size_t n) {
    fwrite(p, 1, n, stdout);
}

static sw_result sample_pose(const sw_skeleton* s, const sw_clip* c, float t, sw_xform4* pose) {
    sw_sample_job job;
    memset(&job, 0, sizeof job);
    job.clip = c;
    job.skeleton = s;
    job.time = t;
    job.out = pose;
    job.out_count = s->packets_count;
    return sw_sample_job_run(&job);
}

static sw_result model_of(const sw_skeleton* s, const sw_xform4* pose, sw_mat4* model) {
    sw_local_to_model_job job;
    memset(&job, 0, sizeof job);
    job.skeleton = s;
    job.local = pose;
    job.local_count = s->packets_count;
    job.out = model;
    job.out_count = s->joints_count;
    return sw_local_to_model_job_run(&job);
}

/* pose FILE CLIP TIME */
static int run_pose(const sw_asset* a, int argc, char** argv) {
    if (argc < 2) return fail("pose: CLIP TIME expected", SW_RESULT_INVALID_ARGUMENT, NULL);
    sw_error err = SW_ERROR_INIT;
    const int32_t ci = sw_asset_require_clip(a, argv[0], &err);
    if (ci < 0) return fail(argv[0], SW_RESULT_NOT_FOUND, &err);
    const sw_skeleton* s = a->skeleton;
    sw_xform4* pose = sw_alloc(NULL, sizeof(sw_xform4) * s->packets_count, 16);
    sw_mat4* model = sw_alloc(NULL, sizeof(sw_mat4) * s->joints_count, 16);
    sw_mat4* palette = sw_alloc(NULL, sizeof(sw_mat4) * SW_SKELETON_MAX_JOINTS, 16);
    sw_result r = pose && model && palette ? SW_RESULT_OK : SW_RESULT_OUT_OF_MEMORY;
    if (r == SW_RESULT_OK) r = sample_pose(s, a->clips[ci], strtof(argv[1], NULL), pose);
    if (r == SW_RESULT_OK) r = model_of(s, pose, model);
    if (r == SW_RESULT_OK) {
        put(pose, sizeof(sw_xform4) * s->packets_count);
        put(model, sizeof(sw_mat4) * s->joints_count);
    }
    for (uint32_t m = 0; r == SW_RESULT_OK && m < a->meshes_count; ++m) {
        const sw_mesh* mesh = a->meshes[m];
        sw_skinning_job job = {model,
                               s->joints_count,
                               sw_mesh_palette(mesh),
                               sw_mesh_inverse_binds(mesh),
                               mesh->palette_count,
                               palette,
                               SW_SKELETON_MAX_JOINTS};
        r = sw_skinning_job_run(&job);
        if (r == SW_RESULT_OK) put(palette, sizeof(sw_mat4) * mesh->palette_count);
    }
    sw_free(NULL, pose, sizeof(sw_xform4) * s->packets_count);
    sw_free(NULL, model, sizeof(sw_mat4) * s->joints_count);
    sw_free(NULL, palette, sizeof(sw_mat4) * SW_SKELETON_MAX_JOINTS);
    return r == SW_RESULT_OK ? 0 : fail("pose", r, NULL);
}

int main(int argc, char** argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: python_reference MODE FILE ARGS...\n");
        return 2;
    }
    sw_asset a;
    sw_error err = SW_ERROR_INIT;
    sw_result r = open_asset(argv[2], &a, &err);
    if (r != SW_RESULT_OK) return fail(argv[2], r, &err);
    int code = 2;
    if (strcmp(argv[1], "pose") == 0)
        code = run_pose(&a, argc - 3, argv + 3);
    else
        fprintf(stderr, "python_reference: unknown mode %s\n", argv[1]);
    sw_asset_free(&a);
    return code;
}
