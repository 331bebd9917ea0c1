/* .sinew archives: validation in place, lookups, CRC-32.
 *
 * Order of checks: header (size, magic, version), declared size against the
 * buffer, checksum, then the chunk table (bounds, kinds in kind order,
 * alignment, order without overlap, links), then every chunk with its object's loader. Error
 * offsets are file offsets; inside a chunk, err->index is the element the
 * object's loader named. */
#include <string.h>

#include "internal.h"

/* CRC-32 (IEEE, reflected polynomial 0xEDB88320), one entry per byte value;
 * generated once, checked against a bitwise implementation in test_archive. */
static const uint32_t sw__crc_table[256] = {
    0x00000000u, 0x77073096u, 0xEE0E612Cu, 0x990951BAu, 0x076DC419u, 0x706AF48Fu, 0xE963A535u,
    0x9E6495A3u, 0x0EDB8832u, 0x79DCB8A4u, 0xE0D5E91Eu, 0x97D2D988u, 0x09B64C2Bu, 0x7EB17CBDu,
    0xE7B82D07u, 0x90BF1D91u, 0x1DB71064u, 0x6AB020F2u, 0xF3B97148u, 0x84BE41DEu, 0x1ADAD47Du,
    0x6DDDE4EBu, 0xF4D4B551u, 0x83D385C7u, 0x136C9856u, 0x646BA8C0u, 0xFD62F97Au, 0x8A65C9ECu,
    0x14015C4Fu, 0x63066CD9u, 0xFA0F3D63u, 0x8D080DF5u, 0x3B6E20C8u, 0x4C69105Eu, 0xD56041E4u,
    0xA2677172u, 0x3C03E4D1u, 0x4B04D447u, 0xD20D85FDu, 0xA50AB56Bu, 0x35B5A8FAu, 0x42B2986Cu,
    0xDBBBC9D6u, 0xACBCF940u, 0x32D86CE3u, 0x45DF5C75u, 0xDCD60DCFu, 0xABD13D59u, 0x26D930ACu,
    0x51DE003Au, 0xC8D75180u, 0xBFD06116u, 0x21B4F4B5u, 0x56B3C423u, 0xCFBA9599u, 0xB8BDA50Fu,
    0x2802B89Eu, 0x5F058808u, 0xC60CD9B2u, 0xB10BE924u, 0x2F6F7C87u, 0x58684C11u, 0xC1611DABu,
    0xB6662D3Du, 0x76DC4190u, 0x01DB7106u, 0x98D220BCu, 0xEFD5102Au, 0x71B18589u, 0x06B6B51Fu,
    0x9FBFE4A5u, 0xE8B8D433u, 0x7807C9A2u, 0x0F00F934u, 0x9609A88Eu, 0xE10E9818u, 0x7F6A0DBBu,
    0x086D3D2Du, 0x91646C97u, 0xE6635C01u, 0x6B6B51F4u, 0x1C6C6162u, 0x856530D8u, 0xF262004Eu,
    0x6C0695EDu, 0x1B01A57Bu, 0x8208F4C1u, 0xF50FC457u, 0x65B0D9C6u, 0x12B7E950u, 0x8BBEB8EAu,
    0xFCB9887Cu, 0x62DD1DDFu, 0x15DA2D49u, 0x8CD37CF3u, 0xFBD44C65u, 0x4DB26158u, 0x3AB551CEu,
    0xA3BC0074u, 0xD4BB30E2u, 0x4ADFA541u, 0x3DD895D7u, 0xA4D1C46Du, 0xD3D6F4FBu, 0x4369E96Au,
    0x346ED9FCu, 0xAD678846u, 0xDA60B8D0u, 0x44042D73u, 0x33031DE5u, 0xAA0A4C5Fu, 0xDD0D7CC9u,
    0x5005713Cu, 0x270241AAu, 0xBE0B1010u, 0xC90C2086u, 0x5768B525u, 0x206F85B3u, 0xB966D409u,
    0xCE61E49Fu, 0x5EDEF90Eu, 0x29D9C998u, 0xB0D09822u, 0xC7D7A8B4u, 0x59B33D17u, 0x2EB40D81u,
    0xB7BD5C3Bu, 0xC0BA6CADu, 0xEDB88320u, 0x9ABFB3B6u, 0x03B6E20Cu, 0x74B1D29Au, 0xEAD54739u,
    0x9DD277AFu, 0x04DB2615u, 0x73DC1683u, 0xE3630B12u, 0x94643B84u, 0x0D6D6A3Eu, 0x7A6A5AA8u,
    0xE40ECF0Bu, 0x9309FF9Du, 0x0A00AE27u, 0x7D079EB1u, 0xF00F9344u, 0x8708A3D2u, 0x1E01F268u,
    0x6906C2FEu, 0xF762575Du, 0x806567CBu, 0x196C3671u, 0x6E6B06E7u, 0xFED41B76u, 0x89D32BE0u,
    0x10DA7A5Au, 0x67DD4ACCu, 0xF9B9DF6Fu, 0x8EBEEFF9u, 0x17B7BE43u, 0x60B08ED5u, 0xD6D6A3E8u,
    0xA1D1937Eu, 0x38D8C2C4u, 0x4FDFF252u, 0xD1BB67F1u, 0xA6BC5767u, 0x3FB506DDu, 0x48B2364Bu,
    0xD80D2BDAu, 0xAF0A1B4Cu, 0x36034AF6u, 0x41047A60u, 0xDF60EFC3u, 0xA867DF55u, 0x316E8EEFu,
    0x4669BE79u, 0xCB61B38Cu, 0xBC66831Au, 0x256FD2A0u, 0x5268E236u, 0xCC0C7795u, 0xBB0B4703u,
    0x220216B9u, 0x5505262Fu, 0xC5BA3BBEu, 0xB2BD0B28u, 0x2BB45A92u, 0x5CB36A04u, 0xC2D7FFA7u,
    0xB5D0CF31u, 0x2CD99E8Bu, 0x5BDEAE1Du, 0x9B64C2B0u, 0xEC63F226u, 0x756AA39Cu, 0x026D930Au,
    0x9C0906A9u, 0xEB0E363Fu, 0x72076785u, 0x05005713u, 0x95BF4A82u, 0xE2B87A14u, 0x7BB12BAEu,
    0x0CB61B38u, 0x92D28E9Bu, 0xE5D5BE0Du, 0x7CDCEFB7u, 0x0BDBDF21u, 0x86D3D2D4u, 0xF1D4E242u,
    0x68DDB3F8u, 0x1FDA836Eu, 0x81BE16CDu, 0xF6B9265Bu, 0x6FB077E1u, 0x18B74777u, 0x88085AE6u,
    0xFF0F6A70u, 0x66063BCAu, 0x11010B5Cu, 0x8F659EFFu, 0xF862AE69u, 0x616BFFD3u, 0x166CCF45u,
    0xA00AE278u, 0xD70DD2EEu, 0x4E048354u, 0x3903B3C2u, 0xA7672661u, 0xD06016F7u, 0x4969474Du,
    0x3E6E77DBu, 0xAED16A4Au, 0xD9D65ADCu, 0x40DF0B66u, 0x37D83BF0u, 0xA9BCAE53u, 0xDEBB9EC5u,
    0x47B2CF7Fu, 0x30B5FFE9u, 0xBDBDF21Cu, 0xCABAC28Au, 0x53B39330u, 0x24B4A3A6u, 0xBAD03605u,
    0xCDD70693u, 0x54DE5729u, 0x23D967BFu, 0xB3667A2Eu, 0xC4614AB8u, 0x5D681B02u, 0x2A6F2B94u,
    0xB40BBE37u, 0xC30C8EA1u, 0x5A05DF1Bu, 0x2D02EF8Du,
};

