/* sinew/core/archive.h: loading .sinew archives in place.
 *
 * Layout (little-endian; offsets from the start of the file):
 *
 *     0  char[8]  magic "SINEWARC"
 *     8  u32      version (SW_ARCHIVE_VERSION)
 *    12  u32      CRC-32 (IEEE) of bytes [16, total_size)
 *    16  u64      total_size (bytes of the whole file)
 *    24  u32      chunks_count (at most SW_ARCHIVE_MAX_CHUNKS)
 *    28  u32      flags (0)
 *    32  sw_archive_chunk[chunks_count]
 *        chunks: 16-byte aligned blocks, each exactly a runtime object
 *        (sw_skeleton, sw_clip, sw_mesh, sw_animator) usable where it lies, placed after
 *        the table in table order without overlapping; a chunk's size is its
 *        block's size field. The table lists skeletons, then clips, then
 *        meshes, then animators (so the i-th object of a kind is one
 *        lookup: opening and listing an archive is linear in its chunks).
 *        Skeleton chunks have link SW_ARCHIVE_NO_LINK; a clip's link is the
 *        chunk index of a skeleton with the same joints_count; a mesh's link
 *        is the chunk index of a skeleton whose joints_count equals the
 *        mesh's skeleton_joints_count. Morph target weights are clip float
 *        tracks ("<mesh>.weights[k]"), not chunks. Animator definitions name
 *        their clips and joints, so their chunks have link SW_ARCHIVE_NO_LINK
 *        and bind to any skeleton and clips.
 *
 * Loading validates the header, the checksum, the chunk table (bounds,
 * alignment, no overlap, known kinds in kind order, links) and then every
 * chunk with the object's own loader, so nothing a job later trusts goes unchecked. Unknown
 * chunk kinds are rejected in this version. Writing is in the tools
 * (sinew/tools/writers/archive_writer.h).
 */
#ifndef SINEW_ARCHIVE_H
#define SINEW_ARCHIVE_H

#include "sinew/animator/animator.h"
#include "sinew/core/clip.h"
#include "sinew/core/mesh.h"
#include "sinew/core/skeleton.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SW_ARCHIVE_VERSION 1u
#define SW_ARCHIVE_HEADER_SIZE 32u
#define SW_ARCHIVE_MAX_CHUNKS 65536u

/* Four-character chunk kinds, read as little-endian u32. */
#define SW_ARCHIVE_KIND_SKELETON 0x4C454B53u /* "SKEL" */
#define SW_ARCHIVE_KIND_CLIP 0x50494C43u     /* "CLIP" */
#define SW_ARCHIVE_KIND_MESH 0x4853454Du     /* "MESH" */
#define SW_ARCHIVE_KIND_ANIMATOR 0x4D494E41u /* "ANIM" */

#define SW_ARCHIVE_NO_LINK 0xFFFFFFFFu

typedef struct sw_archive_chunk {
    uint32_t kind;   /* SW_ARCHIVE_KIND_* */
    uint32_t link;   /* clips, meshes: index of their skeleton chunk; else SW_ARCHIVE_NO_LINK */
    uint32_t offset; /* bytes from the start of the file, multiple of 16 */
    uint32_t size;   /* bytes */
} sw_archive_chunk;

/* A loaded archive: a view over the caller's bytes. */
typedef struct sw_archive {
    const uint8_t* data;
    size_t size;
    uint32_t chunks_count;
    uint32_t skeletons_count;
    uint32_t clips_count;
    uint32_t meshes_count;
    uint32_t animators_count;
} sw_archive;

/* Validates `size` bytes at `data` (16-byte aligned) as an archive and fills
 * *out with a view over them. Nothing is copied: data must outlive the
 * archive and the objects taken from it.
 * Fails: INVALID_ARGUMENT; MISALIGNED; TRUNCATED (shorter than the header or
 * the declared size); BAD_MAGIC; BAD_VERSION; BAD_CHECKSUM; LIMIT; BAD_DATA
 * (size longer than declared, nonzero flags, chunk table or chunk contents;
 * a chunk block that runs past its chunk is BAD_DATA, not TRUNCATED). err
 * names the check, the byte offset in the file and the chunk (or, inside a
 * chunk, the element). */
SINEW_API sw_result sw_archive_load(const void* data, size_t size, sw_archive* out, sw_error* err);

/* The i-th skeleton / clip / mesh in file order (constant time), or NULL
 * when i is out of range. */
SINEW_API const sw_skeleton* sw_archive_skeleton(const sw_archive* a, uint32_t i);
SINEW_API const sw_clip* sw_archive_clip(const sw_archive* a, uint32_t i);
SINEW_API const sw_mesh* sw_archive_mesh(const sw_archive* a, uint32_t i);
/* The i-th animator definition in file order, or NULL when i is out of range. */
SINEW_API const sw_animator* sw_archive_animator(const sw_archive* a, uint32_t i);
/* Index (among skeletons) of the skeleton clip i belongs to, or -1. */
SINEW_API int32_t sw_archive_clip_skeleton(const sw_archive* a, uint32_t i);
/* Index (among skeletons) of the skeleton mesh i is bound to, or -1. */
SINEW_API int32_t sw_archive_mesh_skeleton(const sw_archive* a, uint32_t i);
/* Index of the first clip named `name` (linear in the clips), or -1. */
SINEW_API int32_t sw_archive_find_clip(const sw_archive* a, const char* name);

/* CRC-32 (IEEE 802.3, reflected, as zlib computes it) of `size` bytes,
 * continuing from `crc` (0 to start). */
SINEW_API uint32_t sw_crc32(uint32_t crc, const void* data, size_t size);

#ifdef __cplusplus
}
#endif

#endif
