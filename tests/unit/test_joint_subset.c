/* test_joint_subset: joint subsets (joint LOD) through the per-frame jobs, on
 * the built-in humanoid:
 * - sw_joint_subset_from_detail keeps exactly the joints whose detail is
 *   below the cut and whose ancestors all are (checked by walking the
 *   ancestors), and the result is closed under parents;
 * - sampling with a subset, for every codec (raw, quantized, frames) and for
 *   additive clips: kept joints bit for bit those of the full sample, the
 *   others the rest value (identity for additive clips); also through a
 *   sample cache over a run of frames whose cut changes every frame, and
 *   on every decoder and kernel path (quantized scalar and SIMD, frames);
 * - the subset's span, kept prefix and first mixed packet (sw__subset_of)
 *   against a scan, and the rest fill of a packet for every keep pattern;
 * - blending (every kernel path, normal, per-joint weights and additive
 *   layers): kept joints bit for bit the full blend, the others rest_pose;
 *   also with the subset worked out once and the packets outside its span
 *   left as they are (the crowd's path);
 * - local-to-model (every kernel path): kept joints bit for bit the full
 *   job, the others at their rest offset from their parent (checked on
 *   points through sw_xform); in an open subset a kept joint lies on its
 *   left-out parent's rest-based matrix; a subset with a sub-tree is
 *   refused;
 * - the animator (a blend space and a crossfade; alone, and under an
 *   additive layer of a non-additive clip against its first frame), on raw
 *   and frames clips: evaluate_subset's kept joints bit for bit
 *   evaluate's, the others at rest.
 * Sampling, blending, local-to-model and the animator run twice: on the
 * humanoid's own (depth-first) joint order, where cuts leave packets mixed,
 * and on its detail-major order (sw_joint_order_by_detail), where every cut
 * keeps a prefix and whole packets drop out. */
#include "animator_rig.h"
#include "test_util.h"

#include "runtime/codecs/codec_frames.h"
#include "runtime/codecs/codec_quantized.h"
#include "runtime/core/internal.h"
#include "sinew/codecs/codec.h"
#include "sinew/showcase/character.h"
#include "sinew/tools/builders/compress.h"
#include "sinew/tools/builders/frames.h"
#include "sinew/tools/builders/joint_order.h"
#include "sinew/tools/builders/scene.h"

/* The built-in humanoid; detail_major: in its detail-major order by the
 * tests' detail values (sw_joint_order_by_detail), so that every cut keeps a
 * prefix of the joints and whole packets drop out. */
static void humanoid(sw_scene* scene, bool detail_major) {
    assert_int_equal(sw_showcase_humanoid(NULL, scene, NULL, NULL), SW_RESULT_OK);
    if (!detail_major) return;
    const sw_skeleton* sk = scene->skeleton;
    uint8_t detail[SW_SKELETON_MAX_JOINTS];
    uint16_t order[SW_SKELETON_MAX_JOINTS];
    sw_test_depth_detail(sk, 8u, detail);
    assert_int_equal(
        sw_joint_order_by_detail(sk, detail, sk->joints_count, order, sk->joints_count, NULL),
        SW_RESULT_OK);
    sw_scene ordered;
    assert_int_equal(sw_scene_reorder_joints(scene, order, NULL, &ordered, NULL), SW_RESULT_OK);
    sw_scene_free(scene, NULL);
    *scene = ordered;
}

