/* glTF reader tests: RobotExpressive and assimp-testmodels files against an
 * independent evaluator (gltf_eval.h), hand-made files against closed forms,
 * hostile variants naming their checks, every truncation, allocation
 * failures at every index. */
#include "test_util.h"

#include <errno.h>
#include <stdalign.h>
#include <unistd.h>

#include "gltf_eval.h"
#include "sinew/tools/readers/gltf.h"
#include "tools/readers/json.h"

#define DATA(name) SINEW_TEST_DATA "/gltf/" name

/* ---- helpers ---- */

typedef struct posed {
    sw_xform4* local;
    sw_mat4* model;
    float* floats;
} posed;

/* Samples clip c of scene s at t and computes model matrices. */
static void pose_at(const sw_scene* s, const sw_clip* c, float t, posed* p) {
    const sw_skeleton* sk = s->skeleton;
    p->local = (sw_xform4*)aligned_alloc(16, sk->packets_count * sizeof(sw_xform4));
    p->model = (sw_mat4*)aligned_alloc(16, ((sk->joints_count * sizeof(sw_mat4) + 15) / 16) * 16);
    p->floats = (float*)malloc((c->float_tracks_count + 1) * sizeof(float));
    sw_sample_job sj = {.clip = c,
                        .skeleton = sk,
                        .time = t,
                        .out = p->local,
                        .out_count = sk->packets_count,
                        .floats = p->floats,
                        .floats_count = c->float_tracks_count};
    assert_int_equal(sw_sample_job_run(&sj), SW_RESULT_OK);
    sw_local_to_model_job lj = {.skeleton = sk,
                                .local = p->local,
                                .local_count = sk->packets_count,
                                .out = p->model,
                                .out_count = sk->joints_count};
    assert_int_equal(sw_local_to_model_job_run(&lj), SW_RESULT_OK);
}

static void posed_free(posed* p) {
    free(p->local);
    free(p->model);
    free(p->floats);
}

/* Node index of a joint name in the evaluator's document (-1 if none). */
static int node_of(const ge_doc* d, const char* name) {
    const ge_val* nodes = ge_get(&d->root, "nodes");
    for (size_t i = 0; i < nodes->n; ++i) {
        const ge_val* nm = ge_get(&nodes->items[i], "name");
        char fallback[32];
        snprintf(fallback, sizeof fallback, "node_%zu", i);
        if (!strcmp(nm ? nm->str : fallback, name)) return (int)i;
    }
    return -1;
}

typedef struct errors {
    double t, r; /* largest translation error (m), rotation-scale column error */
} errors;

/* Compares every joint of every clip at `steps` + 1 times with the evaluator. */
static errors compare_with_evaluator(const char* path, const sw_scene* s, int steps) {
    ge_doc d;
    ge_load(&d, path);
    const ge_val* nodes = ge_get(&d.root, "nodes");
    double* world = (double*)malloc(nodes->n * 16 * sizeof(double));
    const sw_skeleton* sk = s->skeleton;
    int* map = (int*)malloc(sk->joints_count * sizeof(int));
    for (uint32_t j = 0; j < sk->joints_count; ++j) {
        map[j] = node_of(&d, sw_skeleton_joint_name(sk, j));
        assert_true(map[j] >= 0);
    }
    errors e = {0, 0};
    const ge_val* anims = ge_get(&d.root, "animations");
    for (uint32_t c = 0; c < s->clips_count; ++c) {
        const sw_clip* clip = s->clips[c];
        int a = -1;
        for (size_t k = 0; k < anims->n; ++k) {
            const ge_val* nm = ge_get(&anims->items[k], "name");
            char fallback[32];
            snprintf(fallback, sizeof fallback, "animation_%zu", k);
            if (!strcmp(nm ? nm->str : fallback, sw_clip_name(clip))) a = (int)k;
        }
        assert_true(a >= 0);
        for (int i = 0; i <= steps; ++i) {
            /* Off-key times (an irrational step) plus both ends. */
            float t =
                i == steps ? clip->duration : clip->duration * (float)fmod(i * 0.6180339887, 1.0);
            posed p;
            pose_at(s, clip, t, &p);
            ge_world(&d, a, (double)t, world);
            for (uint32_t j = 0; j < sk->joints_count; ++j) {
                const double* w = world + 16 * map[j];
                const float* m = p.model[j].m;
                for (int r = 0; r < 3; ++r) {
                    double dt = fabs(w[12 + r] - m[12 + r]);
                    if (dt > e.t) e.t = dt;
                }
                for (int col = 0; col < 3; ++col) {
                    double len = sqrt(w[col * 4] * w[col * 4] + w[col * 4 + 1] * w[col * 4 + 1] +
                                      w[col * 4 + 2] * w[col * 4 + 2]);
                    for (int r = 0; r < 3; ++r) {
                        double dr = fabs(w[col * 4 + r] - m[col * 4 + r]) / (len > 1 ? len : 1);
                        if (dr > e.r) e.r = dr;
                    }
                }
            }
            posed_free(&p);
        }
    }
    free(map);
    free(world);
    ge_free(&d);
    return e;
}

static char* read_text(const char* path, size_t* n) {
    void* p = sw_test_read_file(path, n);
    assert_non_null(p);
    return (char*)p;
}

/* A copy of text with the first `from` replaced by `to` (which must occur). */
static char* replace(const char* text, const char* from, const char* to) {
    const char* at = strstr(text, from);
    if (!at) fail_msg("substitution target not found: %s", from);
    size_t a = (size_t)(at - text), fl = strlen(from), tl = strlen(to), n = strlen(text);
    char* out = (char*)malloc(n - fl + tl + 1);
    memcpy(out, text, a);
    memcpy(out + a, to, tl);
    memcpy(out + a + tl, at + fl, n - a - fl + 1);
    return out;
}

static sw_result read_mem(const void* data, size_t n, const sw_gltf_options* o, sw_scene* s,
                          sw_error* e) {
    memset(e, 0, sizeof *e);
    return sw_gltf_read(data, n, o, NULL, s, e);
}

static const sw_clip* clip_named(const sw_scene* s, const char* name) {
    for (uint32_t c = 0; c < s->clips_count; ++c)
        if (!strcmp(sw_clip_name(s->clips[c]), name)) return s->clips[c];
    fail_msg("no clip %s", name);
    return NULL;
}

static sw_xform local_of(const sw_scene* s, const sw_clip* c, const char* joint, float t) {
    posed p;
    pose_at(s, c, t, &p);
    int32_t j = sw_skeleton_find_joint(s->skeleton, joint);
    assert_true(j >= 0);
    sw_xform x = sw_pose_get(p.local, (uint32_t)j);
    posed_free(&p);
    return x;
}

/* ---- real data ---- */

static void test_robot_matches_independent_evaluator(void** state) {
    (void)state;
    char path[1024];
    if (!sw_test_asset_path(path, sizeof path, "RobotExpressive.glb")) return;
    sw_scene s;
    sw_error e;
    assert_int_equal(sw_gltf_read_file(path, NULL, NULL, &s, &e), SW_RESULT_OK);
    assert_int_equal(s.clips_count, 14);
    /* 43 skin joints plus the ancestors up to the scene root (RobotArmature...). */
    assert_true(s.skeleton->joints_count > 43);
    assert_true(sw_skeleton_find_joint(s.skeleton, "RobotArmature") >= 0);
    assert_near(clip_named(&s, "Walking")->duration, 0.9583, 1e-4);
    errors err = compare_with_evaluator(path, &s, 60);
    print_message("RobotExpressive: 14 clips x 61 times x %u joints: max |dt| %.3g m, max "
                  "rotation-scale column error %.3g\n",
                  s.skeleton->joints_count, err.t, err.r);
    assert_true(err.t <= 1e-4);
    assert_true(err.r <= 1e-4);
    sw_scene_free(&s, NULL);
}

/* RobotExpressive read by sinew into s and by the independent parser into
 * d; false (the test skips, saying so) when the asset is absent. */
static bool robot_open(sw_scene* s, ge_doc* d) {
    char path[1024];
    if (!sw_test_asset_path(path, sizeof path, "RobotExpressive.glb")) return false;
    sw_error e;
    assert_int_equal(sw_gltf_read_file(path, NULL, NULL, s, &e), SW_RESULT_OK);
    ge_load(d, path);
    return true;
}

/* The file's rest values as the independent parser reads them: components
 * below 2^-63 in magnitude (RobotExpressive writes 5e-37 and -4.4e-30 in two
 * joints' rotations) come out as zeros of their sign, the others as written
 * (within float rounding). */
