/* Memory budgets for readers: a counting allocator over libc. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "shared/fail.h"
#include "sinew/tools/readers/budget.h"

static void* sw__budget_alloc(void* user, size_t size, size_t align) {
    sw_budget* b = (sw_budget*)user;
    if (size > b->limit - b->used) {
        b->exceeded = true;
        return NULL;
    }
    void* p = sw_alloc(NULL, size, align);
    if (!p) return NULL;
    b->used += size;
    if (b->used > b->peak) b->peak = b->used;
    return p;
}

static void sw__budget_free(void* user, void* ptr, size_t size) {
    sw_budget* b = (sw_budget*)user;
    if (!ptr) return;
    b->used = size < b->used ? b->used - size : 0u;
    sw_free(NULL, ptr, size);
}

uint64_t sw_budget_default_limit(uint64_t input) {
    const uint64_t room = UINT64_MAX - SW_BUDGET_FLOOR;
    if (input > room / SW_BUDGET_FACTOR) return UINT64_MAX;
    return SW_BUDGET_FLOOR + SW_BUDGET_FACTOR * input;
}

void sw_budget_init(sw_budget* b, uint64_t input, uint64_t max_memory) {
    if (!b) return;
    memset(b, 0, sizeof *b);
    b->allocator.alloc_fn = sw__budget_alloc;
    b->allocator.free_fn = sw__budget_free;
    b->allocator.user = b;
    b->input = input;
    b->fixed = max_memory != 0;
    b->limit = b->fixed ? max_memory : sw_budget_default_limit(input);
}

void sw_budget_add_input(sw_budget* b, uint64_t bytes, bool held) {
    if (!b) return;
    b->input = bytes > UINT64_MAX - b->input ? UINT64_MAX : b->input + bytes;
    if (!b->fixed) b->limit = sw_budget_default_limit(b->input);
    if (held) {
        b->used = bytes > UINT64_MAX - b->used ? UINT64_MAX : b->used + bytes;
        if (b->used > b->peak) b->peak = b->used;
    }
}

sw_result sw_budget_fail(const sw_budget* b, sw_result r, sw_error* err) {
    if (!b || !b->exceeded) return r;
    const bool mib = b->limit >= ((uint64_t)1 << 20);
    return sw__fail_detail(err, SW_RESULT_LIMIT, "memory budget", -1,
                           "reading needs more than %" PRIu64 " %s of memory for %" PRIu64
                           " bytes of input (%s)",
                           mib ? b->limit >> 20 : b->limit, mib ? "MiB" : "bytes", b->input,
                           b->fixed ? "the limit given" : "64 MiB + 16 bytes per input byte");
}
