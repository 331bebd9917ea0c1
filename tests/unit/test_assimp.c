/* Tests of the assimp importer and of running work in a child process.
 * Real data: Debian's assimp-testmodels and ../shared/assets (skipped with a
 * message when absent). Expected numbers come from readings of the files'
 * text made here (CSM frame range and markers, .X SkinWeights and key
 * times, glTF accessor max, Collada input arrays) or, for binary FBX, from
 * the Blender frame ranges they were saved with. */
#define _POSIX_C_SOURCE 200809L

#include <dirent.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "test_util.h"

#include "assimp/assimp_internal.h"
#include "sinew/assimp/assimp_import.h"
#include "sinew/tools/readers/bvh.h"
#include "sinew/tools/readers/gltf.h"
#include "sinew/tools/readers/isolate.h"

#if defined(__SANITIZE_ADDRESS__)
#define SW_TEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SW_TEST_ASAN 1
#endif
#endif
#ifndef SW_TEST_ASAN
#define SW_TEST_ASAN 0
#endif

/* ---- helpers ---- */

/* Model-space matrices of clip at time t (NULL clip: rest pose). */
static void model_pose(const sw_skeleton* sk, const sw_clip* clip, float t, sw_xform4* local,
                       sw_mat4* model) {
    if (clip) {
        sw_sample_job sj = {
            .clip = clip, .skeleton = sk, .time = t, .out = local, .out_count = sk->packets_count};
        assert_int_equal(sw_sample_job_run(&sj), SW_RESULT_OK);
    } else {
        memcpy(local, sw_skeleton_rest_pose(sk), sk->packets_count * sizeof(sw_xform4));
    }
    sw_local_to_model_job lj = {.skeleton = sk,
                                .local = local,
                                .local_count = sk->packets_count,
                                .out = model,
                                .out_count = sk->joints_count};
    assert_int_equal(sw_local_to_model_job_run(&lj), SW_RESULT_OK);
}

static sw_xform4* alloc_pose(const sw_skeleton* sk) {
    return (sw_xform4*)aligned_alloc(16, sk->packets_count * sizeof(sw_xform4));
}

static sw_mat4* alloc_model(const sw_skeleton* sk) {
    return (sw_mat4*)aligned_alloc(16, sk->joints_count * sizeof(sw_mat4));
}

static const sw_clip* find_clip(const sw_scene* s, const char* name) {
    for (uint32_t i = 0; i < s->clips_count; ++i) {
        if (strcmp(sw_clip_name(s->clips[i]), name) == 0) return s->clips[i];
    }
    fail_msg("clip '%s' not found", name);
    return NULL;
}

static uint32_t palette_total(const sw_scene* s) {
    uint32_t n = 0;
    for (uint32_t i = 0; i < s->meshes_count; ++i)
        n += s->meshes[i]->palette_count;
    return n;
}

/* Every mesh: weights >= 0 summing to 1, joints in the palette, palette in
 * the skeleton, indices in range (independent of sw_mesh_init's checks). */
static void check_meshes(const sw_scene* s) {
    for (uint32_t i = 0; i < s->meshes_count; ++i) {
        const sw_mesh* m = s->meshes[i];
        const float* w = sw_mesh_weights(m);
        const uint16_t* j = sw_mesh_joints(m);
        for (uint32_t v = 0; v < m->vertices_count; ++v) {
            float sum = 0.0f;
            for (uint32_t k = 0; k < 4; ++k) {
                assert_true(w[4 * v + k] >= 0.0f);
                if (w[4 * v + k] > 0.0f) assert_true(j[4 * v + k] < m->palette_count);
                sum += w[4 * v + k];
            }
            assert_near(sum, 1.0f, 1e-5);
        }
        for (uint32_t p = 0; p < m->palette_count; ++p) {
            assert_true(sw_mesh_palette(m)[p] < s->skeleton->joints_count);
        }
        for (uint32_t k = 0; k < m->indices_count; ++k) {
            assert_true(sw_mesh_indices(m)[k] < m->vertices_count);
        }
    }
}

static void import_ok(const char* path, const sw_assimp_options* o, sw_scene* s) {
    sw_error e = {0};
    sw_result r = sw_assimp_import_file(path, o, NULL, s, &e);
    if (r != SW_RESULT_OK) {
        fail_msg("%s: %s (%s, index %lld) %s", path, sw_result_str(r), e.check, (long long)e.index,
                 s->warning);
    }
    assert_non_null(s->skeleton);
    check_meshes(s);
}

/* ---- BVH through assimp against sinew's own reader ---- */

static void bvh_against_native(const char* rel, uint32_t frames) {
    char path[512];
    if (!sw_test_model_path(path, sizeof path, rel)) return;
    size_t size = 0;
    char* text = (char*)sw_test_read_file(path, &size);
    assert_non_null(text);
    sw_bvh_options bo = {0};
    sw_bvh_result native;
    sw_error e = {0};
    assert_int_equal(sw_bvh_read(text, size, &bo, NULL, &native, &e), SW_RESULT_OK);
    free(text);
    assert_int_equal(native.frames_read, frames);

    sw_scene s;
    import_ok(path, NULL, &s);
    assert_int_equal(s.meshes_count, 0); /* assimp's made-up skeleton mesh is not imported */
    assert_int_equal(s.clips_count, 1);
    const sw_skeleton* a = s.skeleton;
    const sw_skeleton* b = native.skeleton;
    assert_int_equal(a->joints_count, b->joints_count);
    int32_t map[SW_SKELETON_MAX_JOINTS];
    for (uint32_t j = 0; j < b->joints_count; ++j) {
        map[j] = sw_skeleton_find_joint(a, sw_skeleton_joint_name(b, j));
        assert_true(map[j] >= 0);
    }
    const sw_clip* ca = s.clips[0];
    const sw_clip* cb = native.clip;
    assert_near(ca->duration, cb->duration, 1e-4);
    assert_near(cb->duration, (float)(frames - 1) * native.frame_time, 1e-3);

    sw_xform4* la = alloc_pose(a);
    sw_xform4* lb = alloc_pose(b);
    sw_mat4* ma = alloc_model(a);
    sw_mat4* mb = alloc_model(b);
    double max_dev = 0.0, max_key_dev = 0.0, max_abs = 0.0;
    const uint32_t steps = 1500;
    for (uint32_t i = 0; i <= steps; ++i) {
        /* Alternate key times and times between keys. */
        float t = (i % 2) ? cb->duration * (float)i / (float)steps
                          : native.frame_time * (float)((i * 7u) % frames);
        model_pose(a, ca, t, la, ma);
        model_pose(b, cb, t, lb, mb);
        for (uint32_t j = 0; j < b->joints_count; ++j) {
            for (int k = 12; k < 15; ++k) {
                double d = fabs((double)ma[map[j]].m[k] - (double)mb[j].m[k]);
                if (d > max_dev) max_dev = d;
                if (!(i % 2) && d > max_key_dev) max_key_dev = d;
                if (fabs((double)mb[j].m[k]) > max_abs) max_abs = fabs((double)mb[j].m[k]);
            }
        }
    }
    print_message("%s: max model-space position deviation assimp vs sw_bvh_read %.3g file units "
                  "(%.3g at key times) over %u times, %u joints, positions up to %.1f\n",
                  rel, max_dev, max_key_dev, steps + 1, b->joints_count, max_abs);
    /* 1e-4 was the goal; assimp builds its keys through float matrices
     * (Euler -> matrix -> quaternion) and lands 1.3e-4 (01_01) and 2.9e-4
     * (01_03) away at key times, about 1e-5 of the positions' extent, while
     * sw_bvh_read matches a double-precision reader (test_bvh). */
    assert_true(max_dev <= 5e-4);
    free(la);
    free(lb);
    free(ma);
    free(mb);
    sw_scene_free(&s, NULL);
    sw_bvh_result_free(&native, NULL);
}

static void test_bvh_01_01(void** state) {
    (void)state;
    bvh_against_native("BVH/01_01.bvh", 2752);
}

static void test_bvh_01_03(void** state) {
    (void)state;
    bvh_against_native("BVH/01_03.bvh", 4511);
}

/* ---- rigs from assimp-testmodels ---- */

/* CSM: $Order lists the markers (one animated node each, under assimp's
 * root), $LastFrame and $Rate give the last key time. */
static void test_csm(void** state) {
    (void)state;
    char path[512];
    if (!sw_test_model_path(path, sizeof path, "CSM/ThomasFechten.csm")) return;
    size_t size = 0;
    char* text = (char*)sw_test_read_file(path, &size);
    assert_non_null(text);
    text[size] = '\0';
    const char* order = strstr(text, "$Order");
    const char* last = strstr(text, "$LastFrame");
    const char* rate = strstr(text, "$Rate");
    assert_non_null(order);
    assert_non_null(last);
    assert_non_null(rate);
    unsigned last_frame = 0;
    float fps = 0.0f;
    assert_int_equal(sscanf(last, "$LastFrame %u", &last_frame), 1);
    assert_int_equal(sscanf(rate, "$Rate %f", &fps), 1);
    char markers[64][32];
    uint32_t markers_count = 0;
    const char* p = strchr(order, '\n') + 1;
    while (*p && *p != '\n' && *p != '\r') {
        while (*p == ' ')
            ++p;
        if (*p == '\n' || *p == '\r' || !*p) break;
        int n = 0;
        assert_true(markers_count < 64);
        assert_int_equal(sscanf(p, "%31s%n", markers[markers_count], &n), 1);
        ++markers_count;
        p += n;
    }
    free(text);
    assert_int_equal(markers_count, 43);

    sw_scene s;
    import_ok(path, NULL, &s);
    assert_int_equal(s.meshes_count, 0);
    assert_int_equal(s.skeleton->joints_count, markers_count + 1); /* markers + root */
    for (uint32_t i = 0; i < markers_count; ++i) {
        assert_true(sw_skeleton_find_joint(s.skeleton, markers[i]) >= 0);
    }
    assert_int_equal(s.clips_count, 1);
    assert_near(s.clips[0]->duration, (float)last_frame / fps, 1e-4); /* 2439 / 120 */
    assert_near(s.clips[0]->duration, 20.325f, 1e-4);
    sw_scene_free(&s, NULL);
}