static void test_robot_tiny_rest_values_flushed(void** state) {
    (void)state;
    sw_scene s;
    ge_doc d;
    if (!robot_open(&s, &d)) return;
    const ge_val* nodes = ge_get(&d.root, "nodes");
    const char* const keys[3] = {"translation", "rotation", "scale"};
    uint32_t flushed = 0, compared = 0;
    for (size_t i = 0; i < nodes->n; ++i) {
        const ge_val* name = ge_get(&nodes->items[i], "name");
        const int32_t j = name ? sw_skeleton_find_joint(s.skeleton, name->str) : -1;
        if (j < 0) continue;
        const sw_xform x = sw_pose_get(sw_skeleton_rest_pose(s.skeleton), (uint32_t)j);
        const float* got[3] = {&x.t.x, &x.r.x, &x.s.x};
        for (int k = 0; k < 3; ++k) {
            const ge_val* v = ge_get(&nodes->items[i], keys[k]);
            for (size_t c = 0; v && c < v->n; ++c, ++compared) {
                const double want = ge_num(&v->items[c], 0.0), g = got[k][c];
                if (fabs(want) < 0x1p-63 && want != 0.0) {
                    assert_true(g == 0.0 && signbit(g) == signbit(want));
                    ++flushed;
                } else {
                    assert_near(g, want, 1e-6 * fmax(1.0, fabs(want)));
                }
            }
        }
    }
    print_message("RobotExpressive: %u rest components compared, %u below 2^-63 stored as 0\n",
                  compared, flushed);
    assert_true(flushed >= 4);
    ge_free(&d);
    sw_scene_free(&s, NULL);
}

static void test_robot_meshes_and_morph_tracks(void** state) {
    (void)state;
    sw_scene s;
    ge_doc d;
    if (!robot_open(&s, &d)) return;
    /* 4 skinned meshes and 15 rigid parts on joints (one primitive each). */
    assert_int_equal(s.meshes_count, 19);
    const ge_val* nodes = ge_get(&d.root, "nodes");
    uint32_t m = 0, rigid = 0;
    double* world = (double*)malloc(nodes->n * 16 * sizeof(double));
    for (size_t i = 0; i < nodes->n; ++i) {
        const ge_val* nd = &nodes->items[i];
        if (!ge_get(nd, "mesh")) continue;
        if (!ge_get(nd, "skin")) {
            /* Rigid: model[anchor] * bind is the node's world matrix, at rest
             * and while animated; all weight on the one palette entry. */
            const sw_mesh* me = s.meshes[m++];
            assert_string_equal(sw_mesh_name(me), ge_get(nd, "name")->str);
            assert_int_equal(me->palette_count, 1);
            for (uint32_t v = 0; v < me->vertices_count; ++v)
                assert_near(sw_mesh_weights(me)[4 * v], 1.0, 0);
            for (uint32_t c = 0; c < s.clips_count; c += 3) {
                const float t = s.clips[c]->duration * 0.4f;
                posed p;
                pose_at(&s, s.clips[c], t, &p);
                ge_world(&d, (int)c, t, world);
                sw_mat4 got =
                    sw_mat4_mul(&p.model[sw_mesh_palette(me)[0]], &sw_mesh_inverse_binds(me)[0]);
                for (int k = 0; k < 16; ++k)
                    assert_near(got.m[k], world[16 * i + (size_t)k], 1e-4);
                posed_free(&p);
            }
            if (me->morph_targets_count) {
                assert_int_equal(me->morph_targets_count, 3);
                const uint32_t* names =
                    (const uint32_t*)(const void*)((const char*)me + me->morph_names_offset);
                assert_string_equal((const char*)me + names[0], "Angry");
            }
            ++rigid;
            continue;
        }
        const ge_val* mesh = ge_at(ge_get(&d.root, "meshes"), (size_t)ge_get(nd, "mesh")->num);
        const ge_val* prim = ge_at(ge_get(mesh, "primitives"), 0);
        const ge_val* acc = ge_at(ge_get(&d.root, "accessors"),
                                  (size_t)ge_get(ge_get(prim, "attributes"), "POSITION")->num);
        const ge_val* iacc =
            ge_at(ge_get(&d.root, "accessors"), (size_t)ge_get(prim, "indices")->num);
        const sw_mesh* me = s.meshes[m++];
        assert_string_equal(sw_mesh_name(me), ge_get(nd, "name")->str);
        assert_int_equal(me->vertices_count, (uint32_t)ge_get(acc, "count")->num);
        assert_int_equal(me->indices_count, (uint32_t)ge_get(iacc, "count")->num);
        const ge_val* skin = ge_at(ge_get(&d.root, "skins"), (size_t)ge_get(nd, "skin")->num);
        const ge_val* joints = ge_get(skin, "joints");
        assert_int_equal(me->palette_count, joints->n);
        for (uint32_t k = 0; k < me->palette_count; ++k) {
            const char* jn = sw_skeleton_joint_name(s.skeleton, sw_mesh_palette(me)[k]);
            const ge_val* jnode = &nodes->items[(size_t)joints->items[k].num];
            assert_string_equal(jn, ge_get(jnode, "name")->str);
        }
        for (uint32_t v = 0; v < me->vertices_count; ++v) {
            const float* w = sw_mesh_weights(me) + 4 * v;
            assert_near(w[0] + w[1] + w[2] + w[3], 1.0, 1e-5);
        }
        /* Bind positions are the file's, untouched. */
        size_t n, comps;
        double* pos = ge_accessor(&d, (size_t)ge_get(ge_get(prim, "attributes"), "POSITION")->num,
                                  &n, &comps);
        for (size_t k = 0; k < 3 * n; ++k)
            assert_near(sw_mesh_positions(me)[k], pos[k], 1e-7);
        free(pos);
    }
    /* Morph weights: float tracks "<mesh>.weights[k]" against the evaluator. */
    const ge_val* anims = ge_get(&d.root, "animations");
    uint32_t compared = 0;
    for (uint32_t c = 0; c < s.clips_count; ++c) {
        const sw_clip* clip = s.clips[c];
        for (uint32_t f = 0; f < clip->float_tracks_count; ++f) {
            char base[256];
            unsigned k;
            const char* name = sw_clip_float_track_name(clip, f);
            const char* dot = strstr(name, ".weights[");
            assert_non_null(dot);
            snprintf(base, sizeof base, "%.*s", (int)(dot - name), name);
            assert_int_equal(sscanf(dot, ".weights[%u]", &k), 1);
            int node = node_of(&d, base);
            assert_true(node >= 0);
            for (int i = 0; i <= 20; ++i) {
                float t = clip->duration * (float)i / 20.0f;
                posed p;
                pose_at(&s, clip, t, &p);
                double want = 0.0;
                assert_true(ge_weight(&d, (int)c, (size_t)node, 3, k, t, &want));
                assert_near(p.floats[f], want, 1e-5);
                posed_free(&p);
                ++compared;
            }
        }
    }
    assert_true(compared > 0);
    assert_int_equal(rigid, 15);
    free(world);
    (void)anims;
    ge_free(&d);
    sw_scene_free(&s, NULL);
}

static void test_simple_skin(void** state) {
    (void)state;
    char path[1024];
    if (!sw_test_model_path(path, sizeof path, "glTF2/simple_skin/simple_skin.gltf")) return;
    sw_scene s;
    sw_error e;
    assert_int_equal(sw_gltf_read_file(path, NULL, NULL, &s, &e), SW_RESULT_OK);
    /* Joints 1 and 2 and their ancestor, the mesh node 0. */
    assert_int_equal(s.skeleton->joints_count, 3);
    assert_int_equal(s.clips_count, 1);
    assert_string_equal(sw_clip_name(s.clips[0]), "animation_0");
    assert_near(s.clips[0]->duration, 5.5, 1e-6);
    assert_int_equal(s.meshes_count, 1);
    assert_int_equal(s.meshes[0]->vertices_count, 10);
    assert_int_equal(s.meshes[0]->indices_count, 24);
    for (uint32_t v = 0; v < 10; ++v) {
        const float* w = sw_mesh_weights(s.meshes[0]) + 4 * v;
        assert_near(w[0] + w[1] + w[2] + w[3], 1.0, 1e-6);
    }
    errors err = compare_with_evaluator(path, &s, 40);
    print_message("simple_skin: max |dt| %.3g, column error %.3g\n", err.t, err.r);
    assert_true(err.t <= 1e-5 && err.r <= 1e-5);
    sw_scene_free(&s, NULL);
}

