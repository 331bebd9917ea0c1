/* The tools' output policy: format by extension, outputs that are not
 * inputs, files written through temporary names and renamed. */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "shared/fail.h"
#include "sinew/sinew.h"
#include "sinew/tools/writers/archive_writer.h"
#include "sinew/tools/writers/file.h"
#include "sinew/tools/writers/gltf_export.h"
#include "sinew/tools/writers/output.h"

#define SW__OUTPUT_PATH_MAX 4096

static const struct {
    sw_output_format format;
    const char* ext;
} k_sw__output_formats[] = {
    {SW_OUTPUT_FORMAT_SINEW, ".sinew"},
    {SW_OUTPUT_FORMAT_GLB, ".glb"},
    {SW_OUTPUT_FORMAT_GLTF, ".gltf"},
};

/* True when s ends with the lower-case `suffix`, ignoring ASCII case. */
static bool sw__output_ends_with(const char* s, const char* suffix) {
    const size_t n = strlen(s), m = strlen(suffix);
    if (m > n) return false;
    for (size_t i = 0; i < m; ++i) {
        char c = s[n - m + i];
        if (c >= 'A' && c <= 'Z') c = (char)(c - 'A' + 'a');
        if (c != suffix[i]) return false;
    }
    return true;
}

sw_output_format sw_output_format_of(const char* path) {
    if (!path) return SW_OUTPUT_FORMAT_NONE;
    const char* slash = strrchr(path, '/');
    const char* name = slash ? slash + 1 : path;
    for (size_t i = 0; i < sizeof k_sw__output_formats / sizeof k_sw__output_formats[0]; ++i) {
        const char* ext = k_sw__output_formats[i].ext;
        /* a name that is only the extension (".glb") has no stem */
        if (strlen(name) > strlen(ext) && sw__output_ends_with(name, ext))
            return k_sw__output_formats[i].format;
    }
    return SW_OUTPUT_FORMAT_NONE;
}

const char* sw_output_extension(sw_output_format format) {
    for (size_t i = 0; i < sizeof k_sw__output_formats / sizeof k_sw__output_formats[0]; ++i) {
        if (k_sw__output_formats[i].format == format) return k_sw__output_formats[i].ext;
    }
    return "";
}

bool sw_output_same_file(const char* a, const char* b) {
    struct stat sa, sb;
    if (!a || !b || stat(a, &sa) != 0 || stat(b, &sb) != 0) return false;
    return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

bool sw_output_gltf_bin_path(const char* path, char* out, size_t cap) {
    if (!path || !out || sw_output_format_of(path) != SW_OUTPUT_FORMAT_GLTF) return false;
    const size_t stem = strlen(path) - 5u; /* without ".gltf" */
    if (stem + 5u > cap) return false;
    memcpy(out, path, stem);
    memcpy(out + stem, ".bin", 5u);
    return true;
}

/* The folder of `path` ("." when it has none) in out. */
static bool sw__output_folder(const char* path, char* out, size_t cap) {
    const char* slash = strrchr(path, '/');
    if (!slash) return snprintf(out, cap, ".") < (int)cap;
    const size_t n = slash == path ? 1u : (size_t)(slash - path);
    if (n + 1u > cap) return false;
    memcpy(out, path, n);
    out[n] = '\0';
    return true;
}

/* OVERLAP when `path` is one of the inputs (err->offset: `which`). */
static sw_result sw__output_not_input(const char* path, const char* const* inputs, uint32_t n,
                                      uint64_t which, sw_error* err) {
    for (uint32_t i = 0; i < n; ++i) {
        if (inputs[i] && sw_output_same_file(path, inputs[i]))
            return sw__fail(err, SW_RESULT_OVERLAP, "output is not an input", which, (int64_t)i);
    }
    return SW_RESULT_OK;
}

sw_result sw_output_check(const char* path, uint32_t allowed, const char* const* inputs,
                          uint32_t inputs_count, sw_output_format* format, sw_error* err) {
    if (format) *format = SW_OUTPUT_FORMAT_NONE;
    if (!path || (inputs_count && !inputs))
        return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "arguments not NULL", 0, -1);
    const sw_output_format f = sw_output_format_of(path);
    char bin[SW__OUTPUT_PATH_MAX];
    if (f == SW_OUTPUT_FORMAT_GLTF && !sw_output_gltf_bin_path(path, bin, sizeof bin))
        return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "path length", 0, -1);
    sw_result r = sw__output_not_input(path, inputs, inputs_count, 0, err);
    if (r == SW_RESULT_OK && f == SW_OUTPUT_FORMAT_GLTF)
        r = sw__output_not_input(bin, inputs, inputs_count, 1, err);
    if (r != SW_RESULT_OK) return r;
    if (allowed && f == SW_OUTPUT_FORMAT_NONE)
        return sw__fail(err, SW_RESULT_NOT_FOUND, "known output extension", 0, -1);
    if (allowed && !((uint32_t)f & allowed))
        return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "output format allowed", 0, -1);
    char folder[SW__OUTPUT_PATH_MAX];
    struct stat st;
    if (!sw__output_folder(path, folder, sizeof folder))
        return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "path length", 0, -1);
    if (stat(folder, &st) != 0) return sw__fail(err, SW_RESULT_IO, "output folder exists", 0, -1);
    if (!S_ISDIR(st.st_mode)) {
        errno = ENOTDIR;
        return sw__fail(err, SW_RESULT_IO, "output folder exists", 0, -1);
    }
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
        errno = EISDIR;
        return sw__fail(err, SW_RESULT_IO, "output is not a folder", 0, -1);
    }
    if (format) *format = f;
    return SW_RESULT_OK;
}

