/* sinew/retarget/mirror.h: mirroring poses (a left-foot turn into a right-foot turn).
 *
 * Mirror data is built once from a skeleton into caller memory (one
 * contiguous block, like sw_skeleton): each joint's twin, found from name
 * patterns (Left/Right, L/R, _l/_r, .L/.R, l_/r_ prefixes and suffixes,
 * case-insensitive) or given as pairs of names, plus the mirror plane through
 * the model origin (default: the axis along which the twins' rest positions
 * differ most, usually X). Joints without a twin mirror onto themselves.
 *
 * What a mirrored pose is: with R the reflection through the plane, the
 * mirrored pose puts every joint k where R puts its twin j,
 *     model'_k = R * model_j * R * C_j,
 * where C_j is the constant rotation that makes the mirrored reference
 * rotation of j equal the reference rotation of k in model space (the
 * reference is the rest pose, or the frames given, e.g. a mesh's bind
 * pose). So rigs whose rest pose is not mirror-symmetric in its local axes
 * (bone rolls, +X down one arm and -X down the other) mirror correctly: the
 * delta of j to its reference is reflected and applied to k's reference.
 * Per joint this reduces to local space with two constant rotations:
 *     r'_k = pre_k * reflect(r_j) * post_k
 *     t'_k = pre_k * reflect(t_j)
 *     s'_k = s_j
 * where reflect() keeps the quaternion component along the plane's normal
 * and negates the other two, or negates the vector component along it.
 * Model-space positions of the mirrored pose are the reflection of the
 * original's with twins swapped (bone lengths travel with the twin); root
 * translation and yaw, hence root motion, are mirrored too. Mirroring twice
 * gives the pose back. Scale is carried over per component, which is exact
 * for uniform scale.
 *
 *     size_t n = sw_mirror_measure(&desc);
 *     sw_mirror_init(mem, n, &desc, &mirror, &err);      // once
 *     sw_mirror_job job = { .mirror = mirror, .in = pose, .in_count = packets,
 *                           .out = mirrored, .out_count = packets };
 *     sw_mirror_job_run(&job);                           // per frame
 *
 * Baking mirrored clips offline: sinew/tools/builders/mirror_bake.h.
 */
#ifndef SINEW_MIRROR_H
#define SINEW_MIRROR_H

#include "sinew/core/skeleton.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum sw_mirror_axis {
    SW_MIRROR_AXIS_DEFAULT = 0, /* detected from the twins' rest positions (X when no twins) */
    SW_MIRROR_AXIS_X,           /* plane x = 0 (normal X) */
    SW_MIRROR_AXIS_Y,
    SW_MIRROR_AXIS_Z
} sw_mirror_axis;

/* A pair of joint names that are twins. A pair overrides what the name
 * patterns found for either joint; a pair of one name with itself makes that
 * joint mirror onto itself. */
typedef struct sw_mirror_pair {
    const char* a;
    const char* b;
} sw_mirror_pair;

typedef struct sw_mirror_desc {
    const sw_skeleton* skeleton;
    const sw_mirror_pair* pairs; /* optional manual map */
    uint32_t pairs_count;
    sw_mirror_axis axis; /* DEFAULT: detected */
    bool no_patterns;    /* true: only the manual pairs make twins (default false) */
    /* Optional model-space reference frame of each joint (joints_count
     * matrices; only their rotations are used): the pose whose mirror image
     * is itself. NULL: the skeleton's rest pose. Give the bind pose of a
     * skinned mesh when it differs from the rest pose, so the skinned mesh
     * mirrors as a mesh (sw_mirror_bind_frames in sinew/tools/builders/mirror_bake.h
     * makes them). */
    const sw_mat4* frames;
    uint32_t frames_count;
} sw_mirror_desc;

/* Block header. Offsets are in bytes from the start of this struct. */
typedef struct sw_mirror {
    uint32_t size;              /* bytes of the whole block */
    uint32_t joints_count;      /* the skeleton's */
    uint32_t packets_count;     /* (joints_count + 3) / 4 */
    uint32_t axis;              /* sw_mirror_axis: X, Y or Z, never DEFAULT */
    uint32_t pairs_count;       /* twin pairs (joints with another joint as twin, / 2) */
    uint32_t twins_offset;      /* uint16_t[joints_count]: twin of each joint (itself if none) */
    uint32_t pre_offset;        /* sw_quat[joints_count]: pre_k, by output joint */
    uint32_t post_offset;       /* sw_quat[joints_count]: post_k, by output joint */
    uint32_t rest_model_offset; /* sw_quat[joints_count] reference model rotations (rest or
                                   frames), then float[4] rest model positions */
    uint32_t reserved[3];       /* zero */
} sw_mirror;

