/* Opening a file as a skeleton, clips and meshes: the format told from the
 * file's first bytes (sw_file_read_head); .sinew archives, BVH and glTF
 * natively, everything else through the caller's readers; readers
 * optionally in a child process that sends an archive back. */
#include <stdio.h>
#include <string.h>

#include "names.h"
#include "shared/fail.h"
#include "shared/layout.h"
#include "sinew/sinew.h"
#include "sinew/tools/readers/asset.h"
#include "sinew/tools/readers/budget.h"
#include "sinew/tools/readers/gltf.h"
#include "sinew/tools/readers/isolate.h"
#include "sinew/tools/writers/archive_writer.h"
#include "sinew/tools/writers/file.h"

/* True when the text starts (after an optional UTF-8 BOM and whitespace) with HIERARCHY. */
static bool sw__asset_is_bvh(const char* d, size_t n) {
    size_t i = 0;
    if (n >= 3 && memcmp(d, "\xEF\xBB\xBF", 3) == 0) i = 3;
    while (i < n && (d[i] == ' ' || d[i] == '\t' || d[i] == '\r' || d[i] == '\n'))
        ++i;
    return n - i >= 9 && memcmp(d + i, "HIERARCHY", 9) == 0;
}

static sw_result sw__asset_open_archive(const char* data, size_t size, sw_asset* out,
                                        sw_error* err) {
    /* The archive bytes, 16-byte aligned, then room for one clip pointer and
     * one mesh pointer per chunk of the table (the header's count, capped;
     * checked by the load). */
    uint32_t chunks = 0;
    if (size >= SW_ARCHIVE_HEADER_SIZE) {
        const uint8_t* c = (const uint8_t*)data + 24;
        chunks = (uint32_t)c[0] | (uint32_t)c[1] << 8 | (uint32_t)c[2] << 16 | (uint32_t)c[3] << 24;
        if (chunks > SW_ARCHIVE_MAX_CHUNKS) chunks = SW_ARCHIVE_MAX_CHUNKS;
    }
    size_t head = (size_t)sw__align16(size);
    if (head < size ||
        head > SIZE_MAX - 2u * ((size_t)SW_ARCHIVE_MAX_CHUNKS + 1u) * sizeof(void*)) {
        return sw__fail(err, SW_RESULT_LIMIT, "file size", 0, -1);
    }
    size_t lists = ((size_t)chunks + 1u) * sizeof(void*);
    size_t total = head + 2u * lists;
    uint8_t* mem = (uint8_t*)sw_alloc(NULL, total, 16);
    if (!mem) return sw__fail(err, SW_RESULT_OUT_OF_MEMORY, "archive copy", 0, -1);
    memcpy(mem, data, size);
    out->storage_ = mem;
    out->storage_size_ = total;
    sw_archive ar;
    sw_result r = sw_archive_load(mem, size, &ar, err);
    if (r != SW_RESULT_OK) return r;
    out->skeleton = sw_archive_skeleton(&ar, 0);
    if (!out->skeleton) {
        return sw__fail(err, SW_RESULT_BAD_DATA, "archive holds a skeleton", 0, -1);
    }
    const sw_clip** clips = (const sw_clip**)(void*)(mem + head);
    uint32_t n = 0;
    for (uint32_t i = 0; i < ar.clips_count && n < chunks; ++i) {
        if (sw_archive_clip_skeleton(&ar, i) != 0) continue;
        const sw_clip* c = sw_archive_clip(&ar, i);
        if (c) clips[n++] = c;
    }
    out->clips = clips;
    out->clips_count = n;
    const sw_mesh** meshes = (const sw_mesh**)(void*)(mem + head + lists);
    n = 0;
    for (uint32_t i = 0; i < ar.meshes_count && n < chunks; ++i) {
        if (sw_archive_mesh_skeleton(&ar, i) != 0) continue;
        const sw_mesh* m = sw_archive_mesh(&ar, i);
        if (m) meshes[n++] = m;
    }
    out->meshes = meshes;
    out->meshes_count = n;
    return SW_RESULT_OK;
}