/* .X text: bones are the SkinWeights blocks; key lines read "time;n;values". */
typedef struct x_reading {
    uint32_t bones;
    char sets[8][64];
    uint32_t last_tick[8];
    uint32_t sets_count;
    uint32_t ticks_per_second;
} x_reading;

static void read_x(const char* path, x_reading* x) {
    memset(x, 0, sizeof *x);
    FILE* f = fopen(path, "rb");
    assert_non_null(f);
    char line[4096];
    bool fps_next = false;
    while (fgets(line, sizeof line, f)) {
        const char* p = line;
        while (*p == ' ' || *p == '\t')
            ++p;
        unsigned t = 0, n = 0;
        char c = 0;
        if (strncmp(p, "SkinWeights ", 12) == 0) x->bones++;
        if (strncmp(p, "AnimTicksPerSecond ", 19) == 0) fps_next = true;
        if (fps_next && sscanf(p, "%u;", &t) == 1) {
            x->ticks_per_second = t;
            fps_next = false;
        }
        if (strncmp(p, "AnimationSet ", 13) == 0) {
            assert_true(x->sets_count < 8);
            assert_int_equal(sscanf(p + 13, "%63s", x->sets[x->sets_count]), 1);
            x->sets_count++;
        }
        if (x->sets_count > 0 && sscanf(p, "%u;%u;%c", &t, &n, &c) == 3 &&
            t > x->last_tick[x->sets_count - 1]) {
            x->last_tick[x->sets_count - 1] = t;
        }
    }
    fclose(f);
}

static void check_x(const char* rel, uint32_t bones, uint32_t joints, uint32_t clips) {
    char path[512];
    if (!sw_test_model_path(path, sizeof path, rel)) return;
    x_reading x;
    read_x(path, &x);
    assert_int_equal(x.bones, bones);
    assert_int_equal(x.sets_count, clips);
    assert_int_equal(x.ticks_per_second, 4800);
    sw_scene s;
    import_ok(path, NULL, &s);
    assert_int_equal(palette_total(&s), bones); /* every vertex weighted: no extra entry */
    assert_int_equal(s.skeleton->joints_count, joints);
    assert_int_equal(s.clips_count, clips);
    for (uint32_t i = 0; i < x.sets_count; ++i) {
        const sw_clip* c = find_clip(&s, x.sets[i]);
        assert_near(c->duration, (float)x.last_tick[i] / 4800.0f, 1e-5);
    }
    sw_scene_free(&s, NULL);
}

static void test_x_bcn_epileptic(void** state) {
    (void)state;
    check_x("X/BCN_Epileptic.X", 54, 58, 1); /* Epileptisch: 15840 / 4800 = 3.3 s */
}

static void test_x_testwuson(void** state) {
    (void)state;
    check_x("X/Testwuson.X", 37, 40, 3); /* Run 0.9667 s, Walk 3.6 s, Bind 0 s */
    char path[512];
    if (!sw_test_model_path(path, sizeof path, "X/Testwuson.X")) return;
    sw_scene s;
    import_ok(path, NULL, &s);
    assert_near(find_clip(&s, "Wuson_Walk")->duration, 3.6f, 1e-5);
    assert_near(find_clip(&s, "Wuson_Run")->duration, 4640.0f / 4800.0f, 1e-5);
    assert_near(find_clip(&s, "Wuson_Bind")->duration, 0.0f, 0.0);
    sw_scene_free(&s, NULL);
}

/* Binary FBX from Blender: bones from the mesh, durations from the Blender
 * frame range (huesitos 0..39 at 25 fps, animation_with_skeleton 0..20 at
 * 24 fps); units converted from centimetres. */
static void check_fbx(const char* rel, uint32_t bones, uint32_t joints, const char* clip,
                      float duration) {
    char path[512];
    if (!sw_test_model_path(path, sizeof path, rel)) return;
    sw_scene s;
    import_ok(path, NULL, &s);
    assert_int_equal(s.meshes_count, 1);
    assert_int_equal(palette_total(&s), bones);
    assert_int_equal(s.skeleton->joints_count, joints);
    assert_int_equal(s.clips_count, 1);
    assert_near(find_clip(&s, clip)->duration, duration, 1e-5);
    sw_scene_free(&s, NULL);
}

static void test_fbx_animation_with_skeleton(void** state) {
    (void)state;
    check_fbx("FBX/animation_with_skeleton.fbx", 13, 17, "Armature|ArmatureAction", 20.0f / 24.0f);
}

static void test_fbx_huesitos(void** state) {
    (void)state;
    check_fbx("FBX/huesitos.fbx", 9, 12, "Armature|Action", 39.0f / 25.0f);
}

/* UnitScaleFactor 1 (centimetres): the default import is the scale-1 import
 * times 0.01 in every translation. */
static void test_fbx_units(void** state) {
    (void)state;
    char path[512];
    if (!sw_test_model_path(path, sizeof path, "FBX/huesitos.fbx")) return;
    sw_scene m, cm;
    import_ok(path, NULL, &m);
    sw_assimp_options one = {.scale = 1.0f};
    import_ok(path, &one, &cm);
    const sw_skeleton* a = m.skeleton;
    const sw_skeleton* b = cm.skeleton;
    assert_int_equal(a->joints_count, b->joints_count);
    sw_xform4* la = alloc_pose(a);
    sw_xform4* lb = alloc_pose(b);
    sw_mat4* ma = alloc_model(a);
    sw_mat4* mb = alloc_model(b);
    for (int k = 0; k < 5; ++k) {
        float t = m.clips[0]->duration * (float)k / 4.0f;
        model_pose(a, m.clips[0], t, la, ma);
        model_pose(b, cm.clips[0], t, lb, mb);
        for (uint32_t j = 0; j < a->joints_count; ++j) {
            for (int c = 12; c < 15; ++c) {
                assert_near(ma[j].m[c], 0.01f * mb[j].m[c], 1e-4 * (1.0 + fabs(mb[j].m[c])));
            }
        }
    }
    const float* pa = sw_mesh_positions(m.meshes[0]);
    const float* pb = sw_mesh_positions(cm.meshes[0]);
    for (uint32_t v = 0; v < 3 * m.meshes[0]->vertices_count; ++v) {
        assert_near(pa[v], 0.01f * pb[v], 1e-6 * (1.0 + fabs(pb[v])));
    }
    free(la);
    free(lb);
    free(ma);
    free(mb);
    sw_scene_free(&m, NULL);
    sw_scene_free(&cm, NULL);
}

/* FBX pivots: assimp collapses the "$AssimpFbx$" helper chain itself by
 * default; kept by assimp and folded by the importer, the skeleton and its
 * rest pose come out the same; with keep_pivots the helpers are joints and
 * the real nodes still land in the same place. */
static void test_fbx_pivots(void** state) {
    (void)state;
    char path[512];
    if (!sw_test_model_path(path, sizeof path, "FBX/cubes_with_mirroring_and_pivot.fbx")) return;
    sw_scene a, b, c;
    sw_error e = {0};
    import_ok(path, NULL, &a);
    assert_int_equal(sw__assimp_import_file_pivots(path, NULL, NULL, &b, &e), SW_RESULT_OK);
    sw_assimp_options keep = {.keep_pivots = true};
    import_ok(path, &keep, &c);
    assert_int_equal(a.skeleton->joints_count, 5); /* RootNode, Cube2, Cube1, Cube3, Cube1_2 */
    assert_int_equal(b.skeleton->joints_count, 5);
    assert_int_equal(c.skeleton->joints_count, 12);
    uint32_t helpers = 0;
    for (uint32_t j = 0; j < c.skeleton->joints_count; ++j) {
        if (strstr(sw_skeleton_joint_name(c.skeleton, j), "$AssimpFbx$")) ++helpers;
    }
    assert_int_equal(helpers, 7);
    const sw_scene* others[2] = {&b, &c};
    sw_xform4* la = alloc_pose(a.skeleton);
    sw_mat4* ma = alloc_model(a.skeleton);
    model_pose(a.skeleton, NULL, 0.0f, la, ma);
    for (int o = 0; o < 2; ++o) {
        const sw_skeleton* sk = others[o]->skeleton;
        sw_xform4* lo = alloc_pose(sk);
        sw_mat4* mo = alloc_model(sk);
        model_pose(sk, NULL, 0.0f, lo, mo);
        for (uint32_t j = 0; j < a.skeleton->joints_count; ++j) {
            int32_t k = sw_skeleton_find_joint(sk, sw_skeleton_joint_name(a.skeleton, j));
            assert_true(k >= 0);
            for (int x = 0; x < 16; ++x) {
                assert_near(ma[j].m[x], mo[k].m[x], 1e-5 * (1.0 + fabs(ma[j].m[x])));
            }
        }
        assert_int_equal(others[o]->meshes_count, a.meshes_count);
        free(lo);
        free(mo);
    }
    free(la);
    free(ma);
    sw_scene_free(&a, NULL);
    sw_scene_free(&b, NULL);
    sw_scene_free(&c, NULL);
}