/* Twin of joint j (j < joints_count; not checked). */
static inline uint32_t sw_mirror_twin(const sw_mirror* m, uint32_t j) {
    return ((const uint16_t*)(const void*)((const char*)m + m->twins_offset))[j];
}

/* Writes into out (capacity cap, NUL-terminated) the name with its side
 * swapped: the first of, in this order, a "left"/"right" word (any case,
 * case kept: LeftArm -> RightArm), a single L/R letter standing as a token
 * (prefix "L_", "l.", "LHand"; suffix "_l", ".L", "UpperArmL"; or between
 * separators "Bip01_L_Thigh"). Candidate `index` (0-based) selects the
 * index-th such place; returns false when the name has no index-th side
 * marker or out is too small. Used to find twins (each candidate is looked up
 * until one names another joint) and to swap float track and event names
 * (candidate 0). */
SINEW_API bool sw_mirror_swap_name(const char* name, uint32_t index, char* out, size_t cap);

/* Bytes needed for the mirror data of desc->skeleton, or 0 when desc or its
 * skeleton is NULL. */
SINEW_API size_t sw_mirror_measure(const sw_mirror_desc* desc);

/* Builds the mirror data in caller memory `mem` (16-byte aligned, at least
 * sw_mirror_measure bytes); *out == mem. Twins: the manual pairs first, then
 * (unless no_patterns) name patterns for the joints not in a pair, kept when
 * both joints find each other. The plane's axis: desc->axis, or the axis with
 * the largest sum over twin pairs of |rest position difference| along it.
 * Memory: the caller owns mem; desc is not referenced afterwards.
 * Fails: INVALID_ARGUMENT (NULL desc, skeleton, out or mem, NULL pair name,
 * unknown axis, skeleton with 0 or too many joints, frames_count below
 * joints_count when frames is set); BAD_DATA for a frame with a zero or
 * non-finite column; MISALIGNED;
 * BUFFER_TOO_SMALL; NOT_FOUND for a pair naming an unknown joint; BAD_DATA
 * for a joint in two pairs, or a manual pair whose parents are not twins
 * (the hierarchy must be symmetric; pairs found from names that break it
 * are dropped, their joints then mirror onto themselves).
 * err (optional) names the check; index is the pair or the joint. */
SINEW_API sw_result sw_mirror_init(void* mem, size_t size, const sw_mirror_desc* desc,
                                   const sw_mirror** out, sw_error* err);

/* measure + allocate + init; free with sw_mirror_destroy and the same
 * allocator (NULL: libc). Fails: as sw_mirror_init, plus OUT_OF_MEMORY. */
SINEW_API sw_result sw_mirror_create(const sw_mirror_desc* desc, const sw_allocator* alloc,
                                     const sw_mirror** out, sw_error* err);
SINEW_API void sw_mirror_destroy(const sw_mirror* m, const sw_allocator* alloc);

/* Mirrors one local transform of joint twin(k) into output joint k's local
 * space (the per-joint step of the job). Linear in t and r (r is not
 * normalized), so it also maps cubic tangents; k < joints_count (not
 * checked). */
SINEW_API sw_xform sw_mirror_xform(const sw_mirror* m, uint32_t k, sw_xform in_twin);

typedef struct sw_mirror_job {
    const sw_mirror* mirror;
    const sw_xform4* in; /* local pose, in_count >= mirror->packets_count */
    uint32_t in_count;
    sw_xform4* out; /* mirrored local pose (padding lanes identity), 16-byte aligned */
    uint32_t out_count;
} sw_mirror_job;

/* Fails: INVALID_ARGUMENT (NULL mirror, in or out; a mirror header with 0 or
 * more than SW_SKELETON_MAX_JOINTS joints or a packets_count that does not
 * match); BUFFER_TOO_SMALL (in_count or out_count below packets_count);
 * MISALIGNED (in or out); OVERLAP (out overlapping in or the mirror data:
 * twins swap, so the job does not run in place). */
SINEW_API sw_result sw_mirror_job_validate(const sw_mirror_job* job);

/* Validates, then writes the mirrored pose. On failure nothing is written.
 * Threads: reentrant; the mirror data may be shared. */
SINEW_API sw_result sw_mirror_job_run(const sw_mirror_job* job);

#ifdef __cplusplus
}
#endif

#endif
