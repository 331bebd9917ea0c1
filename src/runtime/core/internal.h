/* Internal declarations shared by the runtime's .c files and its tests.
 * Not installed; names use the sw__ prefix. */
#ifndef SINEW_RUNTIME_INTERNAL_H
#define SINEW_RUNTIME_INTERNAL_H

#include <float.h>
#include <string.h>

#include "shared/fail.h"
#include "shared/layout.h"
#include "sinew/sinew.h"

/* Largest model-space value the runtime accepts in a rest pose (skeleton.c)
 * and lets a clip reach (clip_extent.c): a matrix product sums four terms
 * each within it, so sampled and multiplied poses stay finite. */
#define SW__MODEL_BOUND (FLT_MAX / 16.0f)

/* A static inline function inlined whatever the compiler's estimate of
 * its size (hot bodies called from a few places with many arguments). */
#if defined(__GNUC__)
#define SW__ALWAYS_INLINE static inline __attribute__((always_inline))
#else
#define SW__ALWAYS_INLINE static inline
#endif

/* A static function never inlined: a cold path kept out of its caller's
 * register allocation. */
#if defined(__GNUC__)
#define SW__NEVER_INLINE static __attribute__((noinline))
#else
#define SW__NEVER_INLINE static
#endif

/* A static function whose code starts on a 64-byte boundary: a hot kernel
 * whose speed would otherwise move with the code linked before it (the
 * local-to-model kernel's avx2 path took 134 or 186 ns per RobotExpressive
 * pose on AMD Zen 5 as its start moved by 32 bytes). */
#if defined(__GNUC__)
#define SW__CODE_ALIGNED static __attribute__((aligned(64)))
#else
#define SW__CODE_ALIGNED static
#endif

/* SSE2 intrinsics usable without extra flags (codec_quantized.c). */
#if !defined(SINEW_NO_SIMD) && (defined(__SSE2__) || defined(_M_X64))
#define SINEW_HAS_SSE2 1
#else
#define SINEW_HAS_SSE2 0
#endif

/* Whole-array kernels over SoA packets. Every path (the scalar reference in
 * soa_scalar.c; soa_simd.c compiled once per instruction set: sse2, sse41,
 * avx2 on x86, neon, wasm128) implements the same contracts; tests run every
 * path and require agreement with scalar within the tolerance stated in
 * tests/unit/test_soa.c. Kernels do not validate: the jobs do. Pointers to
 * sw_xform4 are 16-byte aligned; sw_mat4 pointers need only 4-byte alignment.
 * No output may alias an input unless the contract says so. */
typedef struct sw__blend_input {
    const sw_xform4* pose;      /* n packets */
    const float* joint_weights; /* NULL or n * 4 floats, clamped to [0, 1], NaN as 0 */
    float weight;               /* > 0, finite */
} sw__blend_input;

/* Vertex skinning kernel arguments (src/runtime/core/skin.c fills them from a
 * validated job): vertices [first, end) of whole-mesh arrays, 3 floats per
 * position or normal at 3 * vertex, 4 joints and weights at 4 * vertex. */
typedef struct sw__skin_args {
    const float* positions; /* input positions */
    const float* normals;   /* input normals, NULL: no normals written */
    const uint16_t* joints; /* palette indices; a slot with weight 0 may hold any index */
    const float* weights;   /* >= 0, summing to about 1 */
    const void* palette;    /* sw_mat4 (affine, finite) or sw_dq_transform (unit real part) */
    uint32_t palette_count; /* >= 1 */
    uint32_t first, end;
    bool cofactor; /* normals by the cofactor matrix, else by the matrix */
    bool scaled;   /* dq: some entry's scale is not exactly identity */
    float* out_positions;
    float* out_normals; /* NULL when normals is NULL */
} sw__skin_args;

