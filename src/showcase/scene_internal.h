/* Internal declarations of the showcase scene (src/showcase/scene*.c). */
#ifndef SINEW_SHOWCASE_SCENE_INTERNAL_H
#define SINEW_SHOWCASE_SCENE_INTERNAL_H

#include <math.h>
#include <string.h>

#include "sinew/showcase/scene.h"
#include "sinew/sinew.h"

#define SW__SC_MAX_ALLOCS 512
#define SW__SC_MAX_OWNED 48
#define SW__SC_SEGMENTS 12 /* caterpillar */
#define SW__SPIDER_LEGS_MAX 8
#define SW__SC_STEP 1.0f / 30.0f

/* Spots on the ground (x, z). */
#define SW__SC_LOCO_X 0.0f
#define SW__SC_LOCO_Z 0.3f
#define SW__SC_LOCO_R 2.2f
#define SW__SC_REACH_X (-3.6f)
#define SW__SC_REACH_Z 2.6f
#define SW__SC_IDLE_X (-4.2f)
#define SW__SC_IDLE_Z (-0.6f)
#define SW__SC_HIT_X 4.2f
#define SW__SC_HIT_Z (-0.6f)
#define SW__SC_CAT_X 3.6f
#define SW__SC_CAT_Z 2.6f
#define SW__SC_ARM_X 3.3f
#define SW__SC_ARM_Z (-3.3f)
#define SW__SC_SPIDER_X (-3.1f)
#define SW__SC_SPIDER_Z (-3.1f)
#define SW__SC_SPIDER_R 0.9f
/* The step under "reach"'s left foot (x0, x1, z0, z1 relative to the spot, height). */
#define SW__SC_STEP_X0 0.02f
#define SW__SC_STEP_X1 0.34f
#define SW__SC_STEP_Z0 (-0.22f)
#define SW__SC_STEP_Z1 0.30f
#define SW__SC_STEP_H 0.16f
/* Bumps around the spider's spot and the beam across its path. */
#define SW__SC_BUMPS_R 1.6f
#define SW__SC_BUMPS_A 0.035f
#define SW__SC_BEAM_Z0 0.75f /* relative to the spider spot */
#define SW__SC_BEAM_Z1 1.05f
#define SW__SC_BEAM_HALF 1.5f /* half length along x */
#define SW__SC_BEAM_Y 0.125f  /* bottom */
#define SW__SC_BEAM_T 0.06f   /* thickness */

/* Ground height and normal (analytic). */
float sw__sc_ground(float x, float z, sw_vec3* normal);
/* Ray callback over the ground (down rays) and the beam (up rays). */
bool sw__sc_ray(void* user, sw_vec3 from, sw_vec3 dir, float max_distance, sw_vec3* point,
                sw_vec3* normal);

/* Allocation list of a scene: everything is freed at destroy. */
typedef struct sw__sc_mem {
    sw_allocator alloc;
    struct {
        void* p;
        size_t n;
    } blocks[SW__SC_MAX_ALLOCS];
    uint32_t count;
    const sw_skeleton* skeletons[SW__SC_MAX_OWNED];
    uint32_t skeletons_count;
    const sw_mesh* meshes[SW__SC_MAX_OWNED];
    uint32_t meshes_count;
    const sw_clip* clips[SW__SC_MAX_OWNED];
    uint32_t clips_count;
    const sw_animator* animators[SW__SC_MAX_OWNED];
    uint32_t animators_count;
} sw__sc_mem;

void* sw__sc_alloc(sw__sc_mem* m, size_t n);
void sw__sc_mem_free(sw__sc_mem* m);

/* Mesh builder: rigid parts (boxes, spheres, height patches) on palette entries. */
typedef struct sw__mb {
    float* pos;
    float* nrm;
    uint16_t* joints;
    float* weights;
    uint32_t* idx;
    uint32_t v, i, v_cap, i_cap;
} sw__mb;

