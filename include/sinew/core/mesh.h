/* sinew/core/mesh.h: skinned meshes (vertices, skin weights, bind data, morph targets).
 *
 * A mesh is one contiguous, relocatable block like sw_skeleton and sw_clip:
 * the sw_mesh header, then arrays addressed by byte offsets from it. It is
 * what a renderer needs to skin a character: positions (and optionally
 * normals and UVs) in bind space, up to 4 influences per vertex, triangle
 * indices, and a palette: palette entry i is skeleton joint palette[i] with
 * inverse bind matrix inverse_binds[i]. Feed sw_skinning_job with
 * .joints = sw_mesh_palette(m), .inverse_bind = sw_mesh_inverse_binds(m),
 * .count = m->palette_count. Vertex joint indices index the palette.
 *
 * Morph targets hold position (and optionally normal) deltas per vertex;
 * their animated weights are clip float tracks named
 * "<mesh name>.weights[<k>]" (see the importers).
 */
#ifndef SINEW_MESH_H
#define SINEW_MESH_H

#include "sinew/core/math.h"
#include "sinew/core/skeleton.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SW_MESH_MAX_VERTICES 16777216u
#define SW_MESH_MAX_INDICES 100663296u
#define SW_MESH_MAX_MORPH_TARGETS 256u
#define SW_MESH_MAX_NAME 255

#define SW_MESH_FLAG_NORMALS 1u       /* normals present */
#define SW_MESH_FLAG_UVS 2u           /* UVs present */
#define SW_MESH_FLAG_MORPH_NORMALS 4u /* morph targets carry normal deltas */

/* Block header. Offsets are in bytes from the start of this struct; 0 means absent. */
typedef struct sw_mesh {
    uint32_t size;                  /* bytes of the whole block */
    uint32_t flags;                 /* SW_MESH_FLAG_* */
    uint32_t vertices_count;        /* >= 1 */
    uint32_t indices_count;         /* multiple of 3 (triangle list) */
    uint32_t palette_count;         /* 1..1024 skin joints */
    uint32_t skeleton_joints_count; /* joints of the skeleton it binds to */
    uint32_t morph_targets_count;
    uint32_t name_offset;            /* NUL-terminated */
    uint32_t positions_offset;       /* float[3 * V], bind space */
    uint32_t normals_offset;         /* float[3 * V], finite (unit length not checked), or 0 */
    uint32_t uvs_offset;             /* float[2 * V], origin top left (glTF), or 0 */
    uint32_t joints_offset;          /* uint16_t[4 * V], palette indices */
    uint32_t weights_offset;         /* float[4 * V], each >= 0, summing to 1 within 1e-3 */
    uint32_t indices_offset;         /* uint32_t[I], each < V */
    uint32_t palette_offset;         /* uint16_t[palette_count], each < skeleton_joints_count */
    uint32_t inverse_binds_offset;   /* sw_mat4[palette_count], 16-byte aligned, finite */
    uint32_t morph_positions_offset; /* float[3 * V * targets] (target-major), or 0 */
    uint32_t morph_normals_offset;   /* float[3 * V * targets] or 0 */
    uint32_t morph_names_offset;     /* uint32_t[targets]: offsets of names, or 0 */
    uint32_t reserved;               /* zero */
} sw_mesh;

static inline const char* sw_mesh_name(const sw_mesh* m) {
    return (const char*)m + m->name_offset;
}
static inline const float* sw_mesh_positions(const sw_mesh* m) {
    return (const float*)(const void*)((const char*)m + m->positions_offset);
}
/* NULL when the mesh has no normals. */
static inline const float* sw_mesh_normals(const sw_mesh* m) {
    return m->normals_offset ? (const float*)(const void*)((const char*)m + m->normals_offset)
                             : NULL;
}
/* NULL when the mesh has no UVs. */
static inline const float* sw_mesh_uvs(const sw_mesh* m) {
    return m->uvs_offset ? (const float*)(const void*)((const char*)m + m->uvs_offset) : NULL;
}
static inline const uint16_t* sw_mesh_joints(const sw_mesh* m) {
    return (const uint16_t*)(const void*)((const char*)m + m->joints_offset);
}
static inline const float* sw_mesh_weights(const sw_mesh* m) {
    return (const float*)(const void*)((const char*)m + m->weights_offset);
}
static inline const uint32_t* sw_mesh_indices(const sw_mesh* m) {
    return (const uint32_t*)(const void*)((const char*)m + m->indices_offset);
}
static inline const uint16_t* sw_mesh_palette(const sw_mesh* m) {
    return (const uint16_t*)(const void*)((const char*)m + m->palette_offset);
}
static inline const sw_mat4* sw_mesh_inverse_binds(const sw_mesh* m) {
    return (const sw_mat4*)(const void*)((const char*)m + m->inverse_binds_offset);
}
/* Position deltas of target k start at 3 * V * k. NULL without targets. */
static inline const float* sw_mesh_morph_positions(const sw_mesh* m) {
    return m->morph_positions_offset
               ? (const float*)(const void*)((const char*)m + m->morph_positions_offset)
               : NULL;
}
/* NULL when the targets carry no normal deltas. */
static inline const float* sw_mesh_morph_normals(const sw_mesh* m) {
    return m->morph_normals_offset
               ? (const float*)(const void*)((const char*)m + m->morph_normals_offset)
               : NULL;
}