/* The file name of `path` as a URI reference: bytes other than unreserved
 * ones percent-encoded (the glTF reader decodes them). */
static bool sw__output_uri(const char* path, char* out, size_t cap) {
    static const char hex[] = "0123456789ABCDEF";
    const char* slash = strrchr(path, '/');
    size_t n = 0;
    for (const unsigned char* p = (const unsigned char*)(slash ? slash + 1 : path); *p; ++p) {
        const bool plain = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
                           (*p >= '0' && *p <= '9') || strchr("-._~", *p) != NULL;
        if (n + (plain ? 1u : 3u) >= cap) return false;
        if (plain) {
            out[n++] = (char)*p;
        } else {
            out[n++] = '%';
            out[n++] = hex[*p >> 4];
            out[n++] = hex[*p & 15u];
        }
    }
    out[n] = '\0';
    return true;
}

static uint32_t sw__output_rd32le(const uint8_t* p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Writes the JSON chunk of a .glb container (from sw_gltf_export) to
 * `path` and its BIN chunk to `bin`: both staged under temporary names
 * first, then renamed into place (the .bin first, so that the .gltf never
 * names a missing buffer). */
static sw_result sw__output_write_gltf(const uint8_t* glb, size_t size, const char* path,
                                       const char* bin, sw_error* err) {
    const uint32_t json_len = sw__output_rd32le(glb + 12);
    const uint8_t* chunk = glb + 20u + json_len;
    const bool has_bin = 20u + (size_t)json_len + 8u <= size;
    const uint32_t bin_len = has_bin ? sw__output_rd32le(chunk) : 0u;
    char stage[2][SW__OUTPUT_PATH_MAX];
    const int a = snprintf(stage[0], sizeof stage[0], "%s.new.%ld", bin, (long)getpid());
    const int b = snprintf(stage[1], sizeof stage[1], "%s.new.%ld", path, (long)getpid());
    if (a < 0 || b < 0 || (size_t)a >= sizeof stage[0] || (size_t)b >= sizeof stage[1])
        return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "path length", 0, -1);
    sw_result r = SW_RESULT_OK;
    if (has_bin) r = sw_file_write_atomic(stage[0], chunk + 8, bin_len, err);
    if (r == SW_RESULT_OK) r = sw_file_write_atomic(stage[1], glb + 20, json_len, err);
    if (r == SW_RESULT_OK && has_bin && rename(stage[0], bin) != 0)
        r = sw__fail(err, SW_RESULT_IO, "rename into place", 0, -1);
    if (r == SW_RESULT_OK && rename(stage[1], path) != 0)
        r = sw__fail(err, SW_RESULT_IO, "rename into place", 0, -1);
    if (r != SW_RESULT_OK) {
        remove(stage[0]);
        remove(stage[1]);
    }
    return r;
}

/* The scene as a .glb in memory, or as a .gltf's container naming `bin`. */
static sw_result sw__output_gltf(const sw_scene* scene, const char* path, sw_output_format f,
                                 sw_error* err) {
    char bin[SW__OUTPUT_PATH_MAX], uri[SW__OUTPUT_PATH_MAX];
    sw_gltf_export_options o;
    memset(&o, 0, sizeof o);
    if (f == SW_OUTPUT_FORMAT_GLTF) {
        if (!sw_output_gltf_bin_path(path, bin, sizeof bin) ||
            !sw__output_uri(bin, uri, sizeof uri))
            return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "path length", 0, -1);
        o.buffer_uri = uri;
    }
    void* data = NULL;
    size_t size = 0;
    sw_result r = sw_gltf_export(scene, &o, NULL, &data, &size, err);
    if (r != SW_RESULT_OK) return r;
    if (f == SW_OUTPUT_FORMAT_GLB)
        r = sw_file_write_atomic(path, data, size, err);
    else
        r = sw__output_write_gltf((const uint8_t*)data, size, path, bin, err);
    sw_free(NULL, data, size);
    return r;
}

sw_result sw_output_write(const sw_scene* scene, const char* path, sw_error* err) {
    if (!scene || !path)
        return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "arguments not NULL", 0, -1);
    const sw_output_format f = sw_output_format_of(path);
    if (f == SW_OUTPUT_FORMAT_NONE)
        return sw__fail(err, SW_RESULT_NOT_FOUND, "known output extension", 0, -1);
    if (f != SW_OUTPUT_FORMAT_SINEW) return sw__output_gltf(scene, path, f, err);
    const sw_skeleton* skeletons[1] = {scene->skeleton};
    sw_archive_contents k;
    memset(&k, 0, sizeof k);
    k.skeletons = skeletons;
    k.skeletons_count = 1;
    k.clips = scene->clips;
    k.clips_count = scene->clips_count;
    k.meshes = scene->meshes;
    k.meshes_count = scene->meshes_count;
    return sw_archive_write_file(&k, path, err);
}
