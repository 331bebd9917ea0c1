/* sinew/tools/readers/bvh.h: reading BioVision Hierarchy (.bvh) motion capture.
 *
 * The HIERARCHY becomes a skeleton (OFFSETs as rest translations, identity
 * rest rotations, End Sites as leaf joints named "<parent>_end" when asked),
 * the MOTION a clip with one uniform key per frame at 1 / Frame Time keys per
 * second, linear interpolation. Rotation channels may come in any order and
 * compose in the order listed (ZXY gives qz * qx * qy, sinew/core/math.h);
 * position channels replace the OFFSET component they name, on any joint.
 * Rotations are made sign-continuous from frame to frame. A track whose
 * values are the rest value at every frame (zero angles, positions equal to
 * the OFFSET) is left out. Units stay the file's unless `scale` is set.
 */
#ifndef SINEW_TOOLS_BVH_H
#define SINEW_TOOLS_BVH_H

#include "sinew/core/clip.h"
#include "sinew/core/skeleton.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SW_BVH_MAX_FRAMES 10000000u

typedef struct sw_bvh_options {
    float scale;           /* multiplies offsets and positions; 0 means 1 */
    bool end_sites;        /* keep End Sites as leaf joints */
    const char* clip_name; /* NULL: "motion" */
} sw_bvh_options;

#define SW_BVH_WARNING_FRAME_COUNT 1u /* declared Frames differs from the data */

typedef struct sw_bvh_result {
    const sw_skeleton* skeleton;
    const sw_clip* clip;
    uint32_t frames_declared; /* the Frames: line */
    uint32_t frames_read;     /* complete motion lines found (the clip's key count) */
    float frame_time;         /* seconds */
    uint32_t warnings;        /* SW_BVH_WARNING_* */
    char warning[160];        /* human-readable text of the warnings, "" when none */
} sw_bvh_result;

/* Parses `size` bytes of BVH text (need not be NUL-terminated) and builds a
 * skeleton and a clip allocated with `alloc` (NULL: libc). When the declared
 * frame count disagrees with the data, the frames present are used and a
 * warning is set (not an error).
 * Memory: free with sw_bvh_result_free and the same allocator.
 * Text: whitespace-separated tokens, LF, CRLF or CR line breaks, an optional
 * UTF-8 BOM; a joint name is the rest of its ROOT / JOINT line; OFFSET comes
 * first in a joint, then CHANNELS (optional, at most once); after "Frame
 * Time:" every non-blank line is one frame holding exactly one number per
 * channel. Rotation channels fewer than three leave the missing angles 0.
 * Fails: INVALID_ARGUMENT (out NULL, text NULL with a size, scale negative or
 * not finite); PARSE (err->check names the expected token, err->offset the
 * byte, err->index the line, 1-based; also a frame line with the wrong count
 * of numbers); LIMIT (more than SW_SKELETON_MAX_JOINTS joints, End Sites
 * included when kept; more than 6 CHANNELS on a joint; more than
 * SW_BVH_MAX_FRAMES frames, declared or found); BAD_DATA (NaN, infinite or
 * beyond float range numbers, a channel listed twice on a joint, no channel
 * at all, zero or negative frame time, no frames, duplicate joint names,
 * checks of the skeleton and clip builders); OUT_OF_MEMORY.
 * On failure *out holds nothing to free. */
SINEW_API sw_result sw_bvh_read(const char* text, size_t size, const sw_bvh_options* options,
                                const sw_allocator* alloc, sw_bvh_result* out, sw_error* err);

/* Reads the BVH file at `path` (sw_file_read, sinew/tools/writers/file.h) and
 * parses it with sw_bvh_read; the text is freed before returning.
 * Fails: IO ("open file", "read file"), OUT_OF_MEMORY, and whatever
 * sw_bvh_read returns. */
SINEW_API sw_result sw_bvh_read_file(const char* path, const sw_bvh_options* options,
                                     const sw_allocator* alloc, sw_bvh_result* out, sw_error* err);

/* Frees what sw_bvh_read allocated and zeroes *r; a zeroed result is a no-op. */
SINEW_API void sw_bvh_result_free(sw_bvh_result* r, const sw_allocator* alloc);

#ifdef __cplusplus
}
#endif

#endif
