/* test_joint_order: the detail-major joint order (sinew/tools/builders/joint_order.h).
 * - the order, on the built-in humanoid and RobotExpressive with detail
 *   values from depth and derived leaf chains: a permutation listing parents
 *   first, sorted by effective detail (the largest on the path from the root,
 *   recomputed by walking the ancestors), stable; every cut keeps the same
 *   number of joints as on the original skeleton, and they are the first
 *   ones of the new order;
 * - the reordered scene against the original, joint for joint by name, at
 *   many times of every clip: raw clips sample to the same model matrices
 *   bit for bit; quantized and frames clips built from the reordered raw
 *   clips within twice the codec's precision of those built from the
 *   original; RobotExpressive's skins give the same palettes (each entry on
 *   the joint of the same name, the same matrices);
 * - bad input: NULL or short detail, an order that is no permutation or
 *   puts a child first, a compressed clip: one named check each. */
#include "test_util.h"

#include "sinew/showcase/character.h"
#include "sinew/tools/builders/compress.h"
#include "sinew/tools/builders/frames.h"
#include "sinew/tools/builders/joint_order.h"
#include "sinew/tools/readers/asset.h"

#define PRECISION 0.001f /* compressed codecs, model-space units */

/* Largest detail on the path from the root to j, by walking up. */
static uint32_t effective(const sw_skeleton* sk, const uint8_t* detail, uint32_t j) {
    uint32_t e = 0;
    for (int32_t p = (int32_t)j; p >= 0; p = sw_skeleton_parents(sk)[p])
        e = detail[p] > e ? detail[p] : e;
    return e;
}

static void check_order(const sw_skeleton* sk) {
    const uint32_t n = sk->joints_count;
    uint8_t detail[SW_SKELETON_MAX_JOINTS], nd[SW_SKELETON_MAX_JOINTS];
    uint16_t order[SW_SKELETON_MAX_JOINTS];
    sw_test_depth_detail(sk, 4u, detail);
    assert_int_equal(sw_joint_order_by_detail(sk, detail, n, order, n, NULL), SW_RESULT_OK);
    uint8_t seen[SW_SKELETON_MAX_JOINTS] = {0};
    for (uint32_t k = 0; k < n; ++k) {
        assert_true(order[k] < n);
        assert_false(seen[order[k]]);
        seen[order[k]] = 1;
        nd[k] = detail[order[k]];
        if (k == 0) continue;
        const uint32_t a = effective(sk, detail, order[k - 1u]),
                       b = effective(sk, detail, order[k]);
        assert_true(a < b || (a == b && order[k - 1u] < order[k]));
    }
    sw_scene in = {.skeleton = sk}, out;
    assert_int_equal(sw_scene_reorder_joints(&in, order, NULL, &out, NULL), SW_RESULT_OK);
    for (uint32_t k = 0; k < n; ++k) {
        assert_string_equal(sw_skeleton_joint_name(out.skeleton, k),
                            sw_skeleton_joint_name(sk, order[k]));
        assert_true(sw_skeleton_parents(out.skeleton)[k] < (int32_t)k);
    }
    uint8_t keep[SW_SKELETON_MAX_JOINTS / 4];
    for (uint32_t cut = 1; cut < 16u; ++cut) {
        const uint32_t was = sw_joint_subset_from_detail(sk, detail, cut, keep, sizeof keep);
        const uint32_t now = sw_joint_subset_from_detail(out.skeleton, nd, cut, keep, sizeof keep);
        assert_int_equal(now, was);
        for (uint32_t k = 0; k < n; ++k)
            assert_int_equal(((unsigned)keep[k / 4u] >> (k % 4u)) & 1u, k < now ? 1u : 0u);
    }
    sw_scene_free(&out, NULL);
}

static bool open_robot(sw_asset* a) {
    char path[512];
    if (!sw_test_asset_path(path, sizeof path, "RobotExpressive.glb")) return false;
    assert_int_equal(sw_asset_open(path, NULL, a, NULL), SW_RESULT_OK);
    return true;
}

static void test_order(void** state) {
    (void)state;
    sw_scene h;
    assert_int_equal(sw_showcase_humanoid(NULL, &h, NULL, NULL), SW_RESULT_OK);
    check_order(h.skeleton);
    sw_scene_free(&h, NULL);
    sw_asset a;
    if (!open_robot(&a)) return;
    check_order(a.skeleton);
    sw_asset_free(&a);
}

/* Clip a on skeleton sa and clip b on sb (sb's joint k is sa's order[k])
 * agree at 61 times: bit for bit when tol is 0, else every matrix entry
 * within tol times (1 + its size). */
