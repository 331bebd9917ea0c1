/* sinew/tools/builders/scene.h: what an importer returns.
 *
 * One skeleton, the clips that animate it and the skinned meshes bound to
 * it, each an independent runtime block allocated with the importer's
 * allocator (sw_skeleton_create, sw_clip_create, sw_mesh_create), and the
 * two pointer arrays allocated with sw_alloc(alloc, count * sizeof(void*),
 * alignof pointer). sw_scene_free releases all of it.
 */
#ifndef SINEW_TOOLS_SCENE_H
#define SINEW_TOOLS_SCENE_H

#include "sinew/core/clip.h"
#include "sinew/core/mesh.h"
#include "sinew/core/skeleton.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct sw_scene {
    const sw_skeleton* skeleton;
    const sw_clip** clips; /* clips_count entries, names unique */
    uint32_t clips_count;
    const sw_mesh** meshes; /* meshes_count entries */
    uint32_t meshes_count;
    char warning[256]; /* non-fatal remarks, "" when none */
} sw_scene;

/* Frees the skeleton, clips, meshes and arrays of a scene filled by an
 * importer with `alloc` (NULL: libc), and zeroes it. A zeroed scene is a
 * no-op. A partly built scene frees cleanly when its counts give the sizes
 * the arrays were allocated with and the entries not built yet are NULL
 * (builders zero the arrays and set the counts right after allocating). */
SINEW_API void sw_scene_free(sw_scene* s, const sw_allocator* alloc);

/* Appends a remark to s->warning ("; "-separated), truncating when full. */
SINEW_API void sw_scene_warn(sw_scene* s, const char* text);

#ifdef __cplusplus
}
#endif

#endif