typedef struct sw__soa_ops {
    const char* name; /* "scalar", "sse2", "sse41", "avx2", "neon", "wasm128" */
    /* Normal blend of n packets, per lane: with w_i = weight_i * joint weight,
     * W = sum w_i, acc = sum w_i * pose_i (each rotation first brought to the
     * hemisphere of the rotation accumulated so far: negated where
     * dot(acc.r, pose_i.r) < 0), fill = max(0, threshold - W) and
     * D = max(W, threshold): t, s = (acc + fill * rest) / D and
     * r = normalize(acc.r + fill * rest.r, rest.r on acc.r's hemisphere; identity
     * when the length is 0 or not finite). count <= SW_BLEND_MAX_LAYERS (0: rest
     * pose), threshold > 0. */
    void (*blend)(const sw__blend_input* layers, uint32_t count, const sw_xform4* rest,
                  float threshold, sw_xform4* out, uint32_t n);
    /* out = base with delta applied at per-lane weight w = weight * joint weight
     * (joint_weights NULL: 1; with clamp_joint_weights they are clamped to
     * [0, 1], NaN as 0): t += w * dt; r = normalize(r * (w * dr' + (1 - w) *
     * identity)) with dr' = dr on the hemisphere dr.w >= 0; s *= 1 + w * (ds - 1).
     * out may equal base (in place). */
    void (*additive_apply)(const sw_xform4* base, const sw_xform4* delta, float weight,
                           const float* joint_weights, bool clamp_joint_weights, sw_xform4* out,
                           uint32_t n);
    /* out = delta of pose against ref: t = pose.t - ref.t, r = conj(ref.r) * pose.r,
     * s = pose.s / ref.s (1 where ref.s == 0). */
    void (*additive_make)(const sw_xform4* pose, const sw_xform4* ref, sw_xform4* out, uint32_t n);
    /* out = a + u * (b - a) for translation and scale; rotation
     * normalize(a.r + u * (b.r' - a.r)) with b.r' = b.r on a.r's hemisphere
     * (identity when the length is 0 or not finite). out may equal a or b. */
    void (*interp)(const sw_xform4* a, const sw_xform4* b, float u, sw_xform4* out, uint32_t n);
    /* Model matrices of a parent-first skeleton: for each joint j in
     * [first, joints_count) that is in `subset` (a bitset, bit j of word j / 32;
     * NULL: all), out[j] = M * L with L = t + r * (s * p) of local (column-major)
     * and M = out[parents[j]] (computed earlier or already valid),
     * *root when parents[j] < 0 and root is set, identity otherwise. With
     * `rest` (a pose; first 0 and a subset only) the joints outside the
     * subset are computed too, from rest's lanes instead of local's. */
    void (*local_to_model)(const sw_xform4* local, const sw_xform4* rest, const int16_t* parents,
                           uint32_t joints_count, uint32_t first, const uint32_t* subset,
                           const sw_mat4* root, sw_mat4* out);
    /* out[i] = model[joints ? joints[i] : i] * inverse_bind[i] for i < n (full 4x4). */
    void (*skinning)(const sw_mat4* model, const uint16_t* joints, const sw_mat4* inverse_bind,
                     sw_mat4* out, uint32_t n);
    /* Linear blend skinning of a->first .. a->end: A = sum_k w_k P[j_k] over
     * the 4 slots (slots of weight 0 skipped), p' = A p (affine), normals
     * A3 n or cof(A3) n (cofactor), then n / |n| (0 when |n| is 0). */
    void (*skin_lbs)(const sw__skin_args* a);
    /* Dual quaternion skinning of a->first .. a->end: pivot = the first slot
     * with the largest weight; b = sum_k s_k w_k (real_k, dual_k) with s_k = -1
     * where dot(real_k, real_pivot) < 0 (slots of weight 0 skipped);
     * (r, d) = b / |b.real|; S = sum_k w_k scale_k (identity unless scaled);
     * p' = r (S p) r* + 2 (r.w d.xyz - d.w r.xyz + r.xyz x d.xyz); normals
     * r (S n) r* or r (cof(S) n) r*, then normalized as skin_lbs. */
    void (*skin_dq)(const sw__skin_args* a);
    /* out[i] = base[i] + sum_t w[t] * deltas[targets[t] * stride + i] for i <
     * n (t in order, each term added in turn); count <= SW_MESH_MAX_MORPH_TARGETS. */
    void (*morph)(const float* base, const float* deltas, size_t stride, const float* w,
                  const uint32_t* targets, uint32_t count, float* out, size_t n);
    /* A quantized clip's samplers (runtime/codecs/codec_quantized.h) as this
     * path's instruction set builds them: sw__codec_quantized_sample_kept and
     * _subset, or their avx2 build (the same bits). */
    void (*quantized_kept)(const sw_clip* clip, const sw_skeleton* skel, float t,
                           const uint8_t* subset, sw_xform4* out, uint32_t* keep,
                           const uint32_t* table, bool fresh);
    void (*quantized_subset)(const sw_clip* clip, const sw_skeleton* skel, float t,
                             const uint8_t* subset, sw_xform4* out, bool simd);
} sw__soa_ops;

/* The scalar reference path (always compiled). */
extern const sw__soa_ops sw__soa_scalar;
/* Every path compiled in and supported by this CPU, scalar first, fastest
 * last; *count gets their number (>= 1). Static storage, never NULL. */
const sw__soa_ops* const* sw__soa_paths(uint32_t* count);
/* The fastest path supported by this CPU (last of sw__soa_paths). */
const sw__soa_ops* sw__soa_best(void);

/* Job runners with an explicit kernel path, for tests and benchmarks. The
 * public _run functions call these with sw__soa_best(). */