static void test_morph_cube_weights(void** state) {
    (void)state;
    char path[1024];
    if (!sw_test_model_path(
            path, sizeof path,
            "glTF2/glTF-Sample-Models/AnimatedMorphCube-glTF/AnimatedMorphCube.gltf")) {
        return;
    }
    sw_scene s;
    sw_error e;
    assert_int_equal(sw_gltf_read_file(path, NULL, NULL, &s, &e), SW_RESULT_OK);
    /* No skin: the animated node is the skeleton, and its mesh a rigid one on
     * it (identity bind) with two morph targets. */
    assert_int_equal(s.skeleton->joints_count, 1);
    assert_int_equal(s.meshes_count, 1);
    assert_int_equal(s.meshes[0]->morph_targets_count, 2);
    assert_int_equal(s.meshes[0]->palette_count, 1);
    sw_mat4 id = sw_mat4_identity();
    sw_test_mat4_near(&sw_mesh_inverse_binds(s.meshes[0])[0], &id, 0);
    assert_string_equal(s.warning, "");
    const sw_clip* c = s.clips[0];
    assert_int_equal(c->float_tracks_count, 2);
    ge_doc d;
    ge_load(&d, path);
    const ge_val* mesh = ge_at(ge_get(&d.root, "meshes"), 0);
    char name[300];
    for (unsigned k = 0; k < 2; ++k) {
        snprintf(name, sizeof name, "%s.weights[%u]", ge_get(mesh, "name")->str, k);
        int32_t f = sw_clip_find_float_track(c, name);
        assert_true(f >= 0);
        for (int i = 0; i <= 30; ++i) {
            float t = c->duration * (float)i / 30.0f;
            posed p;
            pose_at(&s, c, t, &p);
            double want = 0.0;
            assert_true(ge_weight(&d, 0, 0, 2, k, t, &want));
            assert_near(p.floats[f], want, 1e-5);
            posed_free(&p);
        }
    }
    ge_free(&d);
    sw_scene_free(&s, NULL);
}

/* ---- hand-made files ---- */

static void test_tiny_structure(void** state) {
    (void)state;
    sw_scene s;
    sw_error e;
    assert_int_equal(sw_gltf_read_file(DATA("tiny.gltf"), NULL, NULL, &s, &e), SW_RESULT_OK);
    const sw_skeleton* sk = s.skeleton;
    /* root is no skin joint but the ancestor of hip; "other" is dropped. */
    assert_int_equal(sk->joints_count, 3);
    assert_string_equal(sw_skeleton_joint_name(sk, 0), "root");
    assert_string_equal(sw_skeleton_joint_name(sk, 1), "hip");
    assert_string_equal(sw_skeleton_joint_name(sk, 2), "hand");
    assert_int_equal(sw_skeleton_parents(sk)[2], 1);
    assert_non_null(strstr(s.warning, "1 channels on nodes outside the skeleton dropped"));
    /* Matrix node: T (1,2,3), 90 degrees about Z, scale 2. */
    sw_xform hand = sw_pose_get(sw_skeleton_rest_pose(sk), 2);
    sw_test_vec3_near(hand.t, sw_vec3_make(1, 2, 3), 1e-6f);
    sw_test_quat_near(hand.r, sw_quat_from_axis_angle(sw_vec3_make(0, 0, 1), 1.5707963f), 1e-6f);
    sw_test_vec3_near(hand.s, sw_vec3_make(2, 2, 2), 1e-6f);
    sw_xform root = sw_pose_get(sw_skeleton_rest_pose(sk), 0);
    sw_test_vec3_near(root.s, sw_vec3_make(2, 2, 2), 0);
    /* Mesh: normalized u8 weights renormalized, palette, sparse morph deltas. */
    assert_int_equal(s.meshes_count, 1);
    const sw_mesh* m = s.meshes[0];
    assert_string_equal(sw_mesh_name(m), "tri");
    assert_int_equal(m->palette_count, 2);
    assert_int_equal(sw_mesh_palette(m)[0], 1);
    assert_int_equal(sw_mesh_palette(m)[1], 2);
    assert_near(sw_mesh_inverse_binds(m)[1].m[13], -2.0, 0);
    const float* w = sw_mesh_weights(m);
    assert_near(w[0], 128.0 / 255.0, 1e-6);
    assert_near(w[1], 127.0 / 255.0, 1e-6);
    assert_near(w[4], 1.0, 0);
    assert_int_equal(sw_mesh_joints(m)[1], 1);
    assert_int_equal(sw_mesh_joints(m)[8 + 1], 1);
    assert_int_equal(m->morph_targets_count, 1);
    const float* mp = (const float*)(const void*)((const char*)m + m->morph_positions_offset);
    const float want[9] = {0, 0, 0, 0, 0, 0, 0, 0, 1};
    for (int k = 0; k < 9; ++k)
        assert_near(mp[k], want[k], 0);
    const uint32_t* names = (const uint32_t*)(const void*)((const char*)m + m->morph_names_offset);
    assert_string_equal((const char*)m + names[0], "bulge");
    assert_int_equal(sw_mesh_indices(m)[2], 2);
    sw_scene_free(&s, NULL);
}

static void test_tiny_step_cubic_linear_closed_forms(void** state) {
    (void)state;
    sw_scene s;
    sw_error e;
    assert_int_equal(sw_gltf_read_file(DATA("tiny.gltf"), NULL, NULL, &s, &e), SW_RESULT_OK);
    /* STEP: keys 0, 1, 2 at t = 0, 1, 2 on x; the value holds until the next key. */
    const sw_clip* step = clip_named(&s, "step");
    const float st[6] = {0.0f, 0.5f, 0.999f, 1.0f, 1.5f, 2.5f};
    const float sx[6] = {0, 0, 0, 1, 1, 2};
    for (int i = 0; i < 6; ++i)
        assert_near(local_of(&s, step, "hip", st[i]).t.x, sx[i], 0);
    /* CUBICSPLINE: Hermite from p0 = 0 (out-tangent (1,0,0)) to p1 = (1,2,3)
     * (in-tangent (0,1,0)) over td = 2. */
    const sw_clip* cubic = clip_named(&s, "cubic");
    for (int i = 0; i <= 20; ++i) {
        double t = 2.0 * i / 20.0, u = t / 2.0, u2 = u * u, u3 = u2 * u;
        double h10 = (u3 - 2 * u2 + u) * 2.0, h01 = -2 * u3 + 3 * u2, h11 = (u3 - u2) * 2.0;
        sw_vec3 x = local_of(&s, cubic, "hip", (float)t).t;
        assert_near(x.x, h10 * 1.0 + h01 * 1.0, 1e-5);
        assert_near(x.y, h01 * 2.0 + h11 * 1.0, 1e-5);
        assert_near(x.z, h01 * 3.0, 1e-5);
    }
    /* LINEAR rotation about Z: 0, 60 (stored negated), 120 degrees at t = 0, 1, 2. */
    const sw_clip* lin = clip_named(&s, "linear");
    const sw_clip_track* rt = &sw_clip_tracks(lin)[sw_clip_joint_tracks(lin, 1)[1]];
    const float* q = sw_clip_track_values(lin, rt);
    for (uint32_t k = 1; k < rt->keys_count; ++k) {
        const float* a = q + 4 * (k - 1);
        const float* b = q + 4 * k;
        assert_true(a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3] >
                    0); /* sign-continuous */
    }
    for (int i = 0; i <= 20; ++i) {
        float t = 2.0f * (float)i / 20.0f;
        sw_quat want = sw_quat_from_axis_angle(sw_vec3_make(0, 0, 1), t * 1.0471975512f);
        sw_test_quat_near(local_of(&s, lin, "hip", t).r, want, 1e-5f);
    }
    /* Morph weights: "tri.weights[0]" linear from 0 to 1 over 2 s. */
    int32_t f = sw_clip_find_float_track(lin, "tri.weights[0]");
    assert_true(f >= 0);
    for (int i = 0; i <= 8; ++i) {
        posed p;
        pose_at(&s, lin, 0.25f * (float)i, &p);
        assert_near(p.floats[f], 0.125 * i, 1e-6);
        posed_free(&p);
    }
    sw_scene_free(&s, NULL);
}

/* Every clip of a and b sampled alike (same joints, same values). */
static void assert_same_scene(const sw_scene* a, const sw_scene* b, float tscale) {
    assert_int_equal(a->skeleton->joints_count, b->skeleton->joints_count);
    assert_int_equal(a->clips_count, b->clips_count);
    assert_int_equal(a->meshes_count, b->meshes_count);
    for (uint32_t c = 0; c < a->clips_count; ++c) {
        for (int i = 0; i <= 10; ++i) {
            float t = a->clips[c]->duration * (float)i / 10.0f;
            posed pa, pb;
            pose_at(a, a->clips[c], t, &pa);
            pose_at(b, b->clips[c], t, &pb);
            for (uint32_t j = 0; j < a->skeleton->joints_count; ++j) {
                for (int k = 0; k < 12; ++k)
                    assert_near(pa.model[j].m[k] * (k >= 12 ? tscale : 1), pb.model[j].m[k], 1e-5);
                for (int k = 12; k < 15; ++k)
                    assert_near(pa.model[j].m[k] * tscale, pb.model[j].m[k], 1e-5);
            }
            posed_free(&pa);
            posed_free(&pb);
        }
    }
}

