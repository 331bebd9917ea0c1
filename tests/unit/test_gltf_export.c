/* glTF export: the .glb container and JSON structure (every accessor and
 * view checked against the binary chunk), decoded channel data against the
 * clip, options and failures, and round trips through the native reader:
 * a hand-made scene, RobotExpressive.glb and a CMU BVH file. */
#define _POSIX_C_SOURCE 200809L

#include <stdlib.h>
#include <unistd.h>

#include "test_util.h"

#include "runtime/core/internal.h"
#include "sinew/codecs/codec.h"
#include "sinew/core/mesh.h"
#include "sinew/showcase/character.h"
#include "sinew/tools/builders/compress.h"
#include "sinew/tools/builders/frames.h"
#include "sinew/tools/readers/bvh.h"
#include "sinew/tools/readers/gltf.h"
#include "sinew/tools/writers/gltf_export.h"
#include "tools/readers/json.h"

/* ---- a hand-made scene ------------------------------------------------------ */

/* root -> spine -> {head, arm}; mesh "body" bound to spine and head. */
#define J 4
static const char* const kJoints[J] = {"root", "spine", "head", "arm"};
static const int32_t kParents[J] = {-1, 0, 1, 1};

typedef struct scene_fixture {
    sw_scene scene;
    const sw_clip* clips[3];
    const sw_mesh* meshes[1];
} scene_fixture;

static void make_scene(scene_fixture* f) {
    memset(f, 0, sizeof *f);
    uint32_t seed = 777u;
    sw_skeleton_joint joints[J];
    for (int i = 0; i < J; ++i) {
        joints[i].name = kJoints[i];
        joints[i].parent = kParents[i];
        joints[i].rest.t = sw_vec3_make(0.1f * (float)i, 0.5f, -0.2f * (float)i);
        joints[i].rest.r = sw_test_rand_quat(&seed);
        joints[i].rest.s = sw_vec3_make(1.0f, 1.0f + 0.05f * (float)i, 1.0f);
    }
    const sw_skeleton_desc sd = {joints, J};
    sw_error e = {0};
    assert_int_equal(sw_skeleton_create(&sd, NULL, &f->scene.skeleton, &e), SW_RESULT_OK);

    /* "walk": explicit linear translation, uniform linear rotation, explicit
     * cubic rotation, uniform step scale, two weights tracks with different
     * key times, a float track that is not a weight, one event. The last key
     * (1.5) is before the duration (2). */
    static const float t_times[3] = {0.0f, 0.5f, 1.5f};
    static const float t_vals[9] = {0, 0, 0, 1, 2, 3, -1, 0.5f, 2};
    float r_vals[11 * 4];
    for (int k = 0; k < 11; ++k) {
        sw_quat q = sw_quat_from_axis_angle(sw_vec3_make(0, 1, 0), 0.2f * (float)k);
        memcpy(&r_vals[4 * k], &q, sizeof q);
    }
    static const float c_times[2] = {0.0f, 1.0f};
    sw_quat q0 = sw_quat_from_axis_angle(sw_vec3_make(1, 0, 0), 0.0f);
    sw_quat q1 = sw_quat_from_axis_angle(sw_vec3_make(1, 0, 0), 1.0f);
    const float c_vals[2 * 3 * 4] = {0,    0,    0,    0,    q0.x, q0.y, q0.z, q0.w,
                                     0.1f, 0.2f, 0.0f, 0.0f, 0.0f, 0.1f, 0.0f, 0.0f,
                                     q1.x, q1.y, q1.z, q1.w, 0,    0,    0,    0};
    static const float s_vals[9] = {1, 1, 1, 2, 2, 2, 0.5f, 1, 1.5f};
    static const float w0_times[2] = {0.0f, 1.0f};
    static const float w0_vals[2] = {0.0f, 1.0f};
    static const float w1_times[3] = {0.5f, 1.0f, 1.5f};
    static const float w1_vals[3] = {0.25f, 0.75f, 0.0f};
    static const float o_vals[2] = {3.0f, 4.0f};
    const sw_clip_track_desc walk_tracks[] = {
        {.kind = SW_TRACK_KIND_TRANSLATION,
         .joint = 0,
         .keys_count = 3,
         .times = t_times,
         .values = t_vals},
        {.kind = SW_TRACK_KIND_ROTATION,
         .joint = 1,
         .keys_count = 11,
         .start = 0.0f,
         .rate = 10.0f,
         .values = r_vals},
        {.kind = SW_TRACK_KIND_ROTATION,
         .joint = 2,
         .interp = SW_INTERP_CUBIC,
         .keys_count = 2,
         .times = c_times,
         .values = c_vals},
        {.kind = SW_TRACK_KIND_SCALE,
         .joint = 3,
         .interp = SW_INTERP_STEP,
         .keys_count = 3,
         .start = 0.25f,
         .rate = 2.0f,
         .values = s_vals},
        {.kind = SW_TRACK_KIND_FLOAT,
         .name = "body.weights[0]",
         .keys_count = 2,
         .times = w0_times,
         .values = w0_vals},
        {.kind = SW_TRACK_KIND_FLOAT,
         .name = "body.weights[1]",
         .keys_count = 3,
         .times = w1_times,
         .values = w1_vals},
        {.kind = SW_TRACK_KIND_FLOAT,
         .name = "other",
         .keys_count = 2,
         .times = w0_times,
         .values = o_vals},
    };
    const sw_clip_event_desc ev = {0.5f, "step"};
    const sw_clip_desc walk = {.name = "walk",
                               .duration = 2.0f,
                               .joints_count = J,
                               .tracks = walk_tracks,
                               .tracks_count = 7,
                               .events = &ev,
                               .events_count = 1};
    assert_int_equal(sw_clip_create(&walk, NULL, &f->clips[0], &e), SW_RESULT_OK);
    /* "pose": no track at all, one second long. */
    const sw_clip_desc pose = {.name = "pose", .duration = 1.0f, .joints_count = J};
    assert_int_equal(sw_clip_create(&pose, NULL, &f->clips[1], &e), SW_RESULT_OK);
    /* "add": additive, not exported. */
    const sw_clip_desc add = {.name = "add",
                              .duration = 1.5f,
                              .joints_count = J,
                              .additive = true,
                              .tracks = walk_tracks,
                              .tracks_count = 1};
    assert_int_equal(sw_clip_create(&add, NULL, &f->clips[2], &e), SW_RESULT_OK);

    const float pos[9] = {0, 0, 0, 1, 0, 0, 0, 1, 0};
    const float nrm[9] = {0, 0, 2, 0, 0, 1, 0, 0, 1}; /* first not unit: normalized on export */
    const float uv[6] = {0, 0, 1, 0, 0, 1};
    const uint16_t jn[12] = {0, 1, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0};
    const float w[12] = {0.5f, 0.5f, 0, 0, 1, 0, 0, 0, 0.25f, 0.7505f, 0, 0};
    const uint16_t pal[2] = {1, 2};
    sw_mat4 ibm[2] = {sw_mat4_identity(), sw_mat4_identity()};
    ibm[1].m[13] = -1.0f;
    const float mpos[18] = {0, 0, 1, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0, 0, 1, 0, 0};
    const char* names[2] = {"bulge", "shift"};
    const sw_mesh_desc md = {.name = "body",
                             .vertices_count = 3,
                             .positions = pos,
                             .normals = nrm,
                             .uvs = uv,
                             .joints = jn,
                             .weights = w,
                             .palette = pal,
                             .inverse_binds = ibm,
                             .palette_count = 2,
                             .skeleton_joints_count = J,
                             .morph_targets_count = 2,
                             .morph_positions = mpos,
                             .morph_names = names};
    assert_int_equal(sw_mesh_create(&md, NULL, &f->meshes[0], &e), SW_RESULT_OK);
    f->scene.clips = f->clips;
    f->scene.clips_count = 3;
    f->scene.meshes = f->meshes;
    f->scene.meshes_count = 1;
}

