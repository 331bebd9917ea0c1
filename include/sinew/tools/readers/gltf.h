/* sinew/tools/readers/gltf.h: reading glTF 2.0 (.gltf and .glb) natively.
 *
 * The reader returns an sw_scene (sinew/tools/builders/scene.h): one skeleton, one
 * clip per animation and one mesh per primitive (skinned, or rigid parts
 * bound to one joint).
 *
 * Skeleton: the joints of every skin (their union when there are several)
 * plus all their ancestors up to the scene roots, so that sampled model
 * space (local-to-model from the skeleton's roots) equals the file's scene
 * space, whatever transforms the ancestors carry. A file without skins gets
 * the animated nodes and their ancestors. Node names become joint names;
 * unnamed or duplicate names are made unique ("node_12"). Matrix nodes are
 * decomposed into translation, rotation and scale (shear is lost).
 *
 * Clips: one per animation (names unique, "animation_3" when unnamed), each
 * channel a track with its own key times, its sampler's interpolation (STEP,
 * LINEAR or CUBICSPLINE), duration the largest key time. Rotation keys are
 * normalized (they must be unit within 1e-2) and, for STEP and LINEAR, made
 * sign-continuous. Morph weight channels become float tracks named
 * "<mesh name>.weights[k]". Channels on nodes outside the skeleton, and a
 * second channel on the same node and path, are dropped with a warning.
 *
 * Meshes: each primitive of a node with a mesh becomes an sw_mesh named
 * "<mesh name>" (or "<mesh name>_<primitive>" when the mesh has several; a
 * mesh without a name takes the name of the node that uses it), with
 * positions, normals, TEXCOORD_0, triangle indices and morph targets (names
 * from extras.targetNames of the mesh or node when present).
 * - Skinned (the node has a skin): JOINTS_0 / WEIGHTS_0 (with JOINTS_1 /
 *   WEIGHTS_1 the four largest of the eight influences are kept; weights
 *   renormalized to sum 1); the palette maps the skin's joints to skeleton
 *   joints, with the skin's inverse bind matrices (identity when absent). As
 *   in glTF, the mesh node's own transform is ignored.
 * - Rigid (no skin, like most of RobotExpressive's body parts): bound whole
 *   to the nearest skeleton joint at or above its node, with as "inverse
 *   bind" the node's rest transform relative to that joint, so that
 *   model[joint] * inverse_bind is the node's model matrix. Mesh nodes with
 *   no skeleton joint above them (or a singular transform) are skipped with
 *   a warning.
 *
 * Accessors are read with byteStride, byteOffset and sparse substitution,
 * every range checked, with the component types the spec allows for their
 * use (normalized integers converted): animation times and translation or
 * scale outputs float; rotation and morph weight outputs float or normalized
 * (unsigned) byte or short; skin weights float or normalized unsigned byte
 * or short; joints unsigned byte or short; indices unsigned integers; mesh
 * positions, normals and texture coordinates also quantized
 * (KHR_mesh_quantization). A file whose extensionsRequired lists anything
 * but KHR_mesh_quantization or extensions about what the reader never reads
 * (KHR_materials_*, KHR_texture_*, EXT_texture_*, KHR_lights_punctual) is
 * refused, BAD_DATA naming the extension (Draco, meshopt, animation pointer,
 * GPU instancing by name in the check; any other in the error's detail, its
 * offset the name in the file).
 * Buffers come from the .glb BIN chunk, base64 data: URIs, or the resolve
 * callback for any other URI (there is no implicit file access).
 */
#ifndef SINEW_TOOLS_GLTF_H
#define SINEW_TOOLS_GLTF_H

#include "sinew/tools/builders/scene.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Largest accepted buffer (bytes) and file read by sw_gltf_read_file. */
#define SW_GLTF_MAX_BUFFER_BYTES 0x40000000u

