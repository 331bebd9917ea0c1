/* The built-in default characters (sinew/showcase/character.h): the public
 * builders, which assemble a scene from the skeletons (skeletons.c), the
 * meshes (mesh.c), the locomotion clips (gait.c) and the get-up clips (getup.c). */
#include <string.h>

#include "showcase/characters/internal.h"
#include "sinew/showcase/character.h"

#include "shared/fail.h"

/* Allocates the scene's arrays zeroed and sets their counts at once, so
 * that sw_scene_free releases a partly built scene with the right sizes. */
static sw_result sw__scene_arrays(sw_scene* s, const sw_allocator* alloc, uint32_t clips,
                                  uint32_t meshes) {
    if (clips > 0) {
        s->clips = (const sw_clip**)sw_alloc(alloc, clips * sizeof(void*), _Alignof(void*));
        if (!s->clips) return SW_RESULT_OUT_OF_MEMORY;
        memset((void*)s->clips, 0, clips * sizeof(void*));
        s->clips_count = clips;
    }
    if (meshes > 0) {
        s->meshes = (const sw_mesh**)sw_alloc(alloc, meshes * sizeof(void*), _Alignof(void*));
        if (!s->meshes) return SW_RESULT_OUT_OF_MEMORY;
        memset((void*)s->meshes, 0, meshes * sizeof(void*));
        s->meshes_count = meshes;
    }
    return SW_RESULT_OK;
}

/* Frees the partly built scene; records r as the first failure (err was
 * reset on entry: nothing else recorded leaves check NULL). */
static sw_result sw__humanoid_fail(sw_scene* s, const sw_allocator* alloc, sw_result r,
                                   sw_error* err) {
    sw_scene_free(s, alloc);
    return sw__fail_first(err, r, r == SW_RESULT_OUT_OF_MEMORY ? "allocation" : NULL, 0, -1);
}

sw_result sw_showcase_humanoid(const sw_allocator* alloc, sw_scene* out,
                               float speeds[SW_SHOWCASE_HUMANOID_CLIPS], sw_error* err) {
    if (err) *err = (sw_error)SW_ERROR_INIT;
    if (!out) return SW_RESULT_INVALID_ARGUMENT;
    memset(out, 0, sizeof *out);
    sw_result r = sw__humanoid_skeleton(alloc, &out->skeleton, err);
    if (r == SW_RESULT_OK) r = sw__scene_arrays(out, alloc, SW_SHOWCASE_HUMANOID_CLIPS, 1);
    if (r != SW_RESULT_OK) return sw__humanoid_fail(out, alloc, r, err);
    r = sw__humanoid_mesh(out->skeleton, alloc, &out->meshes[0], err);
    if (r != SW_RESULT_OK) return sw__humanoid_fail(out, alloc, r, err);
    float measured[SW_SHOWCASE_HUMANOID_CLIPS] = {0};
    for (uint32_t c = 0; c < SW_SHOWCASE_HUMANOID_CLIPS; ++c) {
        r = sw__humanoid_clip(out->skeleton, c, alloc, &out->clips[c], &measured[c], err);
        if (r != SW_RESULT_OK) return sw__humanoid_fail(out, alloc, r, err);
    }
    if (speeds) memcpy(speeds, measured, sizeof measured);
    return SW_RESULT_OK;
}

sw_result sw_showcase_spider(const sw_allocator* alloc, sw_scene* out, sw_error* err) {
    if (err) *err = (sw_error)SW_ERROR_INIT;
    if (!out) return SW_RESULT_INVALID_ARGUMENT;
    memset(out, 0, sizeof *out);
    sw_result r = sw__spider_skeleton(alloc, &out->skeleton, err);
    if (r != SW_RESULT_OK) return sw__humanoid_fail(out, alloc, r, err);
    r = sw__scene_arrays(out, alloc, 0, 1);
    if (r != SW_RESULT_OK) return sw__humanoid_fail(out, alloc, r, err);
    r = sw__spider_mesh(out->skeleton, alloc, &out->meshes[0], err);
    if (r != SW_RESULT_OK) return sw__humanoid_fail(out, alloc, r, err);
    return SW_RESULT_OK;
}

sw_result sw_showcase_humanoid_getup(const sw_scene* humanoid, const sw_allocator* alloc,
                                     const sw_clip* out[SW_SHOWCASE_GETUP_CLIPS], sw_error* err) {
    if (err) *err = (sw_error)SW_ERROR_INIT;
    if (!out) return SW_RESULT_INVALID_ARGUMENT;
    for (uint32_t c = 0; c < SW_SHOWCASE_GETUP_CLIPS; ++c)
        out[c] = NULL;
    if (!humanoid || !humanoid->skeleton || humanoid->clips_count == 0u || !humanoid->clips ||
        !humanoid->clips[0] || humanoid->skeleton->joints_count != SW__HUMANOID_JOINTS)
        return SW_RESULT_INVALID_ARGUMENT;
    for (uint32_t c = 0; c < SW_SHOWCASE_GETUP_CLIPS; ++c) {
        const sw_result r =
            sw__humanoid_getup_clip(humanoid->skeleton, humanoid->clips[0], c, alloc, &out[c], err);
        if (r != SW_RESULT_OK) {
            for (uint32_t k = 0; k < c; ++k) {
                sw_clip_destroy(out[k], alloc);
                out[k] = NULL;
            }
            return r;
        }
    }
    return SW_RESULT_OK;
}
