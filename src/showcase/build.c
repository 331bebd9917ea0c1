/* Building blocks of the showcase scene (build.h): the allocation list,
 * owned skeletons, clips and animators, and the rigid mesh builder. */
#include "showcase/build.h"

#include "shared/fail.h"

/* ---- memory ---- */

void* sw__sc_alloc(sw__sc_mem* m, size_t n) {
    if (m->count == SW__SC_MAX_ALLOCS || n == 0) return NULL;
    void* p = sw_alloc(&m->alloc, n, 16);
    if (!p) return NULL;
    memset(p, 0, n);
    m->blocks[m->count].p = p;
    m->blocks[m->count].n = n;
    ++m->count;
    return p;
}

void sw__sc_mem_free(sw__sc_mem* m) {
    for (uint32_t i = m->count; i-- > 0;)
        sw_free(&m->alloc, m->blocks[i].p, m->blocks[i].n);
    for (uint32_t i = 0; i < m->skeletons_count; ++i)
        sw_skeleton_destroy(m->skeletons[i], &m->alloc);
    for (uint32_t i = 0; i < m->meshes_count; ++i)
        sw_mesh_destroy(m->meshes[i], &m->alloc);
    for (uint32_t i = 0; i < m->clips_count; ++i)
        sw_clip_destroy(m->clips[i], &m->alloc);
    for (uint32_t i = 0; i < m->animators_count; ++i)
        sw_animator_destroy(m->animators[i], &m->alloc);
    m->count = m->skeletons_count = m->meshes_count = m->clips_count = m->animators_count = 0;
}

sw_result sw__sc_skeleton(sw__sc_mem* m, const sw_skeleton_joint* joints, uint32_t count,
                          const sw_skeleton** out, sw_error* err) {
    if (m->skeletons_count == SW__SC_MAX_OWNED) return SW_RESULT_LIMIT;
    const sw_skeleton_desc desc = {.joints = joints, .joints_count = count};
    const sw_result r = sw_skeleton_create(&desc, &m->alloc, out, err);
    if (r == SW_RESULT_OK) m->skeletons[m->skeletons_count++] = *out;
    return r;
}

sw_result sw__sc_own_clip(sw__sc_mem* m, const sw_clip* clip) {
    if (m->clips_count == SW__SC_MAX_OWNED) {
        sw_clip_destroy(clip, &m->alloc);
        return SW_RESULT_LIMIT;
    }
    m->clips[m->clips_count++] = clip;
    return SW_RESULT_OK;
}

void sw__sc_models(const sw_skeleton* s, const sw_xform4* local, sw_mat4* out) {
    const sw_local_to_model_job job = {.skeleton = s,
                                       .local = local,
                                       .local_count = s->packets_count,
                                       .out = out,
                                       .out_count = s->joints_count};
    (void)sw_local_to_model_job_run(&job);
}

void sw__sc_sample(const sw_skeleton* s, const sw_clip* clip, float time, sw_xform4* local) {
    const sw_sample_job job = {
        .clip = clip, .skeleton = s, .time = time, .out = local, .out_count = s->packets_count};
    (void)sw_sample_job_run(&job);
}

sw_animator_desc sw__sc_one_layer(const sw_animator_machine_desc* machine,
                                  const sw_animator_param_desc* params, uint32_t params_count,
                                  const sw_animator_blend_space_desc* space, const char* root_joint,
                                  sw_animator_layer_desc* layer) {
    *layer = (sw_animator_layer_desc){.name = "Base", .machine = machine->name};
    const sw_animator_desc desc = {
        .params = params,
        .params_count = params_count,
        .blend_spaces = space,
        .blend_spaces_count = space ? 1u : 0u,
        .machines = machine,
        .machines_count = 1,
        .layers = layer,
        .layers_count = 1,
        .root_motion_joint = root_joint,
    };
    return desc;
}