static void test_from_detail(void** state) {
    (void)state;
    sw_scene scene;
    assert_int_equal(sw_showcase_humanoid(NULL, &scene, NULL, NULL), SW_RESULT_OK);
    const sw_skeleton* sk = scene.skeleton;
    const int16_t* parents = sw_skeleton_parents(sk);
    uint8_t detail[SW_SKELETON_MAX_JOINTS], keep[SW_SKELETON_MAX_JOINTS / 4];
    sw_test_depth_detail(sk, 8u, detail);
    detail[sw_skeleton_find_joint(sk, "Spine")] = 1; /* below its children's cut */
    uint32_t last = 0;
    for (uint32_t cut = 0; cut < 12u; ++cut) {
        const uint32_t n = sw_joint_subset_from_detail(sk, detail, cut, keep, sk->packets_count);
        uint32_t want = 0;
        for (uint32_t j = 0; j < sk->joints_count; ++j) {
            bool in = true;
            for (int32_t a = (int32_t)j; a >= 0; a = parents[a])
                in = in && (cut == 0 || detail[a] < cut);
            assert_int_equal(sw_test_kept(keep, j), in);
            want += in;
        }
        assert_int_equal(n, want);
        assert_int_equal(sw_joint_subset_count(sk, keep), want);
        assert_true(sw_joint_subset_closed(sk, keep));
        if (cut == 0) {
            assert_int_equal(n, sk->joints_count);
        } else {
            assert_true(n >= last); /* a higher cut keeps more */
            last = n;
        }
        print_message("cut %u keeps %u of %u joints\n", cut, n, sk->joints_count);
    }
    /* a subset holding a joint but not its parent is open */
    memset(keep, 0, sizeof keep);
    const uint32_t arm = (uint32_t)sw_skeleton_find_joint(sk, "LeftArm");
    keep[0] = 1;
    keep[arm / 4u] = (uint8_t)(keep[arm / 4u] | (1u << (arm % 4u)));
    assert_false(sw_joint_subset_closed(sk, keep));
    assert_true(sw_joint_subset_closed(sk, NULL));
    assert_int_equal(sw_joint_subset_from_detail(sk, detail, 3, keep, sk->packets_count - 1u), 0);
    assert_int_equal(sw_joint_subset_from_detail(NULL, detail, 3, keep, 100), 0);
    sw_scene_free(&scene, NULL);
}

/* A copy of clip (a relocatable block) flagged additive; free with sw_free. */
static sw_clip* additive_copy(const sw_clip* clip) {
    sw_clip* c = (sw_clip*)sw_alloc(NULL, clip->size, 16);
    memcpy(c, clip, clip->size);
    c->flags |= SW_CLIP_FLAG_ADDITIVE;
    return c;
}

/* Samples clip at a few times, with each cut's subset and without. */
static void check_sampling(const sw_skeleton* sk, const sw_clip* clip, const uint8_t* detail) {
    const uint32_t P = sk->packets_count;
    sw_xform4* full = (sw_xform4*)sw_alloc(NULL, sizeof(sw_xform4) * P * 3u, 16);
    sw_xform4* got = full + P;
    sw_xform4* rest = got + P;
    if (clip->flags & SW_CLIP_FLAG_ADDITIVE) {
        for (uint32_t p = 0; p < P; ++p)
            sw_xform4_identity(&rest[p]);
    } else {
        memcpy(rest, sw_skeleton_rest_pose(sk), sizeof(sw_xform4) * P);
    }
    uint8_t keep[SW_SKELETON_MAX_JOINTS / 4];
    for (uint32_t cut = 1; cut < 10u; cut += 2u) {
        sw_joint_subset_from_detail(sk, detail, cut, keep, P);
        for (uint32_t k = 0; k < 7u; ++k) {
            const float t = clip->duration * (float)k / 6.0f + (k == 3u ? 0.0123f : 0.0f);
            sw_sample_job job = {clip, sk, t, NULL, full, P, NULL, 0, NULL};
            assert_int_equal(sw_sample_job_run(&job), SW_RESULT_OK);
            memset(got, 0xff, sizeof(sw_xform4) * P); /* NaN: every lane must be written */
            job.out = got;
            job.keep = keep;
            assert_int_equal(sw_sample_job_run(&job), SW_RESULT_OK);
            sw_test_subset_pose(sk, keep, full, rest, got);
        }
    }
    /* the subset may not overlap the output */
    sw_sample_job bad = {clip, sk, 0.0f, NULL, full, P, NULL, 0, (const uint8_t*)full};
    assert_int_equal(sw_sample_job_run(&bad), SW_RESULT_OVERLAP);
    sw_free(NULL, full, sizeof(sw_xform4) * P * 3u);
}

/* Samples clip through a sample cache at 1/60 s steps (the kept keys hit
 * and miss, and a cut changes every step, so keys kept under one subset
 * serve another): each step's kept joints bit for bit a cold full sample
 * without a cache, the others rest. */