static void test_tiny_glb_and_external_equal_gltf(void** state) {
    (void)state;
    sw_scene a, b, c;
    sw_error e;
    assert_int_equal(sw_gltf_read_file(DATA("tiny.gltf"), NULL, NULL, &a, &e), SW_RESULT_OK);
    assert_int_equal(sw_gltf_read_file(DATA("tiny.glb"), NULL, NULL, &b, &e), SW_RESULT_OK);
    /* external.gltf names "tiny%20data.bin": percent-decoded, beside the file. */
    assert_int_equal(sw_gltf_read_file(DATA("external.gltf"), NULL, NULL, &c, &e), SW_RESULT_OK);
    assert_same_scene(&a, &b, 1.0f);
    assert_same_scene(&a, &c, 1.0f);
    sw_scene_free(&a, NULL);
    sw_scene_free(&b, NULL);
    sw_scene_free(&c, NULL);
}

static void test_tiny_scale_and_clip_filter(void** state) {
    (void)state;
    sw_scene a, b;
    sw_error e;
    assert_int_equal(sw_gltf_read_file(DATA("tiny.glb"), NULL, NULL, &a, &e), SW_RESULT_OK);
    sw_gltf_options o = {.scale = 0.01f};
    assert_int_equal(sw_gltf_read_file(DATA("tiny.glb"), &o, NULL, &b, &e), SW_RESULT_OK);
    assert_same_scene(&a, &b, 0.01f);
    assert_near(sw_mesh_positions(b.meshes[0])[3], 0.01, 1e-9);
    assert_near(sw_mesh_inverse_binds(b.meshes[0])[1].m[13], -0.02, 1e-9);
    sw_scene_free(&b, NULL);
    const char* const want[2] = {"linear", "cubic"};
    o = (sw_gltf_options){.clips = want, .clips_count = 2};
    assert_int_equal(sw_gltf_read_file(DATA("tiny.glb"), &o, NULL, &b, &e), SW_RESULT_OK);
    assert_int_equal(b.clips_count, 2);
    assert_string_equal(sw_clip_name(b.clips[0]), "cubic"); /* file order */
    assert_string_equal(sw_clip_name(b.clips[1]), "linear");
    sw_scene_free(&b, NULL);
    const char* const missing[1] = {"nope"};
    o = (sw_gltf_options){.clips = missing, .clips_count = 1};
    assert_int_equal(sw_gltf_read_file(DATA("tiny.glb"), &o, NULL, &b, &e), SW_RESULT_NOT_FOUND);
    assert_string_equal(e.check, "requested clip in file");
    assert_null(b.skeleton);
    sw_scene_free(&a, NULL);
}

static void test_tiny_cubic_rotation_not_flipped(void** state) {
    (void)state;
    sw_scene s;
    sw_error e;
    assert_int_equal(sw_gltf_read_file(DATA("tiny.glb"), NULL, NULL, &s, &e), SW_RESULT_OK);
    /* Keys identity and -(90 degrees about Z), zero tangents: the spline runs
     * on the values as stored (no sign change, which would alter the curve). */
    const sw_clip* c = clip_named(&s, "cubic_rotation");
    const sw_clip_track* rt = &sw_clip_tracks(c)[sw_clip_joint_tracks(c, 1)[1]];
    assert_int_equal(rt->interp, SW_INTERP_CUBIC);
    const float* v = sw_clip_track_values(c, rt);
    assert_near(v[12 + 4 + 3], -sqrt(0.5), 1e-7); /* value of key 1, w */
    for (int i = 0; i <= 20; ++i) {
        double u = i / 20.0, u2 = u * u, u3 = u2 * u;
        double h00 = 2 * u3 - 3 * u2 + 1, h01 = -2 * u3 + 3 * u2;
        double q[4] = {0, 0, -h01 * sqrt(0.5), h00 - h01 * sqrt(0.5)};
        double l = sqrt(q[2] * q[2] + q[3] * q[3]);
        sw_quat want = sw_quat_make(0, 0, (float)(q[2] / l), (float)(q[3] / l));
        sw_test_quat_near(local_of(&s, c, "hip", (float)(2 * u)).r, want, 1e-5f);
    }
    sw_scene_free(&s, NULL);
}

static void test_second_influence_set(void** state) {
    (void)state;
    size_t n;
    char* text = read_text(DATA("tiny.gltf"), &n);
    text[n] = '\0';
    /* JOINTS_1 / WEIGHTS_1 reuse the first set's accessors (joints 0/1,
     * weights 128/127/0/0, 255/0/0/0, 200/55/0/0): eight influences, the four
     * largest kept and renormalized. */
    char* eight =
        replace(text, "\"JOINTS_0\": 9,", "\"JOINTS_0\": 9, \"JOINTS_1\": 9, \"WEIGHTS_1\": 10,");
    sw_scene s;
    sw_error e;
    assert_int_equal(read_mem(eight, strlen(eight), NULL, &s, &e), SW_RESULT_OK);
    const float* w = sw_mesh_weights(s.meshes[0]);
    const uint16_t* j = sw_mesh_joints(s.meshes[0]);
    assert_near(w[0], 128.0 / 510.0, 1e-6);
    assert_near(w[1], 128.0 / 510.0, 1e-6);
    assert_near(w[2], 127.0 / 510.0, 1e-6);
    assert_near(w[3], 127.0 / 510.0, 1e-6);
    assert_int_equal(j[0], 0);
    assert_int_equal(j[1], 0);
    assert_int_equal(j[2], 1);
    assert_int_equal(j[3], 1);
    assert_near(w[4], 0.5, 1e-6); /* 255, 0, 0, 0 twice */
    assert_near(w[5], 0.5, 1e-6);
    assert_near(w[6], 0.0, 0);
    sw_scene_free(&s, NULL);
    free(eight);
    free(text);
}

static void test_matrix_shear_warns(void** state) {
    (void)state;
    size_t n;
    char* text = read_text(DATA("tiny.gltf"), &n);
    text[n] = '\0';
    char* sheared = replace(text, "\"matrix\": [\n    0,\n    2,", "\"matrix\": [\n    1,\n    2,");
    sw_scene s;
    sw_error e;
    assert_int_equal(read_mem(sheared, strlen(sheared), NULL, &s, &e), SW_RESULT_OK);
    assert_non_null(strstr(s.warning, "1 matrix nodes with shear"));
    sw_scene_free(&s, NULL);
    assert_int_equal(read_mem(text, n, NULL, &s, &e), SW_RESULT_OK);
    assert_null(strstr(s.warning, "shear"));
    sw_scene_free(&s, NULL);
    free(sheared);
    free(text);
}

