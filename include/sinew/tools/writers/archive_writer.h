/* sinew/tools/writers/archive_writer.h: writing .sinew archives (see sinew/core/archive.h). */
#ifndef SINEW_TOOLS_ARCHIVE_WRITER_H
#define SINEW_TOOLS_ARCHIVE_WRITER_H

#include "sinew/core/archive.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct sw_archive_contents {
    const sw_skeleton* const* skeletons;
    uint32_t skeletons_count;
    const sw_clip* const* clips;
    uint32_t clips_count;
    const uint32_t* clip_skeletons; /* skeleton index of each clip; NULL: all use skeleton 0 */
    const sw_mesh* const* meshes;
    uint32_t meshes_count;
    const uint32_t* mesh_skeletons;      /* skeleton index of each mesh; NULL: all use skeleton 0 */
    const sw_animator* const* animators; /* animator definitions (no skeleton link) */
    uint32_t animators_count;
} sw_archive_contents;

/* Serialises the contents into one archive allocated with `alloc` (NULL:
 * libc, 16-byte aligned); *out_data / *out_size receive it, free with
 * sw_free(alloc, data, size). Chunks: skeletons, then clips, meshes and animators,
 * each in the given order. The result loads with sw_archive_load.
 * Fails: INVALID_ARGUMENT (NULL pointers, no skeleton, clip joint count or
 * mesh skeleton_joints_count not matching its skeleton, skeleton index out
 * of range); LIMIT (more than SW_ARCHIVE_MAX_CHUNKS chunks or 4 GiB);
 * OUT_OF_MEMORY. */
SINEW_API sw_result sw_archive_write(const sw_archive_contents* contents, const sw_allocator* alloc,
                                     void** out_data, size_t* out_size, sw_error* err);

/* sw_archive_write to a file at `path`, written to a temporary file beside
 * it and renamed into place, so a failure never leaves a partial file.
 * Fails: as sw_archive_write, plus IO (err->check names the failed step). */
SINEW_API sw_result sw_archive_write_file(const sw_archive_contents* contents, const char* path,
                                          sw_error* err);

#ifdef __cplusplus
}
#endif

#endif