static sw_result sw__asset_open_bvh(const char* data, size_t size, const sw_asset_options* opt,
                                    sw_asset* out, sw_error* err) {
    sw_bvh_options bo;
    memset(&bo, 0, sizeof bo);
    bo.scale = opt->scale;
    bo.end_sites = opt->end_sites;
    sw_budget budget;
    sw_budget_init(&budget, size, opt->max_memory);
    sw_result r = sw_bvh_read(data, size, &bo, &budget.allocator, &out->bvh_, err);
    if (r != SW_RESULT_OK) return sw_budget_fail(&budget, r, err);
    const sw_clip** clips = (const sw_clip**)sw_alloc(NULL, sizeof(const sw_clip*), 16);
    if (!clips) return sw__fail(err, SW_RESULT_OUT_OF_MEMORY, "clip list", 0, -1);
    clips[0] = out->bvh_.clip;
    out->storage_ = (void*)clips;
    out->storage_size_ = sizeof(const sw_clip*);
    out->skeleton = out->bvh_.skeleton;
    out->clips = clips;
    out->clips_count = 1;
    snprintf(out->warning, sizeof out->warning, "%s", out->bvh_.warning);
    return SW_RESULT_OK;
}

/* Keeps only the clips named in the options, in file order, as the glTF
 * and assimp readers do (archives and BVH; those readers filter themselves).
 * Every name must name a clip. The list lives in the asset's storage. */
static const char* sw__asset_clip_name_at(void* user, uint32_t i) {
    return sw_clip_name(((const sw_clip* const*)user)[i]);
}

static sw_result sw__asset_filter_clips(const sw_asset_options* opt, sw_asset* out, sw_error* err) {
    if (opt->clips_count == 0) return SW_RESULT_OK;
    const sw_clip** list = (const sw_clip**)(uintptr_t)out->clips;
    for (uint32_t k = 0; k < opt->clips_count; ++k) {
        bool found = false;
        for (uint32_t i = 0; i < out->clips_count && !found; ++i) {
            found = opt->clips[k] && strcmp(sw_clip_name(list[i]), opt->clips[k]) == 0;
        }
        if (!found) {
            return sw__fail_name(err, "requested clip exists", (int64_t)k, "clip", opt->clips[k],
                                 sw__asset_clip_name_at, (void*)list, out->clips_count);
        }
    }
    uint32_t n = 0;
    for (uint32_t i = 0; i < out->clips_count; ++i) {
        bool wanted = false;
        for (uint32_t k = 0; k < opt->clips_count && !wanted; ++k) {
            wanted = opt->clips[k] && strcmp(sw_clip_name(list[i]), opt->clips[k]) == 0;
        }
        if (wanted) list[n++] = list[i];
    }
    out->clips_count = n;
    return SW_RESULT_OK;
}

static void sw__asset_adopt_scene(sw_asset* out, sw_scene* scene) {
    out->scene_ = *scene;
    memset(scene, 0, sizeof *scene);
    out->skeleton = out->scene_.skeleton;
    out->clips = out->scene_.clips;
    out->clips_count = out->scene_.clips_count;
    out->meshes = out->scene_.meshes;
    out->meshes_count = out->scene_.meshes_count;
    memcpy(out->warning, out->scene_.warning, sizeof out->warning);
    out->warning[sizeof out->warning - 1u] = '\0';
}

/* glTF external buffers: read from the file's folder outside the budget,
 * then counted as input (raising a default limit) and as memory the
 * reader holds (it frees them through the budget's allocator). */
typedef struct sw__asset_resolver {
    char folder[2048];
    sw_budget* budget;
} sw__asset_resolver;

static sw_result sw__asset_resolve(void* user, const char* uri, const sw_allocator* alloc,
                                   void** data, size_t* size, sw_error* err) {
    (void)alloc;
    sw__asset_resolver* res = (sw__asset_resolver*)user;
    sw_result r = sw_gltf_resolve_file(res->folder, uri, NULL, data, size, err);
    if (r == SW_RESULT_OK) sw_budget_add_input(res->budget, *size, true);
    return r;
}

static sw_result sw__asset_open_gltf(const char* path, const sw_asset_options* opt, sw_asset* out,
                                     sw_error* err) {
    sw_budget budget;
    sw_budget_init(&budget, out->file_size, opt->max_memory);
    sw__asset_resolver res = {.budget = &budget};
    const sw_result fr = sw_gltf_file_folder(path, res.folder, sizeof res.folder, err);
    if (fr != SW_RESULT_OK) return fr;
    sw_gltf_options go;
    memset(&go, 0, sizeof go);
    go.scale = opt->scale;
    go.clips = opt->clips;
    go.clips_count = opt->clips_count;
    go.resolve = sw__asset_resolve;
    go.resolve_user = &res;
    sw_scene scene;
    sw_result r = sw_gltf_read_file(path, &go, &budget.allocator, &scene, err);
    if (r != SW_RESULT_OK) return sw_budget_fail(&budget, r, err);
    sw__asset_adopt_scene(out, &scene);
    return SW_RESULT_OK;
}

