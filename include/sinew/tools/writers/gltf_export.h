/* sinew/tools/writers/gltf_export.h: writing a scene as glTF 2.0 binary (.glb).
 *
 * What is written:
 * - one node per skeleton joint (its name, rest translation / rotation /
 *   scale, children), the skeleton's roots as the scene's roots;
 * - per mesh: a root node with the mesh and a skin whose joints are the
 *   mesh's palette and whose inverseBindMatrices are the mesh's; the mesh has
 *   one triangle primitive with POSITION (with min / max), NORMAL (normalized),
 *   TEXCOORD_0, JOINTS_0 (unsigned short; zero-weight slots point at 0),
 *   WEIGHTS_0 (renormalized to sum 1), uint32 indices and its morph targets
 *   (POSITION, NORMAL; names in mesh.extras.targetNames);
 * - when the meshes' palettes and their ancestors do not cover every joint
 *   (or there is no mesh), one more skin over all joints with the inverses of
 *   their model-space rest matrices, so that readers keep the whole skeleton;
 * - one animation per clip (additive clips are skipped: glTF has none): a
 *   sampler per track with its own key times (uniform keys expanded to
 *   explicit times) and its interpolation (STEP, LINEAR, CUBICSPLINE).
 *   Quantized and frames clips, which hold no joint tracks, are sampled by
 *   the sampling job at their codec's own samples (i / rate, the last at the
 *   duration): LINEAR translation, rotation and scale channels per joint,
 *   equal to the clip at those times (between them glTF's slerp stands in
 *   for the codec's interpolation); a channel holding the joint's rest
 *   value throughout is left out.
 *   Float tracks named "<mesh>.weights[k]" become one weights channel on the
 *   node of the mesh named <mesh> (or, when none, of every mesh named
 *   "<mesh>_<number>", as the readers name primitives); when those tracks'
 *   key times or interpolations differ, they are resampled linearly at the
 *   union of their key times. Other float tracks are not written. When the
 *   clip's duration passes its last key (or it has no track), a STEP channel
 *   holding the rest value of an untracked joint property, with keys at 0 and
 *   the duration, keeps the duration. Events go to animation.extras.events.
 * JSON numbers use %.9g (floats round-trip exactly); every buffer view is
 * 4-byte aligned; asset.generator is "sinew". Names that are not valid
 * UTF-8 have the offending bytes replaced by '?'.
 */
#ifndef SINEW_TOOLS_GLTF_EXPORT_H
#define SINEW_TOOLS_GLTF_EXPORT_H

#include "sinew/tools/builders/scene.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct sw_gltf_export_options {
    const char* const* clips; /* optional: only the clips with these names, in this order */
    uint32_t clips_count;
    /* optional: the buffer's uri, for a .gltf whose buffer is a file beside
     * it (the result stays a .glb container: its JSON chunk is the .gltf,
     * its BIN chunk the buffer's bytes; sinew/tools/writers/output.h) */
    const char* buffer_uri;
} sw_gltf_export_options;

/* Writes `scene` (a skeleton, its clips and meshes; clips and meshes must
 * match the skeleton's joint count) as a .glb into memory allocated with
 * `alloc` (NULL: libc, 16-byte aligned); free with sw_free(alloc, *out_data,
 * *out_size). `options` may be NULL (all clips).
 * Fails: INVALID_ARGUMENT (NULL scene, skeleton or outputs, NULL entries,
 * clips_count without clips, a clip or mesh whose joint count differs from
 * the skeleton's); NOT_FOUND ("requested clip exists", err->index the
 * option's entry); LIMIT (a .glb of 4 GiB or more); OUT_OF_MEMORY. */
SINEW_API sw_result sw_gltf_export(const sw_scene* scene, const sw_gltf_export_options* options,
                                   const sw_allocator* alloc, void** out_data, size_t* out_size,
                                   sw_error* err);

/* sw_gltf_export to the file at `path`, written to a temporary file beside it
 * and renamed into place, so a failure never leaves a partial file.
 * Fails: as sw_gltf_export, plus IO (err->check names the failed step). */
SINEW_API sw_result sw_gltf_export_file(const sw_scene* scene,
                                        const sw_gltf_export_options* options, const char* path,
                                        sw_error* err);

#ifdef __cplusplus
}
#endif

#endif
