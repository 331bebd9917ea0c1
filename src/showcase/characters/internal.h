/* Internal declarations of the built-in characters (src/showcase/characters).
 * Dependencies run one way: character.c uses skeletons.c, mesh.c, gait.c and
 * getup.c; mesh.c uses skeletons.c; nothing here uses the showcase scene. */
#ifndef SINEW_SHOWCASE_CHARACTERS_INTERNAL_H
#define SINEW_SHOWCASE_CHARACTERS_INTERNAL_H

#include <math.h>

#include "sinew/showcase/character.h"
#include "sinew/sinew.h"

/* Humanoid joint indices (parent-first). */
enum {
    SW__HIPS = 0,
    SW__SPINE,
    SW__SPINE1,
    SW__NECK,
    SW__HEAD,
    SW__L_SHOULDER,
    SW__L_ARM,
    SW__L_FOREARM,
    SW__L_HAND,
    SW__R_SHOULDER,
    SW__R_ARM,
    SW__R_FOREARM,
    SW__R_HAND,
    SW__L_UPLEG,
    SW__L_LEG,
    SW__L_FOOT,
    SW__L_TOE,
    SW__R_UPLEG,
    SW__R_LEG,
    SW__R_FOOT,
    SW__R_TOE,
    SW__HUMANOID_JOINTS
};

/* Height of the ankle joints above the ground at rest (m). */
#define SW__ANKLE_HEIGHT 0.07f

#define SW__SPIDER_LEGS 8u
#define SW__SPIDER_PAIRS 4u
#define SW__SPIDER_JOINTS 33u
#define SW__SPIDER_BODY_Y 0.08f
#define SW__SPIDER_BODY_RADIUS 0.05f
#define SW__SPIDER_COXA 0.04f
#define SW__SPIDER_FEMUR_OUT 0.10f
#define SW__SPIDER_FEMUR_UP 0.06f
#define SW__SPIDER_TIBIA_OUT 0.12f

/* skeletons.c */
sw_result sw__humanoid_skeleton(const sw_allocator* alloc, const sw_skeleton** out, sw_error* err);
sw_result sw__spider_skeleton(const sw_allocator* alloc, const sw_skeleton** out, sw_error* err);
float sw__spider_angle(uint32_t pair);
void sw__rest_models(const sw_skeleton* skel, sw_mat4* models);
/* mesh.c */
sw_result sw__humanoid_mesh(const sw_skeleton* skel, const sw_allocator* alloc, const sw_mesh** out,
                            sw_error* err);
sw_result sw__spider_mesh(const sw_skeleton* skel, const sw_allocator* alloc, const sw_mesh** out,
                          sw_error* err);
/* gait.c: builds clip `index` (0 idle, 1 walk, 2 jog, 3 run); *speed = its speed (m/s). */
sw_result sw__humanoid_clip(const sw_skeleton* skel, uint32_t index, const sw_allocator* alloc,
                            const sw_clip** out, float* speed, sw_error* err);
/* getup.c: builds get-up clip `index` (0 face up, 1 face down) ending in `idle`'s first pose. */
sw_result sw__humanoid_getup_clip(const sw_skeleton* skel, const sw_clip* idle, uint32_t index,
                                  const sw_allocator* alloc, const sw_clip** out, sw_error* err);

#endif