/* The internal JSON layer the reader (and later the animator) stands on. */
static void test_json_wrapper(void** state) {
    (void)state;
    const char* text = "{\"a\": [1, -0.5e1, 0, 1e400, 01, 1., -, 2.5],"
                       " \"s\": \"x\\u00e9\\ud83d\\ude00\\n\", \"b\": true, \"o\": {\"k\": null},"
                       " \"big\": 4294967296, \"bad\": \"\\u0000\", \"lone\": \"\\udc00\"}";
    sw__json j;
    sw_error e;
    assert_int_equal(sw__json_parse(&j, text, strlen(text), NULL, &e), SW_RESULT_OK);
    int32_t a = sw__json_find(&j, 0, "a");
    assert_int_equal(sw__json_type_of(&j, a), SW__JSON_ARRAY);
    assert_int_equal(sw__json_len(&j, a), 8);
    double v;
    assert_true(sw__json_number(&j, sw__json_at(&j, a, 0), &v) && v == 1.0);
    assert_true(sw__json_number(&j, sw__json_at(&j, a, 1), &v) && v == -5.0);
    assert_true(sw__json_number(&j, sw__json_at(&j, a, 2), &v) && v == 0.0);
    for (uint32_t k = 3; k < 7; ++k)
        assert_false(sw__json_number(&j, sw__json_at(&j, a, k), &v));
    assert_true(sw__json_number(&j, sw__json_at(&j, a, 7), &v) && v == 2.5);
    assert_int_equal(sw__json_at(&j, a, 8), -1);
    int64_t i;
    assert_true(sw__json_int(&j, sw__json_at(&j, a, 0), 0, 1, &i) && i == 1);
    assert_false(sw__json_int(&j, sw__json_at(&j, a, 7), 0, 10, &i)); /* 2.5 */
    assert_false(sw__json_int(&j, sw__json_find(&j, 0, "big"), 0, UINT32_MAX, &i));
    char buf[32];
    size_t len;
    assert_true(sw__json_string(&j, sw__json_find(&j, 0, "s"), buf, sizeof buf, &len));
    assert_string_equal(buf, "x\xc3\xa9\xf0\x9f\x98\x80\n");
    assert_int_equal(len, 8);
    assert_false(sw__json_string(&j, sw__json_find(&j, 0, "s"), buf, 8, &len)); /* too long */
    assert_false(sw__json_string(&j, sw__json_find(&j, 0, "bad"), buf, sizeof buf, &len));
    assert_false(sw__json_string(&j, sw__json_find(&j, 0, "lone"), buf, sizeof buf, &len));
    bool b;
    assert_true(sw__json_bool(&j, sw__json_find(&j, 0, "b"), &b) && b);
    assert_false(sw__json_bool(&j, sw__json_find(&j, 0, "o"), &b));
    int32_t o = sw__json_find(&j, 0, "o");
    assert_int_equal(sw__json_type_of(&j, sw__json_find(&j, o, "k")), SW__JSON_PRIMITIVE);
    assert_int_equal(sw__json_find(&j, o, "missing"), -1);
    assert_int_equal(sw__json_find(&j, a, "k"), -1); /* not an object */
    assert_int_equal(sw__json_find(&j, -1, "k"), -1);
    /* Siblings stop at the end of their container. */
    int32_t last = sw__json_at(&j, a, 7);
    assert_int_equal(sw__json_next(&j, a, last), -1);
    sw__json_free(&j, NULL);
    const char* bad[] = {"",
                         "[]",
                         "{",
                         "{\"a\":1}}",
                         "{\"a\"}",
                         "{\"a\":1 x}",
                         "{1:2}",
                         "{\"a\":{\"b\"}}",
                         "{\"a\":[\"b\":1]}",
                         "{\"a\":\"b\":1}",
                         "{\"a\":1}\0"};
    for (size_t k = 0; k < sizeof bad / sizeof *bad; ++k) {
        size_t len_k = k == 10 ? 9 : strlen(bad[k]);
        sw_result r = sw__json_parse(&j, bad[k], len_k, NULL, &e);
        if (r == SW_RESULT_OK) fail_msg("accepted %s", bad[k]);
        assert_int_equal(r, SW_RESULT_PARSE);
        assert_non_null(e.check);
    }
}

/* A text of exactly n bytes: `head`, then `unit` repeated, then `tail`;
 * the repeated part is cut to fit, then padded with spaces before the tail. */
static char* json_text(size_t n, const char* head, const char* unit, const char* tail) {
    char* t = (char*)malloc(n + 1u);
    const size_t h = strlen(head), u = strlen(unit), e = strlen(tail);
    memcpy(t, head, h);
    size_t at = h;
    while (at + u + e <= n) {
        memcpy(t + at, unit, u);
        at += u;
    }
    memset(t + at, ' ', n - e - at);
    memcpy(t + n - e, tail, e);
    t[n] = '\0';
    return t;
}

/* Seconds one parse of `text` takes; *r gets the result. */
static double json_parse_time(const char* text, size_t n, sw_result* r, sw_error* e) {
    sw__json j;
    double t0 = sw_test_seconds();
    *r = sw__json_parse(&j, text, n, NULL, e);
    double t = sw_test_seconds() - t0;
    if (*r == SW_RESULT_OK) sw__json_free(&j, NULL);
    return t;
}

/* Nesting is refused past SW__JSON_MAX_DEPTH, at the bracket that goes too
 * deep, and parsing is linear: text nested 100,000 deep and text nested
 * right up to the limit over and over take no longer than a flat array of
 * the same size (as a ratio; jsmn walked up parent links at every closing
 * bracket, 12 s for 100,000 deep). */
static void test_json_nesting_linear(void** state) {
    (void)state;
    enum { DEEP = 100000, N = 2 * DEEP + 6 };
    char* flat = json_text(N, "{\"a\":[", "0,", "0]}");
    char* deep = json_text(N, "{\"a\":", "[", "}");
    memset(deep + 5 + DEEP, ']', DEEP);
    char unit[2 * (SW__JSON_MAX_DEPTH - 2) + 2];
    memset(unit, '[', SW__JSON_MAX_DEPTH - 2);
    memset(unit + SW__JSON_MAX_DEPTH - 2, ']', SW__JSON_MAX_DEPTH - 2);
    strcpy(unit + 2 * (SW__JSON_MAX_DEPTH - 2), ",");
    char* limit = json_text(N, "{\"a\":[", unit, "0]}");
    sw_result rf, rl, rd;
    sw_error e;
    /* The fastest of seven interleaved runs each (the machine is shared). */
    double t_flat = 1e9, t_limit = 1e9, t_deep = 1e9;
    for (int k = 0; k < 7; ++k) {
        t_flat = fmin(t_flat, json_parse_time(flat, N, &rf, &e));
        t_limit = fmin(t_limit, json_parse_time(limit, N, &rl, &e));
        t_deep = fmin(t_deep, json_parse_time(deep, N, &rd, &e));
    }
    assert_int_equal(rf, SW_RESULT_OK);
    assert_int_equal(rl, SW_RESULT_OK); /* the root, "a" and 254 more: 256 deep */
    assert_int_equal(rd, SW_RESULT_LIMIT);
    assert_string_equal(e.check, "json nesting depth (at most 256)");
    assert_int_equal(e.offset, 5 + SW__JSON_MAX_DEPTH - 1); /* the 257th open bracket */
    print_message("json parse of %d bytes: flat %.3f ms, 256 deep %.3f ms, 100000 deep %.3f ms\n",
                  N, 1e3 * t_flat, 1e3 * t_limit, 1e3 * t_deep);
    assert_true(t_deep <= 2.0 * t_flat);
    assert_true(t_limit <= 4.0 * t_flat);
    /* The glTF reader reports the same check. */
    sw_scene s;
    assert_int_equal(read_mem(deep, N, NULL, &s, &e), SW_RESULT_LIMIT);
    assert_string_equal(e.check, "json nesting depth (at most 256)");
    free(limit);
    free(deep);
    free(flat);
}

static void test_names_made_unique(void** state) {
    (void)state;
    size_t n;
    char* text = read_text(DATA("tiny.gltf"), &n);
    text[n] = '\0';
    char* a = replace(text, "\"name\": \"root\",", "");
    char* b = replace(a, "\"name\": \"hand\"", "\"name\": \"hip\"");
    char* c = replace(b, "\"name\": \"cubic\"", "\"name\": \"step\"");
    sw_scene s;
    sw_error e;
    assert_int_equal(read_mem(c, strlen(c), NULL, &s, &e), SW_RESULT_OK);
    assert_string_equal(sw_skeleton_joint_name(s.skeleton, 0), "node_0");
    assert_string_equal(sw_skeleton_joint_name(s.skeleton, 1), "hip");
    assert_string_equal(sw_skeleton_joint_name(s.skeleton, 2), "hip_2");
    assert_string_equal(sw_clip_name(s.clips[0]), "step");
    assert_string_equal(sw_clip_name(s.clips[1]), "step_1");
    sw_scene_free(&s, NULL);
    free(a);
    free(b);
    free(c);
    free(text);
}

static void test_sparse_over_buffer_view(void** state) {
    (void)state;
    size_t n;
    char* text = read_text(DATA("tiny.gltf"), &n);
    text[n] = '\0';
    /* The morph deltas accessor gets the positions as base values: sparse
     * replaces vertex 2 only. */
    char* with_base = replace(
        text,
        "{\n   \"componentType\": 5126,\n   \"count\": 3,\n   \"type\": \"VEC3\",\n   \"sparse\"",
        "{\n   \"bufferView\": 7, \"componentType\": 5126,\n   \"count\": 3,\n   \"type\": "
        "\"VEC3\",\n   \"sparse\"");
    sw_scene s;
    sw_error e;
    assert_int_equal(read_mem(with_base, strlen(with_base), NULL, &s, &e), SW_RESULT_OK);
    const sw_mesh* m = s.meshes[0];
    const float* mp = (const float*)(const void*)((const char*)m + m->morph_positions_offset);
    const float want[9] = {0, 0, 0, 1, 0, 0, 0, 0, 1};
    for (int k = 0; k < 9; ++k)
        assert_near(mp[k], want[k], 0);
    sw_scene_free(&s, NULL);
    /* Two sparse entries at the same index, and a sparse count above the count. */
    char* twice = replace(with_base, "\"count\": 1,", "\"count\": 4,");
    assert_int_equal(read_mem(twice, strlen(twice), NULL, &s, &e), SW_RESULT_BAD_DATA);
    assert_string_equal(e.check, "sparse count");
    free(twice);
    free(with_base);
    free(text);
}

