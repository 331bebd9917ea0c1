/* sinew/core/skin.h: CPU vertex skinning (linear blend and dual quaternion)
 * and morph targets, the per-frame jobs that deform a sw_mesh.
 *
 * Per frame, for a mesh m bound to a skeleton:
 *
 *     morph:   sw_morph_job    m's bind positions (and normals) + sum of
 *                              weight_k * delta_k  -> positions', normals'
 *     palette: sw_skinning_job (sinew/core/skinning.h) -> sw_mat4 per palette
 *              entry, or sw_dq_palette_job -> sw_dq_transform per entry
 *     skin:    sw_skin_job with either palette (linear blend or dual
 *              quaternion) over positions' (or m's bind positions)
 *              -> model-space positions and normals
 *
 * Linear blend skinning (LBS): p' = (sum_i w_i P_i) p with P_i the palette
 * matrices of the vertex's 4 influences (weights from the mesh, summing to
 * 1). Joints twisted far from each other make the blended matrix shrink
 * toward the twist axis (the "candy wrapper"); docs/skinning.md gives the
 * figure.
 *
 * Dual quaternion skinning (DQS, Kavan, Collins, Zara, O'Sullivan 2008,
 * "Geometric Skinning with Approximate Dual Quaternion Blending", ACM TOG
 * 27(4)): each palette matrix P is split into a rigid part (rotation R,
 * translation t) and a scale/shear matrix S applied first, P = [R | t] * S,
 * with R the rotation of P's polar decomposition (S = R^T P3, symmetric
 * positive definite when det P3 > 0). The rigid parts become unit dual
 * quaternions, blended per vertex (each influence's sign flipped to the
 * hemisphere of the influence with the largest weight, then normalized);
 * the S_i are blended linearly and applied before the blended rigid motion,
 * as Kavan et al. section 4.3 ("non-rigid joint transformations") and
 * Blender's "Preserve Volume" armature deform (mat4_to_dquat, mul_v3m3_dq)
 * do. A vertex with one influence gets exactly P p, as with LBS.
 *
 * Normals: the blended 3x3 A of a vertex (LBS: sum w_i P_i's upper 3x3;
 * DQS: R_blend * S_blend) carries normals either as A n (MATRIX, the
 * default: exact for rotations and uniform scale, as most engines do) or as
 * cof(A) n = det(A) A^-T n (COFACTOR: the inverse transpose, exact under
 * non-uniform scale and shear, and consistent with the winding of
 * transformed triangles when a matrix mirrors). Output normals are then
 * normalized (a zero normal stays zero).
 *
 * Vertex ranges: a job deforms vertices [first_vertex, first_vertex +
 * vertices_count) (vertices_count 0: to the end of the mesh), reading and
 * writing 3 floats per vertex at 3 * vertex of whole-mesh arrays, so jobs on
 * disjoint ranges of one mesh may run on different threads into the same
 * buffers. Jobs never allocate; run = validate + the kernels (SIMD, the
 * path sw__soa_best picks, agreeing with the scalar reference within the
 * tolerances of src/runtime/simd/soa_check.h).
 */
#ifndef SINEW_SKIN_H
#define SINEW_SKIN_H

#include "sinew/core/clip.h"
#include "sinew/core/mesh.h"