/* Loads the resource at `uri` (as written in the file, percent-encoded) for
 * the reader: allocates *data with sw_alloc(alloc, *size, 16) and fills it.
 * The reader frees it with sw_free(alloc, *data, *size). Return OK, or a
 * failure with err filled (its check is reported to the reader's caller). */
typedef sw_result (*sw_gltf_resolve_fn)(void* user, const char* uri, const sw_allocator* alloc,
                                        void** data, size_t* size, sw_error* err);

typedef struct sw_gltf_options {
    float scale;              /* multiplies every length (positions, translations); 0 means 1 */
    const char* const* clips; /* optional: only the animations with these names */
    uint32_t clips_count;
    sw_gltf_resolve_fn resolve; /* external buffers; NULL: none (refused) */
    void* resolve_user;
} sw_gltf_options;

/* Reads a glTF 2.0 asset from memory: a .glb (binary container, detected by
 * its "glTF" magic) or .gltf JSON text, and builds the scene described above
 * with `alloc` (NULL: libc). `options` may be NULL.
 * Memory: *out owns everything; free it with sw_scene_free and the same
 * allocator. Nothing refers to `data` afterwards.
 * Fails (err names the check, offset is the byte in the input, index the
 * element: node, accessor, animation...): INVALID_ARGUMENT (NULL data or out,
 * a scale that is not finite and positive); TRUNCATED (.glb header or chunks
 * past the end); PARSE (JSON syntax); BAD_VERSION (asset.version or .glb
 * version not 2); BAD_DATA (an index out of range, "node cycle", a node with
 * two parents, accessor ranges outside their bufferView or buffer, non-finite
 * values, key times not increasing, non-unit rotations, a primitive mode
 * other than triangles, bad weights or joints, and every check of the
 * skeleton, clip and mesh builders); NOT_FOUND (no skin and no animated node;
 * a requested clip that is not in the file); IO (an external buffer without a
 * resolver, or the resolver's failure: its check and system error, the
 * detail naming the buffer and its URI, e.g. `buffer 0 "scene.bin"`);
 * LIMIT; OUT_OF_MEMORY.
 * On failure *out is zeroed (nothing to free). */
SINEW_API sw_result sw_gltf_read(const void* data, size_t size, const sw_gltf_options* options,
                                 const sw_allocator* alloc, sw_scene* out, sw_error* err);

/* Reads the .gltf or .glb file at `path` with sw_gltf_read; external buffers
 * resolve relative to the file's folder with sw_gltf_resolve_file, unless
 * options->resolve is set.
 * Fails: IO ("open file", "read file"), LIMIT (a file over
 * SW_GLTF_MAX_BUFFER_BYTES), and whatever sw_gltf_read returns. */
SINEW_API sw_result sw_gltf_read_file(const char* path, const sw_gltf_options* options,
                                      const sw_allocator* alloc, sw_scene* out, sw_error* err);

/* Writes the folder of the file at `path` (through its last '/', "" when
 * it has none) into folder, NUL-terminated: what sw_gltf_resolve_file takes.
 * Fails: INVALID_ARGUMENT (NULL arguments, cap 0), LIMIT ("path length":
 * it does not fit in cap bytes). */
SINEW_API sw_result sw_gltf_file_folder(const char* path, char* folder, size_t cap, sw_error* err);

/* A resolver for files: `folder` is a const char* directory ("" or NULL: the
 * current one). The URI is percent-decoded and must be a relative path inside
 * the folder: absolute paths, drive letters or schemes (any ':'), backslashes
 * and ".." segments are refused (IO, check "relative uri inside the folder").
 * Fails: IO ("open file", "read file"), LIMIT, OUT_OF_MEMORY. */
SINEW_API sw_result sw_gltf_resolve_file(void* folder, const char* uri, const sw_allocator* alloc,
                                         void** data, size_t* size, sw_error* err);

#ifdef __cplusplus
}
#endif

#endif
