/* Internal: the "not found" report of the readers and writers that look
 * things up by name (--clips, joint maps): the name asked for and the names
 * that exist, nearest first. Not installed; names use sw__. */
#ifndef SINEW_TOOLS_NAMES_H
#define SINEW_TOOLS_NAMES_H

#include <stdint.h>

#include "sinew/core/base.h"

/* The i-th of the names (user: the caller's list). */
typedef const char* (*sw__name_at_fn)(void* user, uint32_t i);

/* Levenshtein distance between a and b ignoring ASCII case, each cut to its
 * first 127 bytes. */
uint32_t sw__name_distance(const char* a, const char* b);

/* Fills err with NOT_FOUND, `check`, `index` (the request's entry, or -1)
 * and the detail
 * `KIND "WANTED" not in the file; KINDs, nearest first: A, B, ...` (the
 * count names by name_at(user, i), ordered by sw__name_distance to wanted,
 * then by position; as many as fit, then "..."; `KIND "WANTED" not in the
 * file, which has none` for count 0). Returns NOT_FOUND. */
sw_result sw__fail_name(sw_error* err, const char* check, int64_t index, const char* kind,
                        const char* wanted, sw__name_at_fn name_at, void* user, uint32_t count);

#endif
