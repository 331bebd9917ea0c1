/* Importer results. */
#include <string.h>

#include "sinew/tools/builders/scene.h"

void sw_scene_free(sw_scene* s, const sw_allocator* alloc) {
    if (!s) return;
    for (uint32_t i = 0; i < s->clips_count; ++i)
        sw_clip_destroy(s->clips[i], alloc);
    for (uint32_t i = 0; i < s->meshes_count; ++i)
        sw_mesh_destroy(s->meshes[i], alloc);
    sw_free(alloc, (void*)s->clips, sizeof(*s->clips) * s->clips_count);
    sw_free(alloc, (void*)s->meshes, sizeof(*s->meshes) * s->meshes_count);
    if (s->skeleton) sw_skeleton_destroy(s->skeleton, alloc);
    memset(s, 0, sizeof *s);
}

void sw_scene_warn(sw_scene* s, const char* text) {
    size_t used = strlen(s->warning);
    size_t cap = sizeof(s->warning);
    if (used > 0 && used + 2 < cap) {
        memcpy(s->warning + used, "; ", 2);
        used += 2;
    }
    size_t n = strlen(text);
    if (n > cap - 1 - used) n = cap - 1 - used;
    memcpy(s->warning + used, text, n);
    s->warning[used + n] = '\0';
}
