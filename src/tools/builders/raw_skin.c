/* Raw skins: influences per vertex in a linked list (in the order added),
 * reduced at build to the four largest and normalized. */
#include <math.h>
#include <string.h>

#include "shared/fail.h"
#include "sinew/sinew.h"
#include "sinew/tools/builders/raw_skin.h"

#define SW__SKIN_NONE UINT32_MAX

typedef struct sw__influence {
    float weight;
    uint32_t next; /* the vertex's next influence, or SW__SKIN_NONE */
    uint16_t joint;
} sw__influence;

struct sw_raw_skin {
    sw_allocator alloc;
    uint32_t vertices_count;
    uint32_t* first; /* per vertex: first influence, or SW__SKIN_NONE */
    uint32_t* last;  /* per vertex: last influence */
    sw__influence* influences;
    uint32_t count, cap;
};

sw_result sw_raw_skin_create(uint32_t vertices_count, const sw_allocator* alloc, sw_raw_skin** out,
                             sw_error* err) {
    if (!out) return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "out not NULL", 0, -1);
    *out = NULL;
    if (vertices_count == 0 || vertices_count > SW_MESH_MAX_VERTICES) {
        return sw__fail(err, SW_RESULT_LIMIT, "vertices count", 0, -1);
    }
    sw_raw_skin* s = (sw_raw_skin*)sw_alloc(alloc, sizeof *s, 16);
    if (!s) return sw__fail(err, SW_RESULT_OUT_OF_MEMORY, "raw skin", 0, -1);
    memset(s, 0, sizeof *s);
    if (alloc) s->alloc = *alloc;
    s->vertices_count = vertices_count;
    s->first = (uint32_t*)sw_alloc(alloc, sizeof(uint32_t) * vertices_count, 16);
    s->last = (uint32_t*)sw_alloc(alloc, sizeof(uint32_t) * vertices_count, 16);
    if (!s->first || !s->last) {
        sw_raw_skin_destroy(s);
        return sw__fail(err, SW_RESULT_OUT_OF_MEMORY, "raw skin", 0, -1);
    }
    memset(s->first, 0xFF, sizeof(uint32_t) * vertices_count);
    *out = s;
    return SW_RESULT_OK;
}

sw_result sw_raw_skin_add(sw_raw_skin* skin, uint32_t vertex, uint16_t joint, float weight,
                          sw_error* err) {
    if (!skin || vertex >= skin->vertices_count) {
        return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "vertex in range", 0, (int64_t)vertex);
    }
    if (!isfinite(weight) || weight < 0.0f) {
        return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "finite weight >= 0", 0, (int64_t)vertex);
    }
    if (skin->count == skin->cap) {
        if (skin->cap == SW__SKIN_NONE - 1u) {
            return sw__fail(err, SW_RESULT_LIMIT, "influences count", 0, (int64_t)vertex);
        }
        const uint32_t grown =
            skin->cap < 1024u
                ? 1024u
                : (skin->cap > (SW__SKIN_NONE - 1u) / 2u ? SW__SKIN_NONE - 1u : skin->cap * 2u);
        sw__influence* p =
            (sw__influence*)sw_alloc(&skin->alloc, sizeof(sw__influence) * grown, 16);
        if (!p) return sw__fail(err, SW_RESULT_OUT_OF_MEMORY, "influences", 0, (int64_t)vertex);
        if (skin->count > 0) memcpy(p, skin->influences, sizeof(sw__influence) * skin->count);
        sw_free(&skin->alloc, skin->influences, sizeof(sw__influence) * skin->cap);
        skin->influences = p;
        skin->cap = grown;
    }
    const uint32_t i = skin->count++;
    skin->influences[i] = (sw__influence){weight, SW__SKIN_NONE, joint};
    if (skin->first[vertex] == SW__SKIN_NONE) {
        skin->first[vertex] = i;
    } else {
        skin->influences[skin->last[vertex]].next = i;
    }
    skin->last[vertex] = i;
    return SW_RESULT_OK;
}

/* The (up to) four influences one vertex keeps, in slot order; returns how
 * many, and adds the non-zero ones left out to *dropped. */
static uint32_t sw__skin_keep(const sw_raw_skin* s, uint32_t vertex, uint32_t kept[4],
                              uint32_t* dropped) {
    uint32_t n = 0;
    for (uint32_t i = s->first[vertex]; i != SW__SKIN_NONE; i = s->influences[i].next) {
        if (n < 4u) kept[n] = i;
        ++n;
    }
    if (n <= 4u) return n;
    /* Selection of the four largest, largest first; the earliest added wins ties. */
    for (uint32_t c = 0; c < 4u; ++c) {
        uint32_t best = SW__SKIN_NONE;
        for (uint32_t i = s->first[vertex]; i != SW__SKIN_NONE; i = s->influences[i].next) {
            bool taken = false;
            for (uint32_t k = 0; k < c; ++k)
                taken = taken || kept[k] == i;
            if (!taken &&
                (best == SW__SKIN_NONE || s->influences[i].weight > s->influences[best].weight))
                best = i;
        }
        kept[c] = best;
    }
    for (uint32_t i = s->first[vertex]; i != SW__SKIN_NONE; i = s->influences[i].next) {
        const bool taken = kept[0] == i || kept[1] == i || kept[2] == i || kept[3] == i;
        if (!taken && s->influences[i].weight > 0.0f) ++*dropped;
    }
    return 4u;
}

sw_result sw_raw_skin_build(const sw_raw_skin* skin, uint16_t* joints, float* weights,
                            sw_raw_skin_stats* stats, sw_error* err) {
    if (!skin || !joints || !weights) {
        return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "arguments not NULL", 0, -1);
    }
    sw_raw_skin_stats st = {0, 0, 0};
    for (uint32_t v = 0; v < skin->vertices_count; ++v) {
        uint32_t kept[4];
        const uint32_t n = sw__skin_keep(skin, v, kept, &st.dropped);
        float w[4] = {0.0f, 0.0f, 0.0f, 0.0f};
        uint16_t j[4] = {0, 0, 0, 0};
        double sum = 0.0;
        for (uint32_t c = 0; c < n; ++c) {
            w[c] = skin->influences[kept[c]].weight;
            j[c] = skin->influences[kept[c]].joint;
            sum += (double)w[c];
        }
        if (!(sum > 0.0)) {
            ++st.unweighted;
        } else if (fabs(sum - 1.0) > 1e-3) {
            ++st.renormalized;
        }
        for (uint32_t c = 0; c < 4u; ++c) {
            weights[4u * v + c] = sum > 0.0 ? (float)((double)w[c] / sum) : 0.0f;
            joints[4u * v + c] = w[c] > 0.0f ? j[c] : 0u;
        }
    }
    if (stats) *stats = st;
    return SW_RESULT_OK;
}

void sw_raw_skin_destroy(sw_raw_skin* skin) {
    if (!skin) return;
    const sw_allocator alloc = skin->alloc;
    sw_free(&alloc, skin->influences, sizeof(sw__influence) * skin->cap);
    sw_free(&alloc, skin->first, sizeof(uint32_t) * skin->vertices_count);
    sw_free(&alloc, skin->last, sizeof(uint32_t) * skin->vertices_count);
    sw_free(&alloc, skin, sizeof *skin);
}