uint32_t sw_crc32(uint32_t crc, const void* data, size_t size) {
    const uint8_t* p = (const uint8_t*)data;
    uint32_t c = ~crc;
    if (!p) return crc;
    for (size_t i = 0; i < size; ++i)
        c = sw__crc_table[(c ^ p[i]) & 0xFFu] ^ (c >> 8);
    return ~c;
}

static uint32_t sw__rd32(const uint8_t* p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t sw__rd64(const uint8_t* p) {
    return (uint64_t)sw__rd32(p) | (uint64_t)sw__rd32(p + 4) << 32;
}

static sw_archive_chunk sw__chunk(const uint8_t* data, uint32_t i) {
    const uint8_t* p = data + SW_ARCHIVE_HEADER_SIZE + 16u * (size_t)i;
    sw_archive_chunk c;
    c.kind = sw__rd32(p);
    c.link = sw__rd32(p + 4);
    c.offset = sw__rd32(p + 8);
    c.size = sw__rd32(p + 12);
    return c;
}

/* File offset of a chunk's field. */
static uint64_t sw__chunk_field(uint32_t i, uint32_t field) {
    return (uint64_t)SW_ARCHIVE_HEADER_SIZE + 16u * (uint64_t)i + field;
}

/* Place of a chunk kind in the table's kind order (skeletons, clips, meshes,
 * animators), or 4 for an unknown kind. */
static uint32_t sw__kind_rank(uint32_t kind) {
    switch (kind) {
    case SW_ARCHIVE_KIND_SKELETON:
        return 0;
    case SW_ARCHIVE_KIND_CLIP:
        return 1;
    case SW_ARCHIVE_KIND_MESH:
        return 2;
    case SW_ARCHIVE_KIND_ANIMATOR:
        return 3;
    default:
        return 4;
    }
}

/* Runs an object loader on a chunk and turns its error into file terms. */
static sw_result sw__chunk_result(sw_result r, const sw_archive_chunk* c, sw_error* err) {
    if (r != SW_RESULT_OK && err) {
        err->offset += c->offset;
        /* A block shorter than its header says lies inside a valid file:
         * the chunk is wrong, not the file short. */
        if (err->result == SW_RESULT_TRUNCATED) err->result = r = SW_RESULT_BAD_DATA;
    } else if (r == SW_RESULT_TRUNCATED) {
        r = SW_RESULT_BAD_DATA;
    }
    return r;
}

/* The header of `size` bytes at d: magic, version, declared size, checksum,
 * flags; *count the chunks, whose table fits. */
static sw_result sw__archive_header(const uint8_t* d, size_t size, uint32_t* count, sw_error* err) {
    if (size < SW_ARCHIVE_HEADER_SIZE) {
        return sw__fail(err, SW_RESULT_TRUNCATED, "header in bounds", (uint64_t)size, -1);
    }
    if (memcmp(d, "SINEWARC", 8) != 0) {
        return sw__fail(err, SW_RESULT_BAD_MAGIC, "magic", 0, -1);
    }
    if (sw__rd32(d + 8) != SW_ARCHIVE_VERSION) {
        return sw__fail(err, SW_RESULT_BAD_VERSION, "version", 8, -1);
    }
    uint64_t total = sw__rd64(d + 16);
    if (total < SW_ARCHIVE_HEADER_SIZE || total > 0xFFFFFFFFu) {
        return sw__fail(err, SW_RESULT_BAD_DATA, "total size", 16, -1);
    }
    if (total > (uint64_t)size) {
        return sw__fail(err, SW_RESULT_TRUNCATED, "declared size in buffer", (uint64_t)size, -1);
    }
    if (total != (uint64_t)size) {
        return sw__fail(err, SW_RESULT_BAD_DATA, "declared size matches buffer", 16, -1);
    }
    if (sw_crc32(0, d + 16, (size_t)total - 16u) != sw__rd32(d + 12)) {
        return sw__fail(err, SW_RESULT_BAD_CHECKSUM, "checksum", 12, -1);
    }
    if (sw__rd32(d + 28) != 0) return sw__fail(err, SW_RESULT_BAD_DATA, "flags zero", 28, -1);
    *count = sw__rd32(d + 24);
    if (*count > SW_ARCHIVE_MAX_CHUNKS) {
        return sw__fail(err, SW_RESULT_LIMIT, "chunks count", 24, -1);
    }
    if (16u * (uint64_t)*count > (uint64_t)((uint32_t)total - SW_ARCHIVE_HEADER_SIZE)) {
        return sw__fail(err, SW_RESULT_BAD_DATA, "chunk table in bounds", 24, -1);
    }
    return SW_RESULT_OK;
}

/* The chunk table of an archive of `total` bytes: kinds, placement
 * (aligned, after the table, in bounds, in file order without overlap),
 * links; per_kind[rank] counts the chunks of each kind. */
static sw_result sw__archive_table(const uint8_t* d, uint32_t count, uint32_t total,
                                   uint32_t per_kind[4], sw_error* err) {
    uint32_t prev_end = SW_ARCHIVE_HEADER_SIZE + 16u * count;
    uint32_t prev_rank = 0;
    for (uint32_t i = 0; i < count; ++i) {
        sw_archive_chunk c = sw__chunk(d, i);
        const int64_t ci = (int64_t)i;
        const uint32_t rank = sw__kind_rank(c.kind);
        if (rank > 3u) {
            return sw__fail(err, SW_RESULT_BAD_DATA, "chunk kind", sw__chunk_field(i, 0), ci);
        }
        if (rank < prev_rank) {
            return sw__fail(err, SW_RESULT_BAD_DATA,
                            "chunks in kind order (skeletons, clips, meshes, animators)",
                            sw__chunk_field(i, 0), ci);
        }
        prev_rank = rank;
        if ((c.offset & 15u) != 0) {
            return sw__fail(err, SW_RESULT_BAD_DATA, "chunk aligned", sw__chunk_field(i, 8), ci);
        }
        if (c.offset < prev_end) {
            return sw__fail(err, SW_RESULT_BAD_DATA, "chunks in order without overlap",
                            sw__chunk_field(i, 8), ci);
        }
        if (c.offset > total || c.size > total - c.offset) {
            return sw__fail(err, SW_RESULT_BAD_DATA, "chunk in bounds", sw__chunk_field(i, 12), ci);
        }
        prev_end = c.offset + c.size;
        if (c.kind == SW_ARCHIVE_KIND_SKELETON || c.kind == SW_ARCHIVE_KIND_ANIMATOR) {
            if (c.link != SW_ARCHIVE_NO_LINK) {
                return sw__fail(err, SW_RESULT_BAD_DATA,
                                c.kind == SW_ARCHIVE_KIND_SKELETON ? "skeleton has no link"
                                                                   : "animator has no link",
                                sw__chunk_field(i, 4), ci);
            }
        } else if (c.link >= count || sw__chunk(d, c.link).kind != SW_ARCHIVE_KIND_SKELETON) {
            return sw__fail(err, SW_RESULT_BAD_DATA,
                            c.kind == SW_ARCHIVE_KIND_CLIP ? "clip links to a skeleton"
                                                           : "mesh links to a skeleton",
                            sw__chunk_field(i, 4), ci);
        }
        ++per_kind[rank];
    }
    return SW_RESULT_OK;
}

/* The skeleton a clip or mesh chunk links to (a checked link). */
static const sw_skeleton* sw__chunk_skeleton(const uint8_t* d, const sw_archive_chunk* c) {
    return (const sw_skeleton*)(const void*)(d + sw__chunk(d, c->link).offset);
}

/* Loads the block of chunk i (c) with its kind's loader and checks it
 * against the chunk: its size, and for clips and meshes the joints of the
 * skeleton they link to (loaded before them). */
static sw_result sw__archive_block(const uint8_t* d, uint32_t i, const sw_archive_chunk* c,
                                   sw_error* err) {
    const void* block = d + c->offset;
    uint32_t block_size;
    sw_result r;
    if (c->kind == SW_ARCHIVE_KIND_SKELETON) {
        const sw_skeleton* s;
        r = sw__chunk_result(sw_skeleton_load(block, c->size, &s, err), c, err);
        if (r != SW_RESULT_OK) return r;
        block_size = s->size;
    } else if (c->kind == SW_ARCHIVE_KIND_CLIP) {
        const sw_clip* clip;
        r = sw__chunk_result(sw_clip_load(block, c->size, &clip, err), c, err);
        if (r != SW_RESULT_OK) return r;
        block_size = clip->size;
        if (clip->joints_count != sw__chunk_skeleton(d, c)->joints_count) {
            return sw__fail(err, SW_RESULT_BAD_DATA, "clip joints match skeleton",
                            (uint64_t)c->offset + offsetof(sw_clip, joints_count), i);
        }
    } else if (c->kind == SW_ARCHIVE_KIND_MESH) {
        const sw_mesh* mesh;
        r = sw__chunk_result(sw_mesh_load(block, c->size, &mesh, err), c, err);
        if (r != SW_RESULT_OK) return r;
        block_size = mesh->size;
        if (mesh->skeleton_joints_count != sw__chunk_skeleton(d, c)->joints_count) {
            return sw__fail(err, SW_RESULT_BAD_DATA, "mesh joints match skeleton",
                            (uint64_t)c->offset + offsetof(sw_mesh, skeleton_joints_count), i);
        }
    } else {
        const sw_animator* anim;
        r = sw__chunk_result(sw_animator_load(block, c->size, &anim, err), c, err);
        if (r != SW_RESULT_OK) return r;
        block_size = (uint32_t)sw_animator_size(anim);
    }
    if (block_size != c->size) {
        return sw__fail(err, SW_RESULT_BAD_DATA, "chunk size matches block", sw__chunk_field(i, 12),
                        (int64_t)i);
    }
    return SW_RESULT_OK;
}

sw_result sw_archive_load(const void* data, size_t size, sw_archive* out, sw_error* err) {
    if (!data || !out) {
        return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "arguments not NULL", 0, -1);
    }
    if (!sw__aligned16(data)) {
        return sw__fail(err, SW_RESULT_MISALIGNED, "data 16-byte aligned", 0, -1);
    }
    const uint8_t* d = (const uint8_t*)data;
    uint32_t count = 0;
    uint32_t per_kind[4] = {0, 0, 0, 0};
    sw_result r = sw__archive_header(d, size, &count, err);
    if (r == SW_RESULT_OK) r = sw__archive_table(d, count, (uint32_t)size, per_kind, err);
    /* Contents: skeletons first, so clips and meshes can be matched against them. */
    for (uint32_t pass = 0; r == SW_RESULT_OK && pass < 2u; ++pass) {
        for (uint32_t i = 0; r == SW_RESULT_OK && i < count; ++i) {
            const sw_archive_chunk c = sw__chunk(d, i);
            if ((c.kind == SW_ARCHIVE_KIND_SKELETON) == (pass == 0)) {
                r = sw__archive_block(d, i, &c, err);
            }
        }
    }
    if (r != SW_RESULT_OK) return r;
    out->data = d;
    out->size = size;
    out->chunks_count = count;
    out->skeletons_count = per_kind[0];
    out->clips_count = per_kind[1];
    out->meshes_count = per_kind[2];
    out->animators_count = per_kind[3];
    return SW_RESULT_OK;
}

