/* The humanoid the showcase's humanoid actors show (src/showcase/cast.c):
 * the built-in one or the options' character, its clips by role (idle,
 * walk, jog), its joints by name, its size and speeds. */
#ifndef SINEW_SHOWCASE_CAST_H
#define SINEW_SHOWCASE_CAST_H

#include "showcase/build.h"
#include "sinew/showcase/scene.h"

/* Joints of a humanoid (-1 when the character has none). */
typedef struct sw__sc_human {
    int32_t hips, spine, spine1, neck, head;
    int32_t l_arm, l_forearm, l_hand, r_arm, r_forearm, r_hand;
    int32_t l_upleg, l_leg, l_foot, r_upleg, r_leg, r_foot;
    bool legs, reach;
    bool feet;            /* both legs' hip and knee, and a foot (below the knee, or elsewhere as
                           * RobotExpressive's): the foot contact model runs */
    float ankle_height;   /* model-space ankle height in the idle pose (character units) */
    sw_vec3 head_forward; /* head-local axis that faces +Z in the idle pose */
    float scale;          /* character units to metres */
    float lift;           /* world height of the character's origin (its feet on the ground) */
} sw__sc_human;

typedef struct sw__sc_cast {
    const sw_scene* chr; /* the character shown: &builtin or the options' */
    sw_scene builtin;    /* the built-in humanoid, when made (builtin_owned) */
    bool builtin_owned;
    /* The options' character drawn as its bones when it has no mesh: the
     * character with bones_mesh (sw_showcase_bones_mesh, bones_count capsules). */
    sw_scene bones_view;
    const sw_mesh* bones_mesh;
    uint32_t bones_count;
    const sw_clip* clip_idle;
    const sw_clip* clip_walk;
    const sw_clip* clip_jog;
    float speed_walk, speed_jog; /* m/s */
    bool in_place;               /* the walk has no root motion */
    sw__sc_human hum;
} sw__sc_cast;

/* Sets up the cast from the options (NULL: the built-in humanoid; a
 * character without a mesh gets one of its bones): picks the clips (sinew/showcase/scene.h,
 * options.clip_names), finds the joints and measures size and speeds in the idle pose; scratch from
 * the list, the built-in humanoid freed by sw__sc_cast_free. Fails: NOT_FOUND (a named clip is
 * missing), OUT_OF_MEMORY, the built-in humanoid's or the bones mesh's builder result. */
sw_result sw__sc_cast_init(sw__sc_cast* c, sw__sc_mem* m, const sw_showcase_options* o,
                           sw_error* err);
/* The built-in humanoid, made now when the cast shows another character.
 * Fails: sw_showcase_humanoid's results. */
sw_result sw__sc_cast_builtin(sw__sc_cast* c, sw__sc_mem* m, const sw_scene** out, sw_error* err);
/* Frees the built-in humanoid and the bones mesh if the cast made them. */
void sw__sc_cast_free(sw__sc_cast* c, const sw_allocator* alloc);

/* True when joint a is a proper ancestor of joint j (false for -1). */
bool sw__sc_is_ancestor(const sw_skeleton* s, int32_t a, int32_t j);
/* Raises *pen to the depth (m) of either foot sole below the ground, for a
 * humanoid of the cast with world-space model matrices (nothing without legs). */
void sw__sc_cast_penetration(const sw__sc_cast* c, const sw_mat4* model, float* pen);

#endif
