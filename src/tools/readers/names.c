/* The "not found" report with the names that exist, nearest first. */
#include "names.h"

#include <stdlib.h>
#include <string.h>

#include "shared/fail.h"

#define SW__NAME_CUT 127u

static char sw__name_lower(char c) {
    return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

uint32_t sw__name_distance(const char* a, const char* b) {
    size_t n = strlen(a), m = strlen(b);
    if (n > SW__NAME_CUT) n = SW__NAME_CUT;
    if (m > SW__NAME_CUT) m = SW__NAME_CUT;
    /* one row of the edit-distance table, over b */
    uint32_t row[SW__NAME_CUT + 1u];
    for (size_t j = 0; j <= m; ++j)
        row[j] = (uint32_t)j;
    for (size_t i = 1; i <= n; ++i) {
        uint32_t diag = row[0];
        row[0] = (uint32_t)i;
        for (size_t j = 1; j <= m; ++j) {
            const uint32_t up = row[j];
            const uint32_t cost = sw__name_lower(a[i - 1u]) == sw__name_lower(b[j - 1u]) ? 0u : 1u;
            uint32_t best = diag + cost;
            if (up + 1u < best) best = up + 1u;
            if (row[j - 1u] + 1u < best) best = row[j - 1u] + 1u;
            row[j] = best;
            diag = up;
        }
    }
    return row[m];
}

typedef struct sw__name_rank {
    uint32_t distance;
    uint32_t index;
} sw__name_rank;

static int sw__name_rank_cmp(const void* pa, const void* pb) {
    const sw__name_rank* a = (const sw__name_rank*)pa;
    const sw__name_rank* b = (const sw__name_rank*)pb;
    if (a->distance != b->distance) return a->distance < b->distance ? -1 : 1;
    return a->index < b->index ? -1 : (a->index > b->index);
}

/* Appends ", NAME" (or "NAME" first) to detail[*len..]; false when it does
 * not fit with room left for ", ...". */
static bool sw__name_append(char* detail, size_t cap, size_t* len, const char* name, bool first) {
    const size_t sep = first ? 0u : 2u;
    const size_t n = strlen(name);
    if (*len + sep + n + 5u >= cap) return false;
    memcpy(detail + *len, ", ", sep);
    memcpy(detail + *len + sep, name, n);
    *len += sep + n;
    detail[*len] = '\0';
    return true;
}

sw_result sw__fail_name(sw_error* err, const char* check, int64_t index, const char* kind,
                        const char* wanted, sw__name_at_fn name_at, void* user, uint32_t count) {
    if (!err) return SW_RESULT_NOT_FOUND;
    if (count == 0) {
        return sw__fail_detail(err, SW_RESULT_NOT_FOUND, check, index,
                               "%s \"%s\" not in the file, which has none", kind,
                               wanted ? wanted : "");
    }
    sw__fail_detail(err, SW_RESULT_NOT_FOUND, check, index,
                    "%s \"%s\" not in the file; %ss, nearest first: ", kind, wanted ? wanted : "",
                    kind);
    size_t len = strlen(err->detail);
    sw__name_rank* ranks = (sw__name_rank*)malloc(count * sizeof *ranks);
    if (!ranks) return SW_RESULT_NOT_FOUND; /* the detail without the list */
    for (uint32_t i = 0; i < count; ++i) {
        ranks[i].distance = sw__name_distance(wanted ? wanted : "", name_at(user, i));
        ranks[i].index = i;
    }
    qsort(ranks, count, sizeof *ranks, sw__name_rank_cmp);
    uint32_t shown = 0;
    while (shown < count && sw__name_append(err->detail, sizeof err->detail, &len,
                                            name_at(user, ranks[shown].index), shown == 0))
        ++shown;
    const char* more = shown > 0 ? ", ..." : "...";
    if (shown < count && len + strlen(more) < sizeof err->detail) {
        memcpy(err->detail + len, more, strlen(more) + 1u);
    }
    free(ranks);
    return SW_RESULT_NOT_FOUND;
}
