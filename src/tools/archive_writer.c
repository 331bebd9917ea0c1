/* Writing .sinew archives: header, chunk table (skeletons first, then clips
 * and meshes,
 * each clip linked to its skeleton's chunk), 16-byte aligned blocks copied
 * as they are, CRC-32 of everything after the checksum field. */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "runtime/internal.h"
#include "sinew/tools/archive_writer.h"

static void sw__wr32(uint8_t* p, uint32_t v) {
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}

static void sw__wr64(uint8_t* p, uint64_t v) {
    sw__wr32(p, (uint32_t)v);
    sw__wr32(p + 4, (uint32_t)(v >> 32));
}

static uint64_t sw__align16_u64(uint64_t v) {
    return (v + 15u) & ~(uint64_t)15u;
}

sw_result sw_archive_write(const sw_archive_contents* contents, const sw_allocator* alloc,
                           void** out_data, size_t* out_size, sw_error* err) {
    if (!contents || !out_data || !out_size) {
        return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "arguments not NULL", 0, -1);
    }
    const sw_archive_contents* k = contents;
    if (k->skeletons_count == 0 || !k->skeletons) {
        return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "at least one skeleton", 0, -1);
    }
    if (!k->clips && k->clips_count > 0) {
        return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "clips not NULL", 0, -1);
    }
    if (!k->meshes && k->meshes_count > 0) {
        return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "meshes not NULL", 0, -1);
    }
    uint64_t chunks = (uint64_t)k->skeletons_count + k->clips_count + k->meshes_count;
    if (chunks > SW_ARCHIVE_MAX_CHUNKS) {
        return sw__fail(err, SW_RESULT_LIMIT, "chunks count", 0, -1);
    }
    uint64_t total = sw__align16_u64(SW_ARCHIVE_HEADER_SIZE + 16u * chunks);
    for (uint32_t i = 0; i < k->skeletons_count; ++i) {
        if (!k->skeletons[i]) {
            return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "skeleton not NULL", 0, (int64_t)i);
        }
        total += sw__align16_u64(k->skeletons[i]->size);
    }
    for (uint32_t i = 0; i < k->clips_count; ++i) {
        const sw_clip* c = k->clips[i];
        uint32_t s = k->clip_skeletons ? k->clip_skeletons[i] : 0u;
        if (!c) return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "clip not NULL", 0, (int64_t)i);
        if (s >= k->skeletons_count) {
            return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "clip skeleton in range", 0,
                            (int64_t)i);
        }
        if (c->joints_count != k->skeletons[s]->joints_count) {
            return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "clip joints match skeleton", 0,
                            (int64_t)i);
        }
        total += sw__align16_u64(c->size);
    }
    for (uint32_t i = 0; i < k->meshes_count; ++i) {
        const sw_mesh* m = k->meshes[i];
        uint32_t s = k->mesh_skeletons ? k->mesh_skeletons[i] : 0u;
        if (!m) return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "mesh not NULL", 0, (int64_t)i);
        if (s >= k->skeletons_count) {
            return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "mesh skeleton in range", 0,
                            (int64_t)i);
        }
        if (m->skeleton_joints_count != k->skeletons[s]->joints_count) {
            return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "mesh joints match skeleton", 0,
                            (int64_t)i);
        }
        total += sw__align16_u64(m->size);
    }
    if (total > 0xFFFFFFF0u) return sw__fail(err, SW_RESULT_LIMIT, "archive under 4 GiB", 0, -1);

    uint8_t* d = (uint8_t*)sw_alloc(alloc, (size_t)total, 16);
    if (!d) return sw__fail(err, SW_RESULT_OUT_OF_MEMORY, "allocation", 0, -1);
    memset(d, 0, (size_t)total);
    memcpy(d, "SINEWARC", 8);
    sw__wr32(d + 8, SW_ARCHIVE_VERSION);
    sw__wr64(d + 16, total);
    sw__wr32(d + 24, (uint32_t)chunks);
    sw__wr32(d + 28, 0);
    uint32_t at = (uint32_t)sw__align16_u64(SW_ARCHIVE_HEADER_SIZE + 16u * chunks);
    uint32_t chunk = 0;
    for (uint32_t i = 0; i < k->skeletons_count; ++i, ++chunk) {
        const sw_skeleton* s = k->skeletons[i];
        uint8_t* row = d + SW_ARCHIVE_HEADER_SIZE + 16u * chunk;
        sw__wr32(row, SW_ARCHIVE_KIND_SKELETON);
        sw__wr32(row + 4, SW_ARCHIVE_NO_LINK);
        sw__wr32(row + 8, at);
        sw__wr32(row + 12, s->size);
        memcpy(d + at, s, s->size);
        at += (uint32_t)sw__align16_u64(s->size);
    }
    for (uint32_t i = 0; i < k->clips_count; ++i, ++chunk) {
        const sw_clip* c = k->clips[i];
        uint8_t* row = d + SW_ARCHIVE_HEADER_SIZE + 16u * chunk;
        sw__wr32(row, SW_ARCHIVE_KIND_CLIP);
        sw__wr32(row + 4, k->clip_skeletons ? k->clip_skeletons[i] : 0u);
        sw__wr32(row + 8, at);
        sw__wr32(row + 12, c->size);
        memcpy(d + at, c, c->size);
        at += (uint32_t)sw__align16_u64(c->size);
    }
    for (uint32_t i = 0; i < k->meshes_count; ++i, ++chunk) {
        const sw_mesh* m = k->meshes[i];
        uint8_t* row = d + SW_ARCHIVE_HEADER_SIZE + 16u * chunk;
        sw__wr32(row, SW_ARCHIVE_KIND_MESH);
        sw__wr32(row + 4, k->mesh_skeletons ? k->mesh_skeletons[i] : 0u);
        sw__wr32(row + 8, at);
        sw__wr32(row + 12, m->size);
        memcpy(d + at, m, m->size);
        at += (uint32_t)sw__align16_u64(m->size);
    }
    SINEW_ASSERT(at == total);
    sw__wr32(d + 12, sw_crc32(0, d + 16, (size_t)total - 16u));
    *out_data = d;
    *out_size = (size_t)total;
    return SW_RESULT_OK;
}

sw_result sw_archive_write_file(const sw_archive_contents* contents, const char* path,
                                sw_error* err) {
    if (!path) return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "path not NULL", 0, -1);
    void* data = NULL;
    size_t size = 0;
    sw_result r = sw_archive_write(contents, NULL, &data, &size, err);
    if (r != SW_RESULT_OK) return r;
    char tmp[4096];
    int n = snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid());
    if (n < 0 || (size_t)n >= sizeof tmp) {
        sw_free(NULL, data, size);
        return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "path length", 0, -1);
    }
    FILE* f = fopen(tmp, "wb");
    if (!f) {
        sw_free(NULL, data, size);
        return sw__fail(err, SW_RESULT_IO, "open temporary file", 0, -1);
    }
    const char* failed = NULL;
    if (fwrite(data, 1, size, f) != size) failed = "write temporary file";
    if (fflush(f) != 0 && !failed) failed = "flush temporary file";
    if (fclose(f) != 0 && !failed) failed = "close temporary file";
    sw_free(NULL, data, size);
    if (!failed && rename(tmp, path) != 0) failed = "rename into place";
    if (failed) {
        remove(tmp);
        return sw__fail(err, SW_RESULT_IO, failed, 0, -1);
    }
    return SW_RESULT_OK;
}
