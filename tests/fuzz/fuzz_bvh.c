/* libFuzzer target: the BVH reader on arbitrary bytes, with and without End
 * Sites; what it accepts is sampled and sent through local-to-model
 * (fuzz_use.h), so the jobs run on everything the reader lets through. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_use.h"
#include "sinew/tools/readers/bvh.h"

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    /* An exact-size copy, so any read past the end is caught. */
    char* text = (char*)malloc(size ? size : 1u);
    if (!text) return 0;
    if (size) memcpy(text, data, size);
    for (int pass = 0; pass < 2; ++pass) {
        sw_bvh_options opt = {pass ? 0.01f : 0.0f, pass == 1, NULL};
        sw_bvh_result r;
        sw_error err;
        sw_result res = sw_bvh_read(text, size, &opt, NULL, &r, &err);
        if (res == SW_RESULT_OK) {
            if (!r.skeleton || !r.clip) abort();
            fuzz_use_all(r.skeleton, &r.clip, 1, NULL, 0);
            sw_bvh_result_free(&r, NULL);
        } else if (!err.check || err.result != res) {
            abort(); /* every failure names its check */
        }
    }
    free(text);
    return 0;
}
