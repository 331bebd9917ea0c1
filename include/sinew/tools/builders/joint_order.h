/* sinew/tools/builders/joint_order.h: the detail-major joint order (joint LOD).
 *
 * A joint LOD level keeps the joints whose detail is below its cut and whose
 * parent it keeps (sw_joint_subset_from_detail, sinew/core/skeleton.h). The
 * runtime works by SoA packets of 4 joints, and a packet holding one kept
 * joint costs as much as a full one; in the usual depth-first order a cut
 * leaves most packets mixed. Sorting the joints by effective detail (the
 * largest detail from the root down to the joint) makes every level keep a
 * prefix of the joints, so whole packets drop out of sampling, blending and
 * local-to-model.
 *
 * sw_joint_order_by_detail finds that order; sw_scene_reorder_joints
 * rewrites a skeleton and everything indexed by its joints (raw clips'
 * tracks, meshes' palettes) in a given order. Compress the reordered raw
 * clips afterwards (quantized and frames clips are not reordered). Joint
 * names, rest values, key values and skinning are unchanged: a reordered
 * rig samples and skins to the same poses, joint for joint by name.
 */
#ifndef SINEW_TOOLS_JOINT_ORDER_H
#define SINEW_TOOLS_JOINT_ORDER_H

#include "sinew/tools/builders/scene.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Writes order[k] = the index in s of joint k of the detail-major order:
 * joints sorted by effective detail e[j] = max(detail[j], e[parent]),
 * stably (equal values keep their order, so parents still precede
 * children). Every cut c then keeps the joints with e < c, a prefix.
 * Memory: detail (joints_count values, indexed by s's joints) and order
 * (joints_count entries) are the caller's. The detail of joint k in the new
 * order is detail[order[k]].
 * Fails: INVALID_ARGUMENT "arguments not NULL" (s, order or detail NULL);
 * BUFFER_TOO_SMALL "detail count" or "order count" when detail_count or
 * order_count is below s->joints_count. */
SINEW_API sw_result sw_joint_order_by_detail(const sw_skeleton* s, const uint8_t* detail,
                                             uint32_t detail_count, uint16_t* order,
                                             uint32_t order_count, sw_error* err);

/* Builds in *out the scene `in` with its joints in `order` (order[k] = old
 * index of new joint k, in->skeleton->joints_count entries, a permutation
 * listing parents before children, as sw_joint_order_by_detail gives): the
 * skeleton, every clip (raw; tracks on new joint indices, float tracks and
 * events as they were) and every mesh (palette entries on new indices).
 * Memory: *out is new, allocated with alloc (NULL: libc); free it with
 * sw_scene_free and the same allocator. `in` is not referenced afterwards.
 * Fails (*out zeroed): INVALID_ARGUMENT "arguments not NULL"; BAD_DATA
 * "order is a permutation" (err->index the first repeated or out-of-range
 * entry) or "parent in order before child" (err->index the new joint);
 * INVALID_ARGUMENT "raw clip" (err->index the clip) for a quantized or
 * frames clip, "clip joint count" or "mesh joint count" (err->index the clip
 * or mesh) when it does not fit the skeleton; OUT_OF_MEMORY; any failure of
 * sw_skeleton_create, sw_clip_create or sw_mesh_load. */
SINEW_API sw_result sw_scene_reorder_joints(const sw_scene* in, const uint16_t* order,
                                            const sw_allocator* alloc, sw_scene* out,
                                            sw_error* err);

#ifdef __cplusplus
}
#endif

#endif