static void test_gltf_simple_skin(void** state) {
    (void)state;
    char path[512];
    if (!sw_test_model_path(path, sizeof path, "glTF2/simple_skin/simple_skin.gltf")) return;
    /* The animation's input accessor: "max" : [ 5.5 ] (the only scalar max
     * that is not an index count). */
    size_t size = 0;
    char* text = (char*)sw_test_read_file(path, &size);
    assert_non_null(text);
    text[size] = '\0';
    float input_max = 0.0f;
    for (const char* p = strstr(text, "\"max\""); p; p = strstr(p + 1, "\"max\"")) {
        float v = 0.0f;
        char close = 0;
        if (sscanf(p, "\"max\" : [ %f %c", &v, &close) == 2 && close == ']' && v != floorf(v)) {
            input_max = v;
        }
    }
    free(text);
    assert_near(input_max, 5.5f, 0.0);
    sw_scene s;
    import_ok(path, NULL, &s);
    assert_int_equal(s.meshes_count, 1);
    assert_int_equal(s.meshes[0]->palette_count, 2);
    assert_int_equal(s.meshes[0]->vertices_count, 10);
    assert_int_equal(s.skeleton->joints_count, 3);
    assert_int_equal(s.clips_count, 1);
    assert_string_equal(sw_clip_name(s.clips[0]), "clip_0"); /* unnamed in the file */
    assert_near(s.clips[0]->duration, input_max, 1e-6);
    sw_scene_free(&s, NULL);

    /* scale 2: translations, positions and inverse-bind translations double. */
    sw_scene a, b;
    import_ok(path, NULL, &a);
    sw_assimp_options two = {.scale = 2.0f};
    import_ok(path, &two, &b);
    for (uint32_t j = 0; j < a.skeleton->joints_count; ++j) {
        sw_xform xa = sw_pose_get(sw_skeleton_rest_pose(a.skeleton), j);
        sw_xform xb = sw_pose_get(sw_skeleton_rest_pose(b.skeleton), j);
        sw_test_vec3_near(sw_vec3_scale(xa.t, 2.0f), xb.t, 1e-6f);
        sw_test_quat_near(xa.r, xb.r, 1e-6f);
    }
    for (uint32_t v = 0; v < 30; ++v) {
        assert_near(2.0f * sw_mesh_positions(a.meshes[0])[v], sw_mesh_positions(b.meshes[0])[v],
                    1e-6);
    }
    for (uint32_t p = 0; p < 2; ++p) {
        for (int k = 12; k < 15; ++k) {
            assert_near(2.0f * sw_mesh_inverse_binds(a.meshes[0])[p].m[k],
                        sw_mesh_inverse_binds(b.meshes[0])[p].m[k], 1e-6);
        }
    }
    sw_scene_free(&a, NULL);
    sw_scene_free(&b, NULL);
}

static void test_collada_nested(void** state) {
    (void)state;
    char path[512];
    if (!sw_test_model_path(path, sizeof path, "Collada/box_nested_animation.dae")) return;
    size_t size = 0;
    char* text = (char*)sw_test_read_file(path, &size);
    assert_non_null(text);
    text[size] = '\0';
    const char* arr = strstr(text, "-input-array\"");
    assert_non_null(arr);
    arr = strchr(arr, '>') + 1;
    const char* end = strchr(arr, '<');
    float last = 0.0f;
    for (const char* p = arr; p < end;) {
        char* q = NULL;
        float v = strtof(p, &q);
        if (q == p) break;
        last = v;
        p = q;
    }
    free(text);
    sw_scene s;
    import_ok(path, NULL, &s);
    assert_int_equal(s.meshes_count, 1);
    assert_int_equal(s.meshes[0]->palette_count, 1);
    assert_int_equal(s.skeleton->joints_count, 4);
    assert_int_equal(s.clips_count, 1);
    assert_near(s.clips[0]->duration, last, 1e-5); /* 1.666667 */
    sw_scene_free(&s, NULL);
}

/* ---- the shared robot ---- */

static void test_robot_expressive(void** state) {
    (void)state;
    char path[512];
    if (!sw_test_asset_path(path, sizeof path, "RobotExpressive.glb")) return;
    static const char* const names[14] = {"Dance",   "Death",    "Idle",    "Jump",     "No",
                                          "Punch",   "Running",  "Sitting", "Standing", "ThumbsUp",
                                          "Walking", "WalkJump", "Wave",    "Yes"};
    sw_scene s;
    import_ok(path, NULL, &s);
    assert_int_equal(s.clips_count, 14);
    for (uint32_t i = 0; i < 14; ++i)
        assert_string_equal(sw_clip_name(s.clips[i]), names[i]);
    /* Skin joints: the union of the skinned meshes' palettes. */
    uint8_t used[SW_SKELETON_MAX_JOINTS] = {0};
    uint32_t skin_joints = 0, skinned = 0;
    for (uint32_t i = 0; i < s.meshes_count; ++i) {
        const sw_mesh* m = s.meshes[i];
        if (m->palette_count < 2) continue;
        ++skinned;
        for (uint32_t p = 0; p < m->palette_count; ++p) {
            uint16_t j = sw_mesh_palette(m)[p];
            if (!used[j]) skin_joints++;
            used[j] = 1;
        }
    }
    print_message("RobotExpressive through assimp: %u joints, %u meshes (%u skinned, %u skin "
                  "joints), %u clips; warning: %s\n",
                  s.skeleton->joints_count, s.meshes_count, skinned, skin_joints, s.clips_count,
                  s.warning);
    assert_int_equal(s.skeleton->joints_count, 69);
    assert_int_equal(s.meshes_count, 19);
    assert_int_equal(skinned, 4);
    /* Every clip samples to finite model matrices. */
    sw_xform4* local = alloc_pose(s.skeleton);
    sw_mat4* model = alloc_model(s.skeleton);
    for (uint32_t c = 0; c < s.clips_count; ++c) {
        assert_true(s.clips[c]->duration > 0.0f);
        for (int k = 0; k <= 8; ++k) {
            model_pose(s.skeleton, s.clips[c], s.clips[c]->duration * (float)k / 8.0f, local,
                       model);
            for (uint32_t j = 0; j < s.skeleton->joints_count; ++j) {
                for (int e = 0; e < 16; ++e)
                    assert_true(isfinite(model[j].m[e]));
            }
        }
    }
    free(local);
    free(model);
    sw_scene_free(&s, NULL);
}

/* Morph targets and weight tracks against sinew's native glTF reader: the
 * three morphing head meshes ("Head_2..4" natively; assimp 5.2 names them
 * "meshes[3..5]" and joins vertices differently, so vertices are matched by
 * base position and normal) carry the same deltas, and every clip the same
 * weight keys. */
static const sw_clip_track* float_track(const sw_clip* c, const char* name) {
    int32_t f = sw_clip_find_float_track(c, name);
    if (f < 0) fail_msg("float track %s not in clip %s", name, sw_clip_name(c));
    return &sw_clip_tracks(c)[c->tracks_count - c->float_tracks_count + (uint32_t)f];
}

/* UVs: OBJ stores them with the origin bottom left; sw_mesh keeps glTF's top
 * left origin, so every imported (u, v) must be some "vt u v" line's
 * (u, 1 - v), read from the text here. */
static void test_obj_uvs_top_left(void** state) {
    (void)state;
    char path[512];
    if (!sw_test_model_path(path, sizeof path, "OBJ/spider.obj")) return;
    FILE* f = fopen(path, "r");
    assert_non_null(f);
    static float vt[4096][2];
    uint32_t vt_count = 0;
    char line[512];
    while (fgets(line, sizeof line, f) && vt_count < 4096) {
        float u, v;
        if (sscanf(line, "vt %f %f", &u, &v) == 2) {
            vt[vt_count][0] = u;
            vt[vt_count][1] = v;
            ++vt_count;
        }
    }
    fclose(f);
    assert_true(vt_count > 0);
    sw_scene s;
    import_ok(path, NULL, &s);
    uint32_t checked = 0;
    for (uint32_t m = 0; m < s.meshes_count; ++m) {
        const float* uv = sw_mesh_uvs(s.meshes[m]);
        if (!uv) continue;
        for (uint32_t v = 0; v < s.meshes[m]->vertices_count; ++v) {
            bool found = false;
            for (uint32_t k = 0; k < vt_count && !found; ++k) {
                found = fabsf(uv[2 * v] - vt[k][0]) < 1e-6f &&
                        fabsf(uv[2 * v + 1] - (1.0f - vt[k][1])) < 1e-6f;
            }
            if (!found)
                fail_msg("mesh %u vertex %u: uv (%g, %g) is no file vt flipped", m, v,
                         (double)uv[2 * v], (double)uv[2 * v + 1]);
            ++checked;
        }
    }
    assert_true(checked > 0);
    print_message("spider.obj: %u vertex UVs equal a file vt with v flipped\n", checked);
    sw_scene_free(&s, NULL);
}

static const sw_mesh* find_mesh(const sw_scene* s, const char* name) {
    for (uint32_t i = 0; i < s->meshes_count; ++i) {
        if (strcmp(sw_mesh_name(s->meshes[i]), name) == 0) return s->meshes[i];
    }
    fail_msg("mesh %s not found", name);
    return NULL;
}