/* The caller's readers in order, in this process, until one knows the file. */
static sw_result sw__asset_open_readers(const char* path, const sw_asset_options* opt,
                                        sw_asset* out, sw_error* err) {
    sw_result r = SW_RESULT_PARSE;
    for (uint32_t i = 0; i < opt->readers_count; ++i) {
        const sw_asset_reader* reader = &opt->readers[i];
        sw_scene scene;
        memset(&scene, 0, sizeof scene);
        sw_error e = SW_ERROR_INIT;
        r = reader->read(reader->user, path, opt, &scene, &e);
        if (err) *err = e;
        if (r == SW_RESULT_OK) {
            sw__asset_adopt_scene(out, &scene);
            return r;
        }
        memcpy(out->warning, scene.warning, sizeof out->warning);
        out->warning[sizeof out->warning - 1u] = '\0';
        if (r != SW_RESULT_PARSE || !e.check || strcmp(e.check, "known file format") != 0) return r;
    }
    return r;
}

/* Bytes of the file's start that tell its format (BVH's HIERARCHY may
 * follow blank lines). */
#define SW__ASSET_HEAD 4096

static sw_asset_format sw__asset_detect(const char* path, const char* d, size_t n) {
    if (n >= 8 && memcmp(d, "SINEWARC", 8) == 0) return SW_ASSET_FORMAT_SINEW;
    if (n >= 4 && memcmp(d, "glTF", 4) == 0) return SW_ASSET_FORMAT_GLTF;
    if (sw__asset_is_bvh(d, n)) return SW_ASSET_FORMAT_BVH;
    size_t len = strlen(path);
    if (len >= 5) {
        const char* ext = path + len - 5;
        bool gltf = true;
        for (int k = 0; k < 5 && gltf; ++k) {
            char c = ext[k];
            if (c >= 'A' && c <= 'Z') c = (char)(c - 'A' + 'a');
            gltf = c == ".gltf"[k];
        }
        size_t i = 0;
        if (n >= 3 && memcmp(d, "\xEF\xBB\xBF", 3) == 0) i = 3;
        while (i < n && (d[i] == ' ' || d[i] == '\t' || d[i] == '\r' || d[i] == '\n'))
            ++i;
        if (gltf && i < n && d[i] == '{') return SW_ASSET_FORMAT_GLTF;
    }
    return SW_ASSET_FORMAT_READER;
}

static sw_result sw__asset_open_isolated(const char* path, const char* data, size_t size,
                                         sw_asset_format format, const sw_asset_options* opt,
                                         sw_asset* out, sw_error* err);

/* Opens the file in this process, by its detected format (the readers in
 * a child process unless opt->readers_in_process). */
static sw_result sw__asset_open_here(const char* path, const char* data, size_t size,
                                     sw_asset_format format, const sw_asset_options* opt,
                                     sw_asset* out, sw_error* err) {
    sw_result r;
    switch (format) {
    case SW_ASSET_FORMAT_SINEW:
        r = sw__asset_open_archive(data, size, out, err);
        return r == SW_RESULT_OK ? sw__asset_filter_clips(opt, out, err) : r;
    case SW_ASSET_FORMAT_BVH:
        r = sw__asset_open_bvh(data, size, opt, out, err);
        return r == SW_RESULT_OK ? sw__asset_filter_clips(opt, out, err) : r;
    case SW_ASSET_FORMAT_GLTF:
        r = sw__asset_open_gltf(path, opt, out, err);
        /* glTF 1.0: the readers may know it. */
        if (r != SW_RESULT_BAD_VERSION || opt->readers_count == 0) return r;
        out->format = SW_ASSET_FORMAT_READER;
        break;
    default:
        break;
    }
    if (opt->readers_count == 0) return sw__fail(err, SW_RESULT_PARSE, "known file format", 0, -1);
    if (opt->readers_in_process) return sw__asset_open_readers(path, opt, out, err);
    return sw__asset_open_isolated(path, data, size, SW_ASSET_FORMAT_READER, opt, out, err);
}