sw_result sw__blend_job_run_with(const sw_blend_job* job, const sw__soa_ops* ops);
sw_result sw__local_to_model_job_run_with(const sw_local_to_model_job* job, const sw__soa_ops* ops);
sw_result sw__make_additive_job_run_with(const sw_make_additive_job* job, const sw__soa_ops* ops);
sw_result sw__apply_additive_job_run_with(const sw_apply_additive_job* job, const sw__soa_ops* ops);
sw_result sw__skinning_job_run_with(const sw_skinning_job* job, const sw__soa_ops* ops);
sw_result sw__skin_job_run_with(const sw_skin_job* job, const sw__soa_ops* ops);
sw_result sw__morph_job_run_with(const sw_morph_job* job, const sw__soa_ops* ops);
typedef struct sw__subset sw__subset; /* below */
/* sw__blend_job_run_with on the subset s (sw__subset_of; NULL: the job's
 * keep, worked out here) in place of the job's keep, which the caller
 * checked against the output; with outside_rest, out's packets outside s's
 * span are taken to hold rest_pose's values already (left as they are: the
 * crowd's outputs from its last evaluation at the same subset). */
sw_result sw__blend_job_run_subset(const sw_blend_job* job, const sw__soa_ops* ops,
                                   const sw__subset* s, bool outside_rest);
/* sw_sample_job_run (this with s NULL) for a caller whose blend job, given
 * the subset s (sw__subset_of), reads the span of kept joints only and puts
 * the rest values back (the animator): a frames clip writes the packets of
 * s's span only, with the clip's values in their left-out joints (the job's
 * keep is not read); raw and quantized clips sample with the job's keep as
 * sw_sample_job_run does. */
sw_result sw__sample_job_run_for_blend(const sw_sample_job* job, const sw__subset* s);
/* sw__sample_job_run_for_blend on kernel path ops (sw__soa_paths): its
 * interpolation of frames clips and its build of the quantized decoder (the
 * same bits on every path); the _for_blend call takes sw__soa_best(). */
sw_result sw__sample_job_run_with(const sw_sample_job* job, const sw__subset* s,
                                  const sw__soa_ops* ops);

/* Bytes of a morph weight track name: a mesh name and ".weights[k]". */
#define SW__MORPH_NAME_CAP (SW_MESH_MAX_NAME + 24)
/* The float track name of morph target k of a mesh, "<mesh name>.weights[k]"
 * into buf; with `prefix`, "<m>.weights[k]" for a mesh named "<m>_<digits>"
 * (the importers' name for a primitive of glTF mesh m, whose weight tracks
 * are named after m), false when the name has no such suffix. Defined in
 * skin.c; sw_morph_tracks and the animator's morph weights use it. */
bool sw__morph_track_name(const sw_mesh* mesh, uint32_t k, bool prefix, char* buf, size_t cap);

/* Local transform of one joint of a loaded clip at `time` (clamped to
 * [0, duration], NaN as 0), bit for bit what the sampling job writes for that
 * joint, without sampling the others: raw clips evaluate the joint's tracks
 * (cursor-free key search), quantized clips decode only the joint's tracks
 * (walking the headers of the tracks before them in the segment), frames
 * clips interpolate the joint's packet with ops->interp (NULL:
 * sw__soa_best(), the job's path). Untracked channels: the skeleton's rest
 * value (identity for additive clips; the build skeleton's, baked in, for
 * frames clips). The clip must be loaded (validated) with joint < its joint
 * count and skel's; float tracks are not sampled. No allocation; the root
 * motion of the animator uses it. */
sw_xform sw__clip_sample_joint_with(const sw_clip* clip, const sw_skeleton* skel, uint32_t joint,
                                    float time, const sw__soa_ops* ops);
sw_xform sw__clip_sample_joint(const sw_clip* clip, const sw_skeleton* skel, uint32_t joint,
                               float time);

/* What a clip's sampled local transform of one joint can reach, for
 * sw_clip_check_extent (clip_extent.c): the largest 1-norm of its
 * translation, the largest magnitude of a scale component, and `turn`, the
 * largest stretch of its rotation as the runtime turns a quaternion q into
 * a matrix (the unit-quaternion formula on q is |q|^2 R + (1 - |q|^2) I,
 * R a rotation: norm 1 for |q| <= 1, 2|q|^2 - 1 above). */
typedef struct sw__joint_extent {
    double move;
    double scale;
    double turn;
} sw__joint_extent;

/* Raises slot `slot` (0 translation, 1 rotation, 2 scale) of x to cover the
 * value v (3 floats; 4 for a rotation, its x y z w as the matrix formula
 * reads them). Defined in clip_extent.c; the codecs' extent functions call
 * it on every value their decoder can return. */
void sw__joint_extent_raise(sw__joint_extent* x, uint32_t slot, const float* v);