static void test_robot_morphs_against_native(void** state) {
    (void)state;
    char path[512];
    if (!sw_test_asset_path(path, sizeof path, "RobotExpressive.glb")) return;
    sw_scene a, n;
    import_ok(path, NULL, &a);
    sw_error e = {0};
    assert_int_equal(sw_gltf_read_file(path, NULL, NULL, &n, &e), SW_RESULT_OK);
    static const char* const native_names[3] = {"Head_2", "Head_3", "Head_4"};
    static const char* const assimp_names[3] = {"meshes[3]", "meshes[4]", "meshes[5]"};
    double max_delta_dev = 0.0;
    uint32_t matched = 0;
    for (int h = 0; h < 3; ++h) {
        const sw_mesh* ma = find_mesh(&a, assimp_names[h]);
        const sw_mesh* mn = find_mesh(&n, native_names[h]);
        assert_int_equal(ma->morph_targets_count, 3);
        assert_int_equal(mn->morph_targets_count, 3);
        const float* pa = sw_mesh_positions(ma);
        const float* pn = sw_mesh_positions(mn);
        const float* na = sw_mesh_normals(ma);
        const float* nn = sw_mesh_normals(mn);
        assert_non_null(na);
        assert_non_null(nn);
        for (uint32_t v = 0; v < ma->vertices_count; ++v) {
            uint32_t best = 0;
            double best_d = INFINITY;
            for (uint32_t w = 0; w < mn->vertices_count; ++w) {
                double d = 0.0;
                for (uint32_t k = 0; k < 3; ++k) {
                    d += fabs((double)pa[3 * v + k] - pn[3 * w + k]) +
                         fabs((double)na[3 * v + k] - nn[3 * w + k]);
                }
                if (d < best_d) {
                    best_d = d;
                    best = w;
                }
            }
            assert_true(best_d < 1e-5);
            ++matched;
            for (uint32_t t = 0; t < 3; ++t) {
                const float* da = sw_mesh_morph_positions(ma) + 3 * (t * ma->vertices_count + v);
                const float* dn = sw_mesh_morph_positions(mn) + 3 * (t * mn->vertices_count + best);
                for (int k = 0; k < 3; ++k) {
                    double dev = fabs((double)da[k] - dn[k]);
                    if (dev > max_delta_dev) max_delta_dev = dev;
                }
            }
        }
    }
    print_message("RobotExpressive morph deltas, assimp vs sw_gltf_read: %u vertices matched, "
                  "max deviation %.3g\n",
                  matched, max_delta_dev);
    assert_true(max_delta_dev <= 1e-6);
    assert_int_equal(a.clips_count, n.clips_count);
    for (uint32_t c = 0; c < a.clips_count; ++c) {
        const sw_clip* ca = a.clips[c];
        const sw_clip* cn = find_clip(&n, sw_clip_name(ca));
        assert_int_equal(ca->float_tracks_count, 9);
        assert_int_equal(cn->float_tracks_count, 9);
        for (int h = 0; h < 3; ++h) {
            for (int k = 0; k < 3; ++k) {
                char an[64], nm[64];
                snprintf(an, sizeof an, "%s.weights[%d]", assimp_names[h], k);
                snprintf(nm, sizeof nm, "%s.weights[%d]", native_names[h], k);
                const sw_clip_track* ta = float_track(ca, an);
                const sw_clip_track* tn = float_track(cn, nm);
                assert_int_equal(ta->keys_count, tn->keys_count);
                for (uint32_t key = 0; key < ta->keys_count; ++key) {
                    assert_near(sw_clip_track_key_time(ca, ta, key),
                                sw_clip_track_key_time(cn, tn, key), 1e-5);
                    assert_near(sw_clip_track_values(ca, ta)[key],
                                sw_clip_track_values(cn, tn)[key], 1e-6);
                }
            }
        }
    }
    sw_scene_free(&a, NULL);
    sw_scene_free(&n, NULL);
}

/* Skinned at the rest pose and at times of three clips, every assimp mesh
 * of the robot covers the same box in model space as the native reader's
 * mesh at the same position (skeleton, clips, binding and inverse binds
 * checked together against an independent reader; assimp's extra joints
 * hold the meshes it binds rigidly). */
static void skinned_box(const sw_scene* s, const sw_mesh* m, const sw_mat4* model, float box[6]) {
    for (int k = 0; k < 3; ++k) {
        box[k] = INFINITY;
        box[3 + k] = -INFINITY;
    }
    const float* p = sw_mesh_positions(m);
    for (uint32_t v = 0; v < m->vertices_count; ++v) {
        sw_vec3 acc = {0.0f, 0.0f, 0.0f};
        for (uint32_t i = 0; i < 4; ++i) {
            float w = sw_mesh_weights(m)[4 * v + i];
            if (w == 0.0f) continue;
            uint16_t e = sw_mesh_joints(m)[4 * v + i];
            sw_mat4 skin = sw_mat4_mul(&model[sw_mesh_palette(m)[e]], &sw_mesh_inverse_binds(m)[e]);
            sw_vec3 q = sw_mat4_point(&skin, sw_vec3_make(p[3 * v], p[3 * v + 1], p[3 * v + 2]));
            acc = sw_vec3_add(acc, sw_vec3_scale(q, w));
        }
        const float c[3] = {acc.x, acc.y, acc.z};
        for (int k = 0; k < 3; ++k) {
            if (c[k] < box[k]) box[k] = c[k];
            if (c[k] > box[3 + k]) box[3 + k] = c[k];
        }
    }
    (void)s;
}

static void test_robot_skinned_against_native(void** state) {
    (void)state;
    char path[512];
    if (!sw_test_asset_path(path, sizeof path, "RobotExpressive.glb")) return;
    sw_scene a, n;
    import_ok(path, NULL, &a);
    sw_error e = {0};
    assert_int_equal(sw_gltf_read_file(path, NULL, NULL, &n, &e), SW_RESULT_OK);
    assert_int_equal(a.meshes_count, n.meshes_count);
    sw_xform4* la = alloc_pose(a.skeleton);
    sw_xform4* ln = alloc_pose(n.skeleton);
    sw_mat4* ma = alloc_model(a.skeleton);
    sw_mat4* mn = alloc_model(n.skeleton);
    static const struct {
        const char* clip; /* NULL: rest pose */
        float time;
    } poses[] = {{NULL, 0.0f}, {"Walking", 0.5f}, {"Dance", 1.7f}, {"Wave", 1.1f}};
    double max_dev = 0.0;
    for (size_t p = 0; p < sizeof poses / sizeof poses[0]; ++p) {
        const sw_clip* ca = poses[p].clip ? find_clip(&a, poses[p].clip) : NULL;
        const sw_clip* cn = poses[p].clip ? find_clip(&n, poses[p].clip) : NULL;
        model_pose(a.skeleton, ca, poses[p].time, la, ma);
        model_pose(n.skeleton, cn, poses[p].time, ln, mn);
        for (uint32_t i = 0; i < a.meshes_count; ++i) {
            float ba[6], bn[6];
            skinned_box(&a, a.meshes[i], ma, ba);
            skinned_box(&n, n.meshes[i], mn, bn);
            for (int k = 0; k < 6; ++k) {
                double d = fabs((double)ba[k] - bn[k]);
                if (d > max_dev) max_dev = d;
            }
        }
    }
    print_message("RobotExpressive skinned boxes (rest, Walking, Dance, Wave), assimp vs "
                  "sw_gltf_read: %u meshes, max deviation %.3g\n",
                  a.meshes_count, max_dev);
    assert_true(max_dev <= 1e-4);
    free(la);
    free(ln);
    free(ma);
    free(mn);
    sw_scene_free(&a, NULL);
    sw_scene_free(&n, NULL);
}

/* The two glTF paths check each other joint by joint: every joint of the
 * native reader's skeleton has a namesake in assimp's (which adds holder
 * nodes of unskinned meshes), and their model-space matrices agree for all
 * 14 clips at 25 times each (matrices compared, so rotations up to sign
 * do not matter). */
static void test_robot_joints_against_native(void** state) {
    (void)state;
    char path[512];
    if (!sw_test_asset_path(path, sizeof path, "RobotExpressive.glb")) return;
    sw_scene a, n;
    import_ok(path, NULL, &a);
    sw_error e = {0};
    assert_int_equal(sw_gltf_read_file(path, NULL, NULL, &n, &e), SW_RESULT_OK);
    assert_int_equal(a.clips_count, n.clips_count);
    int32_t map[SW_SKELETON_MAX_JOINTS];
    uint32_t matched = 0;
    for (uint32_t j = 0; j < n.skeleton->joints_count; ++j) {
        map[j] = sw_skeleton_find_joint(a.skeleton, sw_skeleton_joint_name(n.skeleton, j));
        if (map[j] >= 0) ++matched;
    }
    sw_xform4* la = alloc_pose(a.skeleton);
    sw_xform4* ln = alloc_pose(n.skeleton);
    sw_mat4* ma = alloc_model(a.skeleton);
    sw_mat4* mn = alloc_model(n.skeleton);
    double max_t = 0.0, max_r = 0.0;
    uint32_t compared = 0;
    for (uint32_t c = 0; c < n.clips_count; ++c) {
        const sw_clip* cn = n.clips[c];
        const sw_clip* ca = find_clip(&a, sw_clip_name(cn));
        for (int k = 0; k < 25; ++k) {
            const float t = cn->duration * (float)k / 24.0f;
            model_pose(a.skeleton, ca, t, la, ma);
            model_pose(n.skeleton, cn, t, ln, mn);
            for (uint32_t j = 0; j < n.skeleton->joints_count; ++j) {
                if (map[j] < 0) continue;
                const sw_mat4* x = &ma[map[j]];
                const sw_mat4* y = &mn[j];
                for (int i = 0; i < 16; ++i) {
                    double d = fabs((double)x->m[i] - y->m[i]);
                    if (i >= 12 && i < 15) {
                        if (d > max_t) max_t = d;
                    } else {
                        /* Relative: the armature's scale of 100 is in these columns. */
                        d /= fmax(1.0, fabs((double)y->m[i]));
                        if (d > max_r) max_r = d;
                    }
                }
                ++compared;
            }
        }
    }
    print_message("RobotExpressive joints, assimp vs sw_gltf_read: %u of %u native joints "
                  "matched by name, %u joint poses over 14 clips; max translation deviation "
                  "%.3g m, max rotation-scale deviation %.3g (relative)\n",
                  matched, n.skeleton->joints_count, compared, max_t, max_r);
    /* Joints the native reader keeps for the skin and its ancestors must
     * all exist on the assimp side. */
    assert_int_equal(matched, n.skeleton->joints_count);
    assert_true(max_t <= 1e-4);
    assert_true(max_r <= 1e-4);
    free(la);
    free(ln);
    free(ma);
    free(mn);
    sw_scene_free(&a, NULL);
    sw_scene_free(&n, NULL);
}

