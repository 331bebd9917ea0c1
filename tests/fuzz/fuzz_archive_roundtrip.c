/* libFuzzer target: the archive writer round trip. An archive that loads is
 * written again from its objects (skeletons, clips and meshes with their
 * links, animators) and loaded back: the same objects, byte for byte, in
 * the same order and with the same links. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sinew/sinew.h"
#include "sinew/tools/writers/archive_writer.h"

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

/* Aborts unless object blocks a and b hold the same `size` bytes. */
static void fuzz_same(const void* a, const void* b, size_t size) {
    if (!a || !b || memcmp(a, b, size) != 0) abort();
}

static void fuzz_compare(const sw_archive* a, const sw_archive* b) {
    if (a->skeletons_count != b->skeletons_count || a->clips_count != b->clips_count ||
        a->meshes_count != b->meshes_count || a->animators_count != b->animators_count) {
        abort();
    }
    for (uint32_t i = 0; i < a->skeletons_count; ++i)
        fuzz_same(sw_archive_skeleton(a, i), sw_archive_skeleton(b, i),
                  sw_archive_skeleton(a, i)->size);
    for (uint32_t i = 0; i < a->clips_count; ++i) {
        fuzz_same(sw_archive_clip(a, i), sw_archive_clip(b, i), sw_archive_clip(a, i)->size);
        if (sw_archive_clip_skeleton(a, i) != sw_archive_clip_skeleton(b, i)) abort();
    }
    for (uint32_t i = 0; i < a->meshes_count; ++i) {
        fuzz_same(sw_archive_mesh(a, i), sw_archive_mesh(b, i), sw_archive_mesh(a, i)->size);
        if (sw_archive_mesh_skeleton(a, i) != sw_archive_mesh_skeleton(b, i)) abort();
    }
    for (uint32_t i = 0; i < a->animators_count; ++i)
        fuzz_same(sw_archive_animator(a, i), sw_archive_animator(b, i),
                  sw_animator_size(sw_archive_animator(a, i)));
}

/* Writes archive a again and compares what loads back. */
static void fuzz_round_trip(const sw_archive* a) {
    const uint32_t n = a->chunks_count + 1u;
    const void** objects = (const void**)calloc(n, sizeof(void*));
    uint32_t* links = (uint32_t*)calloc(n, sizeof(uint32_t));
    if (!objects || !links) abort();
    const sw_skeleton** skels = (const sw_skeleton**)objects;
    for (uint32_t i = 0; i < a->skeletons_count; ++i)
        skels[i] = sw_archive_skeleton(a, i);
    const sw_clip** clips = (const sw_clip**)(objects + a->skeletons_count);
    uint32_t* clip_links = links;
    for (uint32_t i = 0; i < a->clips_count; ++i) {
        clips[i] = sw_archive_clip(a, i);
        clip_links[i] = (uint32_t)sw_archive_clip_skeleton(a, i);
    }
    const sw_mesh** meshes = (const sw_mesh**)(objects + a->skeletons_count + a->clips_count);
    uint32_t* mesh_links = links + a->clips_count;
    for (uint32_t i = 0; i < a->meshes_count; ++i) {
        meshes[i] = sw_archive_mesh(a, i);
        mesh_links[i] = (uint32_t)sw_archive_mesh_skeleton(a, i);
    }
    const sw_animator** anims =
        (const sw_animator**)(objects + a->skeletons_count + a->clips_count + a->meshes_count);
    for (uint32_t i = 0; i < a->animators_count; ++i)
        anims[i] = sw_archive_animator(a, i);
    const sw_archive_contents k = {.skeletons = skels,
                                   .skeletons_count = a->skeletons_count,
                                   .clips = clips,
                                   .clips_count = a->clips_count,
                                   .clip_skeletons = clip_links,
                                   .meshes = meshes,
                                   .meshes_count = a->meshes_count,
                                   .mesh_skeletons = mesh_links,
                                   .animators = anims,
                                   .animators_count = a->animators_count};
    void* out = NULL;
    size_t out_size = 0;
    sw_error err;
    sw_result r = sw_archive_write(&k, NULL, &out, &out_size, &err);
    if (r == SW_RESULT_OK) {
        sw_archive b;
        if (sw_archive_load(out, out_size, &b, &err) != SW_RESULT_OK) abort(); /* loads back */
        fuzz_compare(a, &b);
        sw_free(NULL, out, out_size);
    } else if (a->skeletons_count > 0) {
        abort(); /* what loaded (with a skeleton) can be written */
    }
    free(links);
    free(objects);
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    size_t cap = (size + 16u) & ~(size_t)15u;
    uint8_t* buf = (uint8_t*)aligned_alloc(16, cap);
    if (!buf) return 0;
    if (size > 0) memcpy(buf, data, size);
    /* The checksum recomputed when the declared size fits, so that
     * mutations reach the chunks (as fuzz_archive does). */
    if (size >= SW_ARCHIVE_HEADER_SIZE) {
        uint64_t total = 0;
        for (int i = 7; i >= 0; --i)
            total = (total << 8) | buf[16 + i];
        if (total >= 16u && total <= (uint64_t)size) {
            uint32_t crc = sw_crc32(0, buf + 16, (size_t)total - 16u);
            for (int i = 0; i < 4; ++i)
                buf[12 + i] = (uint8_t)(crc >> (8 * i));
        }
    }
    sw_archive a;
    sw_error err;
    if (sw_archive_load(buf, size, &a, &err) == SW_RESULT_OK) fuzz_round_trip(&a);
    free(buf);
    return 0;
}