sw_result sw__mb_init(sw__mb* b, sw__sc_mem* m, uint32_t v_cap, uint32_t i_cap);
/* Box centred at c with half extents h, turned by q, on palette entry e. */
void sw__mb_box(sw__mb* b, uint16_t e, sw_vec3 c, sw_vec3 h, sw_quat q);
void sw__mb_sphere(sw__mb* b, uint16_t e, sw_vec3 c, float radius, uint32_t slices,
                   uint32_t stacks);
/* Height patch over [x0, x1] x [z0, z1] with n x n cells, from the ground. */
void sw__mb_patch(sw__mb* b, uint16_t e, float x0, float x1, float z0, float z1, uint32_t n);
/* Builds the mesh: palette joints and their inverse binds. */
sw_result sw__mb_build(sw__mb* b, sw__sc_mem* m, const char* name, const uint16_t* palette,
                       const sw_mat4* inverse_binds, uint32_t palette_count,
                       uint32_t skeleton_joints, const sw_mesh** out, sw_error* err);

/* An actor's state; sw_showcase_get_actor gives a view of it. */
typedef struct sw__sc_actor {
    const char* name;
    const sw_skeleton* skel;
    const sw_mesh* const* meshes;
    uint32_t meshes_count;
    sw_showcase_material material;
    sw_mat4 world;
    sw_xform4* local;
    sw_mat4* model;
    sw_mat4* palettes[SW_SHOWCASE_MAX_MESHES];
    const sw_mat4* palettes_view[SW_SHOWCASE_MAX_MESHES];
} sw__sc_actor;

/* Joint velocities of an actor between updates (prev_pos, prev_vel:
 * skeleton joints_count each). */
typedef struct sw__sc_velocity {
    sw_vec3* prev_pos;
    sw_vec3* prev_vel;
    uint32_t valid; /* 0, 1 (positions) or 2 (positions and velocities) */
} sw__sc_velocity;

/* Largest joint velocity change (world, m/s) of an actor since the previous
 * update, from its model matrices; 0 until two updates were seen. */
float sw__sc_velocity_jump(sw__sc_velocity* v, const sw__sc_actor* a, float dt);

/* The ragdoll actors (ragdoll_scene.c), made when the options give physics. */
typedef struct sw__sc_rag sw__sc_rag;
/* Builds them on the built-in `humanoid` (skeleton, idle and walk clips),
 * the get-up clips included, and spawns their ragdolls; memory from m (the
 * get-up clips in its clip list). *out is set before anything can fail, so
 * sw__sc_rag_destroy cleans up a partial build.
 * Fails: OUT_OF_MEMORY, LIMIT, the ragdoll's and the engine's results. */
sw_result sw__sc_rag_create(sw__sc_mem* m, const sw_showcase_options* o, const sw_scene* humanoid,
                            sw__sc_actor* powered, sw__sc_actor* knock, sw__sc_rag** out,
                            sw_error* err);
/* Despawns the ragdolls (their memory belongs to the scene's list). */
void sw__sc_rag_destroy(sw__sc_rag* r);
/* One update of dt seconds at scene time `time`: animation, physics steps,
 * poses and model matrices of both actors, metrics. */
sw_result sw__sc_rag_update(sw__sc_rag* r, double time, float dt, sw_showcase_metrics* m);
/* The knock-down actor's phase (SW_SHOWCASE_KNOCKDOWN_*; NONE for NULL). */
uint32_t sw__sc_rag_phase(const sw__sc_rag* r);

/* A skeleton owned by the scene. */
sw_result sw__sc_skeleton(sw__sc_mem* m, const sw_skeleton_joint* joints, uint32_t count,
                          const sw_skeleton** out, sw_error* err);
/* Model matrices of a local pose (root at the identity). */
void sw__sc_models(const sw_skeleton* s, const sw_xform4* local, sw_mat4* out);

#endif