/* ---- options and arguments ---- */

static void test_arguments(void** state) {
    (void)state;
    char path[512];
    if (!sw_test_model_path(path, sizeof path, "X/Testwuson.X")) return;
    sw_scene s;
    sw_error e = {0};
    assert_int_equal(sw_assimp_import_file(NULL, NULL, NULL, &s, &e), SW_RESULT_INVALID_ARGUMENT);
    assert_int_equal(sw_assimp_import_file(path, NULL, NULL, NULL, &e), SW_RESULT_INVALID_ARGUMENT);
    assert_int_equal(sw_assimp_import_memory(NULL, 10, "x", NULL, NULL, &s, &e),
                     SW_RESULT_INVALID_ARGUMENT);
    const sw_assimp_options bad[] = {
        {.scale = -1.0f},
        {.scale = NAN},
        {.scale = INFINITY},
        {.default_ticks_per_second = -25.0f},
        {.default_ticks_per_second = NAN},
        {.clips_count = 1},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        assert_int_equal(sw_assimp_import_file(path, &bad[i], NULL, &s, &e),
                         SW_RESULT_INVALID_ARGUMENT);
        assert_null(s.skeleton);
    }
    /* Not a file assimp reads: its message comes back in the warning. */
    assert_int_equal(sw_assimp_import_file("/nonexistent/file.fbx", NULL, NULL, &s, &e),
                     SW_RESULT_PARSE);
    assert_string_equal(e.check, "assimp read the file");
    assert_true(strncmp(s.warning, "assimp: ", 8) == 0 && strlen(s.warning) > 8);
    assert_null(s.skeleton);
    sw_scene_free(&s, NULL);

    /* Clip selection by (renamed) name; a name that is not there fails. */
    const char* const walk[] = {"Wuson_Walk"};
    sw_assimp_options only = {.clips = walk, .clips_count = 1};
    import_ok(path, &only, &s);
    assert_int_equal(s.clips_count, 1);
    assert_string_equal(sw_clip_name(s.clips[0]), "Wuson_Walk");
    sw_scene_free(&s, NULL);
    const char* const missing[] = {"Wuson_Walk", "Jog"};
    sw_assimp_options miss = {.clips = missing, .clips_count = 2};
    assert_int_equal(sw_assimp_import_file(path, &miss, NULL, &s, &e), SW_RESULT_NOT_FOUND);
    assert_string_equal(e.check, "requested clip exists");
    assert_int_equal(e.index, 1);
    assert_null(s.skeleton);
    assert_null(s.clips);
}

/* From memory with a hint: the same blocks as from the file. */
static void test_memory_equals_file(void** state) {
    (void)state;
    char path[512];
    if (!sw_test_model_path(path, sizeof path, "X/Testwuson.X")) return;
    size_t size = 0;
    void* data = sw_test_read_file(path, &size);
    assert_non_null(data);
    sw_scene a, b;
    import_ok(path, NULL, &a);
    sw_error e = {0};
    assert_int_equal(sw_assimp_import_memory(data, size, "x", NULL, NULL, &b, &e), SW_RESULT_OK);
    free(data);
    assert_int_equal(a.skeleton->size, b.skeleton->size);
    assert_memory_equal(a.skeleton, b.skeleton, a.skeleton->size);
    assert_int_equal(a.clips_count, b.clips_count);
    for (uint32_t i = 0; i < a.clips_count; ++i) {
        assert_int_equal(a.clips[i]->size, b.clips[i]->size);
        assert_memory_equal(a.clips[i], b.clips[i], a.clips[i]->size);
    }
    assert_int_equal(a.meshes_count, b.meshes_count);
    for (uint32_t i = 0; i < a.meshes_count; ++i) {
        assert_int_equal(a.meshes[i]->size, b.meshes[i]->size);
        assert_memory_equal(a.meshes[i], b.meshes[i], a.meshes[i]->size);
    }
    sw_scene_free(&a, NULL);
    sw_scene_free(&b, NULL);
}

/* Rotation keys come out unit and sign-continuous, times strictly increasing. */
static void test_keys_clean(void** state) {
    (void)state;
    char path[512];
    if (!sw_test_model_path(path, sizeof path, "X/BCN_Epileptic.X")) return;
    sw_scene s;
    import_ok(path, NULL, &s);
    const sw_clip* c = s.clips[0];
    uint32_t rotations = 0;
    for (uint32_t t = 0; t < c->tracks_count; ++t) {
        const sw_clip_track* tr = &sw_clip_tracks(c)[t];
        const float* v = sw_clip_track_values(c, tr);
        assert_int_equal(tr->interp, SW_INTERP_LINEAR);
        for (uint32_t k = 1; k < tr->keys_count; ++k) {
            assert_true(sw_clip_track_key_time(c, tr, k) > sw_clip_track_key_time(c, tr, k - 1));
        }
        if (tr->kind != SW_TRACK_KIND_ROTATION) continue;
        ++rotations;
        for (uint32_t k = 0; k < tr->keys_count; ++k) {
            const float* q = v + 4 * k;
            assert_near(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3], 1.0, 1e-5);
            if (k > 0) {
                const float* p = q - 4;
                assert_true(p[0] * q[0] + p[1] * q[1] + p[2] * q[2] + p[3] * q[3] >= 0.0f);
            }
        }
    }
    assert_true(rotations > 0);
    sw_scene_free(&s, NULL);
}

/* ---- small files made here (.X text, BVH text), imported from memory ---- */

/* Root > Arm > Arm (a second "Arm", holding a mesh through an unnamed frame
 * that assimp merges into it), Root > Static (neither animated nor a bone).
 * Clip 0 is unnamed, its rotation keys at ticks 0, 10, 10, 5 (the last two
 * do not increase) with the second key -2 * identity; two clips "Walk". */
static const char x_head[] =
    "xof 0302txt 0032\n"
    "Frame Root {\n"
    " FrameTransformMatrix { 1.0,0.0,0.0,0.0,0.0,1.0,0.0,0.0,0.0,0.0,1.0,0.0,0.0,0.0,0.0,1.0;; }\n"
    " Frame Arm {\n"
    "  FrameTransformMatrix { 1.0,0.0,0.0,0.0,0.0,1.0,0.0,0.0,0.0,0.0,1.0,0.0,0.0,2.0,0.0,1.0;; }\n"
    "  Frame Arm {\n"
    "   FrameTransformMatrix { 1.0,0.0,0.0,0.0,0.0,1.0,0.0,0.0,0.0,0.0,1.0,0.0,0.0,3.0,0.0,1.0;; "
    "}\n"
    "   Frame {\n"
    "    FrameTransformMatrix { 1.0,0.0,0.0,0.0,0.0,1.0,0.0,0.0,0.0,0.0,1.0,0.0,0.0,1.0,0.0,1.0;; "
    "}\n"
    "    Mesh tri { 3; 0.0;0.0;0.0;, 1.0;0.0;0.0;, 0.0;1.0;0.0;; 1; 3;0,1,2;;\n";
static const char x_tail[] =
    "    }\n"
    "   }\n"
    "  }\n"
    " Frame Static {\n"
    "  FrameTransformMatrix { 1.0,0.0,0.0,0.0,0.0,1.0,0.0,0.0,0.0,0.0,1.0,0.0,5.0,0.0,0.0,1.0;; }\n"
    " }\n"
    "}\n"
    "AnimTicksPerSecond { %u; }\n"
    "AnimationSet {\n"
    " Animation {\n"
    "  { Arm }\n"
    "  AnimationKey { 0; 4; 0;4;1.0,0.0,0.0,0.0;;, 10;4;-2.0,0.0,0.0,0.0;;, "
    "10;4;0.0,1.0,0.0,0.0;;, 5;4;0.0,1.0,0.0,0.0;;; }\n"
    "  AnimationKey { 2; 2; 0;3;0.0,2.0,0.0;;, 20;3;1.0,2.0,0.0;;; }\n"
    " }\n"
    "}\n"
    "AnimationSet Walk { Animation { { Arm } AnimationKey { 2; 1; 0;3;0.0,2.0,0.0;;; } } }\n"
    "AnimationSet Walk { Animation { { Arm } AnimationKey { 2; 1; 30;3;0.0,2.0,0.0;;; } } }\n";

/* The .X text with `skin` inside the mesh and `tps` ticks per second. */
static char* make_x(const char* skin, unsigned tps, size_t* size) {
    size_t cap = sizeof x_head + strlen(skin) + sizeof x_tail + 64;
    char* text = (char*)malloc(cap);
    assert_non_null(text);
    int n = snprintf(text, cap, "%s%s }\n", x_head, skin);
    assert_true(n > 0 && (size_t)n < cap);
    int m = snprintf(text + n, cap - (size_t)n, x_tail, tps);
    assert_true(m > 0 && (size_t)(n + m) < cap);
    *size = (size_t)(n + m);
    return text;
}

