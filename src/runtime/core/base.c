/* Results and allocation. */
#include <stdlib.h>

#include "internal.h"

const char* sw_result_str(sw_result r) {
    static const char* const names[] = {
#define SW__RESULT_STR(name, str) str,
        SW_RESULT_LIST(SW__RESULT_STR)
#undef SW__RESULT_STR
    };
    if ((unsigned)r >= (unsigned)SW_RESULT_COUNT) return "unknown result";
    return names[r];
}

void* sw_alloc(const sw_allocator* a, size_t size, size_t align) {
    if (size == 0) return NULL;
    if (align < sizeof(void*)) align = sizeof(void*);
    if (a && a->alloc_fn) return a->alloc_fn(a->user, size, align);
    /* aligned_alloc requires size to be a multiple of the alignment. */
    size_t rounded = (size + align - 1u) & ~(align - 1u);
    if (rounded < size) return NULL;
    return aligned_alloc(align, rounded);
}

void sw_free(const sw_allocator* a, void* ptr, size_t size) {
    if (!ptr) return;
    if (a && a->free_fn) {
        a->free_fn(a->user, ptr, size);
        return;
    }
    free(ptr);
}
