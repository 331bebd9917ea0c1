/* sinew/assimp/assimp_import.h: importing characters through assimp.
 *
 * Reads any format assimp 5.2 reads (FBX, glTF 2.0, Collada, .X, BVH, CSM,
 * ...) into an sw_scene: one skeleton, one clip per animation, one skinned
 * mesh per assimp mesh.
 *
 * Skeleton: the nodes that carry a mesh's bones, the animated nodes and the
 * nodes holding imported meshes, plus all their ancestors up to the root
 * node; with nothing of the kind, the root node alone. Rest poses are the
 * nodes' transforms (shear is lost). Empty or repeated node names are made
 * unique ("node_7", "Hand_2"). FBX "$AssimpFbx$" helper nodes that survive
 * are folded into the node below them (their transforms composed into its
 * rest pose and keys) unless `keep_pivots` is set or they are animated.
 *
 * Clips: key times become seconds (ticks / ticks per second); every channel
 * keeps its own key times; keys at negative times or not after the previous
 * key are dropped (a warning counts them); rotations are normalized and made
 * sign-continuous; interpolation is linear (assimp's pre/post states are
 * ignored); the duration is the longer of the animation's and its last key.
 * Empty or repeated clip names are made unique ("clip_0", "Walk_2").
 *
 * Meshes: triangles only (assimp triangulates; points and lines are
 * skipped), up to 4 influences per vertex renormalized to sum 1, bone
 * offset matrices as inverse binds; bones naming no node are dropped with
 * their weights (a warning says so). Vertices without weights, and meshes
 * without bones, are bound rigidly to the joint of the node holding the
 * mesh (identity inverse bind). UVs are channel 0 as assimp gives them
 * (origin bottom left). Names are made unique ("mesh_3" when empty, cut to
 * 241 bytes). Morph targets come from assimp's anim meshes (whole shapes,
 * stored as deltas from the base mesh; names "target_<k>" when empty) and
 * their animated weights become clip float tracks "<mesh name>.weights[k]".
 * The skeleton meshes assimp makes up for BVH and CSM files are not
 * imported. assimp's per-mesh vertex animation channels are not imported
 * (a warning says so).
 *
 * Units: FBX files are converted to metres from their UnitScaleFactor
 * (centimetres: 0.01) unless `scale` is given; other formats keep their
 * units unless `scale` is given. Scaling multiplies every translation
 * (rest poses, keys, vertex positions, inverse binds), so proportions hold.
 *
 * Non-fatal remarks (defaulted tick rates, dropped keys, renormalized
 * weights, ...) are collected in scene->warning.
 */
#ifndef SINEW_TOOLS_ASSIMP_IMPORT_H
#define SINEW_TOOLS_ASSIMP_IMPORT_H

#include "sinew/tools/builders/scene.h"
#include "sinew/tools/readers/asset.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SW_ASSIMP_MAX_NODES 1048576u /* node tree size accepted from assimp */

typedef struct sw_assimp_options {
    float scale; /* 0: the format's units to metres (FBX UnitScaleFactor), else this factor */
    float default_ticks_per_second; /* 0: 25; used when a file gives 0 ticks per second (3DS) */
    const char* const* clips;       /* names of the clips to keep (after renaming); NULL: all */
    uint32_t clips_count;
    bool keep_pivots; /* FBX: keep assimp's $AssimpFbx$ pivot helper nodes as joints */
} sw_assimp_options;

