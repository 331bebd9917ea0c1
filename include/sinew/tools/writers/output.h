/* sinew/tools/writers/output.h: the tools' output policy.
 *
 * One rule for every tool that writes a scene (a skeleton, its clips and
 * meshes): the format follows the output's extension (case-insensitive):
 * - .sinew: a sinew archive (sinew/tools/writers/archive_writer.h);
 * - .glb: binary glTF 2.0 (sinew/tools/writers/gltf_export.h);
 * - .gltf: glTF 2.0 JSON with its buffer in "<stem>.bin" beside it.
 * sw_output_check refuses, before any work, an extension that names no
 * format or one the caller does not allow, an output that is one of the
 * inputs (the same file: device and inode, so links are caught), a folder
 * that does not exist and an output that is a folder. sw_output_write
 * writes every file to a temporary name in the output's folder and renames
 * it into place, so a failure leaves nothing and never clobbers.
 */
#ifndef SINEW_TOOLS_OUTPUT_H
#define SINEW_TOOLS_OUTPUT_H

#include "sinew/tools/builders/scene.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Output formats, as bits so that callers can allow several. */
typedef enum sw_output_format {
    SW_OUTPUT_FORMAT_NONE = 0,
    SW_OUTPUT_FORMAT_SINEW = 1u << 0, /* .sinew */
    SW_OUTPUT_FORMAT_GLB = 1u << 1,   /* .glb */
    SW_OUTPUT_FORMAT_GLTF = 1u << 2   /* .gltf + .bin */
} sw_output_format;

#define SW_OUTPUT_FORMATS_ALL                                                                      \
    ((uint32_t)SW_OUTPUT_FORMAT_SINEW | (uint32_t)SW_OUTPUT_FORMAT_GLB |                           \
     (uint32_t)SW_OUTPUT_FORMAT_GLTF)

/* The format that the extension of `path` names; NONE for any other
 * extension, no extension or NULL. */
SINEW_API sw_output_format sw_output_format_of(const char* path);

/* The extension of a format (".sinew", ".glb", ".gltf"; "" for NONE or a
 * combination), a static string. */
SINEW_API const char* sw_output_extension(sw_output_format format);

/* True when the files at paths a and b both exist and are the same file
 * (same device and inode). */
SINEW_API bool sw_output_same_file(const char* a, const char* b);

/* Checks, before any work, that `path` may be written as one of the
 * formats in `allowed` (a mask of sw_output_format; 0: any file, no
 * extension rule) given the files the tool reads (`inputs`, n of them;
 * NULL entries are skipped). *format (may be NULL) receives the format of
 * the extension.
 * Fails: INVALID_ARGUMENT (NULL path, inputs_count without inputs);
 * NOT_FOUND "known output extension" (the extension names no format);
 * INVALID_ARGUMENT "output format allowed" (a format outside `allowed`);
 * OVERLAP "output is not an input" with err->index the input (for .gltf
 * the .bin beside it counts too, err->offset 1 then); IO "output folder
 * exists" (the folder is missing or not a folder: errno is kept) or
 * "output is not a folder". */
SINEW_API sw_result sw_output_check(const char* path, uint32_t allowed, const char* const* inputs,
                                    uint32_t inputs_count, sw_output_format* format, sw_error* err);

/* The .bin that a .gltf output at `path` writes beside it ("<stem>.bin") in
 * out (cap bytes, NUL-terminated). Returns false when path does not end in
 * .gltf or out is too small. */
SINEW_API bool sw_output_gltf_bin_path(const char* path, char* out, size_t cap);

/* Writes `scene` (clips and meshes must match its skeleton) to `path` in the
 * format its extension names, every file through a temporary name in the
 * same folder renamed into place. The caller keeps the scene.
 * Fails: NOT_FOUND "known output extension"; the results of sw_archive_write
 * or sw_gltf_export; IO with err->check naming the failed step (the
 * temporary files are removed). */
SINEW_API sw_result sw_output_write(const sw_scene* scene, const char* path, sw_error* err);

#ifdef __cplusplus
}
#endif

#endif