#include <dirent.h>

/* Every glTF file of assimp-testmodels reads or fails naming a check. */
static unsigned sweep(const char* dir, unsigned* ok) {
    DIR* d = opendir(dir);
    if (!d) return 0;
    unsigned count = 0;
    struct dirent* ent;
    while ((ent = readdir(d)) != NULL) {
        if (ent->d_name[0] == '.') continue;
        char path[2048];
        snprintf(path, sizeof path, "%s/%s", dir, ent->d_name);
        size_t len = strlen(ent->d_name);
        bool gltf = len > 5 && (!strcmp(ent->d_name + len - 5, ".gltf") ||
                                !strcmp(ent->d_name + len - 4, ".glb"));
        if (!gltf) {
            count += sweep(path, ok);
            continue;
        }
        sw_scene s;
        sw_error e = {0};
        sw_result r = sw_gltf_read_file(path, NULL, NULL, &s, &e);
        if (r == SW_RESULT_OK) {
            ++*ok;
            sw_scene_free(&s, NULL);
        } else {
            assert_non_null(e.check);
            assert_int_equal(e.result, r);
            assert_null(s.skeleton);
        }
        ++count;
    }
    closedir(d);
    return count;
}

static void test_assimp_models_read_or_fail_cleanly(void** state) {
    (void)state;
    char path[1024];
    if (!sw_test_model_path(path, sizeof path, "glTF2/simple_skin/simple_skin.gltf")) return;
    unsigned ok = 0;
    unsigned n = sweep(SINEW_TEST_MODELS "/glTF2", &ok) + sweep(SINEW_TEST_MODELS "/glTF", &ok);
    print_message("assimp-testmodels: %u glTF files, %u with animation read, the others refused "
                  "with a named check\n",
                  n, ok);
    assert_true(n > 40);
    assert_true(ok >= 2);
}

/* ---- hostile input ---- */

static void test_arguments(void** state) {
    (void)state;
    sw_scene s;
    sw_error e;
    assert_int_equal(read_mem(NULL, 4, NULL, &s, &e), SW_RESULT_INVALID_ARGUMENT);
    assert_int_equal(sw_gltf_read("{}", 2, NULL, NULL, NULL, &e), SW_RESULT_INVALID_ARGUMENT);
    sw_gltf_options o = {.scale = -1.0f};
    assert_int_equal(read_mem("{}", 2, &o, &s, &e), SW_RESULT_INVALID_ARGUMENT);
    o.scale = NAN;
    assert_int_equal(read_mem("{}", 2, &o, &s, &e), SW_RESULT_INVALID_ARGUMENT);
    assert_int_equal(read_mem("", 0, NULL, &s, &e), SW_RESULT_PARSE);
    o = (sw_gltf_options){.clips_count = 1};
    assert_int_equal(read_mem("{}", 2, &o, &s, &e), SW_RESULT_INVALID_ARGUMENT);
    assert_int_equal(sw_gltf_read_file(DATA("missing.glb"), NULL, NULL, &s, &e), SW_RESULT_IO);
    assert_string_equal(e.check, "open file");
    assert_int_equal(sw_gltf_read_file(NULL, NULL, NULL, &s, &e), SW_RESULT_INVALID_ARGUMENT);
    assert_int_equal(read_mem("{}", 2, NULL, &s, &e), SW_RESULT_BAD_VERSION);
    assert_string_equal(e.check, "asset version 2.x");
    const char* no_skin = "{\"asset\":{\"version\":\"2.0\"},\"nodes\":[{}]}";
    assert_int_equal(read_mem(no_skin, strlen(no_skin), NULL, &s, &e), SW_RESULT_NOT_FOUND);
    assert_string_equal(e.check, "skin or animated node");
    const char* bad_json[] = {"{\"asset\":{\"version\":\"2.0\"}",
                              "{\"a\" \"b\"}",
                              "{\"a\":[1,}",
                              "[1]",
                              "{} x",
                              "{\"a\":\"b\":1}",
                              "{\"a\":nope}"};
    for (size_t i = 0; i < sizeof bad_json / sizeof *bad_json; ++i) {
        sw_result r = read_mem(bad_json[i], strlen(bad_json[i]), NULL, &s, &e);
        if (r != SW_RESULT_PARSE && r != SW_RESULT_BAD_VERSION)
            fail_msg("%s accepted", bad_json[i]);
        assert_non_null(e.check);
    }
}

typedef struct hostile_case {
    const char* from;
    const char* to;
    sw_result result;
    const char* check;
} hostile_case;

/* Accessor component types by use, as the glTF spec's tables list them
 * (times float; translation outputs float; rotation and morph weight
 * outputs float or normalized integers; skin weights float or normalized
 * unsigned), and extensionsRequired refused unless honoured, naming the
 * extension. NULL check: the file is accepted. */
static void test_spec_component_types(void** state) {
    (void)state;
    size_t n;
    char* text = read_text(DATA("tiny.gltf"), &n);
    text[n] = '\0';
#define CT(view) "\"bufferView\": " #view ",\n   \"componentType\": "
#define REQ(names) "\"extensionsRequired\": " names ", \"asset\": {"
    const char* allowed = "accessor componentType allowed here";
    const char* other = "extension required (unsupported)";
    const hostile_case cases[] = {
        {CT(0) "5126", CT(0) "5125", SW_RESULT_BAD_DATA, allowed}, /* uint32 times */
        {CT(0) "5126", CT(0) "5123, \"normalized\": true", SW_RESULT_BAD_DATA, allowed},
        {CT(1) "5126", CT(1) "5125", SW_RESULT_BAD_DATA, allowed}, /* translation output */
        {CT(1) "5126", CT(1) "5121, \"normalized\": true", SW_RESULT_BAD_DATA, allowed},
        {CT(5) "5126", CT(5) "5122", SW_RESULT_BAD_DATA, allowed}, /* rotation: raw shorts */
        {CT(6) "5126", CT(6) "5121", SW_RESULT_BAD_DATA, allowed}, /* morph weights: raw 0-255 */
        {CT(6) "5126", CT(6) "5121, \"normalized\": true", SW_RESULT_OK, NULL},
        {CT(6) "5126", CT(6) "5120, \"normalized\": true", SW_RESULT_OK, NULL},
        {"\"type\": \"VEC4\",\n   \"normalized\": true", "\"type\": \"VEC4\"", SW_RESULT_BAD_DATA,
         allowed},                                                   /* skin weights: raw 0-255 */
        {CT(10) "5121", CT(10) "5120", SW_RESULT_BAD_DATA, allowed}, /* signed skin weights */
        {"\"asset\": {", REQ("[\"KHR_draco_mesh_compression\"]"), SW_RESULT_BAD_DATA,
         "extension required: KHR_draco_mesh_compression (unsupported)"},
        {"\"asset\": {", REQ("[\"KHR_mesh_quantization\", \"EXT_meshopt_compression\"]"),
         SW_RESULT_BAD_DATA, "extension required: EXT_meshopt_compression (unsupported)"},
        {"\"asset\": {", REQ("[\"EXT_unheard_of\"]"), SW_RESULT_BAD_DATA, other},
        {"\"asset\": {", REQ("[3]"), SW_RESULT_BAD_DATA, "extensionsRequired is an array"},
        {"\"asset\": {", REQ("{}"), SW_RESULT_BAD_DATA, "extensionsRequired is an array"},
        {"\"asset\": {", REQ("[\"KHR_materials_unlit\", \"KHR_mesh_quantization\"]"), SW_RESULT_OK,
         NULL},
    };
#undef REQ
#undef CT
    for (size_t i = 0; i < sizeof cases / sizeof *cases; ++i) {
        char* bad = replace(text, cases[i].from, cases[i].to);
        sw_scene s;
        sw_error e;
        sw_result r = read_mem(bad, strlen(bad), NULL, &s, &e);
        if (r != cases[i].result)
            fail_msg("case %zu: %s, want %s", i, sw_result_str(r), sw_result_str(cases[i].result));
        if (cases[i].check) {
            assert_string_equal(e.check, cases[i].check);
        } else {
            sw_scene_free(&s, NULL);
        }
        free(bad);
    }
    /* The offset of an unknown required extension is its name in the file. */
    char* bad =
        replace(text, "\"asset\": {", "\"extensionsRequired\": [\"EXT_unheard_of\"], \"asset\": {");
    sw_scene s;
    sw_error e;
    assert_int_equal(read_mem(bad, strlen(bad), NULL, &s, &e), SW_RESULT_BAD_DATA);
    assert_memory_equal(bad + e.offset, "EXT_unheard_of\"", 15);
    assert_string_equal(e.detail, "EXT_unheard_of"); /* and the name itself */
    free(bad);
    free(text);
}

