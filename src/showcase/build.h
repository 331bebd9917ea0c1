/* Building blocks of the showcase scene (src/showcase/build.c): the scene's
 * allocation list (everything an actor makes lives until the scene is
 * destroyed), owned skeletons and animators, and a builder of rigid meshes
 * (boxes, spheres, ground patches) for the generated actors. */
#ifndef SINEW_SHOWCASE_BUILD_H
#define SINEW_SHOWCASE_BUILD_H

#include <math.h>
#include <string.h>

#include "sinew/sinew.h"

#include "shared/fail.h"

#define SW__SC_MAX_ALLOCS 512
#define SW__SC_MAX_OWNED 48

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

/* n zeroed bytes (16-byte aligned) owned by the list; NULL when out of
 * memory or out of list slots. */
void* sw__sc_alloc(sw__sc_mem* m, size_t n);
/* Frees every block and object of the list (newest block first). */
void sw__sc_mem_free(sw__sc_mem* m);
/* A skeleton owned by the list. Fails: LIMIT, or sw_skeleton_create's result. */
sw_result sw__sc_skeleton(sw__sc_mem* m, const sw_skeleton_joint* joints, uint32_t count,
                          const sw_skeleton** out, sw_error* err);
/* Hands a clip to the list (destroyed with it). Fails: LIMIT (the clip is
 * then destroyed here). */
sw_result sw__sc_own_clip(sw__sc_mem* m, const sw_clip* clip);
/* Model matrices of a local pose (root at the identity). */
void sw__sc_models(const sw_skeleton* s, const sw_xform4* local, sw_mat4* out);
/* Samples `clip` at `time` into `local` (no cache). */
void sw__sc_sample(const sw_skeleton* s, const sw_clip* clip, float time, sw_xform4* local);

/* An animator made for an actor: bound to its skeleton and clips, with an
 * instance, evaluation scratch and its parameters. */
typedef struct sw__sc_anim {
    const sw_animator_bound* bound;
    sw_animator_instance* inst;
    void* scratch;
    size_t scratch_size;
    float params[8];
    uint32_t params_count;
} sw__sc_anim;

/* An animator description with one layer ("Base") playing `machine`,
 * with `params`, blend space `space` (NULL: none) and root motion on joint
 * `root_joint` (NULL: none). *layer is filled and must outlive the result. */
sw_animator_desc sw__sc_one_layer(const sw_animator_machine_desc* machine,
                                  const sw_animator_param_desc* params, uint32_t params_count,
                                  const sw_animator_blend_space_desc* space, const char* root_joint,
                                  sw_animator_layer_desc* layer);

/* Creates the animator of `desc` (owned by the list), binds it to `s` and
 * `clips` and makes its instance and scratch; parameters at their defaults.
 * Fails: LIMIT (list full, more than 8 parameters), OUT_OF_MEMORY, the
 * animator's create / bind results with err. */
sw_result sw__sc_anim_create(sw__sc_mem* m, const sw_animator_desc* desc, const sw_skeleton* s,
                             const sw_clip* const* clips, uint32_t clips_count, sw__sc_anim* an,
                             sw_error* err);

/* Mesh builder: rigid parts (boxes, spheres, height patches) on palette entries. */
typedef struct sw__mb {
    float* pos;
    float* nrm;
    uint16_t* joints;
    float* weights;
    uint32_t* idx;
    uint32_t v, i, v_cap, i_cap;
} sw__mb;

/* Room for v_cap vertices and i_cap indices from the list. Fails: OUT_OF_MEMORY. */
sw_result sw__mb_init(sw__mb* b, sw__sc_mem* m, uint32_t v_cap, uint32_t i_cap);
/* Box centred at c with half extents h, turned by q, on palette entry e. */
void sw__mb_box(sw__mb* b, uint16_t e, sw_vec3 c, sw_vec3 h, sw_quat q);
void sw__mb_sphere(sw__mb* b, uint16_t e, sw_vec3 c, float radius, uint32_t slices,
                   uint32_t stacks);
/* Height patch over [x0, x1] x [z0, z1] with n x n cells, 3 mm over `ground`. */
void sw__mb_patch(sw__mb* b, uint16_t e, float x0, float x1, float z0, float z1, uint32_t n,
                  float (*ground)(float x, float z, sw_vec3* normal));
/* Builds the mesh (owned by the list): palette joints and their inverse
 * binds. Fails: LIMIT, or sw_mesh_create's result with err. */
sw_result sw__mb_build(sw__mb* b, sw__sc_mem* m, const char* name, const uint16_t* palette,
                       const sw_mat4* inverse_binds, uint32_t palette_count,
                       uint32_t skeleton_joints, const sw_mesh** out, sw_error* err);

#endif