static void free_scene(scene_fixture* f) {
    sw_skeleton_destroy(f->scene.skeleton, NULL);
    for (int i = 0; i < 3; ++i)
        sw_clip_destroy(f->clips[i], NULL);
    sw_mesh_destroy(f->meshes[0], NULL);
}

/* ---- reading the .glb back (independently of the native reader) --------------- */

static uint32_t rd32(const uint8_t* p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

typedef struct glb {
    sw__json json;
    const uint8_t* bin;
    uint32_t bin_size;
} glb;

/* Checks the container and parses the JSON. */
static void glb_open(glb* g, const uint8_t* data, size_t size) {
    assert_true(size >= 20);
    assert_memory_equal(data, "glTF", 4);
    assert_int_equal(rd32(data + 4), 2);
    assert_int_equal(rd32(data + 8), size);
    assert_int_equal(size % 4u, 0);
    uint32_t jlen = rd32(data + 12);
    assert_memory_equal(data + 16, "JSON", 4);
    assert_int_equal(jlen % 4u, 0);
    assert_true(20u + jlen <= size);
    sw_error e = {0};
    assert_int_equal(sw__json_parse(&g->json, (const char*)data + 20, jlen, NULL, &e),
                     SW_RESULT_OK);
    g->bin = NULL;
    g->bin_size = 0;
    if (20u + jlen < size) {
        const uint8_t* b = data + 20 + jlen;
        g->bin_size = rd32(b);
        assert_memory_equal(b + 4, "BIN\0", 4);
        assert_int_equal(g->bin_size % 4u, 0);
        assert_int_equal(20u + jlen + 8u + g->bin_size, size);
        g->bin = b + 8;
    }
}

static int32_t jget(const glb* g, int32_t obj, const char* key) {
    return sw__json_find(&g->json, obj, key);
}

static int64_t jint(const glb* g, int32_t obj, const char* key) {
    int64_t v = -1;
    int32_t t = jget(g, obj, key);
    if (t < 0) return -1;
    assert_true(sw__json_int(&g->json, t, 0, INT64_C(1) << 40, &v));
    return v;
}

static uint32_t type_comps(const glb* g, int32_t t) {
    static const char* const names[] = {"SCALAR", "VEC2", "VEC3", "VEC4", "MAT4"};
    static const uint32_t comps[] = {1, 2, 3, 4, 16};
    for (int k = 0; k < 5; ++k) {
        if (sw__json_string_is(&g->json, t, names[k])) return comps[k];
    }
    fail_msg("unknown accessor type");
    return 0;
}

/* Accessor `a` as floats (float accessors only): pointer into the binary
 * chunk, its element count and components. */
static const float* accessor_floats(const glb* g, uint32_t a, uint32_t* count, uint32_t* comps) {
    int32_t acc = sw__json_at(&g->json, jget(g, 0, "accessors"), a);
    assert_true(acc >= 0);
    assert_int_equal(jint(g, acc, "componentType"), 5126);
    int32_t view =
        sw__json_at(&g->json, jget(g, 0, "bufferViews"), (uint32_t)jint(g, acc, "bufferView"));
    *count = (uint32_t)jint(g, acc, "count");
    *comps = type_comps(g, jget(g, acc, "type"));
    return (const float*)(const void*)(g->bin + jint(g, view, "byteOffset"));
}

/* Every accessor and view against the binary chunk; min / max equal the data
 * where present. Returns the number of accessors. */
static uint32_t check_accessors(const glb* g) {
    int32_t accs = jget(g, 0, "accessors");
    int32_t views = jget(g, 0, "bufferViews");
    int32_t buffers = jget(g, 0, "buffers");
    assert_int_equal(sw__json_len(&g->json, buffers), 1);
    assert_int_equal((jint(g, sw__json_at(&g->json, buffers, 0), "byteLength") + 3) & ~3,
                     g->bin_size);
    uint32_t n = sw__json_len(&g->json, accs);
    assert_int_equal(sw__json_len(&g->json, views), n); /* one view per accessor */
    for (uint32_t a = 0; a < n; ++a) {
        int32_t acc = sw__json_at(&g->json, accs, a);
        int64_t vi = jint(g, acc, "bufferView");
        assert_true(vi >= 0 && vi < (int64_t)n);
        int32_t view = sw__json_at(&g->json, views, (uint32_t)vi);
        assert_int_equal(jint(g, view, "buffer"), 0);
        int64_t off = jint(g, view, "byteOffset"), len = jint(g, view, "byteLength");
        assert_int_equal(off % 4, 0);
        assert_true(off + len <= (int64_t)g->bin_size);
        int64_t ct = jint(g, acc, "componentType");
        int64_t size = ct == 5123 ? 2 : 4;
        assert_true(ct == 5126 || ct == 5123 || ct == 5125);
        int64_t count = jint(g, acc, "count");
        assert_true(count >= 1);
        uint32_t comps = type_comps(g, jget(g, acc, "type"));
        assert_int_equal(len, count * comps * size);
        int32_t mn = jget(g, acc, "min"), mx = jget(g, acc, "max");
        assert_int_equal(mn < 0, mx < 0);
        if (mn >= 0) {
            assert_int_equal(ct, 5126);
            const float* f = (const float*)(const void*)(g->bin + off);
            double lo[16], hi[16];
            assert_true(sw__json_numbers(&g->json, mn, lo, comps));
            assert_true(sw__json_numbers(&g->json, mx, hi, comps));
            for (uint32_t c = 0; c < comps; ++c) {
                float l = f[c], h = f[c];
                for (int64_t e = 1; e < count; ++e) {
                    float v = f[e * comps + c];
                    l = v < l ? v : l;
                    h = v > h ? v : h;
                }
                assert_true((float)lo[c] == l);
                assert_true((float)hi[c] == h);
            }
        }
    }
    return n;
}

static int32_t find_named(const glb* g, const char* array, const char* name) {
    int32_t arr = jget(g, 0, array);
    for (uint32_t i = 0; i < sw__json_len(&g->json, arr); ++i) {
        int32_t it = sw__json_at(&g->json, arr, i);
        if (sw__json_string_is(&g->json, jget(g, it, "name"), name)) return it;
    }
    return -1;
}

/* The channel of `anim` on node/path, with its sampler's input / output. */
static bool find_channel(const glb* g, int32_t anim, uint32_t node, const char* path,
                         uint32_t* input, uint32_t* output, int32_t* sampler) {
    int32_t chans = jget(g, anim, "channels");
    for (uint32_t c = 0; c < sw__json_len(&g->json, chans); ++c) {
        int32_t ch = sw__json_at(&g->json, chans, c);
        int32_t target = jget(g, ch, "target");
        if (jint(g, target, "node") != node) continue;
        if (!sw__json_string_is(&g->json, jget(g, target, "path"), path)) continue;
        *sampler =
            sw__json_at(&g->json, jget(g, anim, "samplers"), (uint32_t)jint(g, ch, "sampler"));
        *input = (uint32_t)jint(g, *sampler, "input");
        *output = (uint32_t)jint(g, *sampler, "output");
        return true;
    }
    return false;
}

static void test_glb_structure(void** state) {
    (void)state;
    scene_fixture f;
    make_scene(&f);
    void* data = NULL;
    size_t size = 0;
    sw_error e = {0};
    assert_int_equal(sw_gltf_export(&f.scene, NULL, NULL, &data, &size, &e), SW_RESULT_OK);
    glb g;
    glb_open(&g, data, size);
    assert_non_null(g.bin);
    int32_t asset = jget(&g, 0, "asset");
    assert_true(sw__json_string_is(&g.json, jget(&g, asset, "version"), "2.0"));
    assert_true(sw__json_string_is(&g.json, jget(&g, asset, "generator"), "sinew"));
    check_accessors(&g);

    /* Nodes: 4 joints then the mesh node; roots: joint 0 and the mesh node. */
    int32_t nodes = jget(&g, 0, "nodes");
    assert_int_equal(sw__json_len(&g.json, nodes), J + 1);
    for (uint32_t j = 0; j < J; ++j) {
        int32_t n = sw__json_at(&g.json, nodes, j);
        assert_true(sw__json_string_is(&g.json, jget(&g, n, "name"), kJoints[j]));
        double r[4];
        assert_true(sw__json_numbers(&g.json, jget(&g, n, "rotation"), r, 4));
        sw_xform x = sw_pose_get(sw_skeleton_rest_pose(f.scene.skeleton), j);
        sw_test_quat_near((sw_quat){(float)r[0], (float)r[1], (float)r[2], (float)r[3]}, x.r,
                          1e-6f);
    }
    int32_t spine_children = jget(&g, sw__json_at(&g.json, nodes, 1), "children");
    assert_int_equal(sw__json_len(&g.json, spine_children), 2);
    int32_t roots = jget(&g, sw__json_at(&g.json, jget(&g, 0, "scenes"), 0), "nodes");
    assert_int_equal(sw__json_len(&g.json, roots), 2);
    int32_t mesh_node = sw__json_at(&g.json, nodes, J);
    assert_int_equal(jint(&g, mesh_node, "mesh"), 0);
    assert_int_equal(jint(&g, mesh_node, "skin"), 0);

    /* Skins: the mesh's (palette 1, 2) and, as "arm" is neither in the
     * palette nor an ancestor of it, one over all joints. */
    int32_t skins = jget(&g, 0, "skins");
    assert_int_equal(sw__json_len(&g.json, skins), 2);
    int32_t skin0 = sw__json_at(&g.json, skins, 0);
    double sj[2];
    assert_true(sw__json_numbers(&g.json, jget(&g, skin0, "joints"), sj, 2));
    assert_true(sj[0] == 1 && sj[1] == 2);
    uint32_t cnt, comps;
    const float* ibm =
        accessor_floats(&g, (uint32_t)jint(&g, skin0, "inverseBindMatrices"), &cnt, &comps);
    assert_int_equal(cnt, 2);
    assert_int_equal(comps, 16);
    assert_memory_equal(ibm, sw_mesh_inverse_binds(f.meshes[0]), 2 * sizeof(sw_mat4));
    int32_t skin1 = sw__json_at(&g.json, skins, 1);
    assert_int_equal(sw__json_len(&g.json, jget(&g, skin1, "joints")), J);
    ibm = accessor_floats(&g, (uint32_t)jint(&g, skin1, "inverseBindMatrices"), &cnt, &comps);
    /* inverse bind * model rest = identity for every joint */
    sw_mat4 model[J];
    for (uint32_t j = 0; j < J; ++j) {
        sw_mat4 local = sw_mat4_from_xform(sw_pose_get(sw_skeleton_rest_pose(f.scene.skeleton), j));
        model[j] = kParents[j] < 0 ? local : sw_mat4_mul(&model[kParents[j]], &local);
        sw_mat4 inv;
        memcpy(&inv, ibm + 16 * j, sizeof inv);
        sw_mat4 id = sw_mat4_mul(&inv, &model[j]);
        sw_mat4 ref = sw_mat4_identity();
        sw_test_mat4_near(&id, &ref, 1e-5f);
    }

    /* Mesh: attributes, normalized normals and weights, morph targets. */
    int32_t mesh = sw__json_at(&g.json, jget(&g, 0, "meshes"), 0);
    int32_t prim = sw__json_at(&g.json, jget(&g, mesh, "primitives"), 0);
    int32_t attrs = jget(&g, prim, "attributes");
    const float* p = accessor_floats(&g, (uint32_t)jint(&g, attrs, "POSITION"), &cnt, &comps);
    assert_int_equal(cnt, 3);
    assert_memory_equal(p, sw_mesh_positions(f.meshes[0]), 36);
    const float* nrm = accessor_floats(&g, (uint32_t)jint(&g, attrs, "NORMAL"), &cnt, &comps);
    assert_near(nrm[2], 1.0f, 1e-7);
    const float* w = accessor_floats(&g, (uint32_t)jint(&g, attrs, "WEIGHTS_0"), &cnt, &comps);
    assert_near(w[8] + w[9] + w[10] + w[11], 1.0f, 1e-6);
    assert_int_equal(jint(&g, attrs, "TEXCOORD_0") >= 0, 1);
    int32_t jacc =
        sw__json_at(&g.json, jget(&g, 0, "accessors"), (uint32_t)jint(&g, attrs, "JOINTS_0"));
    assert_int_equal(jint(&g, jacc, "componentType"), 5123);
    int32_t iacc =
        sw__json_at(&g.json, jget(&g, 0, "accessors"), (uint32_t)jint(&g, prim, "indices"));
    assert_int_equal(jint(&g, iacc, "componentType"), 5125);
    assert_int_equal(jint(&g, iacc, "count"), 3);
    assert_int_equal(sw__json_len(&g.json, jget(&g, prim, "targets")), 2);
    assert_int_equal(sw__json_len(&g.json, jget(&g, mesh, "weights")), 2);
    int32_t tn = jget(&g, jget(&g, mesh, "extras"), "targetNames");
    assert_true(sw__json_string_is(&g.json, sw__json_at(&g.json, tn, 1), "shift"));

    /* Animations: "walk" and "pose" ("add" is additive). */
    assert_int_equal(sw__json_len(&g.json, jget(&g, 0, "animations")), 2);
    assert_int_equal(find_named(&g, "animations", "add"), -1);
    int32_t walk = find_named(&g, "animations", "walk");
    assert_true(walk >= 0);
    /* 4 joint tracks, the weights channel and the duration keeper. */
    assert_int_equal(sw__json_len(&g.json, jget(&g, walk, "channels")), 6);
    uint32_t in, out;
    int32_t smp;
    /* Uniform rotation track: 11 explicit times k / 10, values as stored. */
    assert_true(find_channel(&g, walk, 1, "rotation", &in, &out, &smp));
    assert_true(sw__json_string_is(&g.json, jget(&g, smp, "interpolation"), "LINEAR"));
    const float* times = accessor_floats(&g, in, &cnt, &comps);
    assert_int_equal(cnt, 11);
    for (uint32_t k = 0; k < 11; ++k)
        assert_near(times[k], 0.1f * (float)k, 1e-6);
    const float* vals = accessor_floats(&g, out, &cnt, &comps);
    assert_int_equal(cnt, 11);
    assert_int_equal(comps, 4);
    const sw_clip_track* rt = &sw_clip_tracks(f.clips[0])[sw_clip_joint_tracks(f.clips[0], 1)[1]];
    for (uint32_t k = 0; k < 44; ++k)
        assert_near(vals[k], sw_clip_track_values(f.clips[0], rt)[k], 1e-7);
    /* Cubic: 3 values per key. */
    assert_true(find_channel(&g, walk, 2, "rotation", &in, &out, &smp));
    assert_true(sw__json_string_is(&g.json, jget(&g, smp, "interpolation"), "CUBICSPLINE"));
    accessor_floats(&g, out, &cnt, &comps);
    assert_int_equal(cnt, 6);
    /* Step scale, uniform from 0.25 at 2 keys/s. */
    assert_true(find_channel(&g, walk, 3, "scale", &in, &out, &smp));
    assert_true(sw__json_string_is(&g.json, jget(&g, smp, "interpolation"), "STEP"));
    times = accessor_floats(&g, in, &cnt, &comps);
    assert_int_equal(cnt, 3);
    assert_true(times[0] == 0.25f && times[1] == 0.75f && times[2] == 1.25f);
    /* Weights: union of {0, 1} and {0.5, 1, 1.5}, resampled linearly. */
    assert_true(find_channel(&g, walk, J, "weights", &in, &out, &smp));
    assert_true(sw__json_string_is(&g.json, jget(&g, smp, "interpolation"), "LINEAR"));
    times = accessor_floats(&g, in, &cnt, &comps);
    assert_int_equal(cnt, 4);
    const float want_t[4] = {0.0f, 0.5f, 1.0f, 1.5f};
    const float want_w[8] = {0.0f, 0.25f, 0.5f, 0.25f, 1.0f, 0.75f, 1.0f, 0.0f};
    for (int k = 0; k < 4; ++k)
        assert_true(times[k] == want_t[k]);
    vals = accessor_floats(&g, out, &cnt, &comps);
    assert_int_equal(cnt, 8);
    for (int k = 0; k < 8; ++k)
        assert_near(vals[k], want_w[k], 1e-6);
    /* Duration keeper: joint 0 scale (untracked), STEP, keys 0 and 2. */
    assert_true(find_channel(&g, walk, 0, "scale", &in, &out, &smp));
    assert_true(sw__json_string_is(&g.json, jget(&g, smp, "interpolation"), "STEP"));
    times = accessor_floats(&g, in, &cnt, &comps);
    assert_int_equal(cnt, 2);
    assert_true(times[1] == 2.0f);
    /* Event in extras. */
    int32_t events = jget(&g, jget(&g, walk, "extras"), "events");
    assert_int_equal(sw__json_len(&g.json, events), 1);
    assert_true(
        sw__json_string_is(&g.json, jget(&g, sw__json_at(&g.json, events, 0), "name"), "step"));
    /* "pose" has only the keeper, on [0, 1]. */
    int32_t pose = find_named(&g, "animations", "pose");
    assert_int_equal(sw__json_len(&g.json, jget(&g, pose, "channels")), 1);

    sw__json_free(&g.json, NULL);
    sw_free(NULL, data, size);
    free_scene(&f);
}

/* Tracks sharing their key times share one input accessor. */
static void test_shared_times(void** state) {
    (void)state;
    scene_fixture f;
    make_scene(&f);
    static const float times[2] = {0.0f, 1.0f};
    static const float tv[6] = {0, 0, 0, 1, 1, 1};
    static const float sv[6] = {1, 1, 1, 2, 2, 2};
    const sw_clip_track_desc tracks[] = {
        {.kind = SW_TRACK_KIND_TRANSLATION,
         .joint = 1,
         .keys_count = 2,
         .times = times,
         .values = tv},
        {.kind = SW_TRACK_KIND_SCALE, .joint = 2, .keys_count = 2, .times = times, .values = sv},
    };
    const sw_clip_desc cd = {
        .name = "two", .duration = 1.0f, .joints_count = J, .tracks = tracks, .tracks_count = 2};
    const sw_clip* c = NULL;
    sw_error e = {0};
    assert_int_equal(sw_clip_create(&cd, NULL, &c, &e), SW_RESULT_OK);
    const sw_clip* clips[1] = {c};
    sw_scene s = {.skeleton = f.scene.skeleton, .clips = clips, .clips_count = 1};
    void* data = NULL;
    size_t size = 0;
    assert_int_equal(sw_gltf_export(&s, NULL, NULL, &data, &size, &e), SW_RESULT_OK);
    glb g;
    glb_open(&g, data, size);
    check_accessors(&g);
    int32_t anim = sw__json_at(&g.json, jget(&g, 0, "animations"), 0);
    uint32_t in1, in2, out;
    int32_t smp;
    assert_true(find_channel(&g, anim, 1, "translation", &in1, &out, &smp));
    assert_true(find_channel(&g, anim, 2, "scale", &in2, &out, &smp));
    assert_int_equal(in1, in2);
    /* No mesh: one skin over all joints keeps the skeleton whole. */
    assert_int_equal(sw__json_len(&g.json, jget(&g, 0, "skins")), 1);
    assert_int_equal(jget(&g, 0, "meshes"), -1);
    sw__json_free(&g.json, NULL);
    sw_free(NULL, data, size);
    sw_clip_destroy(c, NULL);
    free_scene(&f);
}

/* An allocator that fails from the `fail_at`-th call on and tracks what is
 * still allocated. */
typedef struct counting_alloc {
    int calls, fail_at;
    long live;
} counting_alloc;

static void* counting_alloc_fn(void* user, size_t size, size_t align) {
    counting_alloc* c = (counting_alloc*)user;
    if (c->calls++ >= c->fail_at) return NULL;
    void* p = aligned_alloc(align, (size + align - 1u) & ~(align - 1u));
    if (p) ++c->live;
    return p;
}

static void counting_free_fn(void* user, void* ptr, size_t size) {
    (void)size;
    counting_alloc* c = (counting_alloc*)user;
    if (ptr) --c->live;
    free(ptr);
}

/* Every allocation failure gives OUT_OF_MEMORY with nothing left allocated;
 * past the last allocation the export succeeds with the same bytes. */
static void test_allocation_failures(void** state) {
    (void)state;
    scene_fixture f;
    make_scene(&f);
    void* ref = NULL;
    size_t ref_size = 0;
    sw_error e = {0};
    assert_int_equal(sw_gltf_export(&f.scene, NULL, NULL, &ref, &ref_size, &e), SW_RESULT_OK);
    int k = 0;
    for (;; ++k) {
        counting_alloc c = {0, k, 0};
        const sw_allocator a = {counting_alloc_fn, counting_free_fn, &c};
        void* data = NULL;
        size_t size = 0;
        sw_result r = sw_gltf_export(&f.scene, NULL, &a, &data, &size, &e);
        if (r == SW_RESULT_OK) {
            assert_int_equal(size, ref_size);
            assert_memory_equal(data, ref, size);
            sw_free(&a, data, size);
            assert_int_equal(c.live, 0);
            break;
        }
        assert_int_equal(r, SW_RESULT_OUT_OF_MEMORY);
        assert_string_equal(e.check, "allocation");
        assert_null(data);
        assert_int_equal(c.live, 0);
    }
    print_message("export of the fixture: %d allocations\n", k);
    assert_true(k > 10);
    sw_free(NULL, ref, ref_size);
    free_scene(&f);
}

static void test_options_and_failures(void** state) {
    (void)state;
    scene_fixture f;
    make_scene(&f);
    void* data = NULL;
    size_t size = 0;
    sw_error e = {0};
    /* Clip filter. */
    const char* only[1] = {"pose"};
    const sw_gltf_export_options opt = {.clips = only, .clips_count = 1};
    assert_int_equal(sw_gltf_export(&f.scene, &opt, NULL, &data, &size, &e), SW_RESULT_OK);
    glb g;
    glb_open(&g, data, size);
    assert_int_equal(sw__json_len(&g.json, jget(&g, 0, "animations")), 1);
    assert_true(find_named(&g, "animations", "pose") >= 0);
    sw__json_free(&g.json, NULL);
    sw_free(NULL, data, size);
    data = NULL;

    const char* missing[2] = {"walk", "run"};
    const sw_gltf_export_options bad = {.clips = missing, .clips_count = 2};
    assert_int_equal(sw_gltf_export(&f.scene, &bad, NULL, &data, &size, &e), SW_RESULT_NOT_FOUND);
    assert_string_equal(e.check, "requested clip exists");
    assert_int_equal(e.index, 1);
    assert_null(data);
    const sw_gltf_export_options no_names = {.clips = NULL, .clips_count = 1};
    assert_int_equal(sw_gltf_export(&f.scene, &no_names, NULL, &data, &size, &e),
                     SW_RESULT_INVALID_ARGUMENT);
    assert_int_equal(sw_gltf_export(NULL, NULL, NULL, &data, &size, &e),
                     SW_RESULT_INVALID_ARGUMENT);
    sw_scene zero = {0};
    assert_int_equal(sw_gltf_export(&zero, NULL, NULL, &data, &size, &e),
                     SW_RESULT_INVALID_ARGUMENT);
    assert_string_equal(e.check, "scene has a skeleton");
    assert_int_equal(sw_gltf_export(&f.scene, NULL, NULL, NULL, &size, &e),
                     SW_RESULT_INVALID_ARGUMENT);
    /* A clip for another skeleton. */
    const sw_clip_desc other = {.name = "x", .duration = 1.0f, .joints_count = J + 1};
    const sw_clip* oc = NULL;
    assert_int_equal(sw_clip_create(&other, NULL, &oc, &e), SW_RESULT_OK);
    const sw_clip* clips[2] = {f.clips[0], oc};
    sw_scene s = f.scene;
    s.clips = clips;
    s.clips_count = 2;
    assert_int_equal(sw_gltf_export(&s, NULL, NULL, &data, &size, &e), SW_RESULT_INVALID_ARGUMENT);
    assert_string_equal(e.check, "clip joints match the skeleton");
    assert_int_equal(e.index, 1);
    sw_clip_destroy(oc, NULL);
    s = f.scene;
    s.meshes_count = 1;
    s.meshes = NULL;
    assert_int_equal(sw_gltf_export(&s, NULL, NULL, &data, &size, &e), SW_RESULT_INVALID_ARGUMENT);
    assert_null(data);

    /* Files: written whole, or not at all. */
    char path[] = "/tmp/sinew_export_XXXXXX";
    assert_non_null(mkdtemp(path));
    char file[256];
    snprintf(file, sizeof file, "%s/out.glb", path);
    assert_int_equal(sw_gltf_export_file(&f.scene, NULL, file, &e), SW_RESULT_OK);
    size_t fsize = 0;
    void* fdata = sw_test_read_file(file, &fsize);
    assert_non_null(fdata);
    assert_int_equal(sw_gltf_export(&f.scene, NULL, NULL, &data, &size, &e), SW_RESULT_OK);
    assert_int_equal(fsize, size);
    assert_memory_equal(fdata, data, size);
    free(fdata);
    sw_free(NULL, data, size);
    remove(file);
    snprintf(file, sizeof file, "%s/missing/out.glb", path);
    assert_int_equal(sw_gltf_export_file(&f.scene, NULL, file, &e), SW_RESULT_IO);
    assert_string_equal(e.check, "open temporary file");
    assert_int_equal(sw_gltf_export_file(&f.scene, &bad, path, &e), SW_RESULT_NOT_FOUND);
    rmdir(path);
    free_scene(&f);
}

/* ---- round trips through the native reader ----------------------------------------------- */

/* Model-space matrices of `clip` at `time`. */
static void sample_model(const sw_skeleton* s, const sw_clip* c, float time, sw_mat4* out) {
    sw_xform4* pose = aligned_alloc(16, sizeof(sw_xform4) * s->packets_count);
    sw_test_model_at(s, c, time, pose, out);
    free(pose);
}

static const sw_clip* scene_clip(const sw_scene* s, const char* name) {
    for (uint32_t i = 0; i < s->clips_count; ++i) {
        if (strcmp(sw_clip_name(s->clips[i]), name) == 0) return s->clips[i];
    }
    return NULL;
}

typedef struct scene_diff {
    double t; /* largest model-space translation difference (file units) */
    double r; /* largest rotation-scale element difference, relative to its column's length */
} scene_diff;

/* b has every joint of a (by name) with the same model-space transforms for
 * every non-additive clip of a at `samples` + 1 times: translations within
 * tol_t (absolute, file units), the rotation-scale columns within tol_r
 * relative to their length beyond 1 (rigs scaled by 100 in an ancestor). */
static scene_diff compare_scenes(const sw_scene* a, const sw_scene* b, int samples, double tol_t,
                                 double tol_r) {
    const sw_skeleton* sa = a->skeleton;
    const sw_skeleton* sb = b->skeleton;
    assert_int_equal(sb->joints_count, sa->joints_count);
    int32_t map[SW_SKELETON_MAX_JOINTS];
    for (uint32_t j = 0; j < sa->joints_count; ++j) {
        map[j] = sw_skeleton_find_joint(sb, sw_skeleton_joint_name(sa, j));
        if (map[j] < 0)
            fail_msg("joint %s missing after the round trip", sw_skeleton_joint_name(sa, j));
    }
    sw_mat4* ma = malloc(sizeof(sw_mat4) * sa->joints_count);
    sw_mat4* mb = malloc(sizeof(sw_mat4) * sb->joints_count);
    scene_diff worst = {0.0, 0.0};
    for (uint32_t c = 0; c < a->clips_count; ++c) {
        const sw_clip* ca = a->clips[c];
        if (ca->flags & SW_CLIP_FLAG_ADDITIVE) continue;
        const sw_clip* cb = scene_clip(b, sw_clip_name(ca));
        if (!cb) fail_msg("clip %s missing after the round trip", sw_clip_name(ca));
        assert_near(cb->duration, ca->duration, 1e-6);
        for (int k = 0; k <= samples; ++k) {
            float t = ca->duration * (float)k / (float)samples;
            sample_model(sa, ca, t, ma);
            sample_model(sb, cb, t, mb);
            for (uint32_t j = 0; j < sa->joints_count; ++j) {
                const sw_mat4* x = &ma[j];
                const sw_mat4* y = &mb[map[j]];
                for (int e = 0; e < 15; ++e) {
                    if ((e & 3) == 3) continue; /* last row: 0 0 0 1 */
                    double d = fabs((double)x->m[e] - (double)y->m[e]);
                    double tol = tol_t;
                    if (e < 12) {
                        const float* col = &x->m[e & ~3];
                        double mag = sqrt((double)col[0] * col[0] + (double)col[1] * col[1] +
                                          (double)col[2] * col[2]);
                        d /= mag > 1.0 ? mag : 1.0;
                        tol = tol_r;
                        if (d > worst.r) worst.r = d;
                    } else if (d > worst.t) {
                        worst.t = d;
                    }
                    if (!(d <= tol)) {
                        fail_msg("clip %s t=%g joint %s element %d: %.9g vs %.9g", sw_clip_name(ca),
                                 (double)t, sw_skeleton_joint_name(sa, j), e, (double)x->m[e],
                                 (double)y->m[e]);
                    }
                }
            }
        }
    }
    free(ma);
    free(mb);
    return worst;
}

static void reimport(const sw_scene* s, const sw_gltf_export_options* opt, sw_scene* back) {
    void* data = NULL;
    size_t size = 0;
    sw_error e = {0};
    assert_int_equal(sw_gltf_export(s, opt, NULL, &data, &size, &e), SW_RESULT_OK);
    sw_result r = sw_gltf_read(data, size, NULL, NULL, back, &e);
    if (r != SW_RESULT_OK) fail_msg("re-import: %s (%s)", sw_result_str(r), e.check);
    sw_free(NULL, data, size);
}

static void test_round_trip_fixture(void** state) {
    (void)state;
    scene_fixture f;
    make_scene(&f);
    sw_scene back = {0};
    reimport(&f.scene, NULL, &back);
    scene_diff worst = compare_scenes(&f.scene, &back, 40, 1e-5, 1e-5);
    print_message("fixture round trip: translations within %.3g, rotation-scale within %.3g\n",
                  worst.t, worst.r);
    assert_int_equal(back.meshes_count, 1);
    const sw_mesh* m = back.meshes[0];
    assert_string_equal(sw_mesh_name(m), "body");
    assert_int_equal(m->vertices_count, 3);
    assert_int_equal(m->morph_targets_count, 2);
    assert_memory_equal(sw_mesh_positions(m), sw_mesh_positions(f.meshes[0]), 36);
    /* Morph weights come back as float tracks, resampled at the union. */
    const sw_clip* walk = scene_clip(&back, "walk");
    int32_t w1 = sw_clip_find_float_track(walk, "body.weights[1]");
    assert_true(w1 >= 0);
    assert_int_equal(sw_clip_find_float_track(walk, "other"), -1);
    free_scene(&f);
    sw_scene_free(&back, NULL);
}

static void test_round_trip_robot(void** state) {
    (void)state;
    char path[1024];
    if (!sw_test_asset_path(path, sizeof path, "RobotExpressive.glb")) return;
    sw_scene first = {0};
    sw_error e = {0};
    assert_int_equal(sw_gltf_read_file(path, NULL, NULL, &first, &e), SW_RESULT_OK);
    sw_scene back = {0};
    reimport(&first, NULL, &back);
    scene_diff worst = compare_scenes(&first, &back, 24, 1e-5, 1e-5);
    print_message("RobotExpressive round trip: %u joints, %u clips, %u meshes; translations "
                  "within %.3g m, rotation-scale within %.3g\n",
                  first.skeleton->joints_count, first.clips_count, first.meshes_count, worst.t,
                  worst.r);
    assert_int_equal(back.clips_count, first.clips_count);
    assert_int_equal(back.meshes_count, first.meshes_count);
    for (uint32_t m = 0; m < first.meshes_count; ++m) {
        assert_int_equal(back.meshes[m]->vertices_count, first.meshes[m]->vertices_count);
        assert_int_equal(back.meshes[m]->indices_count, first.meshes[m]->indices_count);
        assert_int_equal(back.meshes[m]->morph_targets_count, first.meshes[m]->morph_targets_count);
    }
    sw_scene_free(&first, NULL);
    sw_scene_free(&back, NULL);
}

static void test_round_trip_bvh(void** state) {
    (void)state;
    char path[1024];
    if (!sw_test_model_path(path, sizeof path, "BVH/01_01.bvh")) return;
    size_t size = 0;
    char* text = sw_test_read_file(path, &size);
    assert_non_null(text);
    sw_bvh_result bvh = {0};
    sw_error e = {0};
    assert_int_equal(sw_bvh_read(text, size, NULL, NULL, &bvh, &e), SW_RESULT_OK);
    free(text);
    const sw_clip* clips[1] = {bvh.clip};
    sw_scene s = {.skeleton = bvh.skeleton, .clips = clips, .clips_count = 1};
    sw_scene back = {0};
    reimport(&s, NULL, &back);
    /* Translations within 1e-4 file units (centimetres). */
    scene_diff worst = compare_scenes(&s, &back, 50, 1e-4, 1e-5);
    print_message("01_01.bvh round trip: %u joints, %u keys; translations within %.3g file "
                  "units, rotation-scale within %.3g\n",
                  bvh.skeleton->joints_count, bvh.frames_read, worst.t, worst.r);
    sw_scene_free(&back, NULL);
    sw_bvh_result_free(&bvh, NULL);
}

/* Quantized and frames clips (no raw joint tracks) export their pose at
 * the codec's own samples (a raw-track export would write no joint channel):
 * the humanoid's four clips come back as raw clips equal to the codec clips
 * at those samples; between them glTF's slerp differs from the frames
 * codec's nlerp and from the quantized codec's lerp of three components
 * (the fourth rebuilt), most for the run's knee (0.6 rad in one 30 Hz
 * interval): measured 0.0205 (quantized) and 0.00224 (frames) in a
 * rotation-scale element, 8.1 mm and 0.83 mm in a translation. */
static void test_round_trip_codecs(void** state) {
    (void)state;
    sw_scene hum = {0};
    sw_error e = {0};
    assert_int_equal(sw_showcase_humanoid(NULL, &hum, NULL, &e), SW_RESULT_OK);
    const sw_clip* packed[2][SW_SHOWCASE_HUMANOID_CLIPS];
    for (uint32_t i = 0; i < hum.clips_count; ++i) {
        const sw_compress_options co = {.precision = 1e-3f, .shell = 0.1f};
        assert_int_equal(
            sw_compress_clip(hum.skeleton, hum.clips[i], &co, NULL, &packed[0][i], NULL, &e),
            SW_RESULT_OK);
        const sw_frames_options fo = {.shell = 0.1f};
        assert_int_equal(
            sw_frames_build(hum.skeleton, hum.clips[i], &fo, NULL, &packed[1][i], NULL, &e),
            SW_RESULT_OK);
    }
    static const double between_r[2] = {0.03, 0.005}, between_t[2] = {0.012, 0.0012};
    for (uint32_t k = 0; k < 2; ++k) {
        sw_scene s = {.skeleton = hum.skeleton, .clips = packed[k], .clips_count = hum.clips_count};
        sw_scene back = {0};
        reimport(&s, NULL, &back);
        uint32_t tracks = 0;
        for (uint32_t i = 0; i < back.clips_count; ++i) {
            assert_int_equal(back.clips[i]->codec, SW_CLIP_CODEC_RAW);
            tracks += back.clips[i]->tracks_count;
            /* at the samples: the same local transforms (the quantized
             * codec may jump at a segment boundary, so the times are the
             * exported ones, not a float product that lands a hair before) */
            const sw_clip* c = packed[k][i];
            const float rate =
                k == 0 ? sw_clip_codec_header(c)->rate : sw_clip_frames_header(c)->rate;
            const uint32_t n = k == 0 ? sw_clip_codec_header(c)->samples_count
                                      : sw_clip_frames_header(c)->frames_count;
            const sw_clip* cb = scene_clip(&back, sw_clip_name(c));
            assert_non_null(cb);
            for (uint32_t f = 0; f < n; ++f) {
                const float t = fminf((float)f / rate, c->duration);
                for (uint32_t j = 0; j < hum.skeleton->joints_count; ++j) {
                    const int32_t jb = sw_skeleton_find_joint(
                        back.skeleton, sw_skeleton_joint_name(hum.skeleton, j));
                    assert_true(jb >= 0);
                    const sw_xform x = sw__clip_sample_joint(c, hum.skeleton, j, t);
                    const sw_xform y = sw__clip_sample_joint(cb, back.skeleton, (uint32_t)jb, t);
                    sw_test_vec3_near(x.t, y.t, 1e-6f);
                    sw_test_quat_near(x.r, y.r, 1e-6f);
                    sw_test_vec3_near(x.s, y.s, 1e-6f);
                }
            }
        }
        assert_true(tracks > 3u * back.clips_count); /* joint channels, not a duration keeper */
        const scene_diff worst = compare_scenes(&s, &back, 97, between_t[k], between_r[k]);
        print_message("humanoid %s clips round trip: %u tracks, equal at the samples; between "
                      "them translations within %.3g m, rotation-scale within %.3g\n",
                      k == 0 ? "quantized" : "frames", tracks, worst.t, worst.r);
        sw_scene_free(&back, NULL);
        for (uint32_t i = 0; i < hum.clips_count; ++i)
            sw_clip_destroy(packed[k][i], NULL);
    }
    sw_scene_free(&hum, NULL);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_glb_structure),       cmocka_unit_test(test_shared_times),
        cmocka_unit_test(test_allocation_failures), cmocka_unit_test(test_options_and_failures),
        cmocka_unit_test(test_round_trip_fixture),  cmocka_unit_test(test_round_trip_robot),
        cmocka_unit_test(test_round_trip_bvh),      cmocka_unit_test(test_round_trip_codecs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
