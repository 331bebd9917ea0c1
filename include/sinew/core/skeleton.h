/* sinew/core/skeleton.h: joint hierarchy, names and rest pose.
 *
 * A skeleton is one contiguous, relocatable block of memory: the sw_skeleton
 * header followed by its arrays, all addressed by byte offsets from the start
 * of the header. It can be copied with memcpy, stored in a .sinew archive as
 * is, and used in place from a loaded file. It is immutable once built and
 * may be shared between characters and threads.
 *
 * Joints are parent-first (parents[i] < i, roots have -1), at most
 * SW_SKELETON_MAX_JOINTS, with unique non-empty names. The rest pose is
 * stored as SoA packets; padding lanes hold identity.
 *
 * Build one from a desc whose joints are already parent-first
 * (sw_skeleton_init / sw_skeleton_create), from joints in any order with
 * the tools (sinew/tools/builders/raw_skeleton.h), or load one from bytes
 * (sw_skeleton_load).
 */
#ifndef SINEW_SKELETON_H
#define SINEW_SKELETON_H

#include "sinew/core/math.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SW_SKELETON_MAX_JOINTS 1024
/* Longest joint name in bytes, without the terminating NUL. */
#define SW_SKELETON_MAX_NAME 255

/* Block header. Offsets are in bytes from the start of this struct. */
typedef struct sw_skeleton {
    uint32_t size;           /* bytes of the whole block */
    uint32_t joints_count;   /* 1..SW_SKELETON_MAX_JOINTS */
    uint32_t packets_count;  /* (joints_count + 3) / 4 */
    uint32_t rest_offset;    /* sw_xform4[packets_count], 16-byte aligned */
    uint32_t parents_offset; /* int16_t[joints_count] */
    uint32_t names_offset;   /* uint32_t[joints_count]: offsets of NUL-terminated names */
    uint32_t reserved[2];    /* zero */
} sw_skeleton;

typedef struct sw_skeleton_joint {
    const char* name;
    int32_t parent; /* index of an earlier joint, or -1 for a root */
    sw_xform rest;  /* local rest transform; rotation unit within 1e-3 */
} sw_skeleton_joint;

typedef struct sw_skeleton_desc {
    const sw_skeleton_joint* joints; /* parent-first */
    uint32_t joints_count;
} sw_skeleton_desc;

static inline const sw_xform4* sw_skeleton_rest_pose(const sw_skeleton* s) {
    return (const sw_xform4*)(const void*)((const char*)s + s->rest_offset);
}
static inline const int16_t* sw_skeleton_parents(const sw_skeleton* s) {
    return (const int16_t*)(const void*)((const char*)s + s->parents_offset);
}
/* Name of joint j (j < joints_count; not checked). */
static inline const char* sw_skeleton_joint_name(const sw_skeleton* s, uint32_t j) {
    const uint32_t* offs = (const uint32_t*)(const void*)((const char*)s + s->names_offset);
    return (const char*)s + offs[j];
}

/* Bytes needed to build `desc`, or 0 when the desc is invalid (see
 * sw_skeleton_init for the reasons). */
SINEW_API size_t sw_skeleton_measure(const sw_skeleton_desc* desc);

/* Builds a skeleton from `desc` in caller memory `mem` (16-byte aligned, at
 * least sw_skeleton_measure bytes) and sets *out to it (out == mem).
 * Rest components smaller in magnitude than 2^-63 are stored as zeros of
 * their sign (as sw_clip_init stores key values), the others as given.
 * Memory: the caller owns mem; the desc is not referenced afterwards.
 * Fails: SW_RESULT_INVALID_ARGUMENT for NULL arguments (also NULL joints or
 * a NULL joint name); MISALIGNED;
 * BUFFER_TOO_SMALL; LIMIT for 0 or more than SW_SKELETON_MAX_JOINTS joints or
 * a name longer than SW_SKELETON_MAX_NAME; BAD_DATA for a parent that is not
 * an earlier joint, empty or duplicate names, non-finite values, a
 * non-unit rotation or a model-space rest pose that could overflow (scale
 * products or translation sums past FLT_MAX / 16: "rest pose finite in
 * model space"). err (optional) names the check and the joint; for the
 * parent, empty/duplicate name and rest checks its offset is where the field
 * sits in the block being built (0 otherwise). The block built
 * is checked with the same routine as sw_skeleton_load, so it always loads. */
