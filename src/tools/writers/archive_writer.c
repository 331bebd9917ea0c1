/* Writing .sinew archives: header, chunk table (skeletons first, then clips,
 * meshes and animator definitions; clips and meshes linked to their
 * skeleton's chunk), 16-byte aligned blocks copied as they are, CRC-32 of
 * everything after the checksum field. */
#include <string.h>

#include "shared/fail.h"
#include "shared/layout.h"
#include "sinew/sinew.h"
#include "sinew/tools/writers/archive_writer.h"
#include "sinew/tools/writers/file.h"

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

/* Writes chunk row `chunk` and copies its block to `*at`, advancing *at. */
static void sw__put_chunk(uint8_t* d, uint32_t chunk, uint32_t kind, uint32_t link,
                          const void* block, uint32_t size, uint32_t* at) {
    uint8_t* row = d + SW_ARCHIVE_HEADER_SIZE + 16u * chunk;
    sw__wr32(row, kind);
    sw__wr32(row + 4, link);
    sw__wr32(row + 8, *at);
    sw__wr32(row + 12, size);
    memcpy(d + *at, block, size);
    *at += (uint32_t)sw__align16(size);
}

/* Checks that linked object i (a clip or a mesh, with `joints` joints) is
 * not NULL and that its skeleton exists and has as many joints. */
static sw_result sw__check_linked(const sw_archive_contents* k, const void* object,
                                  const uint32_t* skeletons, uint32_t i, uint32_t joints,
                                  const char* not_null, const char* in_range,
                                  const char* joints_match, sw_error* err) {
    uint32_t s = skeletons ? skeletons[i] : 0u;
    if (!object) return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, not_null, 0, (int64_t)i);
    if (s >= k->skeletons_count) {
        return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, in_range, 0, (int64_t)i);
    }
    if (joints != k->skeletons[s]->joints_count) {
        return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, joints_match, 0, (int64_t)i);
    }
    return SW_RESULT_OK;
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
    if (!k->animators && k->animators_count > 0) {
        return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "animators not NULL", 0, -1);
    }
    uint64_t chunks =
        (uint64_t)k->skeletons_count + k->clips_count + k->meshes_count + k->animators_count;
    if (chunks > SW_ARCHIVE_MAX_CHUNKS) {
        return sw__fail(err, SW_RESULT_LIMIT, "chunks count", 0, -1);
    }
    uint64_t total = sw__align16(SW_ARCHIVE_HEADER_SIZE + 16u * chunks);
    for (uint32_t i = 0; i < k->skeletons_count; ++i) {
        if (!k->skeletons[i]) {
            return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "skeleton not NULL", 0, (int64_t)i);
        }
        total += sw__align16(k->skeletons[i]->size);
    }
    for (uint32_t i = 0; i < k->clips_count; ++i) {
        const sw_clip* c = k->clips[i];
        sw_result r =
            sw__check_linked(k, c, k->clip_skeletons, i, c ? c->joints_count : 0, "clip not NULL",
                             "clip skeleton in range", "clip joints match skeleton", err);
        if (r != SW_RESULT_OK) return r;
        total += sw__align16(c->size);
    }
    for (uint32_t i = 0; i < k->meshes_count; ++i) {
        const sw_mesh* m = k->meshes[i];
        sw_result r = sw__check_linked(k, m, k->mesh_skeletons, i, m ? m->skeleton_joints_count : 0,
                                       "mesh not NULL", "mesh skeleton in range",
                                       "mesh joints match skeleton", err);
        if (r != SW_RESULT_OK) return r;
        total += sw__align16(m->size);
    }
    for (uint32_t i = 0; i < k->animators_count; ++i) {
        if (!k->animators[i]) {
            return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "animator not NULL", 0, (int64_t)i);
        }
        total += sw__align16(sw_animator_size(k->animators[i]));
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
    uint32_t at = (uint32_t)sw__align16(SW_ARCHIVE_HEADER_SIZE + 16u * chunks);
    uint32_t chunk = 0;
    /* Skeletons come first, so a skeleton's index is its chunk index. */
    for (uint32_t i = 0; i < k->skeletons_count; ++i) {
        const sw_skeleton* s = k->skeletons[i];
        sw__put_chunk(d, chunk++, SW_ARCHIVE_KIND_SKELETON, SW_ARCHIVE_NO_LINK, s, s->size, &at);
    }
    for (uint32_t i = 0; i < k->clips_count; ++i) {
        const sw_clip* c = k->clips[i];
        sw__put_chunk(d, chunk++, SW_ARCHIVE_KIND_CLIP,
                      k->clip_skeletons ? k->clip_skeletons[i] : 0u, c, c->size, &at);
    }
    for (uint32_t i = 0; i < k->meshes_count; ++i) {
        const sw_mesh* m = k->meshes[i];
        sw__put_chunk(d, chunk++, SW_ARCHIVE_KIND_MESH,
                      k->mesh_skeletons ? k->mesh_skeletons[i] : 0u, m, m->size, &at);
    }
    for (uint32_t i = 0; i < k->animators_count; ++i) {
        const sw_animator* a = k->animators[i];
        sw__put_chunk(d, chunk++, SW_ARCHIVE_KIND_ANIMATOR, SW_ARCHIVE_NO_LINK, a,
                      (uint32_t)sw_animator_size(a), &at);
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
    r = sw_file_write_atomic(path, data, size, err);
    sw_free(NULL, data, size);
    return r;
}
