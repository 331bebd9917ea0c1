/* sinew/tools/builders/raw_skeleton.h: building skeletons from joints in any order.
 *
 * Importers collect joints as they find them; this orders them parent-first
 * (depth-first from the roots, siblings and roots kept in input order),
 * rejects what cannot be a skeleton, and builds an sw_skeleton.
 */
#ifndef SINEW_TOOLS_RAW_SKELETON_H
#define SINEW_TOOLS_RAW_SKELETON_H

#include "sinew/core/skeleton.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct sw_raw_joint {
    const char* name;
    int32_t parent; /* index into the same raw array (any order), or -1 */
    sw_xform rest;
} sw_raw_joint;

/* Orders `joints` parent-first and builds a skeleton allocated with `alloc`
 * (NULL: libc); free it with sw_skeleton_destroy. If `remap` is not NULL it
 * receives joints_count entries: remap[raw index] = skeleton index.
 * Memory: the raw joints are not referenced afterwards.
 * Fails: INVALID_ARGUMENT (NULL joints with a count); LIMIT (0 or too many
 * joints); BAD_DATA with err->check "parent in range", "parent cycle",
 * "unique joint names", or any check of sw_skeleton_init; err->index is the
 * raw index of the offending joint. OUT_OF_MEMORY. */
SINEW_API sw_result sw_raw_skeleton_build(const sw_raw_joint* joints, uint32_t joints_count,
                                          const sw_allocator* alloc, const sw_skeleton** out,
                                          int32_t* remap, sw_error* err);

#ifdef __cplusplus
}
#endif

#endif