static void assert_same_motion(const sw_skeleton* sa, const sw_clip* a, const sw_skeleton* sb,
                               const sw_clip* b, const uint16_t* order, float tol) {
    const uint32_t n = sa->joints_count;
    sw_xform4* pose = (sw_xform4*)sw_alloc(NULL, sa->packets_count * sizeof(sw_xform4), 16);
    sw_mat4* ma = (sw_mat4*)sw_alloc(NULL, n * sizeof(sw_mat4), 16);
    sw_mat4* mb = (sw_mat4*)sw_alloc(NULL, n * sizeof(sw_mat4), 16);
    assert_true(pose && ma && mb);
    for (uint32_t s = 0; s <= 60u; ++s) {
        const float t = a->duration * (float)s / 60.0f;
        sw_test_model_at(sa, a, t, pose, ma);
        sw_test_model_at(sb, b, t, pose, mb);
        for (uint32_t k = 0; k < n; ++k) {
            const float* x = ma[order[k]].m;
            const float* y = mb[k].m;
            for (int i = 0; i < 16; ++i) {
                if (tol == 0.0f ? memcmp(&x[i], &y[i], sizeof(float)) != 0
                                : !(fabsf(x[i] - y[i]) <= tol * (1.0f + fabsf(x[i])))) {
                    fail_msg("%s, joint %s at %g s, entry %d: %.9g vs %.9g", sw_clip_name(a),
                             sw_skeleton_joint_name(sa, order[k]), (double)t, i, (double)x[i],
                             (double)y[i]);
                }
            }
        }
    }
    sw_free(NULL, pose, sa->packets_count * sizeof(sw_xform4));
    sw_free(NULL, ma, n * sizeof(sw_mat4));
    sw_free(NULL, mb, n * sizeof(sw_mat4));
}

/* Codec k (1 quantized, 2 frames) of a raw clip. */
static const sw_clip* encode(const sw_skeleton* sk, const sw_clip* raw, int k) {
    const sw_clip* out = NULL;
    if (k == 1) {
        const sw_compress_options o = {.precision = PRECISION};
        assert_int_equal(sw_compress_clip(sk, raw, &o, NULL, &out, NULL, NULL), SW_RESULT_OK);
    } else {
        const sw_frames_options o = {.rate = 60.0f};
        assert_int_equal(sw_frames_build(sk, raw, &o, NULL, &out, NULL, NULL), SW_RESULT_OK);
    }
    return out;
}

/* The scene reordered by depth detail; every clip (up to `clips`) of every
 * codec moves the same joints the same way. */
static void check_motion(const sw_scene* in, uint32_t clips, sw_scene* out, uint16_t* order) {
    const sw_skeleton* sk = in->skeleton;
    uint8_t detail[SW_SKELETON_MAX_JOINTS];
    sw_test_depth_detail(sk, 4u, detail);
    assert_int_equal(
        sw_joint_order_by_detail(sk, detail, sk->joints_count, order, sk->joints_count, NULL),
        SW_RESULT_OK);
    assert_int_equal(sw_scene_reorder_joints(in, order, NULL, out, NULL), SW_RESULT_OK);
    assert_int_equal(out->clips_count, in->clips_count);
    for (uint32_t c = 0; c < in->clips_count && c < clips; ++c) {
        assert_string_equal(sw_clip_name(out->clips[c]), sw_clip_name(in->clips[c]));
        assert_int_equal(out->clips[c]->events_count, in->clips[c]->events_count);
        assert_same_motion(sk, in->clips[c], out->skeleton, out->clips[c], order, 0.0f);
        for (int k = 1; k <= 2; ++k) {
            const sw_clip* a = encode(sk, in->clips[c], k);
            const sw_clip* b = encode(out->skeleton, out->clips[c], k);
            assert_same_motion(sk, a, out->skeleton, b, order, 2.0f * PRECISION);
            sw_clip_destroy(a, NULL);
            sw_clip_destroy(b, NULL);
        }
    }
}

static void test_humanoid_motion(void** state) {
    (void)state;
    sw_scene h, r;
    uint16_t order[SW_SKELETON_MAX_JOINTS];
    assert_int_equal(sw_showcase_humanoid(NULL, &h, NULL, NULL), SW_RESULT_OK);
    check_motion(&h, h.clips_count, &r, order);
    sw_scene_free(&r, NULL);
    sw_scene_free(&h, NULL);
}

/* Palette of mesh m on model matrices (m's inverse binds). */
static void palette(const sw_mesh* m, const sw_mat4* model, uint32_t n, sw_mat4* out) {
    const sw_skinning_job j = {.model = model,
                               .model_count = n,
                               .joints = sw_mesh_palette(m),
                               .inverse_bind = sw_mesh_inverse_binds(m),
                               .count = m->palette_count,
                               .out = out,
                               .out_count = m->palette_count};
    assert_int_equal(sw_skinning_job_run(&j), SW_RESULT_OK);
}

