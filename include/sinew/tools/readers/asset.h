/* sinew/tools/readers/asset.h: opening any supported file as a skeleton, clips and meshes.
 *
 * One call for the CLI and for users who do not care about the format. The
 * format is chosen by content, then by name:
 * - .sinew archives (magic "SINEWARC"): loaded (validated) in memory;
 * - BVH text (starts with HIERARCHY): the native BVH reader;
 * - glTF 2.0: .glb (magic "glTF"), or a file named .gltf starting with '{':
 *   the native glTF reader (external buffers resolve beside the file); glTF
 *   1.0 files, which it refuses (BAD_VERSION), go to the readers below;
 * - anything else: the readers the caller passes in the options, in order
 *   (the tools link no third-party parser: sinew_assimp provides one for
 *   everything assimp reads, SW_ASSIMP_ASSET_READER in
 *   sinew/assimp/assimp_import.h), in a child process with a time limit
 *   unless `readers_in_process` is set, so that a crash or a hang inside a
 *   third-party parser becomes an error here.
 * With `isolate`, every reader runs in a child process, which sends its
 * result back as a .sinew archive validated here.
 */
#ifndef SINEW_TOOLS_ASSET_H
#define SINEW_TOOLS_ASSET_H

#include "sinew/core/archive.h"
#include "sinew/tools/builders/scene.h"
#include "sinew/tools/readers/bvh.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum sw_asset_format {
    SW_ASSET_FORMAT_NONE = 0,
    SW_ASSET_FORMAT_SINEW,
    SW_ASSET_FORMAT_BVH,
    SW_ASSET_FORMAT_GLTF,  /* native glTF 2.0 reader */
    SW_ASSET_FORMAT_READER /* read by one of the options' readers */
} sw_asset_format;

typedef struct sw_asset_options sw_asset_options;

/* A reader for formats the tools do not read themselves, in a table the
 * caller passes (sw_asset_options.readers). */
typedef struct sw_asset_reader {
    const char* name; /* what it is ("assimp"), for messages */
    /* Reads the file at `path` in this process into *out (scale and clips
     * from options; sw_scene_free releases it). On failure *out holds
     * nothing to free and out->warning may explain; a reader that does not
     * know the file's format fails with PARSE and err->check "known file
     * format", and the next reader is tried. */
    sw_result (*read)(void* user, const char* path, const sw_asset_options* options, sw_scene* out,
                      sw_error* err);
    void* user; /* passed to read and knows */
    /* Optional: false when the reader does not read files like this one
     * (told from the path's extension and the file's first head_size
     * bytes), so that sw_asset_open refuses a file no reader takes without
     * any reader reading it; NULL: the reader is tried on every file. */
    bool (*knows)(void* user, const char* path, const void* head, size_t head_size);
} sw_asset_reader;

struct sw_asset_options {
    float scale;    /* multiplies lengths; 0: file units for BVH and glTF, assimp's default
                       (FBX to metres) for the others; ignored for .sinew archives */
    bool end_sites; /* BVH: keep End Sites as joints */
    const char* const* clips; /* optional: keep only these clips (in file order) */
    uint32_t clips_count;
    bool isolate;                   /* run every reader in a child process */
    bool readers_in_process;        /* `readers`: run in this process (faster, unprotected) */
    uint32_t timeout_ms;            /* child processes: time limit; 0: 30000 */
    const sw_asset_reader* readers; /* tried in order for other formats; NULL: none */
    uint32_t readers_count;
    size_t max_file_size; /* larger files are refused before reading; 0: 2 GiB
                             (SW_FILE_DEFAULT_MAX_SIZE, sinew/tools/writers/file.h) */
    /* Memory a reader may take, bytes; 0: 64 MiB + 16 bytes per input byte
     * (sinew/tools/readers/budget.h). The glTF and BVH readers count their
     * allocations against it (LIMIT "memory budget" when passed); a child
     * process (isolate, or the other readers) gets it as the address space
     * it may add after the fork, by default with SW_BUDGET_CHILD_FLOOR for
     * a floor (RLIMIT_AS; Linux, not under AddressSanitizer). Readers run in this process with
     * readers_in_process are not limited. */
    uint64_t max_memory;
};

typedef struct sw_asset {
    sw_asset_format format;
    const sw_skeleton* skeleton; /* the first skeleton */
    const sw_clip* const* clips; /* clips of that skeleton */
    uint32_t clips_count;
    const sw_mesh* const* meshes; /* meshes bound to that skeleton */
    uint32_t meshes_count;
    uint64_t file_size; /* bytes of the file */
    char warning[256];  /* non-fatal remarks ("" when none) */
    /* owned storage, released by sw_asset_free */
    void* storage_;
    size_t storage_size_;
    sw_bvh_result bvh_;
    sw_scene scene_;
} sw_asset;

/* Reads the file at `path` and opens it as above (options NULL: defaults,
 * no readers). Memory: everything is owned by *out until sw_asset_free;
 * the readers table is the caller's.
 * The file is checked (a regular file of at most max_file_size bytes) and
 * its first bytes read before anything else; only archives and BVH files
 * are then read whole (glTF and the readers read the file themselves), so
 * a file that no reader knows is refused after its header.
 * Fails: IO and LIMIT as sw_file_read (err->check "open file", "regular
 * file", "read file", "file size"; err->sys_errno the system's error);
 * TRUNCATED "file not empty"; PARSE "known file format" when no reader
 * knows the file (no reader's `knows` takes it, err->detail saying so,
 * or the last reader refused it, err->detail: its message, also in
 * out->warning); BAD_VERSION for a glTF 1.0 file without readers; LIMIT for
 * a scale that is not finite and positive; INVALID_ARGUMENT (clips_count
 * without clips, readers_count without readers); NOT_FOUND ("requested clip
 * exists", err->detail naming the clip and those in the file, nearest
 * first); BAD_DATA "clip finite in model space" (sw_clip_check_extent, on
 * every clip opened); any result of sw_archive_load, sw_bvh_read, sw_gltf_read or a
 * reader, with their err; from a child process: LIMIT "timed out", BAD_DATA
 * "crashed (signal N)", IO (sinew/tools/readers/isolate.h).
 * On failure *out holds nothing to free, but out->format is kept when the
 * format was recognised (so callers can name it) and out->warning may hold
 * an explanation (a reader's own message), copied to err->detail when that
 * is empty. */
SINEW_API sw_result sw_asset_open(const char* path, const sw_asset_options* options, sw_asset* out,
                                  sw_error* err);
SINEW_API void sw_asset_free(sw_asset* a);

/* True when the name of `path` has an extension that sw_asset_open reads
 * natively (.sinew, .bvh, .glb, .gltf, any case) or that one of the
 * options' readers knows (its `knows` given the path and no head bytes);
 * options NULL: native ones only. Picks model files from a folder; the content still decides the
 * format when the file is opened. */
SINEW_API bool sw_asset_extension_known(const char* path, const sw_asset_options* options);

/* Index of a clip by exact name, or by a decimal index string; -1 if none. */
SINEW_API int32_t sw_asset_find_clip(const sw_asset* a, const char* name_or_index);

/* sw_asset_find_clip for a caller that reports a miss: -1 also fills err
 * with NOT_FOUND "clip in the file" and err->detail naming name_or_index
 * and the clips of the asset, nearest first. */
SINEW_API int32_t sw_asset_require_clip(const sw_asset* a, const char* name_or_index,
                                        sw_error* err);

#ifdef __cplusplus
}
#endif

#endif