/* Chunk index of the i-th chunk of `kind`, or -1: the table lists each kind
 * in one run, in kind order (checked by sw_archive_load). */
static int64_t sw__nth_chunk(const sw_archive* a, uint32_t kind, uint32_t i) {
    if (!a || !a->data) return -1;
    const uint32_t counts[4] = {a->skeletons_count, a->clips_count, a->meshes_count,
                                a->animators_count};
    const uint32_t rank = sw__kind_rank(kind);
    uint64_t first = 0;
    for (uint32_t k = 0; k < rank; ++k)
        first += counts[k];
    return i < counts[rank] ? (int64_t)(first + i) : -1;
}

const sw_skeleton* sw_archive_skeleton(const sw_archive* a, uint32_t i) {
    int64_t c = sw__nth_chunk(a, SW_ARCHIVE_KIND_SKELETON, i);
    if (c < 0) return NULL;
    return (const sw_skeleton*)(const void*)(a->data + sw__chunk(a->data, (uint32_t)c).offset);
}

const sw_clip* sw_archive_clip(const sw_archive* a, uint32_t i) {
    int64_t c = sw__nth_chunk(a, SW_ARCHIVE_KIND_CLIP, i);
    if (c < 0) return NULL;
    return (const sw_clip*)(const void*)(a->data + sw__chunk(a->data, (uint32_t)c).offset);
}