sw_result sw__sc_anim_create(sw__sc_mem* m, const sw_animator_desc* desc, const sw_skeleton* s,
                             const sw_clip* const* clips, uint32_t clips_count, sw__sc_anim* an,
                             sw_error* err) {
    const sw_animator* def = NULL;
    if (m->animators_count == SW__SC_MAX_OWNED) return SW_RESULT_LIMIT;
    sw_result r = sw_animator_create(desc, &m->alloc, &def, err);
    if (r != SW_RESULT_OK) return r;
    m->animators[m->animators_count++] = def;
    const size_t bsize = sw_animator_bound_size(def, s);
    void* bmem = sw__sc_alloc(m, bsize);
    if (!bmem) return SW_RESULT_OUT_OF_MEMORY;
    r = sw_animator_bind(def, s, clips, clips_count, bmem, bsize, &an->bound, err);
    if (r != SW_RESULT_OK) return r;
    const size_t isize = sw_animator_instance_size(an->bound);
    void* imem = sw__sc_alloc(m, isize);
    if (!imem) return SW_RESULT_OUT_OF_MEMORY;
    r = sw_animator_instance_init(imem, isize, an->bound, &an->inst);
    if (r != SW_RESULT_OK) return r;
    an->scratch_size = sw_animator_scratch_size(an->bound);
    an->scratch = sw__sc_alloc(m, an->scratch_size);
    if (!an->scratch) return SW_RESULT_OUT_OF_MEMORY;
    an->params_count = sw_animator_params_count(def);
    if (an->params_count > 8) return SW_RESULT_LIMIT;
    return sw_animator_params_reset(def, an->params, an->params_count);
}

/* ---- mesh builder ---- */

sw_result sw__mb_init(sw__mb* b, sw__sc_mem* m, uint32_t v_cap, uint32_t i_cap) {
    memset(b, 0, sizeof *b);
    b->pos = (float*)sw__sc_alloc(m, (size_t)v_cap * 3 * sizeof(float));
    b->nrm = (float*)sw__sc_alloc(m, (size_t)v_cap * 3 * sizeof(float));
    b->joints = (uint16_t*)sw__sc_alloc(m, (size_t)v_cap * 4 * sizeof(uint16_t));
    b->weights = (float*)sw__sc_alloc(m, (size_t)v_cap * 4 * sizeof(float));
    b->idx = (uint32_t*)sw__sc_alloc(m, (size_t)i_cap * sizeof(uint32_t));
    if (!b->pos || !b->nrm || !b->joints || !b->weights || !b->idx) return SW_RESULT_OUT_OF_MEMORY;
    b->v_cap = v_cap;
    b->i_cap = i_cap;
    return SW_RESULT_OK;
}

static uint32_t sw__mb_vertex(sw__mb* b, uint16_t e, sw_vec3 p, sw_vec3 n) {
    SINEW_ASSERT(b->v < b->v_cap);
    const uint32_t v = b->v++;
    b->pos[3 * v] = p.x, b->pos[3 * v + 1] = p.y, b->pos[3 * v + 2] = p.z;
    b->nrm[3 * v] = n.x, b->nrm[3 * v + 1] = n.y, b->nrm[3 * v + 2] = n.z;
    b->joints[4 * v] = e;
    b->weights[4 * v] = 1.0f;
    return v;
}

static void sw__mb_tri(sw__mb* b, uint32_t a, uint32_t c, uint32_t d) {
    SINEW_ASSERT(b->i + 3 <= b->i_cap);
    b->idx[b->i++] = a;
    b->idx[b->i++] = c;
    b->idx[b->i++] = d;
}

