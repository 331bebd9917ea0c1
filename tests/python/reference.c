/* python_reference: the C side of the Python binding's bit-for-bit tests
 * (tests/python). Runs sinew's jobs on an asset the way a C program does
 * and writes the results to stdout as raw little-endian float bytes, which
 * the pytest suite compares with what the Python API returns.
 *
 *   python_reference pose FILE CLIP TIME
 *       sampled local pose (packets * 40 floats), model matrices
 *       (joints * 16), then the skinning palette of each mesh.
 *   python_reference animator FILE DEF.json FRAMES DT [F:NAME=VALUE ...]
 *       per frame (the changes of frame F set before its update; the first
 *       update with dt 0): the evaluated pose, then the root motion as
 *       4 floats (x, y, z, yaw).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sinew/assimp/assimp_import.h"
#include "sinew/sinew.h"
#include "sinew/tools/readers/animator_json.h"
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

/* The F:NAME=VALUE changes due at frame f, into params. */
static void apply_changes(const sw_animator* def, float* params, uint32_t f, int argc,
                          char** argv) {
    for (int i = 0; i < argc; ++i) {
        char name[256];
        unsigned frame = 0;
        float value = 0.0f;
        if (sscanf(argv[i], "%u:%255[^=]=%f", &frame, name, &value) != 3 || frame != f) continue;
        const int32_t p = sw_animator_find_param(def, name);
        if (p >= 0) params[p] = value;
    }
}

/* The frames of an animator run; false on a failure (printed). */
static bool animator_frames(const sw_asset* a, const sw_animator* def, const sw_animator_bound* b,
                            uint32_t frames, float dt, int argc, char** argv) {
    const size_t isize = sw_animator_instance_size(b), ssize = sw_animator_scratch_size(b);
    const uint32_t packets = a->skeleton->packets_count, n = sw_animator_params_count(def);
    void* imem = sw_alloc(NULL, isize, 16);
    void* scratch = sw_alloc(NULL, ssize, 16);
    sw_xform4* pose = sw_alloc(NULL, sizeof(sw_xform4) * packets, 16);
    float* params = calloc(n + 1u, sizeof(float));
    sw_animator_instance* inst = NULL;
    sw_result r = imem && scratch && pose && params ? SW_RESULT_OK : SW_RESULT_OUT_OF_MEMORY;
    if (r == SW_RESULT_OK) r = sw_animator_instance_init(imem, isize, b, &inst);
    if (r == SW_RESULT_OK) r = sw_animator_params_reset(def, params, n);
    for (uint32_t f = 0; r == SW_RESULT_OK && f < frames; ++f) {
        apply_changes(def, params, f, argc, argv);
        sw_animator_event events[64];
        uint32_t count = 0;
        sw_animator_root_motion rm;
        r = sw_animator_update(inst, b, params, n, f ? dt : 0.0f, events, 64, &count, &rm);
        if (r == SW_RESULT_OK) r = sw_animator_evaluate(inst, b, scratch, ssize, pose, packets);
        const float motion[4] = {rm.translation.x, rm.translation.y, rm.translation.z, rm.yaw};
        if (r == SW_RESULT_OK) {
            put(pose, sizeof(sw_xform4) * packets);
            put(motion, sizeof motion);
        }
    }
    sw_free(NULL, imem, isize);
    sw_free(NULL, scratch, ssize);
    sw_free(NULL, pose, sizeof(sw_xform4) * packets);
    free(params);
    return r == SW_RESULT_OK || fail("animator run", r, NULL) == 0;
}

/* animator FILE DEF.json FRAMES DT [F:NAME=VALUE ...] */
static int run_animator(const sw_asset* a, int argc, char** argv) {
    if (argc < 3) return fail("animator: DEF FRAMES DT expected", SW_RESULT_INVALID_ARGUMENT, NULL);
    sw_animator_json aj;
    sw_error err = SW_ERROR_INIT;
    sw_result r = sw_animator_json_read_file(argv[0], NULL, &aj, &err);
    if (r != SW_RESULT_OK) return fail(argv[0], r, &err);
    const size_t bsize = sw_animator_bound_size(aj.animator, a->skeleton);
    void* bmem = sw_alloc(NULL, bsize, 16);
    const sw_animator_bound* b = NULL;
    r = bmem ? sw_animator_bind(aj.animator, a->skeleton, a->clips, a->clips_count, bmem, bsize, &b,
                                &err)
             : SW_RESULT_OUT_OF_MEMORY;
    int code = r == SW_RESULT_OK ? 0 : fail("bind", r, &err);
    if (code == 0 && !animator_frames(a, aj.animator, b, (uint32_t)atoi(argv[1]),
                                      strtof(argv[2], NULL), argc - 3, argv + 3))
        code = 1;
    sw_free(NULL, bmem, bsize);
    sw_animator_json_free(&aj, NULL);
    return code;
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
    static const struct {
        const char* name;
        int (*run)(const sw_asset*, int, char**);
    } modes[] = {{"pose", run_pose}, {"animator", run_animator}};
    for (size_t i = 0; i < sizeof modes / sizeof modes[0]; ++i)
        if (strcmp(argv[1], modes[i].name) == 0) code = modes[i].run(&a, argc - 3, argv + 3);
    if (code == 2) fprintf(stderr, "python_reference: unknown mode %s\n", argv[1]);
    sw_asset_free(&a);
    return code;
}
