/* libFuzzer target: the glTF reader on arbitrary bytes (as .glb or .gltf
 * text, no resolver, so external URIs are refused). What it accepts is used
 * as fuzz_use.h describes: every clip sampled (float tracks included),
 * local-to-model, every mesh read and its palette skinned. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_use.h"
#include "sinew/tools/readers/gltf.h"

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    /* An exact-size copy, so any read past the end is caught. */
    uint8_t* copy = (uint8_t*)malloc(size ? size : 1u);
    if (!copy) return 0;
    if (size) memcpy(copy, data, size);
    sw_scene scene;
    sw_error err;
    sw_result r = sw_gltf_read(copy, size, NULL, NULL, &scene, &err);
    if (r == SW_RESULT_OK) {
        if (!scene.skeleton) abort();
        fuzz_use_all(scene.skeleton, scene.clips, scene.clips_count, scene.meshes,
                     scene.meshes_count);
        sw_scene_free(&scene, NULL);
    } else if (!err.check || err.result != r || scene.skeleton || scene.clips_count) {
        abort(); /* every failure names its check and leaves nothing behind */
    }
    free(copy);
    return 0;
}