void sw__mb_box(sw__mb* b, uint16_t e, sw_vec3 c, sw_vec3 h, sw_quat q) {
    static const float axes[6][3] = {{1, 0, 0},  {-1, 0, 0}, {0, 1, 0},
                                     {0, -1, 0}, {0, 0, 1},  {0, 0, -1}};
    for (int f = 0; f < 6; ++f) {
        const sw_vec3 n = sw_vec3_make(axes[f][0], axes[f][1], axes[f][2]);
        /* Two tangents perpendicular to n (faces are drawn two-sided). */
        const sw_vec3 uu = fabsf(n.x) > 0.5f ? sw_vec3_make(0, 1, 0) : sw_vec3_make(1, 0, 0);
        const sw_vec3 vv = sw_vec3_cross(n, uu);
        uint32_t idx[4];
        for (int k = 0; k < 4; ++k) {
            const float su = (k == 1 || k == 2) ? 1.0f : -1.0f;
            const float sv = (k >= 2) ? 1.0f : -1.0f;
            sw_vec3 p = sw_vec3_add(n, sw_vec3_add(sw_vec3_scale(uu, su), sw_vec3_scale(vv, sv)));
            p = sw_vec3_mul(p, h);
            idx[k] =
                sw__mb_vertex(b, e, sw_vec3_add(c, sw_quat_rotate(q, p)), sw_quat_rotate(q, n));
        }
        sw__mb_tri(b, idx[0], idx[1], idx[2]);
        sw__mb_tri(b, idx[0], idx[2], idx[3]);
    }
}

void sw__mb_sphere(sw__mb* b, uint16_t e, sw_vec3 c, float radius, uint32_t slices,
                   uint32_t stacks) {
    const uint32_t first = b->v;
    for (uint32_t i = 0; i <= stacks; ++i) {
        const float th = 3.14159265f * (float)i / (float)stacks;
        for (uint32_t j = 0; j <= slices; ++j) {
            const float ph = 6.2831853f * (float)j / (float)slices;
            const sw_vec3 n = sw_vec3_make(sinf(th) * cosf(ph), cosf(th), sinf(th) * sinf(ph));
            sw__mb_vertex(b, e, sw_vec3_add(c, sw_vec3_scale(n, radius)), n);
        }
    }
    for (uint32_t i = 0; i < stacks; ++i) {
        for (uint32_t j = 0; j < slices; ++j) {
            const uint32_t a = first + i * (slices + 1) + j, d = a + slices + 1;
            sw__mb_tri(b, a, a + 1, d);
            sw__mb_tri(b, a + 1, d + 1, d);
        }
    }
}

void sw__mb_patch(sw__mb* b, uint16_t e, float x0, float x1, float z0, float z1, uint32_t n,
                  float (*ground)(float x, float z, sw_vec3* normal)) {
    const uint32_t first = b->v;
    for (uint32_t i = 0; i <= n; ++i) {
        for (uint32_t j = 0; j <= n; ++j) {
            const float x = x0 + (x1 - x0) * (float)j / (float)n;
            const float z = z0 + (z1 - z0) * (float)i / (float)n;
            sw_vec3 nrm;
            /* 3 mm above the plane so the patch wins the depth test at its rim. */
            const float y = ground(x, z, &nrm) + 0.003f;
            sw__mb_vertex(b, e, sw_vec3_make(x, y, z), nrm);
        }
    }
    for (uint32_t i = 0; i < n; ++i) {
        for (uint32_t j = 0; j < n; ++j) {
            const uint32_t a = first + i * (n + 1) + j, d = a + n + 1;
            sw__mb_tri(b, a, d, a + 1);
            sw__mb_tri(b, a + 1, d, d + 1);
        }
    }
}

sw_result sw__mb_build(sw__mb* b, sw__sc_mem* m, const char* name, const uint16_t* palette,
                       const sw_mat4* inverse_binds, uint32_t palette_count,
                       uint32_t skeleton_joints, const sw_mesh** out, sw_error* err) {
    if (m->meshes_count == SW__SC_MAX_OWNED) return SW_RESULT_LIMIT;
    const sw_mesh_desc desc = {
        .name = name,
        .vertices_count = b->v,
        .positions = b->pos,
        .normals = b->nrm,
        .joints = b->joints,
        .weights = b->weights,
        .indices = b->idx,
        .indices_count = b->i,
        .palette = palette,
        .inverse_binds = inverse_binds,
        .palette_count = palette_count,
        .skeleton_joints_count = skeleton_joints,
    };
    const sw_result r = sw_mesh_create(&desc, &m->alloc, out, err);
    if (r == SW_RESULT_OK) m->meshes[m->meshes_count++] = *out;
    return r;
}