SINEW_API sw_result sw_skeleton_init(void* mem, size_t size, const sw_skeleton_desc* desc,
                                     const sw_skeleton** out, sw_error* err);

/* sw_skeleton_measure + allocation + sw_skeleton_init. Free with
 * sw_skeleton_destroy and the same allocator (NULL: libc).
 * Fails: as sw_skeleton_init, plus OUT_OF_MEMORY. */
SINEW_API sw_result sw_skeleton_create(const sw_skeleton_desc* desc, const sw_allocator* alloc,
                                       const sw_skeleton** out, sw_error* err);
SINEW_API void sw_skeleton_destroy(const sw_skeleton* s, const sw_allocator* alloc);

/* Validates a skeleton block of `size` bytes at `data` (16-byte aligned) and
 * sets *out to it in place: nothing is copied, data must outlive the use.
 * Checks every field a job relies on (sizes, offsets, alignment, parents,
 * names, finite unit rest pose bounded in model space, identity padding
 * lanes).
 * Fails: INVALID_ARGUMENT, MISALIGNED, TRUNCATED, LIMIT, BAD_DATA; err names
 * the check, the byte offset in the block and the joint. */
SINEW_API sw_result sw_skeleton_load(const void* data, size_t size, const sw_skeleton** out,
                                     sw_error* err);

/* Index of the joint named `name` (exact, case-sensitive), or -1. O(joints). */
SINEW_API int32_t sw_skeleton_find_joint(const sw_skeleton* s, const char* name);

/* The chain of joints from `root_name` down to `tip_name` (both included),
 * written root first into out[0..*out_count).
 * Fails: INVALID_ARGUMENT for NULL arguments; NOT_FOUND when a name is
 * unknown or root is not an ancestor of (or equal to) tip;
 * BUFFER_TOO_SMALL when the chain is longer than out_capacity. */
SINEW_API sw_result sw_skeleton_find_chain(const sw_skeleton* s, const char* root_name,
                                           const char* tip_name, uint16_t* out,
                                           uint32_t out_capacity, uint32_t* out_count);

/* Joint subsets (joint LOD). A subset is `keep`, one byte per packet of the
 * skeleton: bit l of keep[p] set when joint 4p + l is kept (bits of the
 * padding lanes are ignored). The sampling, blending and local-to-model jobs
 * and sw_animator_evaluate_subset take one: they compute only the kept
 * joints (a packet without a kept joint costs a copy of the rest packet),
 * which come out exactly as without a subset; every other joint holds its
 * rest local transform (identity in additive poses), so it follows its
 * parent rigidly at its rest offset. Local-to-model requires the subset to
 * be closed under parents (a kept joint's parent is kept). */

/* Builds the subset keeping each joint j with detail[j] < cut whose parent is
 * kept (cut 0 keeps every joint), so the result is closed under parents.
 * Writes keep[0..packets_count) (padding bits clear); returns the number of
 * kept joints. Fails (returns 0, keep untouched): NULL arguments,
 * keep_count < packets_count. */
SINEW_API uint32_t sw_joint_subset_from_detail(const sw_skeleton* s, const uint8_t* detail,
                                               uint32_t cut, uint8_t* keep, uint32_t keep_count);

/* Number of joints a subset keeps (bits past joints_count ignored); 0 for
 * NULL arguments. */
SINEW_API uint32_t sw_joint_subset_count(const sw_skeleton* s, const uint8_t* keep);

/* True when every kept joint's parent is kept (NULL keep: true). */
SINEW_API bool sw_joint_subset_closed(const sw_skeleton* s, const uint8_t* keep);

#ifdef __cplusplus
}
#endif

#endif