static void check_sampling_cached(const sw_skeleton* sk, const sw_clip* clip,
                                  const uint8_t* detail) {
    const uint32_t P = sk->packets_count, words = sw_sample_cache_size(clip);
    sw_xform4* full = (sw_xform4*)sw_alloc(NULL, sizeof(sw_xform4) * P * 2u, 16);
    sw_xform4* got = full + P;
    uint32_t* cursors = (uint32_t*)sw_alloc(NULL, sizeof(uint32_t) * words, 4);
    sw_sample_cache cache;
    sw_sample_cache_init(&cache, cursors, words);
    uint8_t keeps[4][SW_SKELETON_MAX_JOINTS / 4];
    const uint32_t cuts[4] = {2u, 0u, 5u, 3u};
    for (uint32_t c = 0; c < 4u; ++c)
        sw_joint_subset_from_detail(sk, detail, cuts[c], keeps[c], P);
    for (uint32_t k = 0; (float)k / 60.0f <= clip->duration; ++k) {
        const float t = (float)k / 60.0f;
        const uint8_t* keep = cuts[k % 4u] ? keeps[k % 4u] : NULL;
        sw_sample_job job = {clip, sk, t, NULL, full, P, NULL, 0, NULL};
        assert_int_equal(sw_sample_job_run(&job), SW_RESULT_OK);
        memset(got, 0xff, sizeof(sw_xform4) * P);
        job.out = got;
        job.cache = &cache;
        job.keep = keep;
        assert_int_equal(sw_sample_job_run(&job), SW_RESULT_OK);
        if (keep)
            sw_test_subset_pose(sk, keep, full, sw_skeleton_rest_pose(sk), got);
        else
            assert_memory_equal(got, full, sizeof(sw_xform4) * P);
    }
    sw_free(NULL, cursors, sizeof(uint32_t) * words);
    sw_free(NULL, full, sizeof(sw_xform4) * P * 2u);
}

/* The codecs' own subset samplers on every path: quantized scalar and SIMD
 * decoders, frames on every kernel path; kept joints bit for bit the full
 * sample on the same path (the frames sampler leaves the other packets to
 * the job, so only kept joints are compared). */
static void check_sampling_paths(const sw_skeleton* sk, const sw_clip* q, const sw_clip* fr,
                                 const uint8_t* detail) {
    const uint32_t P = sk->packets_count;
    sw_xform4* full = (sw_xform4*)sw_alloc(NULL, sizeof(sw_xform4) * P * 2u, 16);
    sw_xform4* got = full + P;
    uint8_t keep[SW_SKELETON_MAX_JOINTS / 4];
    uint32_t paths_count = 0;
    const sw__soa_ops* const* paths = sw__soa_paths(&paths_count);
    for (uint32_t cut = 1; cut < 10u; cut += 2u) {
        sw_joint_subset_from_detail(sk, detail, cut, keep, P);
        for (uint32_t k = 0; k < 5u; ++k) {
            const float t = q->duration * (float)k / 4.0f + (k == 2u ? 0.0123f : 0.0f);
            for (uint32_t simd = 0; simd < 2u; ++simd) {
                sw__codec_quantized_sample_subset(q, sk, t, NULL, full, simd != 0u);
                sw__codec_quantized_sample_subset(q, sk, t, keep, got, simd != 0u);
                sw_test_subset_pose(sk, keep, full, sw_skeleton_rest_pose(sk), got);
            }
            for (uint32_t p = 0; p < paths_count; ++p) {
                sw__codec_frames_sample_with(fr, t, full, paths[p]);
                memset(got, 0xff, sizeof(sw_xform4) * P);
                sw__codec_frames_sample_keep(fr, t, keep, got, paths[p]);
                for (uint32_t j = 0; j < sk->joints_count; ++j)
                    if (sw_test_kept(keep, j)) sw_test_lane_equal(got, full, j);
            }
        }
    }
    sw_free(NULL, full, sizeof(sw_xform4) * P * 2u);
}

