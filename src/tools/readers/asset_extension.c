/* Which file names sw_asset_open reads (sinew/tools/readers/asset.h), by extension. */
#define _POSIX_C_SOURCE 200809L

#include <string.h>
#include <strings.h>

#include "sinew/tools/readers/asset.h"

bool sw_asset_extension_known(const char* path, const sw_asset_options* options) {
    static const char* const native[] = {".sinew", ".bvh", ".glb", ".gltf"};
    if (!path) return false;
    const char* slash = strrchr(path, '/');
    const char* dot = strrchr(slash ? slash + 1 : path, '.');
    if (!dot || !dot[1]) return false;
    for (size_t i = 0; i < sizeof native / sizeof native[0]; ++i) {
        if (strcasecmp(dot, native[i]) == 0) return true;
    }
    for (uint32_t i = 0; options && options->readers && i < options->readers_count; ++i) {
        const sw_asset_reader* r = &options->readers[i];
        if (r->knows && r->knows(r->user, path, NULL, 0)) return true;
    }
    return false;
}
