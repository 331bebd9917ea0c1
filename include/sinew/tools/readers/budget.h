/* sinew/tools/readers/budget.h: a memory budget for readers of untrusted files.
 *
 * A file of a few megabytes must not make a reader take gigabytes (a JSON
 * array of a million zeros is a million tokens). A budget counts what a
 * reader allocates through its allocator and refuses what would pass the
 * limit, so the reader fails with OUT_OF_MEMORY and the caller reports the
 * budget (sw_budget_fail). The default limit is proportional to the input:
 *
 *     limit = SW_BUDGET_FLOOR + SW_BUDGET_FACTOR * input bytes
 *
 * and grows as a reader takes more input (a glTF file's external buffers).
 *
 *     sw_budget b;
 *     sw_budget_init(&b, file_size, 0);
 *     r = sw_gltf_read(data, size, &opt, &b.allocator, &scene, &err);
 *     if (r == SW_RESULT_OUT_OF_MEMORY) r = sw_budget_fail(&b, r, &err);
 *
 * The budget only counts: its memory comes from libc (sw_alloc with a NULL
 * allocator), so what a reader built may be freed later with either the
 * budget's allocator or NULL. Not thread-safe: one reader per budget.
 */
#ifndef SINEW_TOOLS_BUDGET_H
#define SINEW_TOOLS_BUDGET_H

#include "sinew/core/base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Bytes every reader may take whatever its input. */
#define SW_BUDGET_FLOOR ((uint64_t)64 << 20)
/* Bytes per input byte on top of the floor. */
#define SW_BUDGET_FACTOR 16u
/* The floor for a reader in a child process, whose limit is address space
 * (libraries, stacks, the allocator's arenas) rather than counted bytes:
 * assimp subdividing a 2.7 KB AC file needs between 128 and 256 MiB. */
#define SW_BUDGET_CHILD_FLOOR ((uint64_t)512 << 20)

typedef struct sw_budget {
    sw_allocator allocator; /* pass this to the reader; its user is the budget */
    uint64_t limit;         /* bytes that may be live at once */
    uint64_t used;          /* bytes live now */
    uint64_t peak;          /* most bytes live at once */
    uint64_t input;         /* input bytes counted so far */
    bool fixed;             /* the limit was given: input does not raise it */
    bool exceeded;          /* an allocation was refused for the limit */
} sw_budget;

/* Starts a budget for `input` bytes of input: limit `max_memory` when not 0
 * (fixed), else the default for the input. The caller owns *b; it holds no
 * memory and needs no release. */
SINEW_API void sw_budget_init(sw_budget* b, uint64_t input, uint64_t max_memory);

/* Counts `bytes` more input (an external buffer read for the same file);
 * a default limit grows with it. `held`: those bytes were allocated from
 * libc outside the budget and handed to the reader, which frees them
 * through the budget's allocator, so they count as used from now on. */
SINEW_API void sw_budget_add_input(sw_budget* b, uint64_t bytes, bool held);

/* The default limit for `input` bytes of input (saturating). */
SINEW_API uint64_t sw_budget_default_limit(uint64_t input);

/* After a reader returned `r`: when the budget refused an allocation,
 * returns LIMIT with err->check "memory budget" and err->detail giving the
 * limit and the input ("--max-memory raises it" for the CLI's users is the
 * caller's to add); otherwise returns r unchanged and leaves err alone. */
SINEW_API sw_result sw_budget_fail(const sw_budget* b, sw_result r, sw_error* err);

#ifdef __cplusplus
}
#endif

#endif