static void check_sample_every_codec(bool detail_major) {
    sw_scene scene;
    humanoid(&scene, detail_major);
    const sw_skeleton* sk = scene.skeleton;
    uint8_t detail[SW_SKELETON_MAX_JOINTS];
    sw_test_depth_detail(sk, 8u, detail);
    for (uint32_t c = 0; c < scene.clips_count && c < 3u; ++c) {
        const sw_clip* raw = scene.clips[c];
        print_message("clip %s: raw, quantized, frames, additive raw and quantized\n",
                      sw_clip_name(raw));
        check_sampling(sk, raw, detail);
        const sw_clip* q = NULL;
        sw_compress_options o = {.precision = 0.001f};
        assert_int_equal(sw_compress_clip(sk, raw, &o, NULL, &q, NULL, NULL), SW_RESULT_OK);
        assert_int_equal(q->codec, SW_CLIP_CODEC_QUANTIZED);
        check_sampling(sk, q, detail);
        const sw_clip* fr = NULL;
        sw_frames_options fo = {.rate = 30.0f};
        assert_int_equal(sw_frames_build(sk, raw, &fo, NULL, &fr, NULL, NULL), SW_RESULT_OK);
        assert_int_equal(fr->codec, SW_CLIP_CODEC_FRAMES);
        check_sampling(sk, fr, detail);
        check_sampling_cached(sk, raw, detail);
        check_sampling_cached(sk, q, detail);
        check_sampling_cached(sk, fr, detail);
        check_sampling_paths(sk, q, fr, detail);
        sw_clip* araw = additive_copy(raw);
        check_sampling(sk, araw, detail);
        sw_clip* aq = additive_copy(q);
        check_sampling(sk, aq, detail);
        sw_free(NULL, aq, aq->size);
        sw_free(NULL, araw, araw->size);
        sw_clip_destroy(fr, NULL);
        sw_clip_destroy(q, NULL);
    }
    sw_scene_free(&scene, NULL);
}

static void test_sample_every_codec(void** state) {
    (void)state;
    check_sample_every_codec(false);
    check_sample_every_codec(true);
}

static void check_blend(bool detail_major) {
    sw_scene scene;
    humanoid(&scene, detail_major);
    assert_true(scene.clips_count >= 3u);
    const sw_skeleton* sk = scene.skeleton;
    const uint32_t P = sk->packets_count;
    sw_xform4* poses = (sw_xform4*)sw_alloc(NULL, sizeof(sw_xform4) * P * 6u, 16);
    float* jw = (float*)sw_alloc(NULL, sizeof(float) * P * 4u, 16);
    for (uint32_t c = 0; c < 3u; ++c) {
        sw_sample_job job = {
            scene.clips[c], sk, 0.3f * (float)c + 0.1f, NULL, poses + c * P, P, NULL, 0, NULL};
        assert_int_equal(sw_sample_job_run(&job), SW_RESULT_OK);
    }
    for (uint32_t j = 0; j < P * 4u; ++j)
        jw[j] = (float)(j % 7u) / 6.0f;
    const sw_blend_layer layers[] = {
        {poses, 0.5f, NULL, SW_BLEND_MODE_DEFAULT},
        {poses + P, 0.3f, jw, SW_BLEND_MODE_DEFAULT},
        {poses + 2u * P, 0.4f, jw, SW_BLEND_MODE_ADDITIVE},
    };
    sw_xform4* full = poses + 3u * P;
    sw_xform4* got = poses + 4u * P;
    const sw_xform4* rest = sw_skeleton_rest_pose(sk);
    uint8_t detail[SW_SKELETON_MAX_JOINTS], keep[SW_SKELETON_MAX_JOINTS / 4];
    sw_test_depth_detail(sk, 8u, detail);
    uint32_t paths_count = 0;
    const sw__soa_ops* const* paths = sw__soa_paths(&paths_count);
    for (uint32_t p = 0; p < paths_count; ++p) {
        for (uint32_t cut = 1; cut < 10u; cut += 2u) {
            sw_joint_subset_from_detail(sk, detail, cut, keep, P);
            for (uint32_t n = 2; n <= 3u; ++n) {
                sw_blend_job job;
                memset(&job, 0, sizeof job);
                job.layers = layers;
                job.layers_count = n;
                job.rest_pose = rest;
                job.packets_count = P;
                job.out = full;
                job.out_count = P;
                assert_int_equal(sw__blend_job_run_with(&job, paths[p]), SW_RESULT_OK);
                memset(got, 0xff, sizeof(sw_xform4) * P);
                job.out = got;
                job.keep = keep;
                assert_int_equal(sw__blend_job_run_with(&job, paths[p]), SW_RESULT_OK);
                sw_test_subset_pose(sk, keep, full, rest, got);
                /* the crowd's path: the subset worked out once, the packets
                 * outside its span left as they are (rest values here) */
                const sw__subset sub = sw__subset_of(keep, P);
                memset(got, 0xff, sizeof(sw_xform4) * P);
                for (uint32_t q = 0; q < P; ++q)
                    if (q < sub.first || q >= sub.end) got[q] = rest[q];
                job.keep = NULL;
                assert_int_equal(sw__blend_job_run_subset(&job, paths[p], &sub, true),
                                 SW_RESULT_OK);
                sw_test_subset_pose(sk, keep, full, rest, got);
            }
        }
    }
    sw_free(NULL, jw, sizeof(float) * P * 4u);
    sw_free(NULL, poses, sizeof(sw_xform4) * P * 6u);
    sw_scene_free(&scene, NULL);
}