/* SkinWeights on `bone` for the given vertices, offset matrix moving y by -2. */
static char* make_skin(const char* bone, const char* ids, const char* weights, unsigned n) {
    char* s = (char*)malloc(512);
    assert_non_null(s);
    snprintf(s, 512,
             "XSkinMeshHeader { 1; 1; 1; }\n"
             "SkinWeights { \"%s\"; %u; %s; %s; "
             "1.0,0.0,0.0,0.0,0.0,1.0,0.0,0.0,0.0,0.0,1.0,0.0,0.0,-2.0,0.0,1.0;; }\n",
             bone, n, ids, weights);
    return s;
}

static sw_result import_x(const char* skin, unsigned tps, const sw_assimp_options* o, sw_scene* s,
                          sw_error* e) {
    size_t size = 0;
    char* text = make_x(skin, tps, &size);
    sw_result r = sw_assimp_import_memory(text, size, "x", o, NULL, s, e);
    free(text);
    return r;
}

static void test_crafted_names_and_keys(void** state) {
    (void)state;
    sw_scene s;
    sw_error e = {0};
    assert_int_equal(import_x("", 10, NULL, &s, &e), SW_RESULT_OK);
    const sw_skeleton* sk = s.skeleton;
    /* Root, the animated Arm, and the mesh holder Arm made unique; Static is left out. */
    assert_int_equal(sk->joints_count, 3);
    int32_t root = sw_skeleton_find_joint(sk, "Root");
    int32_t arm = sw_skeleton_find_joint(sk, "Arm");
    int32_t arm2 = sw_skeleton_find_joint(sk, "Arm_2");
    assert_true(root >= 0 && arm >= 0 && arm2 >= 0);
    assert_int_equal(sw_skeleton_find_joint(sk, "Static"), -1);
    assert_int_equal(sw_skeleton_parents(sk)[arm], root);
    assert_int_equal(sw_skeleton_parents(sk)[arm2], arm);
    sw_test_vec3_near(sw_pose_get(sw_skeleton_rest_pose(sk), (uint32_t)arm2).t,
                      sw_vec3_make(0.0f, 4.0f, 0.0f), 1e-6f);

    assert_int_equal(s.clips_count, 3);
    assert_string_equal(sw_clip_name(s.clips[0]), "clip_0");
    assert_string_equal(sw_clip_name(s.clips[1]), "Walk");
    assert_string_equal(sw_clip_name(s.clips[2]), "Walk_2");
    assert_non_null(strstr(s.warning, "clip 'clip_0': 2 keys not after the previous dropped"));
    const sw_clip* c = s.clips[0];
    assert_near(c->duration, 2.0f, 1e-6); /* 20 ticks at 10 per second */
    const sw_clip_track* rt = &sw_clip_tracks(c)[sw_clip_joint_tracks(c, (uint32_t)arm)[1]];
    assert_int_equal(rt->keys_count, 2);
    assert_near(sw_clip_track_key_time(c, rt, 0), 0.0f, 0.0);
    assert_near(sw_clip_track_key_time(c, rt, 1), 1.0f, 1e-6);
    const float* q = sw_clip_track_values(c, rt);
    /* Identity, then -2 * identity normalized: both identity (up to sign; assimp's
     * .X reader flips the sign of every key), with the same sign. */
    for (int k = 0; k < 2; ++k) {
        sw_test_quat_near(sw_quat_make(q[4 * k], q[4 * k + 1], q[4 * k + 2], q[4 * k + 3]),
                          sw_quat_identity(), 1e-6f);
    }
    assert_near(q[3], q[7], 1e-6);
    const sw_clip_track* tt = &sw_clip_tracks(c)[sw_clip_joint_tracks(c, (uint32_t)arm)[0]];
    assert_int_equal(tt->keys_count, 2);
    assert_near(sw_clip_track_key_time(c, tt, 1), 2.0f, 1e-6);
    assert_near(sw_clip_track_values(c, tt)[3], 1.0f, 0.0);
    assert_near(s.clips[2]->duration, 3.0f, 1e-6);

    /* The mesh without bones is bound rigidly to its node, identity inverse bind. */
    assert_int_equal(s.meshes_count, 1);
    const sw_mesh* m = s.meshes[0];
    assert_string_equal(sw_mesh_name(m), "mesh_0");
    assert_int_equal(m->palette_count, 1);
    assert_int_equal(sw_mesh_palette(m)[0], arm2);
    sw_mat4 id = sw_mat4_identity();
    sw_test_mat4_near(&sw_mesh_inverse_binds(m)[0], &id, 0.0f);
    for (uint32_t v = 0; v < 3; ++v)
        assert_near(sw_mesh_weights(m)[4 * v], 1.0f, 0.0);
    sw_scene_free(&s, NULL);

    /* 0 ticks per second: the default (25, or the option) and a warning. */
    assert_int_equal(import_x("", 0, NULL, &s, &e), SW_RESULT_OK);
    assert_non_null(strstr(s.warning, "clip 'clip_0': no ticks per second, 25 used"));
    assert_near(s.clips[0]->duration, 20.0f / 25.0f, 1e-6);
    sw_scene_free(&s, NULL);
    sw_assimp_options fifty = {.default_ticks_per_second = 50.0f};
    assert_int_equal(import_x("", 0, &fifty, &s, &e), SW_RESULT_OK);
    assert_near(s.clips[0]->duration, 20.0f / 50.0f, 1e-6);
    sw_scene_free(&s, NULL);
}

static void test_crafted_skins(void** state) {
    (void)state;
    sw_scene s;
    sw_error e = {0};
    /* A bone naming no node: dropped with its weights, the vertices go to
     * the mesh's node (as assimp-testmodels' X/anim_test.x, whose joint3
     * has weights but no frame). */
    char* skin = make_skin("Nope", "0,1,2", "1.0,1.0,1.0", 3);
    assert_int_equal(import_x(skin, 10, NULL, &s, &e), SW_RESULT_OK);
    assert_non_null(
        strstr(s.warning, "mesh 'mesh_0': 1 bones name no node, their weights dropped"));
    assert_non_null(strstr(s.warning, "mesh 'mesh_0': 3 vertices without weights bound"));
    assert_int_equal(s.meshes[0]->palette_count, 1);
    assert_int_equal(sw_mesh_palette(s.meshes[0])[0], sw_skeleton_find_joint(s.skeleton, "Arm_2"));
    sw_scene_free(&s, NULL);
    free(skin);
    char path[512];
    if (sw_test_model_path(path, sizeof path, "X/anim_test.x")) {
        import_ok(path, NULL, &s);
        assert_non_null(strstr(s.warning, "2 bones name no node, their weights dropped"));
        assert_int_equal(sw_skeleton_find_joint(s.skeleton, "joint3"), -1);
        sw_scene_free(&s, NULL);
    }

    /* Weights summing to 0.5: renormalized, with a warning. */
    skin = make_skin("Arm", "0,1,2", "0.5,0.5,0.5", 3);
    assert_int_equal(import_x(skin, 10, NULL, &s, &e), SW_RESULT_OK);
    assert_non_null(strstr(s.warning, "mesh 'mesh_0': 3 vertices' weights renormalized"));
    const sw_mesh* m = s.meshes[0];
    assert_int_equal(m->palette_count, 1);
    assert_int_equal(sw_mesh_palette(m)[0], sw_skeleton_find_joint(s.skeleton, "Arm"));
    assert_near(sw_mesh_inverse_binds(m)[0].m[13], -2.0f, 0.0);
    for (uint32_t v = 0; v < 3; ++v)
        assert_near(sw_mesh_weights(m)[4 * v], 1.0f, 1e-6);
    sw_scene_free(&s, NULL);
    free(skin);

    /* Vertex 2 without weights: bound to the mesh's node (Arm_2), identity bind. */
    skin = make_skin("Arm", "0,1", "1.0,1.0", 2);
    assert_int_equal(import_x(skin, 10, NULL, &s, &e), SW_RESULT_OK);
    assert_non_null(strstr(s.warning, "mesh 'mesh_0': 1 vertices without weights bound"));
    m = s.meshes[0];
    assert_int_equal(m->palette_count, 2);
    assert_int_equal(sw_mesh_palette(m)[1], sw_skeleton_find_joint(s.skeleton, "Arm_2"));
    sw_mat4 id = sw_mat4_identity();
    sw_test_mat4_near(&sw_mesh_inverse_binds(m)[1], &id, 0.0f);
    /* assimp may reorder vertices: find the one bound to the node entry. */
    uint32_t bound = 0;
    for (uint32_t v = 0; v < 3; ++v) {
        if (sw_mesh_joints(m)[4 * v] == 1 && sw_mesh_weights(m)[4 * v] == 1.0f) ++bound;
    }
    assert_int_equal(bound, 1);
    sw_scene_free(&s, NULL);
    free(skin);
}

/* A vertex id past the mesh in SkinWeights makes assimp 5.2's .X loader
 * write out of bounds (valgrind: "Invalid write of size 4" in libassimp).
 * Only the isolated import may see it: whatever the child does, the caller
 * gets either a scene that passed the archive's validation or an error. */