#ifdef __cplusplus
extern "C" {
#endif

/* How normals follow the blended transform (see the top). */
typedef enum sw_skin_normals {
    SW_SKIN_NORMALS_DEFAULT = 0, /* MATRIX */
    SW_SKIN_NORMALS_MATRIX,      /* A n, normalized */
    SW_SKIN_NORMALS_COFACTOR     /* cof(A) n = det(A) A^-T n, normalized */
} sw_skin_normals;

/* One palette entry for dual quaternion skinning: p' = R (S p) + t with the
 * rigid part as a unit dual quaternion (real, dual) and S the 3x3
 * scale/shear applied first. 16-byte aligned, 80 bytes (GPU friendly: 5
 * vec4). */
typedef struct sw_dq_transform {
    SINEW_ALIGN16 float real[4]; /* x, y, z, w: unit quaternion of R, w >= 0 */
    float dual[4];               /* 0.5 * (t, 0) * real (quaternion product) */
    float scale[12];             /* S column-major, column c in scale[4c..4c+2]; scale[4c+3] = 0 */
} sw_dq_transform;

/* Skinning of a mesh's vertices: linear blend with `palette`, or dual
 * quaternion with `dq_palette` (set exactly one). */
typedef struct sw_skin_job {
    const sw_mesh* mesh;    /* joints and weights; bind positions and normals unless given */
    const sw_mat4* palette; /* linear blend: skinning matrices (sw_skinning_job: model *
                               inverse bind), affine, finite */
    const sw_dq_transform* dq_palette; /* dual quaternion: sw_dq_palette_job's output,
                                          16-byte aligned */
    uint32_t palette_count;            /* entries of the palette, >= mesh->palette_count */
    const float* positions;            /* optional: 3 * V positions used instead of the mesh's
                                          (the morph job's output); NULL: the mesh's bind positions */
    const float* normals;              /* optional: 3 * V normals used instead of the mesh's */
    uint32_t first_vertex;
    uint32_t vertices_count; /* 0: from first_vertex to the end of the mesh */
    sw_skin_normals normals_mode;
    float* out_positions; /* 3 * out_count floats, model space; the range is written */
    float* out_normals;   /* optional (needs normals: the mesh's or given); unit length */
    uint32_t out_count;   /* vertices the outputs hold, >= the range's end */
    sw_error* err;        /* optional: the failed check and the element */
} sw_skin_job;

/* Checks a skin job without running it. Fails: INVALID_ARGUMENT (NULL mesh
 * or out_positions; no palette or both; out_normals without normals; the
 * range beyond the mesh; an unknown normals_mode); BUFFER_TOO_SMALL
 * (palette_count below the mesh's, out_count below the range's end);
 * MISALIGNED (dq_palette); BAD_DATA (err->index: the palette entry): a
 * matrix with a non-finite value or a bottom row other than 0 0 0 1 (within
 * 1e-4), a dual quaternion entry with a non-finite value, a real part whose
 * length is off 1 by more than 1e-3 or non-zero scale padding; OVERLAP (an
 * output overlapping an input or the other output). Input positions and
 * normals given by the caller are not scanned: a non-finite one gives
 * non-finite outputs for its vertex only. */
SINEW_API sw_result sw_skin_job_validate(const sw_skin_job* job);
/* Validates, then writes out_positions (and out_normals) for the range.
 * On failure nothing is written. Threads: reentrant. */
SINEW_API sw_result sw_skin_job_run(const sw_skin_job* job);

/* Dual quaternion palette: out[i] from P = model[joints ? joints[i] : i] *
 * inverse_bind[i] (the matrix sw_skinning_job writes), split as the top of
 * this header says. Same inputs as sw_skinning_job. */
typedef struct sw_dq_palette_job {
    const sw_mat4* model; /* model-space matrices from local-to-model */
    uint32_t model_count;
    const uint16_t* joints;      /* optional: skeleton joint of each palette entry */
    const sw_mat4* inverse_bind; /* count matrices */
    uint32_t count;
    sw_dq_transform* out; /* count entries, 16-byte aligned; may not alias the inputs */
    uint32_t out_count;
    sw_error* err; /* optional: the failed check and the element */
} sw_dq_palette_job;

/* Fails: INVALID_ARGUMENT (NULL model, inverse_bind or out; count 0; a joint
 * index >= model_count, or count > model_count without a mapping);
 * BUFFER_TOO_SMALL; MISALIGNED (out); OVERLAP. */
SINEW_API sw_result sw_dq_palette_job_validate(const sw_dq_palette_job* job);
/* Validates, then writes the palette. A singular 3x3 (|det| <= 1e-12 times
 * the product of its column lengths, e.g. a joint scaled to 0) gets R =
 * identity and S = P's 3x3 (exact for one influence; blends like LBS).
 * Scales within 1e-6 of identity are stored as exactly identity (the skin
 * job then skips the scale blend when every entry has it). Fails also with
 * BAD_DATA (err->index: the entry) when a product P is not finite or not
 * affine (bottom row 0 0 0 1 within 1e-4); entries before it are written. */
SINEW_API sw_result sw_dq_palette_job_run(const sw_dq_palette_job* job);

/* Morph targets: out = bind + sum_k weights[k] * delta_k for positions, and
 * for normals when the mesh's targets carry normal deltas
 * (SW_MESH_FLAG_MORPH_NORMALS; otherwise the bind normals are copied).
 * Normals are not renormalized (the skin jobs normalize theirs). Targets
 * with weight 0 are skipped. A mesh without targets copies its bind data. */
typedef struct sw_morph_job {
    const sw_mesh* mesh;
    const float* weights;   /* weights_count floats, one per target; finite */
    uint32_t weights_count; /* >= mesh->morph_targets_count (NULL weights: 0 targets only) */
    uint32_t first_vertex;
    uint32_t vertices_count; /* 0: to the end of the mesh */
    float* out_positions;    /* 3 * out_count floats; the range is written */
    float* out_normals;      /* optional: needs mesh normals */
    uint32_t out_count;      /* vertices the outputs hold, >= the range's end */
    sw_error* err;           /* optional: the failed check and the element */
} sw_morph_job;

/* Fails: INVALID_ARGUMENT (NULL mesh or out_positions; out_normals on a mesh
 * without normals; the range beyond the mesh; weights NULL with targets);
 * BUFFER_TOO_SMALL (weights_count, out_count); BAD_DATA (a non-finite
 * weight: err->index is the target); OVERLAP. */
SINEW_API sw_result sw_morph_job_validate(const sw_morph_job* job);
/* Validates, then writes the range. On failure nothing is written. */
SINEW_API sw_result sw_morph_job_run(const sw_morph_job* job);

/* Morph weights from clip float tracks: tracks[k] (k < count) receives the
 * index f (sw_clip_float_track_name(clip, f)) of the track
 * "<mesh name>.weights[k]" the importers write for target k, or -1 when the
 * clip has none (or k is not a target). Call once per mesh and clip.
 * Returns how many targets have a track (0 for NULL arguments). */
SINEW_API uint32_t sw_morph_tracks(const sw_mesh* mesh, const sw_clip* clip, int32_t* tracks,
                                   uint32_t count);

/* Per frame, after sw_sample_job_run filled `floats` (the clip's float
 * tracks): weights[k] = floats[tracks[k]] for found tracks, 0 otherwise. */
static inline void sw_morph_weights_gather(const int32_t* tracks, uint32_t count,
                                           const float* floats, uint32_t floats_count,
                                           float* weights) {
    for (uint32_t k = 0; k < count; ++k)
        weights[k] =
            tracks[k] >= 0 && (uint32_t)tracks[k] < floats_count ? floats[tracks[k]] : 0.0f;
}

#ifdef __cplusplus
}
#endif

#endif