/* sw__subset_of against a scan joint by joint, and the rest fill of a
 * packet for every mixed keep pattern against lane-by-lane copies, on
 * subsets of every byte pattern per packet. */
static void test_subset_of(void** state) {
    (void)state;
    uint8_t keep[8];
    uint32_t rng = 12345u;
    for (uint32_t trial = 0; trial < 4000u; ++trial) {
        const uint32_t packets = 1u + trial % 8u;
        for (uint32_t p = 0; p < packets; ++p) {
            rng = rng * 1664525u + 1013904223u;
            /* whole, empty and mixed packets, with and without stray high bits */
            const uint32_t r = rng >> 24;
            keep[p] = (uint8_t)(r < 96u ? 15u : r < 160u ? 0u : r);
        }
        const sw__subset s = sw__subset_of(keep, packets);
        uint32_t first = packets, end = 0, prefix = 0;
        for (uint32_t j = 0; j < 4u * packets; ++j) {
            if (!sw_test_kept(keep, j)) continue;
            first = j / 4u < first ? j / 4u : first;
            end = j / 4u + 1u;
        }
        while (prefix < 4u * packets && sw_test_kept(keep, prefix))
            ++prefix;
        assert_int_equal(s.first, first < packets ? first : packets);
        assert_int_equal(s.end, first < packets ? end : packets);
        assert_int_equal(s.prefix, prefix);
        assert_true(s.mixed >= s.first);
        for (uint32_t p = s.first; p < s.mixed && p < s.end; ++p)
            assert_int_equal(keep[p] & 15u, 15u);
        if (s.mixed < s.end) assert_int_equal(s.mixed_keep, keep[s.mixed] & 15u);
    }
    const sw__subset all = sw__subset_of(NULL, 5u);
    assert_int_equal(all.first, 0);
    assert_int_equal(all.end, 5);
    assert_int_equal(all.prefix, 20);
    sw_xform4 rest, got, want;
    float* r = (float*)(void*)&rest;
    for (uint32_t i = 0; i < 40u; ++i)
        r[i] = (float)i + 0.25f;
    for (uint32_t k = 1; k < 15u; ++k) {
        memset(&got, 0xff, sizeof got);
        want = got;
        float* w = (float*)(void*)&want;
        for (uint32_t i = 0; i < 40u; ++i)
            if (!((k >> (i % 4u)) & 1u)) w[i] = r[i];
        sw__subset_fill_packet(k, &rest, &got);
        assert_memory_equal(&got, &want, sizeof got);
    }
}

static void test_blend(void** state) {
    (void)state;
    check_blend(false);
    check_blend(true);
}

/* m applied to point v (column-major, affine). */
static sw_vec3 mat_point(const sw_mat4* m, sw_vec3 v) {
    const float* a = m->m;
    return sw_vec3_make(a[0] * v.x + a[4] * v.y + a[8] * v.z + a[12],
                        a[1] * v.x + a[5] * v.y + a[9] * v.z + a[13],
                        a[2] * v.x + a[6] * v.y + a[10] * v.z + a[14]);
}