static void test_robot_motion_and_skins(void** state) {
    (void)state;
    sw_asset a;
    if (!open_robot(&a)) return;
    const sw_scene in = {.skeleton = a.skeleton,
                         .clips = (const sw_clip**)(uintptr_t)a.clips,
                         .clips_count = a.clips_count,
                         .meshes = (const sw_mesh**)(uintptr_t)a.meshes,
                         .meshes_count = a.meshes_count};
    sw_scene r;
    uint16_t order[SW_SKELETON_MAX_JOINTS];
    check_motion(&in, 3u, &r, order);
    const sw_skeleton* sk = a.skeleton;
    const uint32_t n = sk->joints_count;
    sw_xform4* pose = (sw_xform4*)sw_alloc(NULL, sk->packets_count * sizeof(sw_xform4), 16);
    sw_mat4* ma = (sw_mat4*)sw_alloc(NULL, n * sizeof(sw_mat4), 16);
    sw_mat4* mb = (sw_mat4*)sw_alloc(NULL, n * sizeof(sw_mat4), 16);
    sw_mat4 pa[SW_SKELETON_MAX_JOINTS], pb[SW_SKELETON_MAX_JOINTS];
    sw_test_model_at(sk, a.clips[0], 0.4f, pose, ma);
    sw_test_model_at(r.skeleton, r.clips[0], 0.4f, pose, mb);
    assert_int_equal(r.meshes_count, a.meshes_count);
    assert_true(a.meshes_count > 0);
    for (uint32_t m = 0; m < a.meshes_count; ++m) {
        const sw_mesh *x = a.meshes[m], *y = r.meshes[m];
        assert_int_equal(x->palette_count, y->palette_count);
        for (uint32_t i = 0; i < x->palette_count; ++i)
            assert_string_equal(sw_skeleton_joint_name(sk, sw_mesh_palette(x)[i]),
                                sw_skeleton_joint_name(r.skeleton, sw_mesh_palette(y)[i]));
        palette(x, ma, n, pa);
        palette(y, mb, n, pb);
        assert_memory_equal(pa, pb, x->palette_count * sizeof(sw_mat4));
    }
    sw_free(NULL, pose, sk->packets_count * sizeof(sw_xform4));
    sw_free(NULL, ma, n * sizeof(sw_mat4));
    sw_free(NULL, mb, n * sizeof(sw_mat4));
    sw_scene_free(&r, NULL);
    sw_asset_free(&a);
}

static void expect(sw_result got, sw_result want, const sw_error* err, const char* check) {
    assert_int_equal(got, want);
    assert_string_equal(err->check, check);
}

static void test_bad_input(void** state) {
    (void)state;
    sw_scene h, out;
    assert_int_equal(sw_showcase_humanoid(NULL, &h, NULL, NULL), SW_RESULT_OK);
    const sw_skeleton* sk = h.skeleton;
    const uint32_t n = sk->joints_count;
    uint8_t detail[SW_SKELETON_MAX_JOINTS] = {0};
    uint16_t order[SW_SKELETON_MAX_JOINTS];
    sw_error err;
    memset(&err, 0, sizeof err);
    expect(sw_joint_order_by_detail(sk, NULL, n, order, n, &err), SW_RESULT_INVALID_ARGUMENT, &err,
           "arguments not NULL");
    expect(sw_joint_order_by_detail(sk, detail, n - 1u, order, n, &err), SW_RESULT_BUFFER_TOO_SMALL,
           &err, "detail count");
    expect(sw_joint_order_by_detail(sk, detail, n, order, n - 1u, &err), SW_RESULT_BUFFER_TOO_SMALL,
           &err, "order count");
    assert_int_equal(sw_joint_order_by_detail(sk, detail, n, order, n, &err), SW_RESULT_OK);
    for (uint32_t k = 0; k < n; ++k) /* all 0: the skeleton's own order */
        assert_int_equal(order[k], k);
    order[1] = order[0];
    expect(sw_scene_reorder_joints(&h, order, NULL, &out, &err), SW_RESULT_BAD_DATA, &err,
           "order is a permutation");
    assert_int_equal(err.index, 1);
    for (uint32_t k = 0; k < n; ++k) /* children first */
        order[k] = (uint16_t)(n - 1u - k);
    expect(sw_scene_reorder_joints(&h, order, NULL, &out, &err), SW_RESULT_BAD_DATA, &err,
           "parent in order before child");
    expect(sw_scene_reorder_joints(NULL, order, NULL, &out, &err), SW_RESULT_INVALID_ARGUMENT, &err,
           "arguments not NULL");
    for (uint32_t k = 0; k < n; ++k)
        order[k] = (uint16_t)k;
    const sw_clip* q = encode(sk, h.clips[0], 1);
    const sw_clip* saved = h.clips[0];
    h.clips[0] = q;
    expect(sw_scene_reorder_joints(&h, order, NULL, &out, &err), SW_RESULT_INVALID_ARGUMENT, &err,
           "raw clip");
    assert_int_equal(err.index, 0);
    assert_null(out.skeleton);
    h.clips[0] = saved;
    sw_clip_destroy(q, NULL);
    sw_scene_free(&h, NULL);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_order),
        cmocka_unit_test(test_humanoid_motion),
        cmocka_unit_test(test_robot_motion_and_skins),
        cmocka_unit_test(test_bad_input),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