typedef struct sw__asset_child_args {
    const char* path;
    const char* data;
    size_t size;
    sw_asset_format format;
    const sw_asset_options* options;
    uint64_t file_size;
} sw__asset_child_args;

/* Child side of an isolated open: read, then send an archive. */
static sw_result sw__asset_child(void* user, const sw_allocator* alloc, sw_isolate_output* out,
                                 sw_error* err) {
    const sw__asset_child_args* a = (const sw__asset_child_args*)user;
    sw_asset_options opt = *a->options;
    opt.isolate = false;
    opt.readers_in_process = true; /* already in a child */
    sw_asset asset;
    memset(&asset, 0, sizeof asset);
    asset.file_size = a->file_size;
    sw_result r = sw__asset_open_here(a->path, a->data, a->size, a->format, &opt, &asset, err);
    if (r == SW_RESULT_OK) {
        sw_archive_contents k;
        memset(&k, 0, sizeof k);
        k.skeletons = &asset.skeleton;
        k.skeletons_count = 1;
        k.clips = asset.clips;
        k.clips_count = asset.clips_count;
        k.meshes = asset.meshes;
        k.meshes_count = asset.meshes_count;
        r = sw_archive_write(&k, alloc, &out->data, &out->size, err);
    }
    snprintf(out->message, sizeof out->message, "%s", asset.warning);
    /* The child exits right after: its memory goes with it. */
    return r;
}

static sw_result sw__asset_open_isolated(const char* path, const char* data, size_t size,
                                         sw_asset_format format, const sw_asset_options* opt,
                                         sw_asset* out, sw_error* err) {
    sw__asset_child_args args = {path, data, size, format, opt, out->file_size};
    sw_isolate_options io;
    memset(&io, 0, sizeof io);
    io.timeout_ms = opt->timeout_ms;
    io.memory_limit = opt->max_memory;
    if (!io.memory_limit) {
        const uint64_t extra = sw_budget_default_limit(out->file_size) - SW_BUDGET_FLOOR;
        io.memory_limit =
            extra > UINT64_MAX - SW_BUDGET_CHILD_FLOOR ? UINT64_MAX : SW_BUDGET_CHILD_FLOOR + extra;
    }
    sw_isolate_result res;
    sw_result r = sw_isolate_run(sw__asset_child, &args, &io, NULL, &res, err);
    snprintf(out->warning, sizeof out->warning, "%s", res.message);
    if (r != SW_RESULT_OK && res.memory_limited && err &&
        (res.signal || res.exit_status > 0 || r == SW_RESULT_OUT_OF_MEMORY)) {
        /* Out of address space shows as a crash, an exit or OUT_OF_MEMORY: say
         * the limit. */
        const size_t n = strlen(err->detail);
        snprintf(err->detail + n, sizeof err->detail - n,
                 "%sthe reader ran with a memory limit of %llu MiB", n ? "; " : "",
                 (unsigned long long)(io.memory_limit >> 20));
    }
    if (r == SW_RESULT_OK) {
        char keep[sizeof out->warning];
        memcpy(keep, out->warning, sizeof keep);
        r = sw__asset_open_archive((const char*)res.data, res.size, out, err);
        memcpy(out->warning, keep, sizeof keep);
    }
    sw_isolate_result_free(&res, NULL);
    return r;
}

/* True when one of the readers may read the file (its `knows` says so or
 * it has none). */
static bool sw__asset_reader_takes(const sw_asset_options* opt, const char* path, const char* head,
                                   size_t got) {
    for (uint32_t i = 0; i < opt->readers_count; ++i) {
        const sw_asset_reader* reader = &opt->readers[i];
        if (!reader->knows || reader->knows(reader->user, path, head, got)) return true;
    }
    return false;
}

/* After a failure: frees what *out holds but keeps its format and warning
 * (the reader's message, also in err->detail when that says nothing). */
static void sw__asset_failed(sw_asset* out, sw_error* err) {
    sw_asset_format format = out->format;
    char warning[sizeof out->warning];
    memcpy(warning, out->warning, sizeof warning);
    sw_asset_free(out);
    out->format = format;
    memcpy(out->warning, warning, sizeof warning);
    if (err && !err->detail[0] && warning[0]) {
        snprintf(err->detail, sizeof err->detail, "%s", warning);
    }
}