static void check_local_to_model(bool detail_major) {
    sw_scene scene;
    humanoid(&scene, detail_major);
    const sw_skeleton* sk = scene.skeleton;
    const uint32_t P = sk->packets_count, J = sk->joints_count;
    const int16_t* parents = sw_skeleton_parents(sk);
    const sw_xform4* rest = sw_skeleton_rest_pose(sk);
    sw_xform4* pose = (sw_xform4*)sw_alloc(NULL, sizeof(sw_xform4) * P, 16);
    sw_mat4* mats = (sw_mat4*)sw_alloc(NULL, sizeof(sw_mat4) * J * 2u, 16);
    sw_mat4 *full = mats, *got = mats + J;
    sw_sample_job sj = {scene.clips[0], sk, 0.45f, NULL, pose, P, NULL, 0, NULL};
    assert_int_equal(sw_sample_job_run(&sj), SW_RESULT_OK);
    const sw_mat4 root =
        sw_mat4_from_xform((sw_xform){{0.5f, 0.0f, -2.0f},
                                      sw_quat_from_axis_angle(sw_vec3_make(0, 1, 0), 0.7f),
                                      {1.0f, 1.0f, 1.0f}});
    uint8_t detail[SW_SKELETON_MAX_JOINTS], keep[SW_SKELETON_MAX_JOINTS / 4];
    sw_test_depth_detail(sk, 8u, detail);
    uint32_t paths_count = 0;
    const sw__soa_ops* const* paths = sw__soa_paths(&paths_count);
    for (uint32_t p = 0; p < paths_count; ++p) {
        for (uint32_t cut = 1; cut < 10u; cut += 2u) {
            sw_joint_subset_from_detail(sk, detail, cut, keep, P);
            {
                sw_local_to_model_job job;
                memset(&job, 0, sizeof job);
                job.skeleton = sk;
                job.local = pose;
                job.local_count = P;
                job.root_transform = &root;
                job.out = full;
                job.out_count = J;
                assert_int_equal(sw__local_to_model_job_run_with(&job, paths[p]), SW_RESULT_OK);
                job.out = got;
                job.keep = keep;
                assert_int_equal(sw__local_to_model_job_run_with(&job, paths[p]), SW_RESULT_OK);
                for (uint32_t j = 0; j < J; ++j) {
                    if (sw_test_kept(keep, j)) {
                        assert_memory_equal(&got[j], &full[j], sizeof(sw_mat4));
                        continue;
                    }
                    /* points through the parent's matrix after the rest transform */
                    const sw_mat4* pm = parents[j] >= 0 ? &got[parents[j]] : &root;
                    const sw_xform x = sw_xform4_get(&rest[j / 4u], j % 4u);
                    const sw_vec3 pts[3] = {{0, 0, 0}, {0.1f, 0, 0}, {0, 0.05f, 0.2f}};
                    for (uint32_t k = 0; k < 3u; ++k) {
                        sw_test_vec3_near(mat_point(&got[j], pts[k]),
                                          mat_point(pm, sw_xform_point(x, pts[k])), 1e-5f);
                    }
                }
            }
        }
    }
    /* an open subset (LeftArm kept, its parent left out): the arm on its
     * parent's rest-based matrix; a subset with a sub-tree is refused */
    sw_local_to_model_job open;
    memset(&open, 0, sizeof open);
    open.skeleton = sk;
    open.local = pose;
    open.local_count = P;
    open.out = got;
    open.out_count = J;
    memset(keep, 0, sizeof keep);
    keep[0] = 1;
    const uint32_t arm = (uint32_t)sw_skeleton_find_joint(sk, "LeftArm");
    keep[arm / 4u] = (uint8_t)(keep[arm / 4u] | (1u << (arm % 4u)));
    open.keep = keep;
    assert_int_equal(sw_local_to_model_job_run(&open), SW_RESULT_OK);
    assert_true(parents[arm] > 0 && parents[parents[arm]] >= 0);
    const sw_xform xa = sw_xform4_get(&pose[arm / 4u], arm % 4u);
    const sw_vec3 pt = {0.1f, 0.02f, -0.05f};
    sw_test_vec3_near(mat_point(&got[arm], pt),
                      mat_point(&got[parents[arm]], sw_xform_point(xa, pt)), 1e-5f);
    const sw_xform xp =
        sw_xform4_get(&rest[(uint32_t)parents[arm] / 4u], (uint32_t)parents[arm] % 4u);
    sw_test_vec3_near(mat_point(&got[parents[arm]], pt),
                      mat_point(&got[parents[parents[arm]]], sw_xform_point(xp, pt)), 1e-5f);
    sw_joint_subset_from_detail(sk, detail, 3, keep, P);
    open.subtree = true;
    assert_int_equal(sw_local_to_model_job_run(&open), SW_RESULT_INVALID_ARGUMENT);
    sw_free(NULL, mats, sizeof(sw_mat4) * J * 2u);
    sw_free(NULL, pose, sizeof(sw_xform4) * P);
    sw_scene_free(&scene, NULL);
}

