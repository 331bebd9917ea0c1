/* Raw skeletons: joints in any order -> parent-first sw_skeleton.
 *
 * Children lists are built in input order, then a depth-first walk from the
 * roots (in input order) gives the parent-first order. Joints the walk never
 * reaches hang under a cycle. Scratch arrays live on the stack (at most
 * SW_SKELETON_MAX_JOINTS entries), so the only allocation is the skeleton. */
#include <string.h>

#include "shared/fail.h"
#include "sinew/sinew.h"
#include "sinew/tools/builders/raw_skeleton.h"

#define SW__NONE 0xFFFFu

sw_result sw_raw_skeleton_build(const sw_raw_joint* joints, uint32_t joints_count,
                                const sw_allocator* alloc, const sw_skeleton** out, int32_t* remap,
                                sw_error* err) {
    if (!out || (!joints && joints_count > 0)) {
        return sw__fail(err, SW_RESULT_INVALID_ARGUMENT, "arguments not NULL", 0, -1);
    }
    if (joints_count == 0 || joints_count > SW_SKELETON_MAX_JOINTS) {
        return sw__fail(err, SW_RESULT_LIMIT, "joints count", 0, -1);
    }
    const uint32_t n = joints_count;
    for (uint32_t i = 0; i < n; ++i) {
        int32_t p = joints[i].parent;
        if (p < -1 || p >= (int32_t)n) {
            return sw__fail(err, SW_RESULT_BAD_DATA, "parent in range", 0, (int64_t)i);
        }
    }

    /* Children in input order: first child, next sibling, last child. */
    uint16_t first[SW_SKELETON_MAX_JOINTS], next[SW_SKELETON_MAX_JOINTS],
        last[SW_SKELETON_MAX_JOINTS];
    for (uint32_t i = 0; i < n; ++i)
        first[i] = next[i] = last[i] = SW__NONE;
    for (uint32_t i = 0; i < n; ++i) {
        int32_t p = joints[i].parent;
        if (p < 0) continue;
        if (first[p] == SW__NONE) {
            first[p] = (uint16_t)i;
        } else {
            next[last[p]] = (uint16_t)i;
        }
        last[p] = (uint16_t)i;
    }

    /* Depth-first pre-order from each root. order[k] = raw index of joint k. */
    uint16_t order[SW_SKELETON_MAX_JOINTS], stack[SW_SKELETON_MAX_JOINTS];
    int32_t to_new[SW_SKELETON_MAX_JOINTS];
    for (uint32_t i = 0; i < n; ++i)
        to_new[i] = -1;
    uint32_t count = 0;
    for (uint32_t root = 0; root < n; ++root) {
        if (joints[root].parent != -1) continue;
        uint32_t top = 0;
        stack[top++] = (uint16_t)root;
        while (top > 0) {
            uint16_t j = stack[--top];
            to_new[j] = (int32_t)count;
            order[count++] = j;
            /* Push children in reverse input order so the first pops first. */
            uint32_t kids = 0;
            for (uint16_t c = first[j]; c != SW__NONE; c = next[c])
                ++kids;
            top += kids;
            uint32_t k = top;
            for (uint16_t c = first[j]; c != SW__NONE; c = next[c])
                stack[--k] = c;
        }
    }
    if (count < n) {
        /* Some joint is not under a root: its parent chain loops. Walk up n
         * steps from it to land on the cycle itself. */
        uint32_t j = 0;
        while (to_new[j] >= 0)
            ++j;
        for (uint32_t k = 0; k < n; ++k)
            j = (uint32_t)joints[j].parent;
        return sw__fail(err, SW_RESULT_BAD_DATA, "parent cycle", 0, (int64_t)j);
    }

    sw_skeleton_joint sorted[SW_SKELETON_MAX_JOINTS];
    for (uint32_t k = 0; k < n; ++k) {
        const sw_raw_joint* rj = &joints[order[k]];
        sorted[k].name = rj->name;
        sorted[k].parent = rj->parent < 0 ? -1 : to_new[rj->parent];
        sorted[k].rest = rj->rest;
    }
    const sw_skeleton_desc desc = {sorted, n};
    sw_error e = SW_ERROR_INIT;
    sw_result r = sw_skeleton_create(&desc, alloc, out, &e);
    if (r != SW_RESULT_OK) {
        /* Report the raw index of the joint init complained about. */
        if (e.index >= 0 && e.index < (int64_t)n) e.index = (int64_t)order[e.index];
        if (err) *err = e;
        return r;
    }
    if (remap) {
        for (uint32_t i = 0; i < n; ++i)
            remap[i] = to_new[i];
    }
    return SW_RESULT_OK;
}