sw_result sw_asset_open(const char* path, const sw_asset_options* options, sw_asset* out,
                        sw_error* err) {
    if (err) *err = (sw_error)SW_ERROR_INIT;
    if (!path || !out) return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "path and out", 0, -1);
    memset(out, 0, sizeof *out);
    sw_asset_options defaults;
    memset(&defaults, 0, sizeof defaults);
    const sw_asset_options* opt = options ? options : &defaults;
    if (!isfinite(opt->scale) || opt->scale < 0.0f) {
        return sw__fail(err, SW_RESULT_LIMIT, "scale finite and positive", 0, -1);
    }
    if (opt->clips_count > 0 && !opt->clips) {
        return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "clip names not NULL", 0, -1);
    }
    if (opt->readers_count > 0 && !opt->readers) {
        return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "readers not NULL", 0, -1);
    }
    const size_t max_size = opt->max_file_size ? opt->max_file_size : SW_FILE_DEFAULT_MAX_SIZE;
    /* The header tells the format; only the formats parsed from memory
     * (archives, BVH) are then read whole. */
    char head[SW__ASSET_HEAD];
    size_t got = 0;
    sw_result r = sw_file_read_head(path, max_size, head, sizeof head, &got, &out->file_size, err);
    if (r != SW_RESULT_OK) return r;
    if (out->file_size == 0) {
        return sw__fail_detail(err, SW_RESULT_TRUNCATED, "file not empty", -1, "the file is empty");
    }
    out->format = sw__asset_detect(path, head, got);
    if (out->format == SW_ASSET_FORMAT_READER && !sw__asset_reader_takes(opt, path, head, got)) {
        return sw__fail_detail(err, SW_RESULT_PARSE, "known file format", -1,
                               "not a .sinew archive, BVH or glTF file, and %s",
                               opt->readers_count ? "no reader takes its extension"
                                                  : "no other readers");
    }
    void* data = NULL;
    size_t size = 0;
    if (out->format == SW_ASSET_FORMAT_SINEW || out->format == SW_ASSET_FORMAT_BVH) {
        r = sw_file_read(path, max_size, NULL, &data, &size, err);
    }
    if (r == SW_RESULT_OK && opt->isolate && out->format != SW_ASSET_FORMAT_SINEW) {
        r = sw__asset_open_isolated(path, data, size, out->format, opt, out, err);
    } else if (r == SW_RESULT_OK) {
        r = sw__asset_open_here(path, data, size, out->format, opt, out, err);
    }
    sw_free(NULL, data, size);
    /* Values finite one by one may still overflow together when sampled. */
    for (uint32_t i = 0; r == SW_RESULT_OK && i < out->clips_count; ++i)
        r = sw_clip_check_extent(out->clips[i], out->skeleton, err);
    if (r != SW_RESULT_OK) sw__asset_failed(out, err);
    return r;
}

void sw_asset_free(sw_asset* a) {
    if (!a) return;
    sw_bvh_result_free(&a->bvh_, NULL);
    sw_scene_free(&a->scene_, NULL);
    sw_free(NULL, a->storage_, a->storage_size_);
    memset(a, 0, sizeof *a);
}

int32_t sw_asset_find_clip(const sw_asset* a, const char* name_or_index) {
    if (!a || !name_or_index) return -1;
    for (uint32_t i = 0; i < a->clips_count; ++i) {
        if (strcmp(sw_clip_name(a->clips[i]), name_or_index) == 0) return (int32_t)i;
    }
    if (!*name_or_index) return -1;
    uint64_t v = 0;
    for (const char* s = name_or_index; *s; ++s) {
        if (*s < '0' || *s > '9') return -1;
        v = v * 10u + (uint64_t)(*s - '0');
        if (v >= a->clips_count) return -1;
    }
    return (int32_t)v;
}

int32_t sw_asset_require_clip(const sw_asset* a, const char* name_or_index, sw_error* err) {
    const int32_t i = sw_asset_find_clip(a, name_or_index);
    if (i < 0) {
        sw__fail_name(err, "clip in the file", -1, "clip", name_or_index, sw__asset_clip_name_at,
                      a ? (void*)(uintptr_t)a->clips : NULL, a ? a->clips_count : 0u);
    }
    return i;
}
