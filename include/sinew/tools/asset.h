/* sinew/tools/asset.h: opening any supported file as a skeleton and clips.
 *
 * One call for the CLI and for users who do not care about the format:
 * .sinew archives are loaded (validated) in memory, .bvh files read with the
 * BVH reader. The format is chosen by content: the archive magic, else
 * "HIERARCHY" for BVH.
 */
#ifndef SINEW_TOOLS_ASSET_H
#define SINEW_TOOLS_ASSET_H

#include "../archive.h"
#include "bvh.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum sw_asset_format {
    SW_ASSET_FORMAT_NONE = 0,
    SW_ASSET_FORMAT_SINEW,
    SW_ASSET_FORMAT_BVH
} sw_asset_format;

typedef struct sw_asset_options {
    float scale;    /* BVH: units to metres factor; 0 means 1 (file units) */
    bool end_sites; /* BVH: keep End Sites as joints */
} sw_asset_options;

typedef struct sw_asset {
    sw_asset_format format;
    const sw_skeleton* skeleton; /* the first skeleton */
    const sw_clip* const* clips; /* clips of that skeleton */
    uint32_t clips_count;
    uint64_t file_size; /* bytes read */
    char warning[160];  /* non-fatal remarks ("" when none) */
    /* owned storage, released by sw_asset_free */
    void* storage_;
    size_t storage_size_;
    sw_bvh_result bvh_;
} sw_asset;

/* Reads the file at `path` and opens it as above.
 * Memory: everything is owned by *out until sw_asset_free.
 * Fails: IO (cannot read; err->check "open file" or "read file"); PARSE when
 * the format is unknown (err->check "known file format"); LIMIT for a scale
 * that is not finite and positive; any result of sw_archive_load or
 * sw_bvh_read with their err. On failure *out holds nothing to free, but
 * out->format is kept when the format was recognised (so callers can name it). */
SINEW_API sw_result sw_asset_open(const char* path, const sw_asset_options* options, sw_asset* out,
                                  sw_error* err);
SINEW_API void sw_asset_free(sw_asset* a);

/* Index of a clip by exact name, or by a decimal index string; -1 if none. */
SINEW_API int32_t sw_asset_find_clip(const sw_asset* a, const char* name_or_index);

#ifdef __cplusplus
}
#endif

#endif