static void test_crafted_assimp_overflow_isolated(void** state) {
    (void)state;
    size_t size = 0;
    char* skin = make_skin("Arm", "0,1,7", "1.0,1.0,1.0", 3);
    char* text = make_x(skin, 10, &size);
    free(skin);
    char path[] = "/tmp/sinew_test_assimp_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, text, size), (ssize_t)size);
    close(fd);
    free(text);
    char named[64];
    snprintf(named, sizeof named, "%s.x", path);
    assert_int_equal(rename(path, named), 0);
    sw_scene s;
    sw_error e = {0};
    sw_result r = sw_assimp_import_file_isolated(named, NULL, 10000, NULL, &s, &e);
    print_message("out-of-range SkinWeights vertex, isolated: %s (%s) %s\n", sw_result_str(r),
                  r ? e.check : "-", s.warning);
    if (r == SW_RESULT_OK) {
        assert_non_null(s.skeleton);
        check_meshes(&s);
    } else {
        assert_null(s.skeleton);
        assert_non_null(e.check);
    }
    sw_scene_free(&s, NULL);
    unlink(named);
}

/* More joints than a skeleton holds: a BVH with 1100 joints under the root. */
static void test_too_many_joints(void** state) {
    (void)state;
    const unsigned n = 1100;
    size_t cap = 200u + n * 120u + n * 8u;
    char* text = (char*)malloc(cap);
    assert_non_null(text);
    size_t len = (size_t)snprintf(text, cap,
                                  "HIERARCHY\nROOT Hips\n{\nOFFSET 0 0 0\nCHANNELS 6 Xposition "
                                  "Yposition Zposition Zrotation Xrotation Yrotation\n");
    for (unsigned j = 0; j < n; ++j) {
        len += (size_t)snprintf(text + len, cap - len,
                                "JOINT J%u\n{\nOFFSET 0 1 0\nCHANNELS 3 Zrotation Xrotation "
                                "Yrotation\nEnd Site\n{\nOFFSET 0 1 0\n}\n}\n",
                                j);
    }
    len += (size_t)snprintf(text + len, cap - len,
                            "}\nMOTION\nFrames: 1\nFrame Time: 0.1\n0 0 0 0 0 0");
    for (unsigned j = 0; j < n; ++j)
        len += (size_t)snprintf(text + len, cap - len, " 0 0 0");
    len += (size_t)snprintf(text + len, cap - len, "\n");
    assert_true(len < cap);
    sw_scene s;
    sw_error e = {0};
    assert_int_equal(sw_assimp_import_memory(text, len, "bvh", NULL, NULL, &s, &e),
                     SW_RESULT_LIMIT);
    assert_string_equal(e.check, "joints count");
    assert_int_equal(e.index, n + 1);
    assert_null(s.skeleton);
    free(text);
}

/* ---- allocation failures ---- */

typedef struct counting_alloc {
    long allocs, frees, fail_at;
    size_t live;
} counting_alloc;

static void* counting_alloc_fn(void* user, size_t size, size_t align) {
    counting_alloc* c = (counting_alloc*)user;
    if (c->fail_at >= 0 && c->allocs == c->fail_at) {
        c->allocs++;
        return NULL;
    }
    c->allocs++;
    size_t rounded = (size + align - 1) / align * align;
    void* p = aligned_alloc(align < sizeof(void*) ? sizeof(void*) : align, rounded);
    if (p) c->live += size;
    return p;
}

static void counting_free_fn(void* user, void* ptr, size_t size) {
    counting_alloc* c = (counting_alloc*)user;
    if (!ptr) return;
    c->frees++;
    c->live -= size;
    free(ptr);
}

static void test_allocation_failures(void** state) {
    (void)state;
    char path[512];
    if (!sw_test_model_path(path, sizeof path, "glTF2/simple_skin/simple_skin.gltf")) return;
    counting_alloc ca = {0, 0, -1, 0};
    sw_allocator alloc = {counting_alloc_fn, counting_free_fn, &ca};
    sw_scene s;
    sw_error e = {0};
    assert_int_equal(sw_assimp_import_file(path, NULL, &alloc, &s, &e), SW_RESULT_OK);
    long total = ca.allocs;
    sw_scene_free(&s, &alloc);
    assert_int_equal(ca.live, 0);
    assert_int_equal(ca.allocs, ca.frees);
    assert_true(total > 10);
    for (long k = 0; k < total; ++k) {
        counting_alloc c = {0, 0, k, 0};
        sw_allocator a = {counting_alloc_fn, counting_free_fn, &c};
        sw_result r = sw_assimp_import_file(path, NULL, &a, &s, &e);
        assert_int_equal(r, SW_RESULT_OUT_OF_MEMORY);
        assert_null(s.skeleton);
        assert_int_equal(c.live, 0);
        assert_int_equal(c.allocs - 1, c.frees);
    }
}

/* ---- sw_isolate_run ---- */

static sw_result iso_ok(void* user, const sw_allocator* alloc, sw_isolate_output* out,
                        sw_error* err) {
    (void)err;
    size_t n = *(const size_t*)user;
    uint8_t* p = (uint8_t*)sw_alloc(alloc, n, 16);
    if (!p) return SW_RESULT_OUT_OF_MEMORY;
    for (size_t i = 0; i < n; ++i)
        p[i] = (uint8_t)(i * 31u + 7u);
    out->data = p;
    out->size = n;
    snprintf(out->message, sizeof out->message, "sent %zu bytes", n);
    return SW_RESULT_OK;
}

static const char iso_check_text[] = "the child's named check";

static sw_result iso_fail(void* user, const sw_allocator* alloc, sw_isolate_output* out,
                          sw_error* err) {
    (void)user;
    (void)alloc;
    snprintf(out->message, sizeof out->message, "details");
    err->result = SW_RESULT_BAD_DATA;
    err->check = iso_check_text;
    err->offset = 42;
    err->index = 7;
    return SW_RESULT_BAD_DATA;
}

static char iso_heap_check[32];

static sw_result iso_fail_heap_check(void* user, const sw_allocator* alloc, sw_isolate_output* out,
                                     sw_error* err) {
    (void)user;
    (void)alloc;
    (void)out;
    snprintf(iso_heap_check, sizeof iso_heap_check, "writable text");
    err->check = iso_heap_check; /* not a literal: must not be handed out */
    return SW_RESULT_PARSE;
}

static sw_result iso_segv(void* user, const sw_allocator* alloc, sw_isolate_output* out,
                          sw_error* err) {
    (void)user;
    (void)alloc;
    (void)out;
    (void)err;
    raise(SIGSEGV);
    return SW_RESULT_OK;
}

static sw_result iso_hang(void* user, const sw_allocator* alloc, sw_isolate_output* out,
                          sw_error* err) {
    (void)user;
    (void)alloc;
    (void)out;
    (void)err;
    for (;;)
        pause();
    return SW_RESULT_OK;
}

static sw_result iso_exit(void* user, const sw_allocator* alloc, sw_isolate_output* out,
                          sw_error* err) {
    (void)user;
    (void)alloc;
    (void)out;
    (void)err;
    _exit(1);
}

static void test_isolate(void** state) {
    (void)state;
    sw_isolate_result r;
    sw_error e = {0};
    /* Large output: more than a pipe buffer, read while the child writes. */
    size_t n = 3u << 20;
    assert_int_equal(sw_isolate_run(iso_ok, &n, NULL, NULL, &r, &e), SW_RESULT_OK);
    assert_int_equal(r.size, n);
    for (size_t i = 0; i < n; ++i)
        assert_int_equal(((uint8_t*)r.data)[i], (uint8_t)(i * 31u + 7u));
    assert_string_equal(r.message, "sent 3145728 bytes");
    assert_int_equal(r.exit_status, 0);
    sw_isolate_result_free(&r, NULL);

    sw_isolate_options small = {.max_output = 1000};
    assert_int_equal(sw_isolate_run(iso_ok, &n, &small, NULL, &r, &e), SW_RESULT_LIMIT);
    assert_string_equal(e.check, "output size");
    assert_null(r.data);

    assert_int_equal(sw_isolate_run(iso_fail, NULL, NULL, NULL, &r, &e), SW_RESULT_BAD_DATA);
    assert_ptr_equal(e.check, iso_check_text); /* verified literal of this program */
    assert_int_equal(e.offset, 42);
    assert_int_equal(e.index, 7);
    assert_string_equal(r.message, "details");

    assert_int_equal(sw_isolate_run(iso_fail_heap_check, NULL, NULL, NULL, &r, &e),
                     SW_RESULT_PARSE);
    assert_string_equal(e.check, "failed in the child (see message)");

    assert_int_equal(sw_isolate_run(iso_segv, NULL, NULL, NULL, &r, &e), SW_RESULT_BAD_DATA);
    assert_string_equal(e.check, "crashed (signal 11)");
    assert_int_equal(r.signal, SIGSEGV);

    sw_isolate_options quick = {.timeout_ms = 300};
    assert_int_equal(sw_isolate_run(iso_hang, NULL, &quick, NULL, &r, &e), SW_RESULT_LIMIT);
    assert_string_equal(e.check, "timed out");
    assert_true(r.timed_out);
    assert_true(r.elapsed_ms >= 300 && r.elapsed_ms < 5000);

    assert_int_equal(sw_isolate_run(iso_exit, NULL, NULL, NULL, &r, &e), SW_RESULT_IO);
    assert_string_equal(e.check, "child exited without a result");
    assert_int_equal(r.exit_status, 1);

    assert_int_equal(sw_isolate_run(NULL, NULL, NULL, NULL, &r, &e), SW_RESULT_INVALID_ARGUMENT);
    assert_int_equal(sw_isolate_run(iso_ok, &n, NULL, NULL, NULL, &e), SW_RESULT_INVALID_ARGUMENT);
}

