/* libFuzzer target: the format dispatch the CLI uses (sw_asset_open on a
 * file): .sinew archives, BVH text and glTF (.glb, or '{' text named .gltf),
 * each input written to a scratch file first (removed after the open). Inputs that would go to
 * assimp are skipped (a child process per input, and assimp's own code).
 * What opens is used as fuzz_use.h describes, clips looked up by name. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz_use.h"
#include "sinew/tools/readers/asset.h"

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

/* True for content sw_asset_open reads natively (see asset.h). */
static bool fuzz_native(const uint8_t* d, size_t n) {
    if (n >= 8 && memcmp(d, "SINEWARC", 8) == 0) return true;
    if (n >= 4 && memcmp(d, "glTF", 4) == 0) return true;
    size_t i = n >= 3 && memcmp(d, "\xEF\xBB\xBF", 3) == 0 ? 3u : 0u;
    while (i < n && (d[i] == ' ' || d[i] == '\t' || d[i] == '\r' || d[i] == '\n'))
        ++i;
    return (n - i >= 9 && memcmp(d + i, "HIERARCHY", 9) == 0) || (n > 0 && d[0] == '{');
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (!fuzz_native(data, size)) return 0;
    char path[64];
    snprintf(path, sizeof path, "/tmp/sinew_fuzz_asset_%ld.gltf", (long)getpid());
    FILE* f = fopen(path, "wb");
    if (!f) return 0;
    const bool written = fwrite(data, 1, size, f) == size;
    if (fclose(f) != 0 || !written) return 0;
    sw_asset a;
    sw_error err;
    sw_result r = sw_asset_open(path, NULL, &a, &err);
    remove(path);
    if (r == SW_RESULT_OK) {
        if (!a.skeleton || a.format == SW_ASSET_FORMAT_READER) abort();
        for (uint32_t c = 0; c < a.clips_count; ++c) {
            if (sw_asset_find_clip(&a, sw_clip_name(a.clips[c])) > (int32_t)c) abort();
        }
        fuzz_use_all(a.skeleton, a.clips, a.clips_count, a.meshes, a.meshes_count);
        sw_asset_free(&a);
    } else if (!err.check || err.result != r) {
        abort(); /* every failure names its check */
    }
    return 0;
}