static void test_local_to_model(void** state) {
    (void)state;
    check_local_to_model(false);
    check_local_to_model(true);
}

/* True when the subset keeps every joint that a track of quantized clip q
 * animates (read from its codec header). */
static bool keeps_animated(const sw_clip* q, const uint8_t* keep) {
    const sw_codec_header* h = sw_clip_codec_header(q);
    const sw_codec_track* tr =
        (const sw_codec_track*)(const void*)((const char*)h + h->tracks_offset);
    for (uint32_t a = 0; a < h->animated_count; ++a)
        if (!((keep[tr[a].joint / 4u] >> (tr[a].joint % 4u)) & 1u)) return false;
    return true;
}

/* The subset of the joints the quantized clips animate and their
 * ancestors (the others: constant in every clip). */
static void keep_animated(const sw_skeleton* sk, const sw_clip* const* clips, uint32_t count,
                          uint8_t* keep) {
    const int16_t* parents = sw_skeleton_parents(sk);
    memset(keep, 0, sk->packets_count);
    for (uint32_t c = 0; c < count; ++c) {
        const sw_codec_header* h = sw_clip_codec_header(clips[c]);
        const sw_codec_track* tr =
            (const sw_codec_track*)(const void*)((const char*)h + h->tracks_offset);
        for (uint32_t a = 0; a < h->animated_count; ++a)
            for (int32_t j = tr[a].joint; j >= 0; j = parents[j])
                keep[j / 4] = (uint8_t)(keep[j / 4] | (1u << (j % 4)));
    }
}

/* The humanoid's clips (codec 0 raw, 1 quantized, 2 frames) in a blend
 * space by "speed" with a crossfade to a standing clip below 0.1 m/s
 * (additive: under a second, additive layer playing the walk against its
 * first frame); two instances driven alike, one evaluated whole, the other
 * with subsets (quantized: also subsets that keep every animated joint,
 * which the animator samples without the subset). */