/* The isolated child writes its pid to the pipe in *user, then hangs. */
static sw_result iso_tell_and_hang(void* user, const sw_allocator* alloc, sw_isolate_output* out,
                                   sw_error* err) {
    const pid_t me = getpid();
    if (write(*(const int*)user, &me, sizeof me) != (ssize_t)sizeof me) _exit(2);
    return iso_hang(NULL, alloc, out, err);
}

/* True once `pid` is gone or a zombie. */
static bool process_ended(pid_t pid) {
    if (kill(pid, 0) != 0) return true;
    char path[64], stat[256] = {0};
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    FILE* f = fopen(path, "r");
    if (!f) return true;
    const size_t n = fread(stat, 1, sizeof stat - 1, f);
    fclose(f);
    const char* close_paren = strrchr(stat, ')');
    return n == 0 || (close_paren && close_paren[1] == ' ' && close_paren[2] == 'Z');
}

/* A caller killed while its isolated child hangs takes the child with it
 * (Linux: PR_SET_PDEATHSIG). */
static void test_isolate_dies_with_caller(void** state) {
    (void)state;
#ifdef __linux__
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    const pid_t caller = fork();
    assert_true(caller >= 0);
    if (caller == 0) {
        sw_isolate_result r;
        sw_isolate_options forever = {.timeout_ms = 600000};
        sw_isolate_run(iso_tell_and_hang, &fds[1], &forever, NULL, &r, NULL);
        _exit(0);
    }
    close(fds[1]);
    pid_t child = 0;
    assert_int_equal(read(fds[0], &child, sizeof child), (ssize_t)sizeof child);
    close(fds[0]);
    assert_false(process_ended(child));
    kill(caller, SIGKILL);
    waitpid(caller, NULL, 0);
    bool ended = false;
    for (int i = 0; i < 500 && !ended; ++i) {
        ended = process_ended(child);
        if (!ended) nanosleep(&(struct timespec){0, 10000000}, NULL);
    }
    if (!ended) kill(child, SIGKILL);
    assert_true(ended);
#else
    skip();
#endif
}

/* ---- isolated imports ---- */

static void test_isolated_equals_direct(void** state) {
    (void)state;
    char path[512];
    if (!sw_test_model_path(path, sizeof path, "X/Testwuson.X")) return;
    sw_scene a, b;
    import_ok(path, NULL, &a);
    sw_error e = {0};
    assert_int_equal(sw_assimp_import_file_isolated(path, NULL, 20000, NULL, &b, &e), SW_RESULT_OK);
    assert_memory_equal(a.skeleton, b.skeleton, a.skeleton->size);
    assert_int_equal(a.clips_count, b.clips_count);
    for (uint32_t i = 0; i < a.clips_count; ++i) {
        assert_memory_equal(a.clips[i], b.clips[i], a.clips[i]->size);
    }
    assert_int_equal(a.meshes_count, b.meshes_count);
    for (uint32_t i = 0; i < a.meshes_count; ++i) {
        assert_memory_equal(a.meshes[i], b.meshes[i], a.meshes[i]->size);
    }
    assert_string_equal(a.warning, b.warning);
    sw_scene_free(&a, NULL);
    sw_scene_free(&b, NULL);

    /* A failure inside the child keeps its result and named check. */
    const char* const missing[] = {"Jog"};
    sw_assimp_options miss = {.clips = missing, .clips_count = 1};
    assert_int_equal(sw_assimp_import_file_isolated(path, &miss, 20000, NULL, &b, &e),
                     SW_RESULT_NOT_FOUND);
    assert_string_equal(e.check, "requested clip exists");
    assert_null(b.skeleton);
}

/* The files TOOLCHAIN.md lists as crashing assimp: assimp 5.2.5 returns a
 * scene without a root node (empty_camera.ogex) or a root with NULL child
 * pointers (RAW), which crash callers that trust it. Both paths reject them
 * with a named check. assimp's RAW importer leaks the nodes it left out of
 * the tree (LeakSanitizer sees it), so RAW files are only imported in a
 * child, whose memory is not checked. The hanging file is killed at the
 * time limit. */
static void test_isolated_crashers(void** state) {
    (void)state;
    static const struct {
        const char* rel;
        sw_result result;
        const char* check;
        bool leaks;
    } crashers[] = {
        {"OpenGEX/empty_camera.ogex", SW_RESULT_PARSE, "scene has a root node", false},
        {"RAW/WithColor.raw", SW_RESULT_BAD_DATA, "child node not NULL", true},
        {"RAW/WithTexture.raw", SW_RESULT_BAD_DATA, "child node not NULL", true},
    };
    for (size_t i = 0; i < 3; ++i) {
        char path[512];
        if (!sw_test_model_path(path, sizeof path, crashers[i].rel)) continue;
        sw_scene s;
        sw_error e = {0};
        if (!crashers[i].leaks) {
            assert_int_equal(sw_assimp_import_file(path, NULL, NULL, &s, &e), crashers[i].result);
            assert_string_equal(e.check, crashers[i].check);
            assert_null(s.skeleton);
        }
        memset(&e, 0, sizeof e);
        assert_int_equal(sw_assimp_import_file_isolated(path, NULL, 10000, NULL, &s, &e),
                         crashers[i].result);
        assert_string_equal(e.check, crashers[i].check);
        assert_null(s.skeleton);
    }
    char path[512];
    if (!sw_test_model_path(path, sizeof path, "invalid/OutOfMemory.off")) return;
    sw_scene s;
    sw_error e = {0};
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    sw_result r = sw_assimp_import_file_isolated(path, NULL, 3000, NULL, &s, &e);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double secs = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    print_message("invalid/OutOfMemory.off: %s (%s) after %.2f s\n", sw_result_str(r), e.check,
                  secs);
    assert_int_equal(r, SW_RESULT_LIMIT);
    assert_string_equal(e.check, "import timed out");
    assert_true(secs < 6.0);
    assert_null(s.skeleton);
}

/* ---- every file of assimp-testmodels through the isolated import ---- */

typedef struct batch {
    uint32_t files, imported, failed, crashed, timed_out;
    uint32_t with_clips;
} batch;

static void batch_dir(const char* dir, batch* b) {
    DIR* d = opendir(dir);
    if (!d) return;
    struct dirent* ent;
    while ((ent = readdir(d)) != NULL) {
        if (ent->d_name[0] == '.') continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, ent->d_name);
        struct stat st;
        if (stat(path, &st) != 0) continue;
        if (S_ISDIR(st.st_mode)) {
            batch_dir(path, b);
            continue;
        }
        if (!S_ISREG(st.st_mode)) continue;
        b->files++;
        sw_scene s;
        sw_error e = SW_ERROR_INIT;
        sw_result r = sw_assimp_import_file_isolated(path, NULL, 5000, NULL, &s, &e);
        if (r == SW_RESULT_OK) {
            assert_non_null(s.skeleton);
            b->imported++;
            if (s.clips_count) b->with_clips++;
        } else {
            assert_null(s.skeleton);
            assert_non_null(e.check);
            assert_true(strlen(e.check) > 0);
            if (strncmp(e.check, "importer crashed", 16) == 0) {
                b->crashed++;
                print_message("crash: %s (%s)\n", path, e.check);
            } else if (strcmp(e.check, "import timed out") == 0) {
                b->timed_out++;
                print_message("timeout: %s\n", path);
            } else {
                b->failed++;
            }
        }
        sw_scene_free(&s, NULL);
    }
    closedir(d);
}

static void test_batch_all_models(void** state) {
    (void)state;
    char path[512];
    if (!sw_test_model_path(path, sizeof path, "BVH/01_01.bvh")) return;
    batch b = {0};
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    batch_dir(SINEW_TEST_MODELS, &b);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double secs = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    print_message("assimp-testmodels: %u files: %u imported (%u with clips), %u failed with a "
                  "message, %u crashed, %u timed out; %.1f s\n",
                  b.files, b.imported, b.with_clips, b.failed, b.crashed, b.timed_out, secs);
    assert_int_equal(b.files, b.imported + b.failed + b.crashed + b.timed_out);
    assert_true(b.imported > 0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bvh_01_01),
        cmocka_unit_test(test_bvh_01_03),
        cmocka_unit_test(test_csm),
        cmocka_unit_test(test_x_bcn_epileptic),
        cmocka_unit_test(test_x_testwuson),
        cmocka_unit_test(test_fbx_animation_with_skeleton),
        cmocka_unit_test(test_fbx_huesitos),
        cmocka_unit_test(test_fbx_units),
        cmocka_unit_test(test_fbx_pivots),
        cmocka_unit_test(test_gltf_simple_skin),
        cmocka_unit_test(test_collada_nested),
        cmocka_unit_test(test_robot_expressive),
        cmocka_unit_test(test_robot_morphs_against_native),
        cmocka_unit_test(test_obj_uvs_top_left),
        cmocka_unit_test(test_robot_skinned_against_native),
        cmocka_unit_test(test_robot_joints_against_native),
        cmocka_unit_test(test_arguments),
        cmocka_unit_test(test_memory_equals_file),
        cmocka_unit_test(test_keys_clean),
        cmocka_unit_test(test_crafted_names_and_keys),
        cmocka_unit_test(test_crafted_skins),
        cmocka_unit_test(test_crafted_assimp_overflow_isolated),
        cmocka_unit_test(test_too_many_joints),
        cmocka_unit_test(test_allocation_failures),
        cmocka_unit_test(test_isolate),
        cmocka_unit_test(test_isolate_dies_with_caller),
        cmocka_unit_test(test_isolated_equals_direct),
        cmocka_unit_test(test_isolated_crashers),
        cmocka_unit_test(test_batch_all_models),
    };
    (void)SW_TEST_ASAN;
    return cmocka_run_group_tests(tests, NULL, NULL);
}