static void test_hostile_json_variants(void** state) {
    (void)state;
    size_t n;
    char* text = read_text(DATA("tiny.gltf"), &n);
    text[n] = '\0';
    const hostile_case cases[] = {
        {"\"POSITION\": 7", "\"POSITION\": 70", SW_RESULT_BAD_DATA, "accessor index in range"},
        {"\"bufferView\": 7,", "\"bufferView\": 99,", SW_RESULT_BAD_DATA,
         "bufferView index in range"},
        {"\"children\": [\n    2\n", "\"children\": [\n    9\n", SW_RESULT_BAD_DATA,
         "node child in range"},
        {"\"children\": [\n    2\n", "\"children\": [\n    0\n", SW_RESULT_BAD_DATA, "node cycle"},
        {"\"children\": [\n    2\n", "\"children\": [\n    1\n", SW_RESULT_BAD_DATA, "node cycle"},
        {"\"children\": [\n    2\n", "\"children\": [\n    3\n", SW_RESULT_BAD_DATA,
         "node has one parent"},
        {"\"mode\": 4", "\"mode\": 1", SW_RESULT_BAD_DATA, "primitive mode is triangles (4)"},
        {"\"interpolation\": \"STEP\"", "\"interpolation\": \"SMOOTH\"", SW_RESULT_BAD_DATA,
         "sampler interpolation"},
        {"\"version\": \"2.0\"", "\"version\": \"1.0\"", SW_RESULT_BAD_VERSION,
         "asset version 2.x"},
        {"\"joints\": [\n    1,\n    2", "\"joints\": [\n    1,\n    1", SW_RESULT_BAD_DATA,
         "skin joints unique"},
        {"\"joints\": [\n    1,\n    2", "\"joints\": [\n    1,\n    12", SW_RESULT_BAD_DATA,
         "skin joint in range"},
        {"base64,", "base64,@", SW_RESULT_BAD_DATA, "data uri is base64"},
        {"\"byteLength\": 540", "\"byteLength\": 541", SW_RESULT_BAD_DATA,
         "data uri holds byteLength bytes"},
        {"\"count\": 3,\n   \"type\": \"VEC3\"", "\"count\": 4,\n   \"type\": \"VEC3\"",
         SW_RESULT_BAD_DATA, "accessor range in bufferView"},
        {"\"type\": \"MAT4\"", "\"type\": \"MAT3\"", SW_RESULT_BAD_DATA, "accessor type"},
        {"\"componentType\": 5121,\n   \"count\": 3,\n   \"type\": \"VEC4\",\n   \"normalized\"",
         "\"componentType\": 5125,\n   \"count\": 3,\n   \"type\": \"VEC4\",\n   \"normalized\"",
         SW_RESULT_BAD_DATA, "accessor componentType allowed here"},
        {"\"sampler\": 1,", "\"sampler\": 2,", SW_RESULT_BAD_DATA, "channel sampler in range"},
        {"\"node\": 4,", "\"node\": 40,", SW_RESULT_BAD_DATA, "channel target node in range"},
        {"\"node\": 3,\n      \"path\": \"weights\"", "\"node\": 0,\n      \"path\": \"weights\"",
         SW_RESULT_BAD_DATA, "weights channel on a node with morph targets"},
        {"\"output\": 6", "\"output\": 0", SW_RESULT_BAD_DATA, "sampler output count"},
        {"\"translation\": [\n    0,\n    1,",
         "\"rotation\": [0, 0, 0, 2], \"translation\": [\n    0,\n    1,", SW_RESULT_BAD_DATA,
         "node rotation unit"},
        {"\"translation\": [\n    0,\n    1,", "\"translation\": [\n    1e39,\n    1,",
         SW_RESULT_BAD_DATA, "node values finite"},
        /* a finite translation whose model-space rest pose passes float */
        {"\"translation\": [\n    0,\n    0.5,", "\"translation\": [\n    3e38,\n    0.5,",
         SW_RESULT_BAD_DATA, "rest pose finite in model space"},
        {"\"count\": 1,", "\"count\": 2,", SW_RESULT_BAD_DATA,
         "sparse indices range in bufferView"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; ++i) {
        char* bad = replace(text, cases[i].from, cases[i].to);
        sw_scene s;
        sw_error e;
        sw_result r = read_mem(bad, strlen(bad), NULL, &s, &e);
        if (r != cases[i].result || (cases[i].check && strcmp(e.check, cases[i].check) != 0)) {
            fail_msg("case %zu (%s): got %s / %s", i, cases[i].to, sw_result_str(r),
                     e.check ? e.check : "-");
        }
        assert_null(s.skeleton);
        free(bad);
    }
    free(text);
}

/* Scales of 1e20 on the root and on its child hip: each finite, their
 * product (1e40) is not, so the rest pose would sample to infinities:
 * refused naming the check. One of them alone loads and samples finite. */
static void test_rest_scale_chain(void** state) {
    (void)state;
    size_t n;
    char* text = read_text(DATA("tiny.gltf"), &n);
    text[n] = '\0';
    char* root =
        replace(text, "\"scale\": [\n    2,\n    2,\n    2", "\"scale\": [1e20, 1e20, 1e20");
    char* both =
        replace(root, "\"name\": \"hip\",", "\"name\": \"hip\", \"scale\": [1e20, 1e20, 1e20],");
    sw_scene s;
    sw_error e;
    assert_int_equal(read_mem(both, strlen(both), NULL, &s, &e), SW_RESULT_BAD_DATA);
    assert_string_equal(e.check, "rest pose finite in model space");
    assert_int_equal(read_mem(root, strlen(root), NULL, &s, &e), SW_RESULT_OK);
    posed p;
    pose_at(&s, s.clips[0], 0.5f, &p);
    for (uint32_t j = 0; j < s.skeleton->joints_count; ++j)
        for (int k = 0; k < 16; ++k)
            assert_true(isfinite(p.model[j].m[k]));
    posed_free(&p);
    sw_scene_free(&s, NULL);
    free(both);
    free(root);
    free(text);
}

/* Offsets inside tiny.glb's BIN chunk (see the bufferViews in the file). */
#define TINY_TIMES_STEP 0
#define TINY_ROT_VALUES 140
#define TINY_JOINTS 268
#define TINY_SPARSE_INDEX 300
#define TINY_WEIGHTS 280
#define TINY_INDICES 292

static void test_hostile_binary_values(void** state) {
    (void)state;
    size_t n;
    uint8_t* glb = (uint8_t*)read_text(DATA("tiny.glb"), &n);
    uint32_t jlen;
    memcpy(&jlen, glb + 12, 4);
    const size_t bin = 20 + jlen + 8;
    typedef struct patch {
        size_t at;
        float value;
        int byte; /* >= 0: patch a byte instead */
        const char* check;
    } patch;
    const patch cases[] = {
        {TINY_TIMES_STEP + 4, NAN, -1, "accessor values finite"},
        {TINY_TIMES_STEP + 4, INFINITY, -1, "accessor values finite"},
        {TINY_TIMES_STEP + 4, 5.0f, -1, "key times increasing"},
        {TINY_TIMES_STEP + 4, 0.0f, -1, "key times increasing"},
        {TINY_TIMES_STEP, -1.0f, -1, "key times >= 0"},
        {TINY_ROT_VALUES + 12, 3.0f, -1, "rotation keys unit"},
        {TINY_JOINTS + 1, 0, 9, "vertex joint < skin joints"},
        {TINY_SPARSE_INDEX, 0, 7, "sparse indices in range"},
        {TINY_WEIGHTS + 4, 0, 0, "vertex weights sum > 0"},
        {TINY_INDICES + 4, 0, 9, "primitive index < vertices count"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; ++i) {
        uint8_t* bad = (uint8_t*)malloc(n);
        memcpy(bad, glb, n);
        if (cases[i].byte >= 0) {
            bad[bin + cases[i].at] = (uint8_t)cases[i].byte;
        } else {
            memcpy(bad + bin + cases[i].at, &cases[i].value, 4);
        }
        sw_scene s;
        sw_error e;
        assert_int_equal(read_mem(bad, n, NULL, &s, &e), SW_RESULT_BAD_DATA);
        if (strcmp(e.check, cases[i].check) != 0) fail_msg("case %zu: %s", i, e.check);
        free(bad);
    }
    /* Container: version, first chunk type, BIN chunk shorter than the buffer. */
    uint8_t* bad = (uint8_t*)malloc(n);
    sw_scene s;
    sw_error e;
    memcpy(bad, glb, n);
    bad[4] = 1;
    assert_int_equal(read_mem(bad, n, NULL, &s, &e), SW_RESULT_BAD_VERSION);
    assert_string_equal(e.check, "glb version 2");
    memcpy(bad, glb, n);
    bad[16] = 'X';
    assert_int_equal(read_mem(bad, n, NULL, &s, &e), SW_RESULT_BAD_DATA);
    assert_string_equal(e.check, "glb first chunk is JSON");
    memcpy(bad, glb, n);
    uint32_t short_bin, short_total = (uint32_t)n - 44;
    memcpy(&short_bin, glb + bin - 8, 4);
    short_bin -= 44;
    memcpy(bad + bin - 8, &short_bin, 4);
    memcpy(bad + 8, &short_total, 4);
    assert_int_equal(read_mem(bad, n - 44, NULL, &s, &e), SW_RESULT_BAD_DATA);
    assert_string_equal(e.check, "glb BIN chunk holds byteLength");
    free(bad);
    free(glb);
}

static void test_every_truncation(void** state) {
    (void)state;
    const char* files[2] = {DATA("tiny.glb"), DATA("tiny.gltf")};
    for (int f = 0; f < 2; ++f) {
        size_t n;
        uint8_t* full = (uint8_t*)read_text(files[f], &n);
        for (size_t len = 0; len < n; ++len) {
            uint8_t* part = (uint8_t*)malloc(len ? len : 1);
            memcpy(part, full, len);
            sw_scene s;
            sw_error e;
            sw_result r = read_mem(part, len, NULL, &s, &e);
            /* The .gltf may end in trailing whitespace: only then is a prefix whole. */
            bool only_space = true;
            for (size_t k = len; k < n; ++k)
                only_space &= full[k] == '\n' || full[k] == ' ';
            if (r == SW_RESULT_OK) {
                assert_true(f == 1 && only_space);
                sw_scene_free(&s, NULL);
            } else {
                assert_non_null(e.check);
                assert_int_equal(e.result, r);
                if (f == 0) assert_int_equal(r, len < 12 && len >= 4 ? SW_RESULT_TRUNCATED : r);
            }
            free(part);
        }
        free(full);
    }
}

static void test_uri_refused(void** state) {
    (void)state;
    const char* bad[] = {"/etc/passwd",
                         "../tiny.glb",
                         "a/../../x.bin",
                         "C:/x.bin",
                         "http://example.com/x.bin",
                         "%2E%2E/x.bin",
                         "a\\..\\x.bin",
                         "",
                         "a%00b"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; ++i) {
        void* data = NULL;
        size_t size = 0;
        sw_error e = {0};
        sw_result r =
            sw_gltf_resolve_file((void*)SINEW_TEST_DATA "/gltf", bad[i], NULL, &data, &size, &e);
        assert_int_equal(r, SW_RESULT_IO);
        assert_null(data);
        assert_non_null(e.check);
    }
    /* Through the reader: the check is reported, and without a resolver the
     * external buffer is refused. */
    size_t n;
    char* text = read_text(DATA("external.gltf"), &n);
    text[n] = '\0';
    sw_scene s;
    sw_error e;
    assert_int_equal(read_mem(text, n, NULL, &s, &e), SW_RESULT_IO);
    assert_string_equal(e.check, "external buffer needs a resolver");
    char* abs = replace(text, "tiny%20data.bin", "/etc/hostname");
    char* up = replace(text, "tiny%20data.bin", "../gltf/tiny%20data.bin");
    char* missing = replace(text, "tiny%20data.bin", "missing.bin");
    sw_gltf_options o = {.resolve = sw_gltf_resolve_file,
                         .resolve_user = (void*)(SINEW_TEST_DATA "/gltf")};
    assert_int_equal(read_mem(abs, strlen(abs), &o, &s, &e), SW_RESULT_IO);
    assert_string_equal(e.check, "relative uri inside the folder");
    assert_int_equal(read_mem(up, strlen(up), &o, &s, &e), SW_RESULT_IO);
    assert_string_equal(e.check, "relative uri inside the folder");
    assert_int_equal(read_mem(missing, strlen(missing), &o, &s, &e), SW_RESULT_IO);
    assert_string_equal(e.check, "open file");
    assert_int_equal(e.sys_errno, ENOENT);
    assert_string_equal(e.detail, "buffer 0 \"missing.bin\"");
    assert_int_equal(read_mem(text, n, &o, &s, &e), SW_RESULT_OK);
    sw_scene_free(&s, NULL);
    /* The folder part of a path, as sw_gltf_read_file and the asset opener take it. */
    char folder[8];
    assert_int_equal(sw_gltf_file_folder("a/b/c.gltf", folder, sizeof folder, &e), SW_RESULT_OK);
    assert_string_equal(folder, "a/b/");
    assert_int_equal(sw_gltf_file_folder("c.gltf", folder, sizeof folder, &e), SW_RESULT_OK);
    assert_string_equal(folder, "");
    assert_int_equal(sw_gltf_file_folder("/c.gltf", folder, sizeof folder, &e), SW_RESULT_OK);
    assert_string_equal(folder, "/");
    assert_int_equal(sw_gltf_file_folder("abcdefg/c.gltf", folder, sizeof folder, &e),
                     SW_RESULT_LIMIT);
    assert_string_equal(e.check, "path length");
    assert_int_equal(sw_gltf_file_folder("abcdef/c.gltf", folder, sizeof folder, &e),
                     SW_RESULT_OK); /* 7 bytes and the NUL fit */
    assert_int_equal(sw_gltf_file_folder(NULL, folder, sizeof folder, &e),
                     SW_RESULT_INVALID_ARGUMENT);
    free(abs);
    free(up);
    free(missing);
    free(text);
}

/* Allocator failing at allocation number `fail_at`, tracking live bytes. */
typedef struct counting {
    long count, fail_at;
    long long live;
} counting;

static void* counting_alloc(void* user, size_t size, size_t align) {
    counting* c = (counting*)user;
    if (c->count++ == c->fail_at) return NULL;
    c->live += (long long)size;
    return aligned_alloc(align, (size + align - 1) / align * align);
}

static void counting_free(void* user, void* p, size_t size) {
    counting* c = (counting*)user;
    c->live -= (long long)size;
    free(p);
}

static void test_allocation_failures(void** state) {
    (void)state;
    size_t n;
    uint8_t* glb = (uint8_t*)read_text(DATA("tiny.glb"), &n);
    long k = 0;
    for (;; ++k) {
        counting c = {0, k, 0};
        sw_allocator a = {counting_alloc, counting_free, &c};
        sw_scene s;
        sw_error e;
        sw_result r = sw_gltf_read(glb, n, NULL, &a, &s, &e);
        if (r == SW_RESULT_OK) {
            sw_scene_free(&s, &a);
            assert_int_equal(c.live, 0);
            break;
        }
        assert_int_equal(r, SW_RESULT_OUT_OF_MEMORY);
        assert_int_equal(c.live, 0);
    }
    print_message("tiny.glb: %ld allocation failure points, all clean\n", k);
    assert_true(k > 10);
    free(glb);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_robot_matches_independent_evaluator),
        cmocka_unit_test(test_robot_meshes_and_morph_tracks),
        cmocka_unit_test(test_robot_tiny_rest_values_flushed),
        cmocka_unit_test(test_simple_skin),
        cmocka_unit_test(test_morph_cube_weights),
        cmocka_unit_test(test_tiny_structure),
        cmocka_unit_test(test_tiny_step_cubic_linear_closed_forms),
        cmocka_unit_test(test_tiny_glb_and_external_equal_gltf),
        cmocka_unit_test(test_tiny_scale_and_clip_filter),
        cmocka_unit_test(test_tiny_cubic_rotation_not_flipped),
        cmocka_unit_test(test_second_influence_set),
        cmocka_unit_test(test_matrix_shear_warns),
        cmocka_unit_test(test_json_wrapper),
        cmocka_unit_test(test_json_nesting_linear),
        cmocka_unit_test(test_names_made_unique),
        cmocka_unit_test(test_sparse_over_buffer_view),
        cmocka_unit_test(test_assimp_models_read_or_fail_cleanly),
        cmocka_unit_test(test_arguments),
        cmocka_unit_test(test_hostile_json_variants),
        cmocka_unit_test(test_spec_component_types),
        cmocka_unit_test(test_rest_scale_chain),
        cmocka_unit_test(test_hostile_binary_values),
        cmocka_unit_test(test_every_truncation),
        cmocka_unit_test(test_uri_refused),
        cmocka_unit_test(test_allocation_failures),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