/* Imports the file at `path` through assimp into *out (options NULL: all
 * defaults); every block is allocated with `alloc` (NULL: libc).
 * Memory: free with sw_scene_free and the same allocator. On failure *out
 * holds nothing to free; its warning then holds assimp's own message when
 * assimp refused the file.
 * Fails: INVALID_ARGUMENT (NULL path or out, a negative or non-finite scale
 * or tick rate, clips_count without clips); LIMIT "input size" (memory
 * above 4 GiB); PARSE "assimp read the file", "scene has a root node";
 * NOT_FOUND "requested clip exists" (err->index the option's entry); LIMIT
 * "nodes count", "joints count", "vertices count", "indices count",
 * "palette count", "keys count", "morph targets count", "float tracks
 * count"; BAD_DATA for what assimp hands back broken: NULL arrays or
 * entries ("child node not NULL", "bone not NULL", ...), "node mesh index
 * in range", "finite node transform", "finite key
 * time", "finite key value", "non-zero rotation key", "finite vertex
 * position", "face index < vertices", "finite bone offset matrix",
 * "invertible bone offset matrix", "bone vertex id in range", "finite
 * non-negative weight", "finite morph position", "finite morph normal";
 * and the checks of sw_raw_skeleton_build, sw_clip_create and
 * sw_mesh_create; OUT_OF_MEMORY.
 * Threads: assimp's C API keeps its last error message in a global; do not
 * run imports concurrently. assimp may crash or hang on hostile files: use
 * sw_assimp_import_file_isolated for those. */
SINEW_API sw_result sw_assimp_import_file(const char* path, const sw_assimp_options* options,
                                          const sw_allocator* alloc, sw_scene* out, sw_error* err);

/* As sw_assimp_import_file, from `size` bytes in memory. `hint_extension`
 * ("fbx", "glb", no dot; NULL: let assimp guess) tells assimp the format
 * and decides the FBX unit conversion. Files that reference other files
 * (.gltf buffers, textures) cannot be read from memory. */
SINEW_API sw_result sw_assimp_import_memory(const void* data, size_t size,
                                            const char* hint_extension,
                                            const sw_assimp_options* options,
                                            const sw_allocator* alloc, sw_scene* out,
                                            sw_error* err);

/* sw_assimp_import_file run in a child process (sinew/tools/readers/isolate.h) that
 * is killed after `timeout_ms` (0: 30 s). The child sends the scene back as
 * a .sinew archive, loaded and validated here, so a crash, hang or memory
 * corruption inside assimp cannot reach the caller.
 * Memory: as sw_assimp_import_file.
 * On failure out->warning holds the child's warning text (assimp's message
 * when assimp refused the file, "importer exited with status N" when the
 * child exited without a result).
 * Fails: as sw_assimp_import_file, with the child's result and check (see
 * sw_isolate_run); LIMIT "import timed out"; BAD_DATA "importer crashed
 * (signal N)" for signals 4, 6, 7, 8, 9, 11, 13, 15 and 24, else "importer
 * crashed (other signal)" with err->index the signal; IO when the child
 * cannot be started or exits without a result; the checks of
 * sw_archive_load, sw_skeleton_load, sw_clip_load and sw_mesh_load on what
 * it sent.
 * Threads: forks; call from a single-threaded point of the program. */
SINEW_API sw_result sw_assimp_import_file_isolated(const char* path,
                                                   const sw_assimp_options* options,
                                                   uint32_t timeout_ms, const sw_allocator* alloc,
                                                   sw_scene* out, sw_error* err);

/* The reader sw_asset_open uses for what assimp reads, through a caller's
 * table: sw_asset_options.readers = (const sw_asset_reader[]){SW_ASSIMP_ASSET_READER}.
 * Reads in this process (sw_asset_open runs readers in a child unless
 * readers_in_process) with the options' scale and clips, libc memory.
 * Fails: as sw_assimp_import_file, except that a file assimp refuses fails
 * with PARSE "known file format" (assimp's reason in out->warning), so
 * that the next reader is tried. user is unused. */
SINEW_API sw_result sw_assimp_asset_read(void* user, const char* path,
                                         const sw_asset_options* options, sw_scene* out,
                                         sw_error* err);
/* The reader's `knows`: true when assimp has an importer for the path's
 * extension (any case); false for a path without one. user and the head are
 * unused. */
SINEW_API bool sw_assimp_asset_knows(void* user, const char* path, const void* head,
                                     size_t head_size);
#define SW_ASSIMP_ASSET_READER                                                                     \
    { "assimp", sw_assimp_asset_read, NULL, sw_assimp_asset_knows }

#ifdef __cplusplus
}
#endif

#endif