static void check_animator(bool detail_major, int codec, bool additive) {
    static const char* const names[3] = {"raw", "quantized", "frames"};
    sw_scene scene;
    humanoid(&scene, detail_major);
    const sw_skeleton* sk = scene.skeleton;
    print_message("animator: %s order, %s clips, %s\n", detail_major ? "detail-major" : "own",
                  names[codec], additive ? "an additive layer" : "one layer");
    const sw_clip* clips[8];
    assert_true(scene.clips_count <= 8u);
    for (uint32_t c = 0; c < scene.clips_count; ++c) {
        clips[c] = scene.clips[c];
        sw_frames_options fo = {.rate = 30.0f};
        sw_compress_options o = {.precision = 0.001f};
        if (codec == 2)
            assert_int_equal(sw_frames_build(sk, scene.clips[c], &fo, NULL, &clips[c], NULL, NULL),
                             SW_RESULT_OK);
        if (codec == 1)
            assert_int_equal(sw_compress_clip(sk, scene.clips[c], &o, NULL, &clips[c], NULL, NULL),
                             SW_RESULT_OK);
    }
    const sw_animator_param_desc params[] = {{"speed", SW_ANIMATOR_PARAM_TYPE_FLOAT, 1.4f}};
    const sw_animator_member_desc members[] = {
        {"idle", 0.0f, 0.0f}, {"walk", 1.4f, 0.0f}, {"jog", 3.0f, 0.0f}, {"run", 5.0f, 0.0f}};
    const sw_animator_blend_space_desc spaces[] = {
        {"loco", "speed", NULL, members, 4, NULL, 0, false}};
    const sw_animator_state_desc states[] = {
        {"Loco", SW_ANIMATOR_MOTION_BLEND_SPACE, "loco", false, 0.0f, NULL},
        {"Stand", SW_ANIMATOR_MOTION_CLIP, "idle", false, 0.0f, NULL},
    };
    const sw_animator_condition_desc slow[] = {{"speed", SW_ANIMATOR_OP_LESS, 0.1f}};
    const sw_animator_transition_desc transitions[] = {
        {.from = "Loco",
         .to = "Stand",
         .conditions = slow,
         .conditions_count = 1,
         .duration = 0.3f,
         .mode = SW_ANIMATOR_TRANSITION_MODE_CROSSFADE,
         .interrupt = SW_ANIMATOR_INTERRUPT_NONE},
    };
    const sw_animator_state_desc lean[] = {
        {"Lean", SW_ANIMATOR_MOTION_CLIP, "walk", false, 0.0f, NULL}};
    const sw_animator_machine_desc machines[] = {{"Main", states, 2, transitions, 1, NULL},
                                                 {"Add", lean, 1, NULL, 0, NULL}};
    const sw_animator_layer_desc layers[] = {{"base", "Main", SW_ANIMATOR_LAYER_MODE_DEFAULT, 0.0f,
                                              NULL, NULL, 0, SW_ANIMATOR_REFERENCE_DEFAULT},
                                             {"add", "Add", SW_ANIMATOR_LAYER_MODE_ADDITIVE, 0.6f,
                                              NULL, NULL, 0, SW_ANIMATOR_REFERENCE_FIRST_FRAME}};
    const sw_animator_desc desc = {.params = params,
                                   .params_count = 1,
                                   .blend_spaces = spaces,
                                   .blend_spaces_count = 1,
                                   .machines = machines,
                                   .machines_count = additive ? 2u : 1u,
                                   .layers = layers,
                                   .layers_count = additive ? 2u : 1u,
                                   .root_motion_joint = "Hips"};
    rig whole, part; /* alike; one evaluated whole, the other with subsets */
    rig_open_with(&whole, &desc, sk, clips, scene.clips_count);
    rig_open_with(&part, &desc, sk, clips, scene.clips_count);
    const uint32_t P = sk->packets_count;
    uint8_t detail[SW_SKELETON_MAX_JOINTS], keep[SW_SKELETON_MAX_JOINTS / 4];
    sw_test_depth_detail(sk, 8u, detail);
    uint32_t all_animated = 0, some_out = 0; /* quantized: subsets of each kind */
    for (uint32_t fr = 0; fr < 40u; ++fr) {
        const float speed = fr < 20u ? 2.2f : 0.0f; /* then a crossfade to Stand */
        whole.params[0] = part.params[0] = speed;
        rig_update(&whole, 1.0f / 30.0f, NULL, 0, NULL);
        rig_update(&part, 1.0f / 30.0f, NULL, 0, NULL);
        rig_eval(&whole);
        const uint32_t cut = 1u + fr % 9u;
        sw_joint_subset_from_detail(sk, detail, cut, keep, P);
        if (codec == 1 && fr % 4u == 3u) keep_animated(sk, clips, scene.clips_count, keep);
        if (codec == 1) {
            bool every = true;
            for (uint32_t c = 0; c < scene.clips_count; ++c)
                every = every && keeps_animated(clips[c], keep);
            all_animated += every ? 1u : 0u;
            some_out += every ? 0u : 1u;
        }
        assert_int_equal(sw_animator_evaluate_subset(part.inst, part.bound, keep, part.scratch,
                                                     part.scratch_size, part.pose, P),
                         SW_RESULT_OK);
        sw_test_subset_pose(sk, keep, whole.pose, sw_skeleton_rest_pose(sk), part.pose);
    }
    assert_int_equal(sw_animator_evaluate_subset(part.inst, part.bound, (const uint8_t*)part.pose,
                                                 part.scratch, part.scratch_size, part.pose, P),
                     SW_RESULT_OVERLAP);
    if (codec == 1) assert_true(all_animated > 0u && some_out > 0u);
    rig_close(&whole);
    rig_close(&part);
    for (uint32_t c = 0; c < scene.clips_count && codec != 0; ++c)
        sw_clip_destroy(clips[c], NULL);
    sw_scene_free(&scene, NULL);
}

static void test_animator(void** state) {
    (void)state;
    for (uint32_t k = 0; k < 12u; ++k)
        check_animator((k & 1u) != 0u, (int)(k >> 2), (k & 2u) != 0u);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_from_detail),        cmocka_unit_test(test_subset_of),
        cmocka_unit_test(test_sample_every_codec), cmocka_unit_test(test_blend),
        cmocka_unit_test(test_local_to_model),     cmocka_unit_test(test_animator),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
