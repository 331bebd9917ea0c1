/* What the ragdoll actors ("powered", "knockdown") share
 * (src/showcase/actors/ragdoll.c): a ragdoll of the built-in humanoid in
 * the options' physics engine, its animated and simulated poses, and the
 * placement of the actor's view. */
#ifndef SINEW_SHOWCASE_ACTORS_RAGDOLL_H
#define SINEW_SHOWCASE_ACTORS_RAGDOLL_H

#include "showcase/actor.h"

/* A limb the ground guard keeps above the ground: start, mid and end
 * joints (hip, knee, ankle or shoulder, elbow, hand) and the end's tip
 * (the toes; -1 for none). */
typedef struct sw__sc_rag_limb {
    int32_t start, mid, end, tip;
    sw_vec3 hinge; /* end-joint space: the axis turning the tip away from the mid joint */
    float angle;   /* radians the guard turns the end about the hinge (0: the tip is free) */
    float turn;    /* rad/s that angle changes at (the guard eases it in and out) */
} sw__sc_rag_limb;

typedef struct sw__sc_rag {
    const sw_skeleton* skel;
    sw_ragdoll* rd;
    uint32_t chest;           /* skeleton joint of the chest body */
    sw_xform4* anim;          /* animated local pose (what the drive follows) */
    sw_xform4* physics;       /* pose read back from the bodies */
    sw_mat4* anim_model;      /* animated model matrices (world) */
    sw_xform root;            /* model -> world */
    sw__sc_rag_limb limbs[4]; /* legs, then arms */
} sw__sc_rag;

/* Makes the ragdoll of the built-in humanoid (built by the cast if the
 * scene shows another character; *humanoid receives it) and the view on
 * its skeleton and meshes; memory from the list. Not spawned yet.
 * Fails: OUT_OF_MEMORY, the humanoid's, the ragdoll desc's and init's results. */
sw_result sw__sc_rag_init(sw__sc_ctx* ctx, sw__sc_actor* view, sw__sc_rag* ra,
                          const sw_scene** humanoid, sw_error* err);
/* Spawns the ragdoll in ra->anim at ra->root (`id` tags its bodies) and
 * registers it with the scene's physics step. Fails: the spawn's result, LIMIT. */
sw_result sw__sc_rag_spawn(sw__sc_ctx* ctx, sw__sc_rag* ra, uint32_t id, sw_error* err);
/* Despawns the ragdoll if it was made. */
void sw__sc_rag_despawn(sw__sc_rag* ra);
/* The view's pose: the ragdoll's read back at alpha, blended with ra->anim
 * by the ragdoll's per-body weights. Fails: the ragdoll's results. */
sw_result sw__sc_rag_show(sw__sc_rag* ra, sw__sc_actor* view, float alpha);
/* The view's world and model matrices at ra->root. */
void sw__sc_rag_place(const sw__sc_rag* ra, sw__sc_actor* view);
/* The ground guard (issue #15): the ragdoll's hands and feet have no bodies,
 * so the pose shown (limp, settling, blending into the get-up, getting up)
 * can put them, and in blends any joint or the skinned surface, under the
 * ground (y = 0). It turns each foot about its ankle to lift the toe joint
 * (within the ankle's range; the turn's speed changes at most 40 rad/s^2,
 * so the toes neither flip from one way to the other nor jerk), lifts each
 * limb's end joint with two-bone IK until the surface of its hand or foot
 * is clear, then lifts the whole view by what is still under. A joint at
 * height y is held at a soft floor (untouched above 2 cm, eased in below,
 * never under 1.5 cm), a surface point at the ground's (never under it;
 * eased in from 5 mm, a hand's from 6 cm), so a pose that moves smoothly
 * stays smooth; the surface is each vertex carried rigidly by the joint
 * that weighs most on it (skinning blends, within a few millimetres of
 * it). dt: seconds since the last call. Rewrites the view's local pose,
 * model matrices and world. Fails: the IK job's result. */
sw_result sw__sc_rag_ground(sw__sc_rag* ra, sw__sc_actor* view, float dt);
/* World-space model matrices of `local` at `root`. */
void sw__sc_rag_models(const sw_skeleton* s, const sw_xform4* local, sw_xform root, sw_mat4* out);

#endif