typedef struct sw_mesh_desc {
    const char* name; /* NULL: "" */
    uint32_t vertices_count;
    const float* positions;       /* 3 * V */
    const float* normals;         /* optional, 3 * V */
    const float* uvs;             /* optional, 2 * V; origin at the top left, v down (as glTF) */
    const uint16_t* joints;       /* 4 * V palette indices (unused slots: weight 0) */
    const float* weights;         /* 4 * V */
    const uint32_t* indices;      /* optional: NULL means 0..V-1 (V a multiple of 3) */
    uint32_t indices_count;       /* 0 when indices is NULL */
    const uint16_t* palette;      /* palette_count skeleton joints */
    const sw_mat4* inverse_binds; /* palette_count */
    uint32_t palette_count;
    uint32_t skeleton_joints_count;
    uint32_t morph_targets_count;
    const float* morph_positions;   /* 3 * V * targets, target-major */
    const float* morph_normals;     /* optional (only with targets) */
    const char* const* morph_names; /* optional (only with targets), targets names */
} sw_mesh_desc;

/* Bytes needed to build `desc`, or 0 when it is invalid. */
SINEW_API size_t sw_mesh_measure(const sw_mesh_desc* desc);

/* Builds a mesh in caller memory (16-byte aligned, sw_mesh_measure bytes);
 * *out == mem. Weights are copied as given (not renormalized); indices are
 * always stored (0..V-1 when the desc has none).
 * Fails: INVALID_ARGUMENT (NULL arguments or required arrays, indices_count
 * without indices, morph arrays without targets), MISALIGNED,
 * BUFFER_TOO_SMALL; LIMIT (vertices, indices, palette 1..1024, skeleton
 * joints 1..SW_SKELETON_MAX_JOINTS, targets, names, block above 4 GiB);
 * BAD_DATA for non-finite values, an index >= V, indices not a multiple of 3,
 * a vertex joint >= palette_count with non-zero weight, negative weights or
 * sums off 1 by more than 1e-3, palette joints >= skeleton_joints_count,
 * singular inverse binds (upper 3x3 with |det| <= 1e-6 times the product of
 * its column lengths). err names the check and the element: the vertex, the
 * position in the index array, the palette entry, target * V + vertex for
 * morph deltas, the target for morph names. */
SINEW_API sw_result sw_mesh_init(void* mem, size_t size, const sw_mesh_desc* desc,
                                 const sw_mesh** out, sw_error* err);
SINEW_API sw_result sw_mesh_create(const sw_mesh_desc* desc, const sw_allocator* alloc,
                                   const sw_mesh** out, sw_error* err);
SINEW_API void sw_mesh_destroy(const sw_mesh* m, const sw_allocator* alloc);

/* Validates a mesh block in place (16-byte aligned) and sets *out to it.
 * Same checks as sw_mesh_init, plus: size within `size` (TRUNCATED), reserved
 * zero, known flags matching the optional offsets, every array after the
 * header, aligned to its element (16 for inverse binds) and inside the block,
 * names NUL-terminated inside the block (BAD_DATA). */
SINEW_API sw_result sw_mesh_load(const void* data, size_t size, const sw_mesh** out, sw_error* err);

/* Name of morph target k, "" when the mesh has no names or k is out of range. */
SINEW_API const char* sw_mesh_morph_name(const sw_mesh* m, uint32_t k);

#ifdef __cplusplus
}
#endif

#endif
