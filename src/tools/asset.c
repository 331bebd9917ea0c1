/* Opening a file as a skeleton and clips: .sinew archives or BVH, by content. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/internal.h"
#include "sinew/tools/asset.h"

/* Reads the whole file into malloc'd memory (one spare byte so that an empty
 * file still gives a pointer). */
static sw_result sw__asset_read(const char* path, char** out, size_t* out_size, sw_error* err) {
    FILE* f = fopen(path, "rb");
    if (!f) return sw__fail(err, SW_RESULT_IO, "open file", 0, -1);
    size_t cap = 1u << 16, size = 0;
    char* buf = (char*)malloc(cap);
    if (!buf) {
        fclose(f);
        return sw__fail(err, SW_RESULT_OUT_OF_MEMORY, "read file", 0, -1);
    }
    for (;;) {
        if (size == cap) {
            if (cap > ((size_t)1 << 32)) {
                free(buf);
                fclose(f);
                return sw__fail(err, SW_RESULT_LIMIT, "file size <= 4 GiB", (uint64_t)size, -1);
            }
            char* grown = (char*)realloc(buf, cap * 2u);
            if (!grown) {
                free(buf);
                fclose(f);
                return sw__fail(err, SW_RESULT_OUT_OF_MEMORY, "read file", (uint64_t)size, -1);
            }
            buf = grown;
            cap *= 2u;
        }
        size_t got = fread(buf + size, 1, cap - size, f);
        size += got;
        if (got == 0) break;
    }
    bool failed = ferror(f) != 0;
    fclose(f);
    if (failed) {
        free(buf);
        return sw__fail(err, SW_RESULT_IO, "read file", (uint64_t)size, -1);
    }
    *out = buf;
    *out_size = size;
    return SW_RESULT_OK;
}

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
    /* The archive bytes, 16-byte aligned, then room for one clip pointer per
     * chunk of the table (the header's count, capped; checked by the load). */
    uint32_t chunks = 0;
    if (size >= SW_ARCHIVE_HEADER_SIZE) {
        const uint8_t* c = (const uint8_t*)data + 24;
        chunks = (uint32_t)c[0] | (uint32_t)c[1] << 8 | (uint32_t)c[2] << 16 | (uint32_t)c[3] << 24;
        if (chunks > SW_ARCHIVE_MAX_CHUNKS) chunks = SW_ARCHIVE_MAX_CHUNKS;
    }
    size_t head = (size + 15u) & ~(size_t)15u;
    if (head < size || head > SIZE_MAX - (size_t)SW_ARCHIVE_MAX_CHUNKS * sizeof(void*)) {
        return sw__fail(err, SW_RESULT_LIMIT, "file size", 0, -1);
    }
    size_t total = head + ((size_t)chunks + 1u) * sizeof(const sw_clip*);
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
    return SW_RESULT_OK;
}

static sw_result sw__asset_open_bvh(const char* data, size_t size, const sw_asset_options* opt,
                                    sw_asset* out, sw_error* err) {
    sw_bvh_options bo;
    memset(&bo, 0, sizeof bo);
    bo.scale = opt->scale;
    bo.end_sites = opt->end_sites;
    sw_result r = sw_bvh_read(data, size, &bo, NULL, &out->bvh_, err);
    if (r != SW_RESULT_OK) return r;
    const sw_clip** clips = (const sw_clip**)sw_alloc(NULL, sizeof(const sw_clip*), 16);
    if (!clips) return sw__fail(err, SW_RESULT_OUT_OF_MEMORY, "clip list", 0, -1);
    clips[0] = out->bvh_.clip;
    out->storage_ = (void*)clips;
    out->storage_size_ = sizeof(const sw_clip*);
    out->skeleton = out->bvh_.skeleton;
    out->clips = clips;
    out->clips_count = 1;
    memcpy(out->warning, out->bvh_.warning, sizeof out->warning);
    return SW_RESULT_OK;
}

sw_result sw_asset_open(const char* path, const sw_asset_options* options, sw_asset* out,
                        sw_error* err) {
    if (err) {
        err->result = SW_RESULT_OK;
        err->check = NULL;
        err->offset = 0;
        err->index = -1;
    }
    if (!path || !out) return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "path and out", 0, -1);
    memset(out, 0, sizeof *out);
    const sw_asset_options defaults = {0.0f, false};
    const sw_asset_options* opt = options ? options : &defaults;
    if (!isfinite(opt->scale) || opt->scale < 0.0f) {
        return sw__fail(err, SW_RESULT_LIMIT, "scale finite and positive", 0, -1);
    }
    char* data = NULL;
    size_t size = 0;
    sw_result r = sw__asset_read(path, &data, &size, err);
    if (r != SW_RESULT_OK) return r;
    out->file_size = (uint64_t)size;
    if (size >= 8 && memcmp(data, "SINEWARC", 8) == 0) {
        out->format = SW_ASSET_FORMAT_SINEW;
        r = sw__asset_open_archive(data, size, out, err);
    } else if (sw__asset_is_bvh(data, size)) {
        out->format = SW_ASSET_FORMAT_BVH;
        r = sw__asset_open_bvh(data, size, opt, out, err);
    } else {
        r = sw__fail(err, SW_RESULT_PARSE, "known file format", 0, -1);
    }
    free(data);
    if (r != SW_RESULT_OK) {
        sw_asset_format format = out->format;
        sw_asset_free(out);
        out->format = format;
    }
    return r;
}

void sw_asset_free(sw_asset* a) {
    if (!a) return;
    sw_bvh_result_free(&a->bvh_, NULL);
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