/* Joint subsets (sinew/core/skeleton.h; joint_subset.c). True when the
 * subset keep (NULL: every joint) keeps joint j. */
static inline bool sw__subset_keeps(const uint8_t* keep, uint32_t j) {
    return !keep || (((unsigned)keep[j >> 2] >> (j & 3u)) & 1u) != 0u;
}
/* Writes rest's lanes into out where keep leaves a joint out (a run of
 * packets without a kept joint, as a detail-major joint order leaves at the
 * end, in one copy), over `packets` packets. */
void sw__subset_fill_rest(const uint8_t* keep, const sw_xform4* rest, sw_xform4* out,
                          uint32_t packets);
/* rest's lane l into out's */
static inline void sw__subset_copy_lane(const sw_xform4* rest, sw_xform4* out, uint32_t l) {
    out->tx[l] = rest->tx[l];
    out->ty[l] = rest->ty[l];
    out->tz[l] = rest->tz[l];
    out->rx[l] = rest->rx[l];
    out->ry[l] = rest->ry[l];
    out->rz[l] = rest->rz[l];
    out->rw[l] = rest->rw[l];
    out->sx[l] = rest->sx[l];
    out->sy[l] = rest->sy[l];
    out->sz[l] = rest->sz[l];
}
/* The same for one packet, whose keep bits k are neither 0 nor 15. */
void sw__subset_fill_packet(uint32_t k, const sw_xform4* rest, sw_xform4* out);
/* True when none of the 8 packets from keep holds a kept joint. */
static inline bool sw__subset_none8(const uint8_t* keep) {
    uint64_t w;
    memcpy(&w, keep, sizeof w);
    return (w & 0x0F0F0F0F0F0F0F0Fu) == 0u;
}
/* The packets of [p, end) (p <= end) from the first to the last holding a
 * kept joint: returns the first (end when there is none) and *span_end the
 * end (the packets between may hold none: one kernel call over the span
 * costs less than a call per run, and the jobs fill rest values after).
 * Inline: called per frames run and per job, mostly on a few packets. */
static inline uint32_t sw__subset_span(const uint8_t* keep, uint32_t p, uint32_t end,
                                       uint32_t* span_end) {
    /* 8 packets at a time over runs without a kept joint (a detail-major
     * order's left-out tail), then packet by packet */
    while (end - p >= 8u && sw__subset_none8(keep + p))
        p += 8u;
    while (p < end && (keep[p] & 15u) == 0)
        ++p;
    while (end - p >= 8u && sw__subset_none8(keep + end - 8u))
        end -= 8u;
    while (end > p && (keep[end - 1u] & 15u) == 0)
        --end;
    *span_end = end;
    return p;
}
/* A joint subset and what its jobs derive from it, worked out once for all
 * the jobs of an evaluation (sw__subset_of) or once per crowd level. */
struct sw__subset {
    const uint8_t* keep; /* NULL: every joint */
    uint32_t first, end; /* the span of packets holding kept joints (sw__subset_span) */
    uint32_t prefix;     /* joints kept from joint 0 on, up to the first left out */
    uint32_t mixed;      /* the span's first packet that may leave a joint out */
    uint32_t mixed_keep; /* its keep bits (15 past the span) */
    uint32_t mixed_lane; /* its one left-out lane when it ends the span (else 4) */
};
/* The subset keep (NULL: every joint) over `packets` packets. */
sw__subset sw__subset_of(const uint8_t* keep, uint32_t packets);

/* Below this magnitude a transform component is stored as 0 by
 * sw_skeleton_init and sw_clip_init (sw__flush_tiny): 2^-63, so that the
 * product of two stored components is 0 or a normal float. Exporters leave
 * values such as 5e-37 where they mean 0 (RobotExpressive's rest pose), and
 * arithmetic whose result underflows is slow on x86: the squares of two such
 * components made RobotExpressive's 2-layer blend 1.5x slower (SSE2 134 ->
 * 87 ns per character once flushed, AMD EPYC Zen 5). */
#define SW__TINY 0x1p-63f

/* v, or a zero of its sign when |v| < SW__TINY. */
static inline float sw__flush_tiny(float v) {
    return v > -SW__TINY && v < SW__TINY ? 0.0f * v : v;
}

/* 32-bit integer hash (xorshift-multiply, avalanching): seeded constants for
 * the procedural noise of hit effects and spine wander. */
static inline uint32_t sw__hash32(uint32_t x) {
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}

/* Finds the first i such that name(ctx, i) equals an earlier name; -1 when
 * all `count` names are distinct. count <= 1024 (a stack hash table of twice
 * that many slots). Defined in skeleton.c, used for joint and float track
 * names. */
int64_t sw__first_duplicate_name(const char* (*name)(const void* ctx, uint32_t i), const void* ctx,
                                 uint32_t count);

#endif
