/* sinew/tools/builders/raw_skin.h: skin influences gathered in any order, reduced to
 * the four per vertex that an sw_mesh stores.
 *
 * Importers add (vertex, joint, weight) influences as they find them (per
 * vertex from glTF attributes, per bone from assimp); building keeps at most
 * four per vertex and normalizes them to sum to 1. Joints are whatever
 * index the caller uses (a palette entry or a skin joint); the raw skin does
 * not interpret them.
 */
#ifndef SINEW_TOOLS_RAW_SKIN_H
#define SINEW_TOOLS_RAW_SKIN_H

#include "sinew/core/base.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct sw_raw_skin sw_raw_skin;

/* Creates an empty raw skin for `vertices_count` vertices, allocated with
 * `alloc` (NULL: libc); free it with sw_raw_skin_destroy.
 * Fails: INVALID_ARGUMENT (NULL out); LIMIT (0 or more than
 * SW_MESH_MAX_VERTICES vertices); OUT_OF_MEMORY. */
SINEW_API sw_result sw_raw_skin_create(uint32_t vertices_count, const sw_allocator* alloc,
                                       sw_raw_skin** out, sw_error* err);

/* Adds one influence of `joint` on `vertex` with `weight` (finite, >= 0).
 * Influences keep the order they were added in per vertex; a zero weight is
 * kept too (it holds its slot when the vertex has four influences or fewer).
 * Fails: INVALID_ARGUMENT (NULL skin, vertex out of range, weight negative
 * or not finite); LIMIT (more than UINT32_MAX - 1 influences);
 * OUT_OF_MEMORY (the skin is unchanged). */
SINEW_API sw_result sw_raw_skin_add(sw_raw_skin* skin, uint32_t vertex, uint16_t joint,
                                    float weight, sw_error* err);

typedef struct sw_raw_skin_stats {
    uint32_t unweighted;   /* vertices without a non-zero weight (all four weights 0) */
    uint32_t renormalized; /* vertices whose kept weights summed to more than 1e-3 off 1 */
    uint32_t dropped;      /* non-zero influences beyond the four kept, over all vertices */
} sw_raw_skin_stats;

/* Writes four joints and weights per vertex into joints[4 * V] and
 * weights[4 * V] (caller-owned). A vertex with four influences or fewer
 * keeps them in the order added (unused slots: joint 0, weight 0); one with
 * more keeps the four largest, largest first (of equal weights the earlier
 * added). The kept weights are divided by their sum (in double); a slot of
 * weight 0 gets joint 0; a vertex whose weights are all 0 stays all 0 and
 * is counted in stats->unweighted (optional `stats`).
 * Fails: INVALID_ARGUMENT (NULL skin, joints or weights). */
SINEW_API sw_result sw_raw_skin_build(const sw_raw_skin* skin, uint16_t* joints, float* weights,
                                      sw_raw_skin_stats* stats, sw_error* err);

/* Frees a raw skin from sw_raw_skin_create; NULL is a no-op. */
SINEW_API void sw_raw_skin_destroy(sw_raw_skin* skin);

#ifdef __cplusplus
}
#endif

#endif