const sw_mesh* sw_archive_mesh(const sw_archive* a, uint32_t i) {
    int64_t c = sw__nth_chunk(a, SW_ARCHIVE_KIND_MESH, i);
    if (c < 0) return NULL;
    return (const sw_mesh*)(const void*)(a->data + sw__chunk(a->data, (uint32_t)c).offset);
}

const sw_animator* sw_archive_animator(const sw_archive* a, uint32_t i) {
    int64_t c = sw__nth_chunk(a, SW_ARCHIVE_KIND_ANIMATOR, i);
    if (c < 0) return NULL;
    return (const sw_animator*)(const void*)(a->data + sw__chunk(a->data, (uint32_t)c).offset);
}

/* Index among skeletons of the skeleton linked by the i-th chunk of `kind`:
 * skeletons come first, so it is the link itself. */
static int32_t sw__linked_skeleton(const sw_archive* a, uint32_t kind, uint32_t i) {
    int64_t c = sw__nth_chunk(a, kind, i);
    if (c < 0) return -1;
    return (int32_t)sw__chunk(a->data, (uint32_t)c).link;
}

int32_t sw_archive_clip_skeleton(const sw_archive* a, uint32_t i) {
    return sw__linked_skeleton(a, SW_ARCHIVE_KIND_CLIP, i);
}

int32_t sw_archive_mesh_skeleton(const sw_archive* a, uint32_t i) {
    return sw__linked_skeleton(a, SW_ARCHIVE_KIND_MESH, i);
}

int32_t sw_archive_find_clip(const sw_archive* a, const char* name) {
    if (!a || !name) return -1;
    for (uint32_t i = 0; i < a->clips_count; ++i) {
        const sw_clip* c = sw_archive_clip(a, i);
        if (c && strcmp(sw_clip_name(c), name) == 0) return (int32_t)i;
    }
    return -1;
}
