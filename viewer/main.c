/* viewer/main.c: the sinew WebAssembly viewer (emscripten, WebGL2).
 *
 * The runtime plays a character (the built-in humanoid or spider, or a
 * .sinew / .glb file opened from disk) and the page draws it with GPU
 * skinning: each mesh's palette (sw_skinning_job) goes to a float texture,
 * one row of four RGBA32F texels per matrix, and the vertex shader blends
 * four joints per vertex. The page (viewer.js) owns the DOM: it calls the
 * exported viewer_* functions below for input and reads viewer_status(), a
 * JSON text, to show the state.
 *
 * Showcase mode (the default): the showcase scene (sinew/showcase/scene.h),
 * the same as `sinew demo`, driven by the orbit camera, the mouse targets
 * and the speed slider; the scene computes every actor's palettes.
 *
 * Character mode: an sw_animator plays one 1D blend space with phase sync:
 * clip A at 0 and clip B at 1 mixed by the blend slider, or, for the
 * humanoid, idle/walk/jog/run at their speeds picked by a speed in m/s (the
 * animator's root motion keeps it in place); then a look-at on the head and
 * a two-bone reach of the right arm towards targets that follow the mouse.
 */
#include <GLES3/gl3.h>
#include <emscripten/emscripten.h>
#include <emscripten/html5.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <webgl/webgl2.h>

#ifdef SINEW_VIEWER_ODE
#include "sinew/backends/ode.h"
#endif
#include "sinew/showcase/character.h"
#include "sinew/showcase/scene.h"
#include "sinew/sinew.h"
#include "sinew/tools/builders/compress.h"
#include "sinew/tools/builders/mirror_bake.h"
#include "sinew/tools/builders/scene.h"
#include "sinew/tools/readers/gltf.h"

#include "runtime/simd/soa_check.h"
#include "workbench.h"

#define VIEWER_PI 3.14159265358979f
#define VIEWER_MAX_LINES 65536 /* line vertices per frame */
/* The humanoid's speed follows the slider through an exponential damper of
 * this half-life (s): ln 2 / 6, a rate of 6 per second. */
#define VIEWER_SPEED_HALF_LIFE 0.11552453f
/* Turn rate of the A/D keys (radians per second). */
#define VIEWER_TURN_RATE 1.2f
#define VIEWER_STATUS_BYTES 131072
/* The scene and the character advance in fixed steps of VIEWER_STEP
 * seconds, at most VIEWER_MAX_STEPS per drawn frame (viewer_frame). */
#define VIEWER_STEP (1.0 / 60.0)
#define VIEWER_MAX_STEPS 6u
/* Morph targets per mesh the viewer mixes (a mesh with more shows its bind shape). */
#define VIEWER_MORPH_MAX 64

/* ---------------------------------------------------------------- GPU mesh */

typedef struct gpu_mesh {
    const sw_mesh* mesh;
    GLuint vao, buffers[4], ibo, palette_tex;
    GLsizei index_count;
    sw_mat4* palette;    /* palette_count matrices, rewritten every frame */
    sw_dq_transform* dq; /* palette_count entries: the dual quaternion palette */
    /* Morph targets (meshes with targets): the morph job's output, uploaded
     * over the bind positions and normals when the weights change; the
     * weights last applied and the panel's settings (NaN: as animated). */
    float *morph_pos, *morph_nrm, *morph_w, *morph_set;
    bool morph_applied;
    /* Normals made for a mesh without any (make_normals), as uploaded; NULL
     * when the mesh has its own. */
    float* made_nrm;
    /* CPU skinning (viewer_set "cpu_skin"): the runtime's skin job writes
     * model-space positions and normals, drawn through cpu_vao without
     * skinning in the shader; made when first used. */
    GLuint cpu_vao, cpu_buffers[2];
    float *cpu_pos, *cpu_nrm;
} gpu_mesh;

/* ---------------------------------------------------------------- character */

enum { SOURCE_NONE, SOURCE_SCENE, SOURCE_ARCHIVE };

typedef struct character {
    char name[128];
    int source;
    sw_scene scene;         /* SOURCE_SCENE */
    uint8_t* archive_bytes; /* SOURCE_ARCHIVE: 16-byte aligned copy */
    const sw_skeleton* skel;
    const sw_clip** clips;
    uint32_t clips_count;
    const sw_mesh** meshes;
    uint32_t meshes_count;
    const sw_mesh** archive_meshes; /* SOURCE_ARCHIVE: the array meshes pointed to */
    /* A file without a mesh: its bones (sw_showcase_bones_mesh), drawn as its mesh. */
    const sw_mesh* bones;
    uint32_t bones_count;
    const sw_clip** packed; /* compressed twins of clips (sw_compress_clip), or NULL */
    bool use_packed;        /* play the compressed clips */
    uint64_t raw_bytes, packed_bytes;
    float packed_error; /* largest measured error over the clips */
    bool locomotion;    /* the humanoid's idle/walk/jog/run */
    float speeds[SW_SHOWCASE_HUMANOID_CLIPS];
    sw_xform4* pose;
    /* Playback (anim_build): an animator with one looping state playing a 1D
     * blend space over parameter "x" at the rate of parameter "rate"; NULL
     * without clips (the rest pose shows). */
    const sw_animator* anim;
    bool anim_owned; /* anim built here (the clip blend), not the workbench's */
    const sw_animator_bound* anim_bound;
    sw_animator_instance* anim_inst;
    void *anim_bound_mem, *anim_inst_mem, *anim_scratch;
    size_t anim_scratch_size;
    sw_mat4* model;
    gpu_mesh* gpu;
    int32_t look_joints[3]; /* spine, neck, head (-1 when absent) */
    uint32_t look_count;
    sw_vec3 head_forward; /* model +Z in the head's local space at rest */
    uint32_t arm[3];
    bool has_arm;
    float height;        /* size of the first pose, for the camera and the targets */
    sw_vec3 center;      /* centre of the first pose */
    sw_vec3 root_offset; /* centre minus joint 0, in the first pose */
    /* Mirroring (sw_mirror_job on the displayed pose): data from the
     * skeleton's twins and the meshes' bind frames, NULL when it could not
     * be built; a probe joint with a twin, far from the plane. */
    const sw_mirror* mirror;
    sw_xform4* pose_m;
    int32_t mirror_probe;
} character;

/* ---------------------------------------------------------------- showcase */

typedef struct showcase_view {
    sw_showcase* scene;
#ifdef SINEW_VIEWER_ODE
    sw_ode_world* world; /* the ragdoll actors' physics (ODE compiled to wasm) */
    sw_physics physics;
#endif
    int32_t powered, knockdown; /* ragdoll actor indices, -1 when absent */
    uint32_t actors_count;
    gpu_mesh* gpu[SW_SHOWCASE_MAX_ACTORS];
    uint32_t gpu_count[SW_SHOWCASE_MAX_ACTORS];
    int32_t locomotion, reach; /* actor indices, -1 when absent */
    sw_vec3 walker_pos;        /* locomotion actor's world position, last frame */
    float walker_speed;        /* measured from its motion, smoothed */
    bool walker_seen;
    bool speed_set;          /* the slider overrides the scene's speed schedule */
    bool custom;             /* built with the loaded character (options.character) */
    const char* only;        /* options.only_actor: one actor alone ("spider"), or NULL */
    int32_t focus;           /* actor the camera follows, -1: the whole scene */
    sw_scene character_view; /* pointers into g_viewer.ch, which must outlive the scene */
    sw_vec3 center;
    float extent;
} showcase_view;

/* ---------------------------------------------------------------- viewer */

typedef struct viewer {
    EMSCRIPTEN_WEBGL_CONTEXT_HANDLE gl;
    char canvas[128]; /* CSS selector of the canvas */
    int width, height;
    GLuint skin_prog, line_prog;
    GLint skin_view_proj, skin_world, skin_palette, skin_color;
    GLint line_view_proj;
    GLuint grid_vao, grid_vbo;
    GLsizei grid_count;
    GLuint lines_vao, lines_vbo;
    float* lines;
    uint32_t lines_count;
    GLint skin_mode;
    /* Skinning: linear blend (false) or dual quaternion (true), in the
     * vertex shader or, with cpu_skin, by the runtime's skin job on the CPU;
     * identity matrices as the inverse binds of a DQ palette made from a
     * finished palette (ident_count of them). */
    bool dq, cpu_skin;
    sw_mat4* ident;
    uint32_t ident_count;

    bool showcase_mode;
    showcase_view sc;
    character ch;
    /* playback */
    int clip_a, clip_b;
    float blend, speed, phase, time_a;
    bool paused;
    float pending_step;
    double pending_time; /* time not yet stepped (less than VIEWER_STEP) */
    double clock;        /* seconds advanced (played and stepped), for the status */
    float loco_weights[SW_SHOWCASE_HUMANOID_CLIPS];
    float loco_speed; /* the slider's speed through a damper (VIEWER_SPEED_HALF_LIFE) */
    bool loco_off;    /* the humanoid plays the picked clips instead of its locomotion */
    /* Where the character stands (root motion and steering move it): its
     * ground position and heading, and the root transform they make. */
    sw_vec3 place;
    float heading;
    sw_mat4 world;
    float grid_cell; /* grid spacing: the character's units (1 for metres) */
    /* Keyboard steering (viewer_key): the keys held, as a stick: forward
     * (W/S, Shift doubles), strafe (Q/E) and turn (A/D, arrows). In the
     * showcase the first steering key takes the walkers off their circles. */
    uint32_t keys;
    bool steering;
    /* The animator workbench: a definition from JSON bound to the character
     * in place of the clip blend (anim_bound_def); its error when it does
     * not bind. */
    workbench wb;
    bool wb_bound;
    char wb_error[256];
    /* toggles */
    bool show_skeleton, show_mesh, look_on, ik_on, follow_mouse;
    /* Showcase toggles (sw_showcase_inputs): off switches and the mode. */
    bool foot_off, sync_off, inertial;
    float hit_offset_max; /* largest inertialization offset since the mode was set */
    bool mirrored;        /* character mode: the displayed pose mirrored */
    sw_vec3 probe_pos[2]; /* the mirror probe joint and its twin (model space) */
    int target_mode;      /* 0 look, 1 IK */
    float ik_weight, look_weight;
    sw_vec3 look_target, ik_target;
    /* camera */
    float yaw, pitch, distance;
    sw_vec3 orbit_target;
    sw_mat4 view_proj;
    sw_vec3 eye;
    uint64_t frames;
    char error[512];
    char* status;
} viewer;

static viewer g_viewer;

/* ---------------------------------------------------------------- helpers */

static void* aligned_calloc(size_t size) {
    const size_t rounded = (size + 15u) & ~(size_t)15u;
    void* p = aligned_alloc(16, rounded ? rounded : 16u);
    if (p) memset(p, 0, rounded ? rounded : 16u);
    return p;
}

static void set_error(const char* what, sw_result r, const sw_error* err) {
    if (err && err->check) {
        snprintf(g_viewer.error, sizeof g_viewer.error, "%s: %s (%s, offset %llu, index %lld)",
                 what, sw_result_str(r), err->check, (unsigned long long)err->offset,
                 (long long)err->index);
    } else {
        snprintf(g_viewer.error, sizeof g_viewer.error, "%s: %s", what, sw_result_str(r));
    }
}

static sw_vec3 v3(float x, float y, float z) {
    sw_vec3 v = {x, y, z};
    return v;
}
static sw_vec3 v3_add(sw_vec3 a, sw_vec3 b) {
    return v3(a.x + b.x, a.y + b.y, a.z + b.z);
}
static sw_vec3 v3_sub(sw_vec3 a, sw_vec3 b) {
    return v3(a.x - b.x, a.y - b.y, a.z - b.z);
}
static sw_vec3 v3_scale(sw_vec3 a, float s) {
    return v3(a.x * s, a.y * s, a.z * s);
}
static float v3_dot(sw_vec3 a, sw_vec3 b) {
    return a.x * b.x + a.y * b.y + a.z * b.z;
}
static sw_vec3 v3_cross(sw_vec3 a, sw_vec3 b) {
    return v3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}
static sw_vec3 v3_norm(sw_vec3 a) {
    const float l = sqrtf(v3_dot(a, a));
    return l > 1e-12f ? v3_scale(a, 1.0f / l) : v3(0.0f, 0.0f, 0.0f);
}
static sw_vec3 mat_pos(const sw_mat4* m) {
    return v3(m->m[12], m->m[13], m->m[14]);
}

/* ---------------------------------------------------------------- GL setup */

/* Skinning in the vertex shader, from the palette texture: u_skin 0, linear
 * blend of four matrices (one row of four texels per matrix: its columns);
 * u_skin 1, dual quaternion blend of four sw_dq_transform entries (one row
 * of five texels: real, dual, the three scale/shear columns), as the
 * runtime's skin job does (sinew/core/skin.h): signs to the hemisphere of
 * the largest weight, scale/shear blended linearly and applied first,
 * normals by R_blend * S_blend; u_skin 2, none: the vertices were skinned
 * on the CPU. The palettes are the runtime's (sw_skinning_job,
 * sw_dq_palette_job); the shader only blends per vertex. v_skin_pos and
 * v_skin_nrm (model space) are captured by transform feedback for
 * viewer_skin_compare. */
static const char* k_skin_vs =
    "#version 300 es\n"
    "layout(location=0) in vec3 a_pos;\n"
    "layout(location=1) in vec3 a_nrm;\n"
    "layout(location=2) in uvec4 a_joints;\n"
    "layout(location=3) in vec4 a_weights;\n"
    "uniform highp sampler2D u_palette;\n"
    "uniform mat4 u_view_proj;\n"
    "uniform mat4 u_world;\n"
    "uniform int u_skin;\n"
    "out vec3 v_nrm;\n"
    "out vec3 v_skin_pos;\n"
    "out vec3 v_skin_nrm;\n"
    "vec4 texel(int c, uint j) { return texelFetch(u_palette, ivec2(c, int(j)), 0); }\n"
    "mat4 joint_matrix(uint j) { return mat4(texel(0, j), texel(1, j), texel(2, j), texel(3, j)); "
    "}\n"
    "mat3 joint_scale(uint j) { return mat3(texel(2, j).xyz, texel(3, j).xyz, texel(4, j).xyz); }\n"
    "vec3 rotate(vec4 q, vec3 v) { return v + 2.0 * cross(q.xyz, cross(q.xyz, v) + q.w * v); }\n"
    "void lbs(out vec3 p, out vec3 n) {\n"
    "  mat4 s = a_weights.x * joint_matrix(a_joints.x) + a_weights.y * joint_matrix(a_joints.y)\n"
    "         + a_weights.z * joint_matrix(a_joints.z) + a_weights.w * joint_matrix(a_joints.w);\n"
    "  p = (s * vec4(a_pos, 1.0)).xyz;\n"
    "  n = mat3(s) * a_nrm;\n"
    "}\n"
    "void dqs(out vec3 p, out vec3 n) {\n"
    "  uint pj = a_joints.x; float pw = a_weights.x;\n"
    "  for (int k = 1; k < 4; ++k) if (a_weights[k] > pw) { pw = a_weights[k]; pj = a_joints[k]; "
    "}\n"
    "  vec4 pivot = texel(0, pj), br = vec4(0.0), bd = vec4(0.0);\n"
    "  mat3 bs = mat3(0.0);\n"
    "  for (int k = 0; k < 4; ++k) {\n"
    "    float w = a_weights[k];\n"
    "    if (w == 0.0) continue;\n"
    "    vec4 r = texel(0, a_joints[k]);\n"
    "    float ws = dot(r, pivot) < 0.0 ? -w : w;\n"
    "    br += ws * r;\n"
    "    bd += ws * texel(1, a_joints[k]);\n"
    "    bs += w * joint_scale(a_joints[k]);\n"
    "  }\n"
    "  float inv = inversesqrt(dot(br, br));\n"
    "  br *= inv; bd *= inv;\n"
    "  vec3 t = 2.0 * (br.w * bd.xyz - bd.w * br.xyz + cross(br.xyz, bd.xyz));\n"
    "  p = rotate(br, bs * a_pos) + t;\n"
    "  n = rotate(br, bs * a_nrm);\n"
    "}\n"
    "void main() {\n"
    "  vec3 p = a_pos, n = a_nrm;\n"
    "  if (u_skin == 1) dqs(p, n); else if (u_skin == 0) lbs(p, n);\n"
    "  v_skin_pos = p;\n"
    "  v_skin_nrm = n;\n"
    "  v_nrm = mat3(u_world) * n;\n"
    "  gl_Position = u_view_proj * u_world * vec4(p, 1.0);\n"
    "}\n";

static const char* k_skin_fs = "#version 300 es\n"
                               "precision highp float;\n"
                               "in vec3 v_nrm;\n"
                               "uniform vec3 u_color;\n"
                               "out vec4 o_color;\n"
                               "void main() {\n"
                               "  vec3 n = normalize(v_nrm);\n"
                               "  if (!gl_FrontFacing) n = -n;\n"
                               "  float d = max(dot(n, normalize(vec3(0.4, 1.0, 0.5))), 0.0);\n"
                               "  float h = 0.5 + 0.5 * n.y;\n"
                               "  o_color = vec4(u_color * (0.25 + 0.2 * h + 0.6 * d), 1.0);\n"
                               "}\n";

static const char* k_line_vs =
    "#version 300 es\n"
    "layout(location=0) in vec3 a_pos;\n"
    "layout(location=1) in vec3 a_color;\n"
    "uniform mat4 u_view_proj;\n"
    "out vec3 v_color;\n"
    "void main() { v_color = a_color; gl_Position = u_view_proj * vec4(a_pos, 1.0); }\n";

static const char* k_line_fs = "#version 300 es\n"
                               "precision mediump float;\n"
                               "in vec3 v_color;\n"
                               "out vec4 o_color;\n"
                               "void main() { o_color = vec4(v_color, 1.0); }\n";

static GLuint compile(GLenum kind, const char* src) {
    const GLuint s = glCreateShader(kind);
    glShaderSource(s, 1, &src, NULL);
    glCompileShader(s);
    GLint ok = 0;
    glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        char log[1024];
        glGetShaderInfoLog(s, sizeof log, NULL, log);
        printf("viewer: shader: %s\n", log);
    }
    return s;
}

/* Links a program; `captured` (NULL or count names) are the vertex outputs
 * transform feedback can capture, interleaved. */
static GLuint link_program(const char* vs, const char* fs, const char* const* captured,
                           GLsizei count) {
    const GLuint p = glCreateProgram();
    const GLuint a = compile(GL_VERTEX_SHADER, vs), b = compile(GL_FRAGMENT_SHADER, fs);
    glAttachShader(p, a);
    glAttachShader(p, b);
    if (captured) glTransformFeedbackVaryings(p, count, captured, GL_INTERLEAVED_ATTRIBS);
    glLinkProgram(p);
    glDeleteShader(a);
    glDeleteShader(b);
    GLint ok = 0;
    glGetProgramiv(p, GL_LINK_STATUS, &ok);
    if (!ok) {
        char log[1024];
        glGetProgramInfoLog(p, sizeof log, NULL, log);
        printf("viewer: program: %s\n", log);
    }
    return p;
}

static void push_line_vertex(sw_vec3 p, sw_vec3 c) {
    viewer* v = &g_viewer;
    if (v->lines_count >= VIEWER_MAX_LINES) return;
    float* o = v->lines + 6u * v->lines_count++;
    o[0] = p.x, o[1] = p.y, o[2] = p.z, o[3] = c.x, o[4] = c.y, o[5] = c.z;
}

static void push_line(sw_vec3 a, sw_vec3 b, sw_vec3 c) {
    push_line_vertex(a, c);
    push_line_vertex(b, c);
}

static void push_cross(sw_vec3 p, float r, sw_vec3 c) {
    push_line(v3_sub(p, v3(r, 0, 0)), v3_add(p, v3(r, 0, 0)), c);
    push_line(v3_sub(p, v3(0, r, 0)), v3_add(p, v3(0, r, 0)), c);
    push_line(v3_sub(p, v3(0, 0, r)), v3_add(p, v3(0, 0, r)), c);
}

static void setup_line_vao(GLuint vao, GLuint vbo) {
    glBindVertexArray(vao);
    glBindBuffer(GL_ARRAY_BUFFER, vbo);
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, 24, (const void*)0);
    glEnableVertexAttribArray(1);
    glVertexAttribPointer(1, 3, GL_FLOAT, GL_FALSE, 24, (const void*)12);
    glBindVertexArray(0);
}

/* Ground: two triangles and a 1 m grid over 20 m, drawn with the line program. */
static void build_grid(void) {
    viewer* v = &g_viewer;
    v->lines_count = 0;
    const sw_vec3 ground = v3(0.30f, 0.32f, 0.35f);
    const float e = 10.0f;
    const sw_vec3 q[6] = {v3(-e, 0, -e), v3(-e, 0, e), v3(e, 0, e),
                          v3(-e, 0, -e), v3(e, 0, e),  v3(e, 0, -e)};
    for (int i = 0; i < 6; ++i)
        push_line_vertex(q[i], ground);
    /* 1 m segments: long lines with an end behind the camera were dropped
     * whole by the rasterizer (SwiftShader) when the camera stood inside. */
    for (int i = -10; i <= 10; ++i) {
        const float f = (float)i;
        const sw_vec3 c = i == 0 ? v3(0.55f, 0.58f, 0.62f) : v3(0.42f, 0.44f, 0.48f);
        for (int k = -10; k < 10; ++k) {
            const float g = (float)k;
            push_line(v3(f, 0.002f, g), v3(f, 0.002f, g + 1.0f), c);
            push_line(v3(g, 0.002f, f), v3(g + 1.0f, 0.002f, f), c);
        }
    }
    glGenVertexArrays(1, &v->grid_vao);
    glGenBuffers(1, &v->grid_vbo);
    glBindBuffer(GL_ARRAY_BUFFER, v->grid_vbo);
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)(v->lines_count * 24u), v->lines, GL_STATIC_DRAW);
    setup_line_vao(v->grid_vao, v->grid_vbo);
    v->grid_count = (GLsizei)v->lines_count;
    v->lines_count = 0;
}

/* Normals for meshes that have none: area-weighted face normals summed per vertex. */
static float* make_normals(const sw_mesh* m) {
    const uint32_t n = m->vertices_count;
    float* out = calloc(3u * (size_t)n, sizeof(float));
    if (!out) return NULL;
    const float* p = sw_mesh_positions(m);
    const uint32_t* idx = sw_mesh_indices(m);
    for (uint32_t t = 0; t + 2 < m->indices_count; t += 3) {
        const uint32_t a = idx[t], b = idx[t + 1], c = idx[t + 2];
        const sw_vec3 pa = v3(p[3 * a], p[3 * a + 1], p[3 * a + 2]);
        const sw_vec3 pb = v3(p[3 * b], p[3 * b + 1], p[3 * b + 2]);
        const sw_vec3 pc = v3(p[3 * c], p[3 * c + 1], p[3 * c + 2]);
        const sw_vec3 f = v3_cross(v3_sub(pb, pa), v3_sub(pc, pa));
        const uint32_t vs[3] = {a, b, c};
        for (int k = 0; k < 3; ++k) {
            out[3 * vs[k]] += f.x, out[3 * vs[k] + 1] += f.y, out[3 * vs[k] + 2] += f.z;
        }
    }
    return out;
}

/* Identity matrices for at least n palette entries (sw_dq_palette_job's
 * inverse binds when its input is a finished palette). */
static bool ident_reserve(uint32_t n) {
    viewer* v = &g_viewer;
    if (n <= v->ident_count) return true;
    sw_mat4* m = aligned_calloc(sizeof(sw_mat4) * n);
    if (!m) return false;
    for (uint32_t i = 0; i < n; ++i)
        m[i] = sw_mat4_identity();
    free(v->ident);
    v->ident = m;
    v->ident_count = n;
    return true;
}

/* The morph buffers of a mesh with targets (none without). */
static bool gpu_morph_create(gpu_mesh* g, const sw_mesh* m) {
    const uint32_t t = m->morph_targets_count;
    if (t == 0) return true;
    const size_t n = 3u * (size_t)m->vertices_count;
    g->morph_pos = malloc(n * sizeof(float));
    g->morph_nrm = sw_mesh_normals(m) ? malloc(n * sizeof(float)) : NULL;
    g->morph_w = calloc(t, sizeof(float));
    g->morph_set = malloc(t * sizeof(float));
    if (!g->morph_pos || (sw_mesh_normals(m) && !g->morph_nrm) || !g->morph_w || !g->morph_set)
        return false;
    for (uint32_t k = 0; k < t; ++k)
        g->morph_set[k] = NAN;
    return true;
}

static bool gpu_mesh_create(gpu_mesh* g, const sw_mesh* m) {
    memset(g, 0, sizeof *g);
    g->mesh = m;
    g->palette = aligned_calloc(sizeof(sw_mat4) * m->palette_count);
    g->dq = aligned_calloc(sizeof(sw_dq_transform) * m->palette_count);
    if (!g->palette || !g->dq || !ident_reserve(m->palette_count) || !gpu_morph_create(g, m))
        return false;
    const size_t n = m->vertices_count;
    glGenVertexArrays(1, &g->vao);
    glGenBuffers(4, g->buffers);
    glGenBuffers(1, &g->ibo);
    glBindVertexArray(g->vao);

    glBindBuffer(GL_ARRAY_BUFFER, g->buffers[0]);
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)(n * 12u), sw_mesh_positions(m), GL_STATIC_DRAW);
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, 0, (const void*)0);

    g->made_nrm = sw_mesh_normals(m) ? NULL : make_normals(m);
    if (!sw_mesh_normals(m) && !g->made_nrm) return false;
    glBindBuffer(GL_ARRAY_BUFFER, g->buffers[1]);
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)(n * 12u),
                 g->made_nrm ? g->made_nrm : sw_mesh_normals(m), GL_STATIC_DRAW);
    glEnableVertexAttribArray(1);
    glVertexAttribPointer(1, 3, GL_FLOAT, GL_FALSE, 0, (const void*)0);

    glBindBuffer(GL_ARRAY_BUFFER, g->buffers[2]);
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)(n * 8u), sw_mesh_joints(m), GL_STATIC_DRAW);
    glEnableVertexAttribArray(2);
    glVertexAttribIPointer(2, 4, GL_UNSIGNED_SHORT, 0, (const void*)0);

    glBindBuffer(GL_ARRAY_BUFFER, g->buffers[3]);
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)(n * 16u), sw_mesh_weights(m), GL_STATIC_DRAW);
    glEnableVertexAttribArray(3);
    glVertexAttribPointer(3, 4, GL_FLOAT, GL_FALSE, 0, (const void*)0);

    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, g->ibo);
    glBufferData(GL_ELEMENT_ARRAY_BUFFER, (GLsizeiptr)((size_t)m->indices_count * 4u),
                 sw_mesh_indices(m), GL_STATIC_DRAW);
    glBindVertexArray(0);
    g->index_count = (GLsizei)m->indices_count;

    glGenTextures(1, &g->palette_tex);
    glBindTexture(GL_TEXTURE_2D, g->palette_tex);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    /* Five texels per entry: a matrix uses four, a DQ transform five. */
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA32F, 5, (GLsizei)m->palette_count, 0, GL_RGBA, GL_FLOAT,
                 NULL);
    return true;
}

/* Uploads a finished palette (count matrices, world or model space) to the
 * mesh's texture: as it is for linear blend skinning, or as the dual
 * quaternion palette the runtime makes from it (sw_dq_palette_job). */
static bool gpu_palette_upload(gpu_mesh* g, const sw_mat4* palette, uint32_t count) {
    glBindTexture(GL_TEXTURE_2D, g->palette_tex);
    if (!g_viewer.dq) {
        glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, 4, (GLsizei)count, GL_RGBA, GL_FLOAT, palette);
        return true;
    }
    const sw_dq_palette_job job = {.model = palette,
                                   .model_count = count,
                                   .inverse_bind = g_viewer.ident,
                                   .count = count,
                                   .out = g->dq,
                                   .out_count = count};
    if (sw_dq_palette_job_run(&job) != SW_RESULT_OK) return false;
    glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, 5, (GLsizei)count, GL_RGBA, GL_FLOAT, g->dq);
    return true;
}

/* Applies morph weights w (one per target) to the mesh drawn: the runtime's
 * morph job over the bind data, uploaded over the vertex buffers, when they
 * differ from the weights last applied (all zero: the bind data again). */
static bool gpu_morph_apply(gpu_mesh* g, const float* w) {
    const sw_mesh* m = g->mesh;
    const uint32_t t = m->morph_targets_count;
    if (t == 0 || (g->morph_applied && memcmp(w, g->morph_w, t * sizeof(float)) == 0)) return true;
    const sw_morph_job job = {.mesh = m,
                              .weights = w,
                              .weights_count = t,
                              .out_positions = g->morph_pos,
                              .out_normals = g->morph_nrm,
                              .out_count = m->vertices_count};
    if (sw_morph_job_run(&job) != SW_RESULT_OK) return false;
    const GLsizeiptr bytes = (GLsizeiptr)m->vertices_count * 12;
    glBindBuffer(GL_ARRAY_BUFFER, g->buffers[0]);
    glBufferSubData(GL_ARRAY_BUFFER, 0, bytes, g->morph_pos);
    if (g->morph_nrm) {
        glBindBuffer(GL_ARRAY_BUFFER, g->buffers[1]);
        glBufferSubData(GL_ARRAY_BUFFER, 0, bytes, g->morph_nrm);
    }
    memcpy(g->morph_w, w, t * sizeof(float));
    g->morph_applied = true;
    return true;
}

/* The runtime's skin job over what the vertex shader reads for the mesh:
 * the positions and normals uploaded (morphed, bind or made) and the
 * palette last uploaded (the matrices, or with "dq" the dual quaternions
 * made from them); out_pos and out_nrm (3 floats per vertex) get the model
 * space (the palette's space) result. */
static sw_skin_job gpu_skin_job(const gpu_mesh* g, float* out_pos, float* out_nrm) {
    const sw_mesh* m = g->mesh;
    const bool dq = g_viewer.dq;
    return (sw_skin_job){.mesh = m,
                         .palette = dq ? NULL : g->palette,
                         .dq_palette = dq ? g->dq : NULL,
                         .palette_count = m->palette_count,
                         .positions = g->morph_applied ? g->morph_pos : NULL,
                         .normals = g->morph_applied && g->morph_nrm ? g->morph_nrm : g->made_nrm,
                         .out_positions = out_pos,
                         .out_normals = out_nrm,
                         .out_count = m->vertices_count};
}

/* The vertex array of CPU skinning: positions and normals rewritten each
 * frame, the mesh's joints, weights (unused: the shader does not skin) and
 * indices. */
static bool gpu_cpu_create(gpu_mesh* g) {
    const size_t n = 3u * (size_t)g->mesh->vertices_count;
    g->cpu_pos = malloc(n * sizeof(float));
    g->cpu_nrm = malloc(n * sizeof(float));
    if (!g->cpu_pos || !g->cpu_nrm) return false;
    glGenVertexArrays(1, &g->cpu_vao);
    glGenBuffers(2, g->cpu_buffers);
    glBindVertexArray(g->cpu_vao);
    for (GLuint k = 0; k < 4; ++k) {
        glBindBuffer(GL_ARRAY_BUFFER, k < 2 ? g->cpu_buffers[k] : g->buffers[k]);
        if (k < 2) glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)(n * 4u), NULL, GL_STREAM_DRAW);
        glEnableVertexAttribArray(k);
        if (k == 2)
            glVertexAttribIPointer(k, 4, GL_UNSIGNED_SHORT, 0, (const void*)0);
        else
            glVertexAttribPointer(k, k == 3 ? 4 : 3, GL_FLOAT, GL_FALSE, 0, (const void*)0);
    }
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, g->ibo);
    glBindVertexArray(0);
    return true;
}

/* CPU skinning of the mesh for drawing: the runtime's skin job
 * (gpu_skin_job), uploaded to the CPU vertex array. */
static bool gpu_cpu_skin(gpu_mesh* g) {
    if (!g->cpu_vao && !gpu_cpu_create(g)) return false;
    const sw_skin_job job = gpu_skin_job(g, g->cpu_pos, g->cpu_nrm);
    if (sw_skin_job_run(&job) != SW_RESULT_OK) return false;
    const GLsizeiptr bytes = (GLsizeiptr)g->mesh->vertices_count * 12;
    glBindBuffer(GL_ARRAY_BUFFER, g->cpu_buffers[0]);
    glBufferSubData(GL_ARRAY_BUFFER, 0, bytes, g->cpu_pos);
    glBindBuffer(GL_ARRAY_BUFFER, g->cpu_buffers[1]);
    glBufferSubData(GL_ARRAY_BUFFER, 0, bytes, g->cpu_nrm);
    return true;
}

/* The vertex shader's skinning of the mesh (linear blend, or dual
 * quaternion with "dq") from its palette texture, captured by transform
 * feedback without drawing: 6 floats per vertex into out (model-space
 * position, then the normal as the shader leaves it, not normalized). */
static void gpu_capture(const gpu_mesh* g, float* out) {
    const viewer* v = &g_viewer;
    const GLsizeiptr bytes = (GLsizeiptr)g->mesh->vertices_count * 24;
    GLuint buf = 0;
    glGenBuffers(1, &buf);
    glBindBuffer(GL_TRANSFORM_FEEDBACK_BUFFER, buf);
    glBufferData(GL_TRANSFORM_FEEDBACK_BUFFER, bytes, NULL, GL_STREAM_READ);
    glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, buf);
    glUseProgram(v->skin_prog);
    glUniform1i(v->skin_palette, 0);
    glUniform1i(v->skin_mode, v->dq ? 1 : 0);
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, g->palette_tex);
    glBindVertexArray(g->vao);
    glEnable(GL_RASTERIZER_DISCARD);
    glBeginTransformFeedback(GL_POINTS);
    glDrawArrays(GL_POINTS, 0, (GLsizei)g->mesh->vertices_count);
    glEndTransformFeedback();
    glDisable(GL_RASTERIZER_DISCARD);
    glBindVertexArray(0);
    glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, 0);
    glBindBuffer(GL_TRANSFORM_FEEDBACK_BUFFER, buf);
    glGetBufferSubData(GL_TRANSFORM_FEEDBACK_BUFFER, 0, bytes, out);
    glBindBuffer(GL_TRANSFORM_FEEDBACK_BUFFER, 0);
    glDeleteBuffers(1, &buf);
}

static void gpu_mesh_destroy(gpu_mesh* g) {
    if (g->vao) glDeleteVertexArrays(1, &g->vao);
    if (g->buffers[0]) glDeleteBuffers(4, g->buffers);
    if (g->ibo) glDeleteBuffers(1, &g->ibo);
    if (g->palette_tex) glDeleteTextures(1, &g->palette_tex);
    if (g->cpu_vao) glDeleteVertexArrays(1, &g->cpu_vao);
    if (g->cpu_buffers[0]) glDeleteBuffers(2, g->cpu_buffers);
    free(g->made_nrm);
    free(g->cpu_pos);
    free(g->cpu_nrm);
    free(g->palette);
    free(g->dq);
    free(g->morph_pos);
    free(g->morph_nrm);
    free(g->morph_w);
    free(g->morph_set);
    memset(g, 0, sizeof *g);
}

/* ---------------------------------------------------------------- characters */

static void showcase_free(void);
static bool anim_build(void);

static void anim_free(character* c) {
    if (c->anim && c->anim_owned) sw_animator_destroy(c->anim, NULL);
    free(c->anim_bound_mem);
    free(c->anim_inst_mem);
    free(c->anim_scratch);
    c->anim = NULL;
    c->anim_owned = false;
    c->anim_bound = NULL;
    c->anim_inst = NULL;
    c->anim_bound_mem = c->anim_inst_mem = c->anim_scratch = NULL;
    c->anim_scratch_size = 0;
}

static void character_free(character* c) {
    /* A scene built on this character refers to it. */
    if (g_viewer.sc.custom) showcase_free();
    for (uint32_t i = 0; c->gpu && i < c->meshes_count; ++i)
        gpu_mesh_destroy(&c->gpu[i]);
    anim_free(c);
    free(c->gpu);
    free(c->pose);
    free(c->model);
    free(c->pose_m);
    if (c->mirror) sw_mirror_destroy(c->mirror, NULL);
    for (uint32_t i = 0; c->packed && i < c->clips_count; ++i)
        if (c->packed[i]) sw_clip_destroy(c->packed[i], NULL);
    free((void*)c->packed);
    if (c->source == SOURCE_SCENE) {
        sw_scene_free(&c->scene, NULL);
    } else if (c->source == SOURCE_ARCHIVE) {
        free((void*)c->clips);
        free((void*)c->archive_meshes);
        free(c->archive_bytes);
    }
    sw_mesh_destroy(c->bones, NULL);
    memset(c, 0, sizeof *c);
}

/* Mirror data against the meshes' bind frames (the rest pose without meshes
 * or when they disagree); no mirror when the skeleton has no twins. */
static void character_mirror_setup(character* c) {
    const sw_skeleton* s = c->skel;
    c->mirror_probe = -1;
    c->pose_m = aligned_calloc(s->packets_count * sizeof(sw_xform4));
    sw_mat4* frames = aligned_calloc(s->joints_count * sizeof(sw_mat4));
    if (!c->pose_m || !frames) {
        free(frames);
        return;
    }
    sw_mirror_desc desc = {.skeleton = s};
    if (c->meshes_count > 0 && sw_mirror_bind_frames(s, c->meshes, c->meshes_count, frames,
                                                     s->joints_count) == SW_RESULT_OK) {
        desc.frames = frames;
        desc.frames_count = s->joints_count;
    }
    if (sw_mirror_create(&desc, NULL, &c->mirror, NULL) != SW_RESULT_OK &&
        (!desc.frames || (desc.frames = NULL, desc.frames_count = 0,
                          sw_mirror_create(&desc, NULL, &c->mirror, NULL) != SW_RESULT_OK)))
        c->mirror = NULL;
    free(frames);
    if (c->mirror && c->mirror->pairs_count == 0) {
        sw_mirror_destroy(c->mirror, NULL);
        c->mirror = NULL;
    }
    if (!c->mirror) return;
    /* The probe: the twinned joint farthest from the plane at rest (c->model). */
    const uint32_t axis = c->mirror->axis - 1u;
    float best = -1.0f;
    for (uint32_t j = 0; j < s->joints_count; ++j) {
        const float d = fabsf(c->model[j].m[12 + axis]);
        if (sw_mirror_twin(c->mirror, j) != j && d > best) {
            best = d;
            c->mirror_probe = (int32_t)j;
        }
    }
}

/* Allocates the per-frame buffers, uploads the meshes and finds the joints
 * the look-at and the reach use. The skeleton, clips and meshes are set. */
static bool character_prepare(character* c) {
    const sw_skeleton* s = c->skel;
    const size_t packets = s->packets_count;
    if (c->meshes_count == 0 &&
        sw_showcase_bones_mesh(s, NULL, &c->bones, &c->bones_count, NULL) == SW_RESULT_OK) {
        printf("viewer: %s has no mesh: drawing its %u bones\n", c->name, c->bones_count);
        c->meshes = &c->bones;
        c->meshes_count = 1;
    }
    c->pose = aligned_calloc(packets * sizeof(sw_xform4));
    c->model = aligned_calloc(s->joints_count * sizeof(sw_mat4));
    c->gpu = calloc(c->meshes_count ? c->meshes_count : 1u, sizeof(gpu_mesh));
    if (!c->pose || !c->model || !c->gpu) return false;
    for (uint32_t i = 0; i < c->meshes_count; ++i)
        if (!gpu_mesh_create(&c->gpu[i], c->meshes[i])) return false;

    /* Rest pose model matrices: height and the head's forward axis. */
    memcpy(c->pose, sw_skeleton_rest_pose(s), packets * sizeof(sw_xform4));
    const sw_local_to_model_job ltm = {.skeleton = s,
                                       .local = c->pose,
                                       .local_count = s->packets_count,
                                       .out = c->model,
                                       .out_count = s->joints_count};
    if (sw_local_to_model_job_run(&ltm) != SW_RESULT_OK) return false;
    /* Extent of the first clip's first pose (or the rest pose): camera
     * framing and target placement. */
    if (c->clips_count > 0) {
        const sw_sample_job job = {.clip = c->clips[0],
                                   .skeleton = s,
                                   .time = 0.0f,
                                   .out = c->pose,
                                   .out_count = s->packets_count};
        if (sw_sample_job_run(&job) == SW_RESULT_OK &&
            sw_local_to_model_job_run(&ltm) != SW_RESULT_OK)
            return false;
    }
    sw_vec3 lo = mat_pos(&c->model[0]), hi = lo;
    for (uint32_t j = 1; j < s->joints_count; ++j) {
        const sw_vec3 p = mat_pos(&c->model[j]);
        lo = v3(fminf(lo.x, p.x), fminf(lo.y, p.y), fminf(lo.z, p.z));
        hi = v3(fmaxf(hi.x, p.x), fmaxf(hi.y, p.y), fmaxf(hi.z, p.z));
    }
    const sw_vec3 ext = v3_sub(hi, lo);
    const float size = fmaxf(fmaxf(ext.x, hi.y - fminf(lo.y, 0.0f)), ext.z);
    c->height = size > 0.1f ? size : 1.0f;
    c->center = v3_scale(v3_add(lo, hi), 0.5f);
    c->root_offset = v3_sub(c->center, mat_pos(&c->model[0]));
    /* Back to the rest pose for the head's forward axis. */
    memcpy(c->pose, sw_skeleton_rest_pose(s), packets * sizeof(sw_xform4));
    if (sw_local_to_model_job_run(&ltm) != SW_RESULT_OK) return false;

    static const char* const spine_names[] = {"Spine1", "Spine", "Chest", "Torso"};
    static const char* const neck_names[] = {"Neck", "Neck1"};
    static const char* const head_names[] = {"Head"};
    int32_t spine = -1, neck = -1, head = -1;
    for (size_t i = 0; i < sizeof spine_names / sizeof *spine_names && spine < 0; ++i)
        spine = sw_skeleton_find_joint(s, spine_names[i]);
    for (size_t i = 0; i < sizeof neck_names / sizeof *neck_names && neck < 0; ++i)
        neck = sw_skeleton_find_joint(s, neck_names[i]);
    for (size_t i = 0; i < sizeof head_names / sizeof *head_names && head < 0; ++i)
        head = sw_skeleton_find_joint(s, head_names[i]);
    c->look_count = 0;
    if (head >= 0) {
        /* Keep only joints that are ancestors of the head, root first. */
        const int16_t* parents = sw_skeleton_parents(s);
        const int32_t cand[2] = {spine, neck};
        for (int k = 0; k < 2; ++k) {
            bool ancestor = false;
            for (int32_t j = parents[head]; j >= 0 && cand[k] >= 0; j = parents[j])
                if (j == cand[k]) ancestor = true;
            if (ancestor && (c->look_count == 0 || cand[k] > c->look_joints[c->look_count - 1]))
                c->look_joints[c->look_count++] = cand[k];
        }
        c->look_joints[c->look_count++] = head;
        sw_xform hx;
        if (sw_mat4_decompose(&c->model[head], &hx))
            c->head_forward = sw_quat_rotate(sw_quat_inverse(hx.r), v3(0.0f, 0.0f, 1.0f));
        else
            c->look_count = 0;
    }
    uint32_t arm[3];
    c->has_arm =
        sw_ik_find_two_bone(s, "RightArm", "RightForeArm", "RightHand", arm) == SW_RESULT_OK ||
        sw_ik_find_two_bone(s, "UpperArmR", "LowerArmR", "Palm2R", arm) == SW_RESULT_OK;
    if (c->has_arm) memcpy(c->arm, arm, sizeof arm);
    character_mirror_setup(c);
    return true;
}

static void reset_playback(void) {
    viewer* v = &g_viewer;
    character* c = &v->ch;
    v->clip_a = c->clips_count > 0 ? 0 : -1;
    v->clip_b = c->clips_count > 1 ? 1 : -1;
    v->blend = 0.0f;
    v->phase = 0.0f;
    v->time_a = 0.0f;
    v->loco_off = false;
    if (c->locomotion) {
        /* Start walking, well inside the walk/jog range. */
        v->speed = c->speeds[1];
        v->loco_speed = v->speed;
    } else {
        v->speed = 1.0f;
    }
    const float h = c->height;
    v->place = v3(0.0f, 0.0f, 0.0f);
    v->heading = 0.0f;
    v->world = sw_mat4_identity();
    /* A figure's size says its units: a metre for a human-sized one in
     * metres, 100 in centimetres or inches (powers of ten of h / 1.75). */
    v->grid_cell = powf(10.0f, roundf(log10f(h / 1.75f)));
    v->orbit_target = c->center;
    v->distance = 2.8f * h + 0.5f;
    v->look_target = v3_add(c->center, v3(0.6f * h, 0.4f * h, 1.2f * h));
    v->ik_target = v3_add(c->center, v3(-0.35f * h, 0.25f * h, 0.45f * h));
    anim_build();
}

/* The camera follows the character's root horizontally. */
static void follow_character(float dt) {
    viewer* v = &g_viewer;
    const character* c = &v->ch;
    const sw_vec3 goal = v3_add(mat_pos(&c->model[0]), c->root_offset);
    const float k = 1.0f - expf(-3.0f * dt);
    v->orbit_target.x += (goal.x - v->orbit_target.x) * k;
    v->orbit_target.z += (goal.z - v->orbit_target.z) * k;
}

/* Takes ownership of a filled scene. */
static bool use_scene(sw_scene* scene, const char* name, bool locomotion, const float* speeds) {
    viewer* v = &g_viewer;
    character_free(&v->ch);
    character* c = &v->ch;
    c->source = SOURCE_SCENE;
    c->scene = *scene;
    memset(scene, 0, sizeof *scene);
    snprintf(c->name, sizeof c->name, "%s", name);
    c->skel = c->scene.skeleton;
    c->clips = c->scene.clips;
    c->clips_count = c->scene.clips_count;
    c->meshes = c->scene.meshes;
    c->meshes_count = c->scene.meshes_count;
    c->locomotion = locomotion && c->clips_count == SW_SHOWCASE_HUMANOID_CLIPS;
    if (speeds) memcpy(c->speeds, speeds, sizeof c->speeds);
    if (!character_prepare(c)) {
        set_error(name, SW_RESULT_OUT_OF_MEMORY, NULL);
        character_free(c);
        return false;
    }
    reset_playback();
    return true;
}

static bool open_archive(const uint8_t* data, size_t size, const char* name) {
    viewer* v = &g_viewer;
    uint8_t* bytes = aligned_calloc(size);
    if (!bytes) {
        set_error(name, SW_RESULT_OUT_OF_MEMORY, NULL);
        return false;
    }
    memcpy(bytes, data, size);
    sw_archive a;
    sw_error err = {0};
    const sw_result r = sw_archive_load(bytes, size, &a, &err);
    if (r != SW_RESULT_OK || a.skeletons_count == 0) {
        set_error(name, r != SW_RESULT_OK ? r : SW_RESULT_NOT_FOUND, r ? &err : NULL);
        free(bytes);
        return false;
    }
    const sw_clip** clips = calloc(a.clips_count + 1u, sizeof *clips);
    const sw_mesh** meshes = calloc(a.meshes_count + 1u, sizeof *meshes);
    if (!clips || !meshes) {
        free((void*)clips);
        free((void*)meshes);
        free(bytes);
        set_error(name, SW_RESULT_OUT_OF_MEMORY, NULL);
        return false;
    }
    uint32_t nc = 0, nm = 0;
    for (uint32_t i = 0; i < a.clips_count; ++i)
        if (sw_archive_clip_skeleton(&a, i) == 0) clips[nc++] = sw_archive_clip(&a, i);
    for (uint32_t i = 0; i < a.meshes_count; ++i)
        if (sw_archive_mesh_skeleton(&a, i) == 0) meshes[nm++] = sw_archive_mesh(&a, i);
    character_free(&v->ch);
    character* c = &v->ch;
    c->source = SOURCE_ARCHIVE;
    c->archive_bytes = bytes;
    snprintf(c->name, sizeof c->name, "%s", name);
    c->skel = sw_archive_skeleton(&a, 0);
    c->clips = clips;
    c->clips_count = nc;
    c->meshes = c->archive_meshes = meshes;
    c->meshes_count = nm;
    if (!character_prepare(c)) {
        set_error(name, SW_RESULT_OUT_OF_MEMORY, NULL);
        character_free(c);
        return false;
    }
    reset_playback();
    return true;
}

/* The built-in humanoid with its locomotion clips (the spider walks in
 * the showcase: viewer_builtin). */
static bool open_humanoid(void) {
    sw_scene scene;
    memset(&scene, 0, sizeof scene);
    sw_error err = {0};
    float speeds[SW_SHOWCASE_HUMANOID_CLIPS];
    const sw_result r = sw_showcase_humanoid(NULL, &scene, speeds, &err);
    if (r != SW_RESULT_OK) {
        set_error("sinew_humanoid", r, &err);
        return false;
    }
    return use_scene(&scene, "sinew_humanoid", true, speeds);
}

/* Compresses every clip of the character once (default options: 1 cm
 * precision with a 3 m shell) for the compressed-vs-raw switch. */
static bool character_compress(character* c) {
    if (c->packed) return true;
    if (c->clips_count == 0) {
        snprintf(g_viewer.error, sizeof g_viewer.error, "%s has no clips to compress", c->name);
        return false;
    }
    const sw_clip** packed = calloc(c->clips_count, sizeof *packed);
    if (!packed) return false;
    uint64_t raw = 0, bytes = 0;
    float worst = 0.0f;
    for (uint32_t i = 0; i < c->clips_count; ++i) {
        sw_compress_stats stats;
        sw_error err = {0};
        const sw_result r =
            sw_compress_clip(c->skel, c->clips[i], NULL, NULL, &packed[i], &stats, &err);
        if (r != SW_RESULT_OK) {
            set_error(sw_clip_name(c->clips[i]), r, &err);
            for (uint32_t k = 0; k < i; ++k)
                sw_clip_destroy(packed[k], NULL);
            free((void*)packed);
            return false;
        }
        raw += stats.raw_bytes;
        bytes += stats.compressed_bytes;
        if (stats.error.max > worst) worst = stats.error.max;
    }
    c->packed = packed;
    c->raw_bytes = raw;
    c->packed_bytes = bytes;
    c->packed_error = worst;
    return true;
}

/* ---------------------------------------------------------------- animation */

static float wrap01(float p) {
    p -= floorf(p);
    return p >= 1.0f ? 0.0f : p;
}

static bool loco_on(const viewer* v) {
    return v->ch.locomotion && !v->loco_off;
}

/* Binds `def` to the character's clips (n of them) and makes its instance
 * at the current phase; on failure sets err and frees what was made. */
static sw_result anim_instantiate(const sw_animator* def, const sw_clip* const* clips, uint32_t n,
                                  sw_error* err) {
    viewer* v = &g_viewer;
    character* c = &v->ch;
    c->anim = def;
    const size_t size = sw_animator_bound_size(c->anim, c->skel);
    c->anim_bound_mem = aligned_calloc(size);
    sw_result r = c->anim_bound_mem ? sw_animator_bind(c->anim, c->skel, clips, n,
                                                       c->anim_bound_mem, size, &c->anim_bound, err)
                                    : SW_RESULT_OUT_OF_MEMORY;
    if (r == SW_RESULT_OK) {
        const size_t isize = sw_animator_instance_size(c->anim_bound);
        c->anim_scratch_size = sw_animator_scratch_size(c->anim_bound);
        c->anim_inst_mem = aligned_calloc(isize);
        c->anim_scratch = aligned_calloc(c->anim_scratch_size);
        r = c->anim_inst_mem && c->anim_scratch
                ? sw_animator_instance_init(c->anim_inst_mem, isize, c->anim_bound, &c->anim_inst)
                : SW_RESULT_OUT_OF_MEMORY;
    }
    if (r == SW_RESULT_OK) r = sw_animator_seek(c->anim_inst, c->anim_bound, 0, v->phase);
    if (r != SW_RESULT_OK) anim_free(c);
    return r;
}

/* The workbench's definition over the character's clips; false (with
 * v->wb_error) when it does not bind, e.g. a clip it names is missing. */
static bool anim_bind_definition(const sw_clip* const* set) {
    viewer* v = &g_viewer;
    character* c = &v->ch;
    const sw_animator* def = v->wb.json.animator;
    sw_error err = {0};
    const sw_result r = anim_instantiate(def, set, c->clips_count, &err);
    if (r == SW_RESULT_OK) {
        v->wb_bound = true;
        v->wb_error[0] = '\0';
        workbench_reset(&v->wb);
        return true;
    }
    if (r == SW_RESULT_NOT_FOUND && err.check && strcmp(err.check, "clip slot has a clip") == 0)
        snprintf(v->wb_error, sizeof v->wb_error, "%s: %s has no clip \"%s\"", v->wb.name, c->name,
                 sw_animator_clip_name(def, (uint32_t)err.index));
    else
        snprintf(v->wb_error, sizeof v->wb_error, "%s on %s: %s (%s)", v->wb.name, c->name,
                 sw_result_str(r), err.check ? err.check : "");
    return false;
}

/* (Re)builds the character's animator over the raw or the compressed
 * clips, at the current phase: the workbench's definition when one is
 * loaded and binds; else one looping state playing a 1D blend space, the
 * humanoid's idle/walk/jog/run at their speeds (root motion from joint 0)
 * or clip A at 0 and clip B (when picked) at 1. Without clips there is
 * none. The animator binds clips by name: two different clips of one name
 * play the first. On failure the error is set and the rest pose shows. */
static bool anim_build(void) {
    viewer* v = &g_viewer;
    character* c = &v->ch;
    anim_free(c);
    v->wb_bound = false;
    const sw_clip* const* set = c->use_packed && c->packed ? c->packed : c->clips;
    if (v->wb.json.animator && c->skel && anim_bind_definition(set)) return true;
    if (v->clip_a < 0) return true;
    sw_animator_member_desc members[SW_SHOWCASE_HUMANOID_CLIPS];
    const sw_clip* clips[SW_SHOWCASE_HUMANOID_CLIPS];
    uint32_t n = 0;
    if (loco_on(v)) {
        for (; n < SW_SHOWCASE_HUMANOID_CLIPS; ++n) {
            clips[n] = set[n];
            members[n] = (sw_animator_member_desc){sw_clip_name(set[n]), c->speeds[n], 0.0f};
        }
    } else {
        clips[n] = set[v->clip_a];
        members[n++] = (sw_animator_member_desc){sw_clip_name(set[v->clip_a]), 0.0f, 0.0f};
        if (v->clip_b >= 0 && v->clip_b != v->clip_a) {
            clips[n] = set[v->clip_b];
            members[n++] = (sw_animator_member_desc){sw_clip_name(set[v->clip_b]), 1.0f, 0.0f};
        }
    }
    static const sw_animator_param_desc params[2] = {{.name = "x"},
                                                     {.name = "rate", .value = 1.0f}};
    const sw_animator_blend_space_desc space = {
        .name = "mix", .param_x = "x", .members = members, .members_count = n};
    const sw_animator_state_desc state = {.name = "Play",
                                          .motion = SW_ANIMATOR_MOTION_BLEND_SPACE,
                                          .target = "mix",
                                          .speed_param = "rate"};
    const sw_animator_machine_desc machine = {
        .name = "Playback", .states = &state, .states_count = 1};
    const sw_animator_layer_desc layer = {.name = "Base", .machine = "Playback"};
    const sw_animator_desc desc = {.params = params,
                                   .params_count = 2,
                                   .blend_spaces = &space,
                                   .blend_spaces_count = 1,
                                   .machines = &machine,
                                   .machines_count = 1,
                                   .layers = &layer,
                                   .layers_count = 1,
                                   .root_motion_joint =
                                       loco_on(v) ? sw_skeleton_joint_name(c->skel, 0) : NULL};
    sw_error err = {0};
    const sw_animator* def = NULL;
    sw_result r = sw_animator_create(&desc, NULL, &def, &err);
    if (r == SW_RESULT_OK) {
        r = anim_instantiate(def, clips, n, &err);
        if (r == SW_RESULT_OK)
            c->anim_owned = true;
        else
            sw_animator_destroy(def, NULL);
    }
    if (r != SW_RESULT_OK) {
        set_error(c->name, r, &err);
        return false;
    }
    return true;
}

/* The humanoid's idle/walk/jog/run weights from the animator, and the two
 * clips around the speed as clip A and B with the blend between them. */
static void read_locomotion(void) {
    viewer* v = &g_viewer;
    const character* c = &v->ch;
    const int last = SW_SHOWCASE_HUMANOID_CLIPS - 1;
    sw_animator_contribution k[SW_SHOWCASE_HUMANOID_CLIPS];
    const uint32_t n = sw_animator_contributions(c->anim_inst, c->anim_bound, k, last + 1);
    memset(v->loco_weights, 0, sizeof v->loco_weights);
    for (uint32_t i = 0; i < n; ++i)
        if (k[i].clip <= (uint32_t)last) v->loco_weights[k[i].clip] += k[i].weight;
    int i = 0;
    while (i < last - 1 && !(v->loco_weights[i] > 0.0f))
        ++i;
    v->clip_a = i;
    v->clip_b = i + 1;
    v->blend = v->loco_weights[i + 1];
}

/* Keyboard steering (viewer_key): bits of the keys held. */
enum {
    KEY_FORWARD = 1,
    KEY_BACK = 2,
    KEY_LEFT = 4,
    KEY_RIGHT = 8,
    KEY_STRAFE_LEFT = 16,
    KEY_STRAFE_RIGHT = 32,
    KEY_FAST = 64
};

/* The keys as a stick: forward -1..1 (2 with Shift), strafe to the right,
 * turn left; zero without keys. */
static float key_axis(uint32_t keys, uint32_t plus, uint32_t minus) {
    return (float)((keys & plus) != 0) - (float)((keys & minus) != 0);
}
static float key_forward(const viewer* v) {
    return key_axis(v->keys, KEY_FORWARD, KEY_BACK) * (v->keys & KEY_FAST ? 2.0f : 1.0f);
}
static float key_strafe(const viewer* v) {
    return key_axis(v->keys, KEY_STRAFE_RIGHT, KEY_STRAFE_LEFT) *
           (v->keys & KEY_FAST ? 2.0f : 1.0f);
}
static float key_turn(const viewer* v) {
    return key_axis(v->keys, KEY_LEFT, KEY_RIGHT);
}

/* The clip blend's parameters: the sliders, or for the humanoid's
 * locomotion the speed (the keys' when held: a walk, a jog with Shift)
 * through the damper, the run played faster beyond its speed. */
static void blend_params(float dt, float params[2]) {
    viewer* v = &g_viewer;
    const character* c = &v->ch;
    params[0] = v->blend;
    params[1] = v->speed;
    if (!loco_on(v)) return;
    const float run = c->speeds[SW_SHOWCASE_HUMANOID_CLIPS - 1];
    const float goal =
        v->keys & (KEY_FORWARD | KEY_BACK) ? fmaxf(key_forward(v), 0.0f) * c->speeds[1] : v->speed;
    v->loco_speed = sw_spring_damp_float(v->loco_speed, goal, VIEWER_SPEED_HALF_LIFE, dt);
    params[0] = v->loco_speed;
    params[1] = v->loco_speed > run && run > 0.0f ? v->loco_speed / run : 1.0f;
}

/* The workbench definition's parameters: the panel's, the keys written
 * into its declared locomotion parameters (W: half its speed span, Shift:
 * all of it), its idle channels. Returns whether it declares a turn. */
static bool definition_params(float dt) {
    viewer* v = &g_viewer;
    workbench* wb = &v->wb;
    const sw_animator* a = wb->json.animator;
    const uint32_t n = sw_animator_params_count(a);
    if (wb->json.idle_count) sw_animator_idle_update(&wb->idle, wb->params, n, dt);
    float lo = 0.0f, speed_hi = 1.0f, strafe_hi = 1.0f;
    const int32_t ps = sw_animator_move_param(a, 0), pr = sw_animator_move_param(a, 1);
    if (ps >= 0) sw_animator_param_range(a, (uint32_t)ps, &lo, &speed_hi);
    if (pr >= 0) sw_animator_param_range(a, (uint32_t)pr, &lo, &strafe_hi);
    if (v->keys) {
        const sw_animator_move mv = {.speed = 0.5f * key_forward(v) * speed_hi,
                                     .strafe = 0.5f * key_strafe(v) * strafe_hi,
                                     .turn = key_turn(v) * VIEWER_TURN_RATE};
        sw_animator_apply_move(a, &mv, wb->params, n);
    }
    return sw_animator_move_param(a, 2) >= 0;
}

/* Advances the animator by dt (the workbench's definition or the clip
 * blend), places the character by its root motion and the turn keys
 * (v->place, v->heading, v->world) and evaluates the local pose into
 * c->pose (the rest pose without an animator). */
static bool animate(float dt) {
    viewer* v = &g_viewer;
    character* c = &v->ch;
    const sw_skeleton* s = c->skel;
    if (!c->anim_inst) {
        memcpy(c->pose, sw_skeleton_rest_pose(s), s->packets_count * sizeof(sw_xform4));
        return true;
    }
    float blend[2];
    float* params = blend;
    uint32_t params_count = 2;
    bool turns = false;
    sw_animator_event* events = NULL;
    uint32_t events_cap = 0, events_count = 0;
    if (v->wb_bound) {
        turns = definition_params(dt);
        params = v->wb.params;
        params_count = sw_animator_params_count(v->wb.json.animator);
        events = v->wb.events;
        events_cap = WORKBENCH_EVENTS;
    } else {
        blend_params(dt, blend);
    }
    sw_animator_root_motion rm;
    if (sw_animator_update(c->anim_inst, c->anim_bound, params, params_count, dt, events,
                           events_cap, &events_count, &rm) != SW_RESULT_OK ||
        sw_animator_evaluate(c->anim_inst, c->anim_bound, c->anim_scratch, c->anim_scratch_size,
                             c->pose, s->packets_count) != SW_RESULT_OK)
        return false;
    if (v->wb_bound) {
        workbench_log(&v->wb, c->anim_bound, events_count, v->clock);
        v->wb.last_rm = rm;
        v->wb.travelled += sqrt((double)rm.translation.x * rm.translation.x +
                                (double)rm.translation.z * rm.translation.z);
    }
    sw_animator_root_motion_apply(&rm, &v->place, &v->heading);
    if (!turns) v->heading += key_turn(v) * VIEWER_TURN_RATE * dt;
    const sw_xform place = {v->place, sw_quat_from_axis_angle(v3(0.0f, 1.0f, 0.0f), v->heading),
                            v3(1.0f, 1.0f, 1.0f)};
    v->world = sw_mat4_from_xform(place);
    sw_animator_state_info info;
    if (sw_animator_states(c->anim_inst, c->anim_bound, &info, 1) == 1)
        v->phase = (float)(info.normalized_time - floor(info.normalized_time));
    if (loco_on(v) && !v->wb_bound) read_locomotion();
    if (v->clip_a >= 0) v->time_a = v->phase * c->clips[v->clip_a]->duration;
    return true;
}

static bool model_pass(character* c) {
    const sw_local_to_model_job job = {.skeleton = c->skel,
                                       .local = c->pose,
                                       .local_count = c->skel->packets_count,
                                       .root_transform = &g_viewer.world,
                                       .out = c->model,
                                       .out_count = c->skel->joints_count};
    return sw_local_to_model_job_run(&job) == SW_RESULT_OK;
}

static bool apply_ik(float dt) {
    viewer* v = &g_viewer;
    character* c = &v->ch;
    const float k = 1.0f - expf(-5.0f * dt);
    v->look_weight += ((v->look_on ? 1.0f : 0.0f) - v->look_weight) * k;
    v->ik_weight += ((v->ik_on ? 1.0f : 0.0f) - v->ik_weight) * k;
    if (c->look_count > 0 && v->look_weight > 1e-3f) {
        sw_ik_look_at_joint joints[3];
        static const float shares3[3] = {0.25f, 0.4f, 1.0f};
        static const float shares2[2] = {0.4f, 1.0f};
        for (uint32_t i = 0; i < c->look_count; ++i) {
            joints[i].joint = (uint32_t)c->look_joints[i];
            joints[i].share = c->look_count == 3   ? shares3[i]
                              : c->look_count == 2 ? shares2[i]
                                                   : 1.0f;
        }
        const sw_ik_look_at_job job = {.skeleton = c->skel,
                                       .model = c->model,
                                       .model_count = c->skel->joints_count,
                                       .joints = joints,
                                       .joints_count = c->look_count,
                                       .forward = c->head_forward,
                                       .target = v->look_target,
                                       .limit_angle = 75.0f * VIEWER_PI / 180.0f,
                                       .weight = v->look_weight > 1.0f ? 1.0f : v->look_weight,
                                       .pose = c->pose,
                                       .pose_count = c->skel->packets_count};
        if (sw_ik_look_at_job_run(&job) != SW_RESULT_OK || !model_pass(c)) return false;
    }
    if (c->has_arm && v->ik_weight > 1e-3f) {
        const sw_ik_two_bone_job job = {.skeleton = c->skel,
                                        .model = c->model,
                                        .model_count = c->skel->joints_count,
                                        .start_joint = c->arm[0],
                                        .mid_joint = c->arm[1],
                                        .end_joint = c->arm[2],
                                        .target = v->ik_target,
                                        .pole_mode = SW_IK_POLE_MODE_DIRECTION,
                                        .pole = v3(0.0f, -0.6f, -1.0f),
                                        .weight = v->ik_weight > 1.0f ? 1.0f : v->ik_weight,
                                        .softness = 0.05f,
                                        .pose = c->pose,
                                        .pose_count = c->skel->packets_count};
        if (sw_ik_two_bone_job_run(&job) != SW_RESULT_OK || !model_pass(c)) return false;
    }
    return true;
}

static bool update_palettes(character* c) {
    for (uint32_t i = 0; i < c->meshes_count; ++i) {
        gpu_mesh* g = &c->gpu[i];
        const sw_mesh* m = g->mesh;
        const sw_skinning_job job = {.model = c->model,
                                     .model_count = c->skel->joints_count,
                                     .joints = sw_mesh_palette(m),
                                     .inverse_bind = sw_mesh_inverse_binds(m),
                                     .count = m->palette_count,
                                     .out = g->palette,
                                     .out_count = m->palette_count};
        if (sw_skinning_job_run(&job) != SW_RESULT_OK ||
            !gpu_palette_upload(g, g->palette, m->palette_count) ||
            (g_viewer.cpu_skin && !gpu_cpu_skin(g)))
            return false;
    }
    return true;
}

/* Morph weights per mesh with targets: as the animator plays them
 * (sw_animator_morph_weights: the clips' "<mesh>.weights[k]" tracks, mixed
 * like the pose), each replaced by the panel's value where one is set;
 * then applied (gpu_morph_apply). */
static bool update_morphs(character* c) {
    float w[VIEWER_MORPH_MAX];
    for (uint32_t i = 0; i < c->meshes_count; ++i) {
        gpu_mesh* g = &c->gpu[i];
        const uint32_t t = g->mesh->morph_targets_count;
        if (t == 0) continue;
        const uint32_t n = t < VIEWER_MORPH_MAX ? t : VIEWER_MORPH_MAX;
        memset(w, 0, sizeof w);
        if (c->anim_inst) sw_animator_morph_weights(c->anim_inst, c->anim_bound, g->mesh, w, n);
        for (uint32_t k = 0; k < n; ++k)
            if (isfinite(g->morph_set[k])) w[k] = g->morph_set[k];
        if (t > n) continue; /* more targets than the viewer mixes: the bind shape */
        if (!gpu_morph_apply(g, w)) return false;
    }
    return true;
}

/* ---------------------------------------------------------------- camera */

static sw_mat4 perspective(float fovy, float aspect, float n, float f) {
    sw_mat4 m;
    memset(&m, 0, sizeof m);
    const float t = 1.0f / tanf(0.5f * fovy);
    m.m[0] = t / aspect;
    m.m[5] = t;
    m.m[10] = (f + n) / (n - f);
    m.m[11] = -1.0f;
    m.m[14] = 2.0f * f * n / (n - f);
    return m;
}

static sw_mat4 look_at(sw_vec3 eye, sw_vec3 at, sw_vec3 up) {
    const sw_vec3 f = v3_norm(v3_sub(at, eye));
    const sw_vec3 s = v3_norm(v3_cross(f, up));
    const sw_vec3 u = v3_cross(s, f);
    sw_mat4 m = sw_mat4_identity();
    m.m[0] = s.x, m.m[4] = s.y, m.m[8] = s.z;
    m.m[1] = u.x, m.m[5] = u.y, m.m[9] = u.z;
    m.m[2] = -f.x, m.m[6] = -f.y, m.m[10] = -f.z;
    m.m[12] = -v3_dot(s, eye);
    m.m[13] = -v3_dot(u, eye);
    m.m[14] = v3_dot(f, eye);
    return m;
}

static void update_camera(void) {
    viewer* v = &g_viewer;
    const float cp = cosf(v->pitch);
    v->eye =
        v3_add(v->orbit_target,
               v3_scale(v3(cp * sinf(v->yaw), sinf(v->pitch), cp * cosf(v->yaw)), v->distance));
    const float aspect = v->height > 0 ? (float)v->width / (float)v->height : 1.0f;
    const float cell = v->showcase_mode || !(v->grid_cell > 0.0f) ? 1.0f : v->grid_cell;
    const sw_mat4 proj =
        perspective(45.0f * VIEWER_PI / 180.0f, aspect, 0.02f * cell, 200.0f * cell);
    const sw_mat4 view = look_at(v->eye, v->orbit_target, v3(0.0f, 1.0f, 0.0f));
    v->view_proj = sw_mat4_mul(&proj, &view);
}

/* ---------------------------------------------------------------- showcase */

static const float k_material_colors[SW_SHOWCASE_MATERIAL_COUNT][3] = {
    {0.78f, 0.78f, 0.80f}, /* default */
    {0.86f, 0.68f, 0.55f}, /* skin */
    {0.45f, 0.70f, 0.40f}, /* creature */
    {0.65f, 0.70f, 0.80f}, /* metal */
    {0.55f, 0.50f, 0.45f}, /* prop */
    {1.00f, 0.80f, 0.25f}, /* target */
    {0.80f, 0.45f, 0.45f}, /* hit */
};

static void showcase_free(void) {
    showcase_view* sv = &g_viewer.sc;
    for (uint32_t a = 0; a < SW_SHOWCASE_MAX_ACTORS; ++a) {
        for (uint32_t k = 0; sv->gpu[a] && k < sv->gpu_count[a]; ++k)
            gpu_mesh_destroy(&sv->gpu[a][k]);
        free(sv->gpu[a]);
    }
    if (sv->scene) sw_showcase_destroy(sv->scene);
#ifdef SINEW_VIEWER_ODE
    if (sv->world) sw_ode_world_destroy(sv->world, NULL);
#endif
    memset(sv, 0, sizeof *sv);
    g_viewer.showcase_mode = false;
}

#ifdef SINEW_VIEWER_ODE
static sw_result ode_step(void* world) {
    return sw_ode_world_step((sw_ode_world*)world);
}
#endif

/* Creates the scene (with the loaded character as its humanoid when
 * `with_character`; only the actor named `only` when not NULL) and uploads
 * every actor's meshes (fixed for its life); an existing scene of the same
 * kind is resumed. */
static bool showcase_open(bool with_character, const char* only) {
    viewer* v = &g_viewer;
    showcase_view* sv = &v->sc;
    const bool same_only =
        (!only && !sv->only) || (only && sv->only && strcmp(only, sv->only) == 0);
    if (sv->scene && (sv->custom || with_character || !same_only)) showcase_free();
    if (!sv->scene) v->showcase_mode = false;
    if (!sv->scene) {
        sw_showcase_options options;
        memset(&options, 0, sizeof options);
        options.only_actor = only;
        if (with_character) {
            character* c = &v->ch;
            if (!c->skel || c->clips_count == 0) {
                snprintf(v->error, sizeof v->error, "%s has no clips for the scene", c->name);
                return false;
            }
            memset(&sv->character_view, 0, sizeof sv->character_view);
            sv->character_view.skeleton = c->skel;
            sv->character_view.clips = c->clips;
            sv->character_view.clips_count = c->clips_count;
            sv->character_view.meshes = c->meshes;
            sv->character_view.meshes_count = c->meshes_count;
            options.character = &sv->character_view;
        }
        sw_error err = {0};
#ifdef SINEW_VIEWER_ODE
        if (sw_ode_world_create(&(sw_ode_world_desc){0}, NULL, &sv->world, &err) == SW_RESULT_OK) {
            sv->physics = sw_ode_world_physics(sv->world);
            options.physics = &sv->physics;
            options.physics_step = ode_step;
            options.physics_user = sv->world;
            options.physics_step_size = sw_ode_world_step_size(sv->world);
        }
#endif
        const sw_result r = sw_showcase_create(&options, &sv->scene, &err);
        if (r != SW_RESULT_OK) {
            set_error(with_character ? v->ch.name : "showcase", r, &err);
            sv->scene = NULL;
            showcase_free();
            return false;
        }
        sv->custom = with_character;
        sv->only = only;
        sv->actors_count = sw_showcase_actors_count(sv->scene);
        if (sv->actors_count > SW_SHOWCASE_MAX_ACTORS) sv->actors_count = SW_SHOWCASE_MAX_ACTORS;
        sv->locomotion = sv->reach = sv->powered = sv->knockdown = -1;
        sw_vec3 lo = v3(1e9f, 1e9f, 1e9f), hi = v3(-1e9f, -1e9f, -1e9f);
        for (uint32_t a = 0; a < sv->actors_count; ++a) {
            const sw_showcase_actor act = sw_showcase_get_actor(sv->scene, a);
            if (act.name && strcmp(act.name, "locomotion") == 0) sv->locomotion = (int32_t)a;
            if (act.name && strcmp(act.name, "reach") == 0) sv->reach = (int32_t)a;
            if (act.name && strcmp(act.name, "powered") == 0) sv->powered = (int32_t)a;
            if (act.name && strcmp(act.name, "knockdown") == 0) sv->knockdown = (int32_t)a;
            sv->gpu[a] = calloc(act.meshes_count ? act.meshes_count : 1u, sizeof(gpu_mesh));
            if (!sv->gpu[a]) {
                showcase_free();
                set_error("showcase", SW_RESULT_OUT_OF_MEMORY, NULL);
                return false;
            }
            for (uint32_t k = 0; k < act.meshes_count; ++k) {
                if (!gpu_mesh_create(&sv->gpu[a][k], act.meshes[k])) {
                    showcase_free();
                    set_error("showcase", SW_RESULT_OUT_OF_MEMORY, NULL);
                    return false;
                }
                sv->gpu_count[a] = k + 1;
            }
            const sw_vec3 p = mat_pos(&act.world);
            lo = v3(fminf(lo.x, p.x), fminf(lo.y, p.y), fminf(lo.z, p.z));
            hi = v3(fmaxf(hi.x, p.x), fmaxf(hi.y, p.y), fmaxf(hi.z, p.z));
        }
        sv->center = sv->actors_count ? v3_scale(v3_add(lo, hi), 0.5f) : v3(0, 0, 0);
        sv->center.y = 0.8f;
        sv->extent = sv->actors_count ? sqrtf(v3_dot(v3_sub(hi, lo), v3_sub(hi, lo))) : 4.0f;
    }
    v->showcase_mode = true;
    v->paused = false;
    sv->speed_set = false;
    sv->focus = -1;
    v->speed = 1.2f;
    v->orbit_target = sv->center;
    v->distance = 0.75f * sv->extent + 4.0f;
    v->pitch = 0.35f;
    const float h = 1.75f;
    sw_vec3 base = sv->center;
    if (sv->reach >= 0) {
        const sw_showcase_actor reach = sw_showcase_get_actor(sv->scene, (uint32_t)sv->reach);
        base = mat_pos(&reach.world);
    }
    v->look_target = v3_add(base, v3(0.6f * h, 0.9f * h, 1.2f * h));
    v->ik_target = v3_add(base, v3(-0.35f * h, 0.75f * h, 0.45f * h));
    v->look_on = false;
    v->ik_on = false;
    v->steering = false;
    if (only && sv->actors_count > 0) {
        /* One actor alone: the camera close by, following it. */
        const sw_showcase_actor act = sw_showcase_get_actor(sv->scene, 0);
        const sw_vec3 p = act.model ? mat_pos(&act.model[0]) : mat_pos(&act.world);
        sv->focus = 0;
        v->orbit_target = v3(p.x, 0.1f, p.z);
        v->distance = 1.4f;
    }
    return true;
}

static bool showcase_step(float dt) {
    viewer* v = &g_viewer;
    showcase_view* sv = &v->sc;
    sw_showcase_inputs in;
    memset(&in, 0, sizeof in);
    in.has_camera = true;
    in.camera = v->eye;
    in.camera_target = v->orbit_target;
    in.has_look_target = v->look_on;
    in.look_target = v->look_target;
    in.has_reach_target = v->ik_on;
    in.reach_target = v->ik_target;
    in.has_speed = sv->speed_set;
    in.speed = v->speed;
    in.no_foot_placement = v->foot_off;
    in.no_sync = v->sync_off;
    in.transitions =
        v->inertial ? SW_SHOWCASE_TRANSITIONS_INERTIALIZE : SW_SHOWCASE_TRANSITIONS_CROSSFADE;
    in.has_steer = v->steering;
    in.steer_forward = key_forward(v);
    in.steer_strafe = key_strafe(v);
    in.steer_turn = key_turn(v) * VIEWER_TURN_RATE;
    if (dt > 0.0f || v->frames == 0) {
        const sw_result r = sw_showcase_update(sv->scene, dt, &in);
        if (r != SW_RESULT_OK) {
            set_error("showcase update", r, NULL);
            return false;
        }
        const float off = sw_showcase_get_status(sv->scene).hit_offset;
        v->hit_offset_max = off > v->hit_offset_max ? off : v->hit_offset_max;
    }
    /* The walker's speed, measured from its world position. */
    if (sv->locomotion >= 0) {
        const sw_showcase_actor act = sw_showcase_get_actor(sv->scene, (uint32_t)sv->locomotion);
        const sw_vec3 p = act.model ? mat_pos(&act.model[0]) : mat_pos(&act.world);
        if (sv->walker_seen && dt > 0.0f) {
            const sw_vec3 d = v3_sub(p, sv->walker_pos);
            const float inst = sqrtf(d.x * d.x + d.z * d.z) / dt;
            sv->walker_speed += (inst - sv->walker_speed) * (1.0f - expf(-4.0f * dt));
        }
        sv->walker_pos = p;
        sv->walker_seen = true;
    }
    if (sv->focus >= 0 && (uint32_t)sv->focus < sv->actors_count) {
        const sw_showcase_actor act = sw_showcase_get_actor(sv->scene, (uint32_t)sv->focus);
        const sw_vec3 p = act.model ? mat_pos(&act.model[0]) : mat_pos(&act.world);
        const float k = 1.0f - expf(-4.0f * (dt > 0.0f ? dt : 0.0f));
        v->orbit_target.x += (p.x - v->orbit_target.x) * k;
        v->orbit_target.z += (p.z - v->orbit_target.z) * k;
    }
    return true;
}

/* Every actor's palettes to its meshes' textures (once per drawn frame). */
static bool showcase_upload(void) {
    const showcase_view* sv = &g_viewer.sc;
    for (uint32_t a = 0; a < sv->actors_count; ++a) {
        const sw_showcase_actor act = sw_showcase_get_actor(sv->scene, a);
        for (uint32_t k = 0; k < sv->gpu_count[a] && k < act.meshes_count; ++k)
            if (!gpu_palette_upload(&sv->gpu[a][k], act.palettes[k],
                                    act.meshes[k]->palette_count)) {
                set_error("dual quaternion palette", SW_RESULT_BAD_DATA, NULL);
                return false;
            }
    }
    return true;
}

/* The scene's camera (with its shake and field-of-view pulse) when it stays
 * by the orbit camera given as input; the orbit camera otherwise. */
static void showcase_camera(void) {
    viewer* v = &g_viewer;
    const sw_showcase_camera cam = sw_showcase_get_camera(v->sc.scene);
    const sw_vec3 d = v3_sub(cam.view.t, v->eye);
    if (!(v3_dot(d, d) < 1.0f) || !(cam.fov_y > 0.1f && cam.fov_y < 2.5f)) return;
    const sw_mat4 world = sw_mat4_from_xform(cam.view);
    sw_mat4 view;
    if (!sw_mat4_inverse_affine(&world, &view)) return;
    const float aspect = v->height > 0 ? (float)v->width / (float)v->height : 1.0f;
    const sw_mat4 proj = perspective(cam.fov_y, aspect, 0.02f, 200.0f);
    v->view_proj = sw_mat4_mul(&proj, &view);
}

/* ---------------------------------------------------------------- drawing */

static void draw(void) {
    viewer* v = &g_viewer;
    character* c = &v->ch;
    glViewport(0, 0, v->width, v->height);
    glClearColor(0.12f, 0.13f, 0.16f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    glEnable(GL_DEPTH_TEST);

    glUseProgram(v->line_prog);
    /* The grid in the character's units (grid_cell per line), moved by
     * whole cells under the camera's target so it never ends. */
    const float cell = v->showcase_mode ? 1.0f : v->grid_cell;
    sw_mat4 grid = sw_mat4_identity();
    grid.m[0] = grid.m[5] = grid.m[10] = cell;
    grid.m[12] = cell * roundf(v->orbit_target.x / cell);
    grid.m[14] = cell * roundf(v->orbit_target.z / cell);
    const sw_mat4 grid_vp = sw_mat4_mul(&v->view_proj, &grid);
    glUniformMatrix4fv(v->line_view_proj, 1, GL_FALSE, grid_vp.m);
    glBindVertexArray(v->grid_vao);
    /* Ground and grid are the background: drawn without depth, so that the
     * grid lines never fight the ground plane for it. */
    glDisable(GL_DEPTH_TEST);
    glDrawArrays(GL_TRIANGLES, 0, 6);
    glDrawArrays(GL_LINES, 6, v->grid_count - 6);
    glEnable(GL_DEPTH_TEST);

    glUseProgram(v->skin_prog);
    glUniformMatrix4fv(v->skin_view_proj, 1, GL_FALSE, v->view_proj.m);
    const sw_mat4 world = sw_mat4_identity();
    glUniformMatrix4fv(v->skin_world, 1, GL_FALSE, world.m);
    glUniform1i(v->skin_palette, 0);
    glUniform1i(v->skin_mode, v->dq ? 1 : 0);
    glActiveTexture(GL_TEXTURE0);
    if (v->show_mesh && v->showcase_mode) {
        const showcase_view* sv = &v->sc;
        for (uint32_t a = 0; a < sv->actors_count; ++a) {
            const sw_showcase_actor act = sw_showcase_get_actor(sv->scene, a);
            const uint32_t mat =
                (uint32_t)act.material < SW_SHOWCASE_MATERIAL_COUNT ? (uint32_t)act.material : 0u;
            glUniform3fv(v->skin_color, 1, k_material_colors[mat]);
            for (uint32_t k = 0; k < sv->gpu_count[a]; ++k) {
                glBindTexture(GL_TEXTURE_2D, sv->gpu[a][k].palette_tex);
                glBindVertexArray(sv->gpu[a][k].vao);
                glDrawElements(GL_TRIANGLES, sv->gpu[a][k].index_count, GL_UNSIGNED_INT, 0);
            }
        }
    } else if (v->show_mesh && c->meshes_count > 0) {
        if (v->cpu_skin) glUniform1i(v->skin_mode, 2); /* skinned by gpu_cpu_skin */
        for (uint32_t i = 0; i < c->meshes_count; ++i) {
            const float hue = (float)i * 0.37f;
            glUniform3f(v->skin_color, 0.75f + 0.1f * sinf(hue), 0.62f + 0.1f * sinf(hue + 2.0f),
                        0.5f + 0.1f * sinf(hue + 4.0f));
            glBindTexture(GL_TEXTURE_2D, c->gpu[i].palette_tex);
            glBindVertexArray(v->cpu_skin ? c->gpu[i].cpu_vao : c->gpu[i].vao);
            glDrawElements(GL_TRIANGLES, c->gpu[i].index_count, GL_UNSIGNED_INT, 0);
        }
    }

    /* Lines drawn over everything: skeleton and targets. */
    glUseProgram(v->line_prog);
    glUniformMatrix4fv(v->line_view_proj, 1, GL_FALSE, v->view_proj.m);
    v->lines_count = 0;
    if (v->showcase_mode) {
        for (uint32_t a = 0; v->show_skeleton && a < v->sc.actors_count; ++a) {
            const sw_showcase_actor act = sw_showcase_get_actor(v->sc.scene, a);
            if (!act.skeleton || !act.model) continue;
            const int16_t* parents = sw_skeleton_parents(act.skeleton);
            for (uint32_t j = 0; j < act.skeleton->joints_count; ++j) {
                if (parents[j] < 0) continue;
                const sw_vec3 p = mat_pos(&act.model[parents[j]]), q = mat_pos(&act.model[j]);
                /* Some actors (caterpillar, targets) hang free parts under a
                 * root at the origin: those links are not bones. */
                const sw_vec3 d = v3_sub(q, p);
                if (parents[parents[j]] < 0 && v3_dot(d, d) > 1.0f) continue;
                push_line(p, q, v3(0.3f, 0.9f, 1.0f));
            }
        }
    } else if (c->skel && (v->show_skeleton || c->meshes_count == 0 || !v->show_mesh)) {
        const int16_t* parents = sw_skeleton_parents(c->skel);
        for (uint32_t j = 0; j < c->skel->joints_count; ++j) {
            if (parents[j] < 0) continue;
            push_line(mat_pos(&c->model[parents[j]]), mat_pos(&c->model[j]), v3(0.3f, 0.9f, 1.0f));
        }
    }
    const bool sc = v->showcase_mode;
    if (v->look_on && (sc || c->look_count > 0))
        push_cross(v->look_target, 0.06f, v3(1.0f, 0.85f, 0.2f));
    if (v->ik_on && (sc || c->has_arm)) push_cross(v->ik_target, 0.06f, v3(1.0f, 0.3f, 0.4f));
    if (v->lines_count > 0) {
        glDisable(GL_DEPTH_TEST);
        glUseProgram(v->line_prog);
        glBindBuffer(GL_ARRAY_BUFFER, v->lines_vbo);
        glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)(v->lines_count * 24u), v->lines, GL_STREAM_DRAW);
        glBindVertexArray(v->lines_vao);
        glDrawArrays(GL_LINES, 0, (GLsizei)v->lines_count);
    }
    glBindVertexArray(0);
}

/* ---------------------------------------------------------------- exports */

/* Creates the WebGL2 context on `canvas` (a CSS selector), the GL objects and
 * the default humanoid. Returns 0, or -1 (see viewer_error). */
EMSCRIPTEN_KEEPALIVE int viewer_init(const char* canvas) {
    viewer* v = &g_viewer;
    snprintf(v->canvas, sizeof v->canvas, "%s", canvas ? canvas : "#canvas");
    EmscriptenWebGLContextAttributes attr;
    emscripten_webgl_init_context_attributes(&attr);
    attr.majorVersion = 2;
    attr.minorVersion = 0;
    attr.antialias = true;
    attr.depth = true;
    v->gl = emscripten_webgl_create_context(v->canvas, &attr);
    if (v->gl <= 0) {
        snprintf(v->error, sizeof v->error, "WebGL2 is not available");
        return -1;
    }
    emscripten_webgl_make_context_current(v->gl);
    static const char* const captured[2] = {"v_skin_pos", "v_skin_nrm"};
    v->skin_prog = link_program(k_skin_vs, k_skin_fs, captured, 2);
    v->skin_view_proj = glGetUniformLocation(v->skin_prog, "u_view_proj");
    v->skin_world = glGetUniformLocation(v->skin_prog, "u_world");
    v->skin_palette = glGetUniformLocation(v->skin_prog, "u_palette");
    v->skin_color = glGetUniformLocation(v->skin_prog, "u_color");
    v->skin_mode = glGetUniformLocation(v->skin_prog, "u_skin");
    v->line_prog = link_program(k_line_vs, k_line_fs, NULL, 0);
    v->line_view_proj = glGetUniformLocation(v->line_prog, "u_view_proj");
    v->lines = malloc(sizeof(float) * 6u * VIEWER_MAX_LINES);
    v->status = malloc(VIEWER_STATUS_BYTES);
    if (!v->lines || !v->status) {
        snprintf(v->error, sizeof v->error, "out of memory");
        return -1;
    }
    build_grid();
    glGenVertexArrays(1, &v->lines_vao);
    glGenBuffers(1, &v->lines_vbo);
    setup_line_vao(v->lines_vao, v->lines_vbo);
    v->show_mesh = true;
    v->look_on = true;
    v->follow_mouse = true;
    v->yaw = 0.6f;
    v->pitch = 0.25f;
    if (!open_humanoid()) return -1;
    /* Without the scene the page still plays the humanoid. */
    if (!showcase_open(false, NULL)) printf("viewer: %s; showing the humanoid\n", v->error);
    return 0;
}

/* How many fixed steps (VIEWER_STEP each) this frame takes: the time given
 * (the browser's frame time, or a step asked for while paused) is added to
 * what is left over from earlier frames; beyond VIEWER_MAX_STEPS the rest
 * is dropped (a slow machine loses time instead of falling behind). */
static uint32_t fixed_steps(double dt) {
    viewer* v = &g_viewer;
    v->pending_time += dt;
    /* A step asked for as 1/30 s is two steps, not one and a remainder. */
    uint32_t n = (uint32_t)floor(v->pending_time / VIEWER_STEP + 1e-6);
    if (n > VIEWER_MAX_STEPS) {
        n = VIEWER_MAX_STEPS;
        v->pending_time = 0.0;
    } else {
        v->pending_time -= n * VIEWER_STEP;
        if (v->pending_time < 0.0) v->pending_time = 0.0;
    }
    return n;
}

/* The character: n fixed steps of its animator, then (once) mirroring,
 * local-to-model, the probe joints, the camera, the targets' IK, the morph
 * weights and the palettes. */
static bool character_frame(uint32_t n, float dt) {
    viewer* v = &g_viewer;
    character* c = &v->ch;
    /* Without a step the pose is evaluated again (the IK below works on it). */
    bool ok = n > 0 || animate(0.0f);
    for (uint32_t i = 0; ok && i < n; ++i)
        ok = animate((float)VIEWER_STEP);
    if (ok && v->mirrored && c->mirror) {
        const sw_mirror_job job = {.mirror = c->mirror,
                                   .in = c->pose,
                                   .in_count = c->skel->packets_count,
                                   .out = c->pose_m,
                                   .out_count = c->skel->packets_count};
        ok = sw_mirror_job_run(&job) == SW_RESULT_OK;
        if (ok) memcpy(c->pose, c->pose_m, c->skel->packets_count * sizeof(sw_xform4));
    }
    if (ok) ok = model_pass(c);
    if (ok && c->mirror_probe >= 0) {
        /* The probe and its twin before the targets' IK (the status shows
         * them), in the character's model space: where it stands taken off. */
        const uint32_t j = (uint32_t)c->mirror_probe;
        sw_mat4 inv;
        if (!sw_mat4_inverse_affine(&v->world, &inv)) inv = sw_mat4_identity();
        const sw_mat4 p = sw_mat4_mul(&inv, &c->model[j]);
        const sw_mat4 q = sw_mat4_mul(&inv, &c->model[sw_mirror_twin(c->mirror, j)]);
        v->probe_pos[0] = mat_pos(&p);
        v->probe_pos[1] = mat_pos(&q);
    }
    if (ok) follow_character(dt);
    if (!ok || !apply_ik(dt) || !update_morphs(c) || !update_palettes(c)) {
        snprintf(v->error, sizeof v->error, "a runtime job failed on %s", c->name);
        return false;
    }
    return true;
}

/* Advances the scene or the character by the frame's time dt (s, at most
 * 0.1; unless paused: then by the step asked for) in fixed steps of 1/60 s
 * (at most 6 per frame), as a game loop does, so the springs, ragdolls and
 * animators see the same steps whatever the browser's frame times; then
 * draws once. Returns 0, or -1 (see viewer_error). */
EMSCRIPTEN_KEEPALIVE int viewer_frame(double dt_in) {
    viewer* v = &g_viewer;
    if (!v->gl || (!v->showcase_mode && !v->ch.skel)) return -1;
    float dt = (float)dt_in;
    if (!(dt >= 0.0f) || dt > 0.1f) dt = dt > 0.1f ? 0.1f : 0.0f;
    if (v->paused) v->pending_time = 0.0; /* a step asked for is whole steps */
    const uint32_t n = fixed_steps(v->paused ? v->pending_step : dt);
    v->pending_step = 0.0f;
    v->clock += n * VIEWER_STEP;
    emscripten_get_canvas_element_size(v->canvas, &v->width, &v->height);
    update_camera();
    if (v->showcase_mode) {
        if (n == 0 && v->frames == 0 && !showcase_step(0.0f)) return -1;
        for (uint32_t i = 0; i < n; ++i)
            if (!showcase_step((float)VIEWER_STEP)) return -1;
        if (!showcase_upload()) return -1;
        showcase_camera();
    } else if (!character_frame(n, dt)) {
        return -1;
    }
    draw();
    ++v->frames;
    return 0;
}

/* Opens file bytes: a .sinew archive ("SINEWARC") or glTF 2.0 (.glb or
 * .gltf text with embedded buffers). Returns 0, or an sw_result. */
EMSCRIPTEN_KEEPALIVE int viewer_open(const uint8_t* data, uint32_t size, const char* name) {
    viewer* v = &g_viewer;
    v->error[0] = '\0';
    if (!data || size == 0) {
        set_error(name, SW_RESULT_INVALID_ARGUMENT, NULL);
        return SW_RESULT_INVALID_ARGUMENT;
    }
    /* On failure the view stays as it was. */
    if (size >= 8 && memcmp(data, "SINEWARC", 8) == 0) {
        if (!open_archive(data, size, name)) return SW_RESULT_BAD_DATA;
        v->showcase_mode = false;
        return 0;
    }
    sw_scene scene;
    sw_error err = {0};
    const sw_result r = sw_gltf_read(data, size, NULL, NULL, &scene, &err);
    if (r != SW_RESULT_OK) {
        set_error(name, r, &err);
        return (int)r;
    }
    if (scene.warning[0]) printf("viewer: %s: %s\n", name, scene.warning);
    if (!use_scene(&scene, name, false, NULL)) return SW_RESULT_OUT_OF_MEMORY;
    v->showcase_mode = false;
    return 0;
}

/* Switches to a built-in character: 0 the humanoid (its clips and its
 * locomotion blend), 1 the spider walking alone (the showcase's "spider"
 * actor by itself, steerable). Returns 0, or -1 (see viewer_error). */
EMSCRIPTEN_KEEPALIVE int viewer_builtin(int which) {
    g_viewer.error[0] = '\0';
    if (which == 1) return showcase_open(false, "spider") ? 0 : -1;
    g_viewer.showcase_mode = false;
    return open_humanoid() ? 0 : -1;
}

/* A steering key went down (down 1) or up (0): code 1 forward, 2 back,
 * 3 turn left, 4 turn right, 5 strafe left, 6 strafe right, 7 fast
 * (Shift). In the showcase the first key down takes the walker and the
 * spider off their circles (until the scene is reopened). Returns 0, or
 * -1 for an unknown code. */
EMSCRIPTEN_KEEPALIVE int viewer_key(int code, int down) {
    viewer* v = &g_viewer;
    if (code < 1 || code > 7) return -1;
    const uint32_t bit = 1u << (uint32_t)(code - 1);
    if (down) {
        v->keys |= bit;
        if (code != 7) v->steering = true;
    } else {
        v->keys &= ~bit;
    }
    return 0;
}

/* Opens an animator definition (the JSON `sinew play` takes) and binds it
 * to the character shown, in place of the clip blend; it stays loaded for
 * the next character opened (and binds to it when it can). Returns 0, or
 * -1 when it does not parse (see viewer_error); a definition that parses
 * but does not bind (a clip it names is missing) returns 1, with the
 * reason in the status's "animator_error". */
EMSCRIPTEN_KEEPALIVE int viewer_open_animator(const char* text, uint32_t size, const char* name) {
    viewer* v = &g_viewer;
    v->error[0] = '\0';
    if (!text || !workbench_load(&v->wb, text, size, name, v->error, sizeof v->error)) return -1;
    if (v->showcase_mode) {
        snprintf(v->wb_error, sizeof v->wb_error, "%s: open a character to play it on", name);
        return 1;
    }
    anim_build();
    return v->wb_bound ? 0 : 1;
}

/* Sets morph target k of the character's mesh i (the status's "morph"
 * list names them) to `value` in place of its animated weight; NaN gives
 * it back to the animation. Returns 0, or -1 in the showcase, for a mesh
 * or target out of range, or an infinite value. */
EMSCRIPTEN_KEEPALIVE int viewer_morph(int i, int k, double value) {
    const character* c = &g_viewer.ch;
    if (g_viewer.showcase_mode || i < 0 || (uint32_t)i >= c->meshes_count || k < 0 ||
        (uint32_t)k >= c->gpu[i].mesh->morph_targets_count || isinf(value))
        return -1;
    c->gpu[i].morph_set[k] = (float)value;
    return 0;
}

/* Drops the animator definition: the clip blend plays again. */
EMSCRIPTEN_KEEPALIVE void viewer_close_animator(void) {
    viewer* v = &g_viewer;
    workbench_free(&v->wb);
    v->wb_error[0] = '\0';
    if (!v->showcase_mode && v->ch.skel) anim_build();
}

/* Sets parameter i of the animator definition (the panel: a float, an int,
 * a bool or trigger as 0/1; a trigger stays set until a transition takes
 * it). Returns 0, or -1 without a definition, i out of range or a value
 * that is not finite. */
EMSCRIPTEN_KEEPALIVE int viewer_param(int i, double value) {
    workbench* wb = &g_viewer.wb;
    if (!wb->json.animator || i < 0 || (uint32_t)i >= sw_animator_params_count(wb->json.animator) ||
        !isfinite(value))
        return -1;
    wb->params[i] = (float)value;
    return 0;
}

/* Switches to the showcase scene: with_character 0 the built-in characters
 * (created on first use, then resumed), 1 a new scene whose humanoids are
 * the character last opened (its clips picked by name: idle, walk, jog or
 * run). Returns 0, or -1 (see viewer_error). */
EMSCRIPTEN_KEEPALIVE int viewer_showcase(int with_character) {
    g_viewer.error[0] = '\0';
    return showcase_open(with_character != 0, NULL) ? 0 : -1;
}

EMSCRIPTEN_KEEPALIVE const char* viewer_error(void) {
    return g_viewer.error;
}

/* Sets a named value: "speed", "blend", "paused", "step" (seconds, while
 * paused), "phase" (0..1), "clip_a", "clip_b" (index, -1 none), "skeleton",
 * "mesh", "look", "ik", "follow", the showcase's "foot" (foot placement and
 * foot lock), "sync" (phase sync) and "inertial" (inertialization instead
 * of crossfades), "dq" (dual quaternion skinning instead of linear blend),
 * "cpu_skin" (characters: the runtime's skin job on the CPU instead of the
 * vertex shader) (booleans as 0/1), "target" (0 look, 1 IK).
 * Returns 0, or -1 for an unknown name or a value out of range. */
EMSCRIPTEN_KEEPALIVE int viewer_set(const char* name, double value) {
    viewer* v = &g_viewer;
    character* c = &v->ch;
    const float f = (float)value;
    if (!(f == f)) return -1;
    const bool on = f != 0.0f;
    if (strcmp(name, "speed") == 0) {
        v->speed = f < 0.0f ? 0.0f : f;
        v->sc.speed_set = true;
    } else if (strcmp(name, "blend") == 0) {
        if (loco_on(v) || v->showcase_mode) return -1; /* picked by the speed */
        v->blend = f < 0.0f ? 0.0f : (f > 1.0f ? 1.0f : f);
    } else if (strcmp(name, "paused") == 0) {
        v->paused = on;
    } else if (strcmp(name, "step") == 0) {
        v->pending_step += f;
    } else if (strcmp(name, "phase") == 0) {
        v->phase = wrap01(f);
        if (c->anim_inst && sw_animator_seek(c->anim_inst, c->anim_bound, 0, v->phase)) return -1;
    } else if (strcmp(name, "clip_a") == 0 || strcmp(name, "clip_b") == 0) {
        const int i = (int)value;
        if (v->showcase_mode || i < -1 || i >= (int)c->clips_count) return -1;
        if (name[5] == 'a') {
            if (i < 0) return -1;
            v->clip_a = i;
        } else {
            v->clip_b = i;
        }
        /* A clip picked for the humanoid replaces its locomotion blend. */
        if (loco_on(v)) v->clip_b = name[5] == 'b' ? i : -1;
        v->loco_off = c->locomotion;
        v->blend = 0.0f;
        if (!anim_build()) return -1;
    } else if (strcmp(name, "locomotion") == 0) {
        /* The humanoid's locomotion blend by speed again (on) or its clips (off). */
        if (v->showcase_mode || !c->locomotion) return -1;
        v->loco_off = !on;
        if (on) v->clip_b = 1;
        if (!anim_build()) return -1;
    } else if (strcmp(name, "focus") == 0) {
        /* Showcase: the camera goes to actor i and follows it; -1 the scene. */
        const int i = (int)value;
        if (!v->showcase_mode || i < -1 || i >= (int)v->sc.actors_count) return -1;
        v->sc.focus = i;
        if (i < 0) {
            v->orbit_target = v->sc.center;
            v->distance = 0.75f * v->sc.extent + 4.0f;
        } else {
            const sw_showcase_actor act = sw_showcase_get_actor(v->sc.scene, (uint32_t)i);
            const sw_vec3 p = act.model ? mat_pos(&act.model[0]) : mat_pos(&act.world);
            v->orbit_target = v3(p.x, 0.9f, p.z);
            v->distance = 4.0f;
        }
    } else if (strcmp(name, "compressed") == 0) {
        if (v->showcase_mode) return -1;
        if (on && !character_compress(c)) return -1;
        c->use_packed = on;
        if (!anim_build()) return -1;
    } else if (strcmp(name, "dq") == 0) {
        v->dq = on;
    } else if (strcmp(name, "cpu_skin") == 0) {
        if (v->showcase_mode && on) return -1;
        v->cpu_skin = on;
    } else if (strcmp(name, "skeleton") == 0) {
        v->show_skeleton = on;
    } else if (strcmp(name, "mesh") == 0) {
        v->show_mesh = on;
    } else if (strcmp(name, "look") == 0) {
        v->look_on = on;
    } else if (strcmp(name, "ik") == 0) {
        v->ik_on = on;
    } else if (strcmp(name, "follow") == 0) {
        v->follow_mouse = on;
    } else if (strcmp(name, "target") == 0) {
        v->target_mode = on ? 1 : 0;
    } else if (strcmp(name, "mirrored") == 0) {
        if (v->showcase_mode || (on && !c->mirror)) return -1;
        v->mirrored = on;
    } else if (strcmp(name, "foot") == 0) {
        v->foot_off = !on;
    } else if (strcmp(name, "sync") == 0) {
        v->sync_off = !on;
    } else if (strcmp(name, "inertial") == 0) {
        v->inertial = on;
        v->hit_offset_max = 0.0f;
    } else {
        return -1;
    }
    return 0;
}

/* Orbit camera: drag by (dx, dy) pixels; zoom by a factor. */
EMSCRIPTEN_KEEPALIVE void viewer_orbit(double dx, double dy) {
    viewer* v = &g_viewer;
    v->yaw -= (float)dx * 0.008f;
    v->pitch += (float)dy * 0.008f;
    if (v->pitch > 1.45f) v->pitch = 1.45f;
    if (v->pitch < -0.2f) v->pitch = -0.2f;
}

EMSCRIPTEN_KEEPALIVE void viewer_zoom(double factor) {
    viewer* v = &g_viewer;
    if (!(factor > 0.0)) return;
    v->distance *= (float)factor;
    if (v->distance < 0.3f) v->distance = 0.3f;
    if (v->distance > 60.0f) v->distance = 60.0f;
}

/* The mouse at canvas pixel (x, y): kind 0 hover (moves the active target
 * when follow is on), 1 click (always moves it). The target lies where the
 * camera ray meets a vertical plane facing the camera, 0.5 m in front of
 * the character's axis. Returns 1 when a target moved. */
EMSCRIPTEN_KEEPALIVE int viewer_pointer(double x, double y, int kind) {
    viewer* v = &g_viewer;
    if (kind == 0 && !v->follow_mouse) return 0;
    if (v->width <= 0 || v->height <= 0) return 0;
    sw_mat4 inv;
    if (!sw_mat4_inverse(&v->view_proj, &inv)) return 0;
    const float nx = 2.0f * (float)x / (float)v->width - 1.0f;
    const float ny = 1.0f - 2.0f * (float)y / (float)v->height;
    const float near4[4] = {nx, ny, -1.0f, 1.0f}, far4[4] = {nx, ny, 1.0f, 1.0f};
    float pn[4] = {0}, pf[4] = {0};
    for (int r = 0; r < 4; ++r)
        for (int k = 0; k < 4; ++k) {
            pn[r] += inv.m[k * 4 + r] * near4[k];
            pf[r] += inv.m[k * 4 + r] * far4[k];
        }
    if (fabsf(pn[3]) < 1e-12f || fabsf(pf[3]) < 1e-12f) return 0;
    const sw_vec3 a = v3(pn[0] / pn[3], pn[1] / pn[3], pn[2] / pn[3]);
    const sw_vec3 b = v3(pf[0] / pf[3], pf[1] / pf[3], pf[2] / pf[3]);
    const sw_vec3 dir = v3_norm(v3_sub(b, a));
    sw_vec3 n = v3_norm(v3(v->eye.x - v->orbit_target.x, 0.0f, v->eye.z - v->orbit_target.z));
    if (v3_dot(n, n) < 0.5f) n = v3(0.0f, 0.0f, 1.0f);
    sw_vec3 base = v3(0.0f, 0.0f, 0.0f);
    if (v->showcase_mode && v->sc.reach >= 0) {
        const sw_showcase_actor reach = sw_showcase_get_actor(v->sc.scene, (uint32_t)v->sc.reach);
        base = mat_pos(&reach.world);
    } else if (v->showcase_mode) {
        base = v->sc.center;
    } else {
        base = v->orbit_target;
    }
    base.y = 0.0f;
    const float ahead = v->showcase_mode ? 0.5f : 0.3f * v->ch.height;
    const sw_vec3 p0 = v3_add(base, v3_scale(n, ahead));
    const float den = v3_dot(dir, n);
    if (fabsf(den) < 1e-6f) return 0;
    const float t = v3_dot(v3_sub(p0, a), n) / den;
    if (!(t > 0.0f)) return 0;
    sw_vec3 hit = v3_add(a, v3_scale(dir, t));
    if (hit.y < 0.0f) hit.y = 0.0f;
    if (v->target_mode == 1)
        v->ik_target = hit;
    else
        v->look_target = hit;
    return 1;
}

#define STATUS_PUT(...)                                                                            \
    do {                                                                                           \
        const int w_ = snprintf(o + n, n < cap ? cap - n : 0, __VA_ARGS__);                        \
        n += w_ > 0 ? (size_t)w_ : 0u;                                                             \
    } while (0)

/* Canvas pixel of world point p through the view (x, y; z < 0 behind the camera). */
static sw_vec3 project(const viewer* v, sw_vec3 p) {
    const float* m = v->view_proj.m;
    const float x = m[0] * p.x + m[4] * p.y + m[8] * p.z + m[12];
    const float y = m[1] * p.x + m[5] * p.y + m[9] * p.z + m[13];
    const float w = m[3] * p.x + m[7] * p.y + m[11] * p.z + m[15];
    if (!(w > 1e-6f)) return v3(0.0f, 0.0f, -1.0f);
    return v3((x / w + 1.0f) * 0.5f * (float)v->width, (1.0f - y / w) * 0.5f * (float)v->height,
              1.0f);
}

/* Every actor's place (its root joint in the world and its heading, from
 * +Z about +Y) and the canvas pixel of its label, above its highest joint
 * over the middle of its joints ([x, y, 1], or [0, 0, 0] behind the camera). */
static size_t status_actors(const viewer* v, char* o, size_t cap, size_t n) {
    const showcase_view* sv = &v->sc;
    STATUS_PUT("\"places\":[");
    for (uint32_t a = 0; a < sv->actors_count; ++a) {
        const sw_showcase_actor act = sw_showcase_get_actor(sv->scene, a);
        const sw_vec3 p = act.model ? mat_pos(&act.model[0]) : mat_pos(&act.world);
        STATUS_PUT("%s[%.4f,%.4f,%.4f,%.5f]", a ? "," : "", (double)p.x, (double)p.y, (double)p.z,
                   (double)atan2f(act.world.m[8], act.world.m[10]));
    }
    STATUS_PUT("],\"labels\":[");
    for (uint32_t a = 0; a < sv->actors_count; ++a) {
        const sw_showcase_actor act = sw_showcase_get_actor(sv->scene, a);
        /* over the middle of its joints (actors that hang parts under a
         * root at the origin, like the caterpillar, included) */
        sw_vec3 top = act.model ? mat_pos(&act.model[0]) : mat_pos(&act.world);
        const uint32_t joints = act.skeleton && act.model ? act.skeleton->joints_count : 0u;
        sw_vec3 sum = v3(0.0f, 0.0f, 0.0f);
        for (uint32_t j = 0; j < joints; ++j) {
            sum = v3_add(sum, mat_pos(&act.model[j]));
            top.y = fmaxf(top.y, act.model[j].m[13]);
        }
        if (joints > 0) top = v3(sum.x / (float)joints, top.y, sum.z / (float)joints);
        const sw_vec3 px = project(v, v3(top.x, top.y + 0.15f, top.z));
        STATUS_PUT("%s[%.1f,%.1f,%d]", a ? "," : "", (double)px.x, (double)px.y, px.z > 0.0f);
    }
    STATUS_PUT("],\"steering\":%s,", v->steering ? "true" : "false");
    return n;
}

/* The showcase's part of the status: actors, metrics, toggles, scene
 * status, the ragdolls and the walker; appended at o + n (cap bytes at
 * most), returns the new length. */
static size_t status_showcase(const viewer* v, char* o, size_t cap, size_t n) {
    const showcase_view* sv = &v->sc;
    uint32_t joints = 0, meshes = 0;
    STATUS_PUT("\"showcase\",\"scene_character\":");
    n += viewer_json_string(o + n, cap - n, sv->custom ? v->ch.name : "sinew_humanoid");
    STATUS_PUT(",\"actors\":[");
    for (uint32_t a = 0; a < sv->actors_count; ++a) {
        const sw_showcase_actor act = sw_showcase_get_actor(sv->scene, a);
        if (a) STATUS_PUT(",");
        n += viewer_json_string(o + n, cap - n, act.name ? act.name : "");
        joints += act.skeleton ? act.skeleton->joints_count : 0u;
        meshes += act.meshes_count;
    }
    const sw_showcase_metrics* m = sw_showcase_get_metrics(sv->scene);
    STATUS_PUT("],\"joints\":%u,\"meshes\":%u,\"clips\":[],\"locomotion\":false,"
               "\"clip_a\":-1,\"clip_b\":-1,\"blend\":0,\"speed\":%.4f,\"phase\":0,"
               "\"time\":%.4f,\"duration\":0,\"paused\":%s,\"frames\":%llu,"
               "\"focus\":%d,\"features\":%u,\"metrics\":{\"updates\":%u,\"hits\":%u,"
               "\"locomotion_steps\":%u,\"locomotion_slide_max\":%.5f},",
               joints, meshes, (double)v->speed, sw_showcase_time(sv->scene),
               v->paused ? "true" : "false", (unsigned long long)v->frames, sv->focus,
               m ? m->features : 0u, m ? m->updates : 0u, m ? m->hits : 0u,
               m ? m->locomotion_steps : 0u, m ? (double)m->locomotion_slide_max : 0.0);
    const sw_showcase_status st = sw_showcase_get_status(sv->scene);
    STATUS_PUT("\"toggles\":{\"foot\":%s,\"sync\":%s,\"inertial\":%s},"
               "\"scene_status\":{\"reach_foot_gap\":%.5f,\"lock_weight\":%.4f,"
               "\"phase_spread\":%.5f,\"hit_states\":%u,\"hit_crossfade_updates\":%u,"
               "\"hit_offset\":%.5f,\"hit_offset_max\":%.5f,\"foot_penetration_max\":%.5f},",
               v->foot_off ? "false" : "true", v->sync_off ? "false" : "true",
               v->inertial ? "true" : "false", (double)st.reach_foot_gap,
               (double)st.locomotion_lock_weight, (double)st.locomotion_phase_spread, st.hit_states,
               st.hit_crossfade_updates, (double)st.hit_offset, (double)v->hit_offset_max,
               m ? (double)m->foot_penetration_max : 0.0);
    /* the ragdoll actors (ODE in the wasm build) and their figures */
    const bool physics = sv->powered >= 0 && sv->knockdown >= 0 && m;
    STATUS_PUT("\"ragdoll\":{\"physics\":%s", physics ? "true" : "false");
    if (physics) {
        const sw_showcase_actor pw = sw_showcase_get_actor(sv->scene, (uint32_t)sv->powered);
        const sw_showcase_actor kd = sw_showcase_get_actor(sv->scene, (uint32_t)sv->knockdown);
        const sw_vec3 ph = mat_pos(&pw.model[0]), kh = mat_pos(&kd.model[0]);
        STATUS_PUT(",\"phase\":%u,\"impulses\":%u,\"tracking_error_mean\":%.5f,"
                   "\"tracking_error_max\":%.5f,\"knockdowns\":%u,\"getups_face_up\":%u,"
                   "\"getups_face_down\":%u,\"getups_done\":%u,\"settle_time_last\":%.4f,"
                   "\"settle_time_max\":%.4f,\"getup_velocity_jump_max\":%.5f,"
                   "\"getup_clip_noise_max\":%.5f,\"powered_hips\":[%.4f,%.4f,%.4f],"
                   "\"knockdown_hips\":[%.4f,%.4f,%.4f]",
                   st.knockdown_phase, m->ragdoll_impulses, (double)m->ragdoll_tracking_error_mean,
                   (double)m->ragdoll_tracking_error_max, m->knockdowns, m->getups_face_up,
                   m->getups_face_down, m->getups_done, (double)m->settle_time_last,
                   (double)m->settle_time_max, (double)m->getup_velocity_jump_max,
                   (double)m->getup_clip_noise_max, (double)ph.x, (double)ph.y, (double)ph.z,
                   (double)kh.x, (double)kh.y, (double)kh.z);
    }
    STATUS_PUT("},");
    n = status_actors(v, o, cap, n);
    if (sv->locomotion >= 0)
        STATUS_PUT("\"walker\":{\"speed\":%.4f,\"goal\":%.4f,\"override\":%s},",
                   (double)sv->walker_speed, (double)v->speed, sv->speed_set ? "true" : "false");
    return n;
}

/* The loaded character's part of the status: clips and playback, mirror,
 * compression and the walker's blend; as status_showcase. */
/* "morph": the meshes with targets: index, name, target names, the weights
 * applied and the panel's settings (null: as animated). */
static size_t status_morphs(const character* c, char* o, size_t cap, size_t n) {
    STATUS_PUT("\"morph\":[");
    bool first = true;
    for (uint32_t i = 0; i < c->meshes_count && n < cap - 2000; ++i) {
        const gpu_mesh* g = &c->gpu[i];
        const uint32_t t = g->mesh->morph_targets_count;
        if (t == 0) continue;
        STATUS_PUT("%s{\"mesh\":%u,\"name\":", first ? "" : ",", i);
        first = false;
        n += viewer_json_string(o + n, cap - n, sw_mesh_name(g->mesh));
        STATUS_PUT(",\"targets\":[");
        for (uint32_t k = 0; k < t && n < cap - 1000; ++k) {
            if (k) STATUS_PUT(",");
            n += viewer_json_string(o + n, cap - n, sw_mesh_morph_name(g->mesh, k));
        }
        STATUS_PUT("],\"weights\":[");
        for (uint32_t k = 0; k < t && n < cap - 1000; ++k)
            STATUS_PUT("%s%.5f", k ? "," : "", (double)g->morph_w[k]);
        STATUS_PUT("],\"set\":[");
        for (uint32_t k = 0; k < t && n < cap - 1000; ++k)
            if (isfinite(g->morph_set[k]))
                STATUS_PUT("%s%.5f", k ? "," : "", (double)g->morph_set[k]);
            else
                STATUS_PUT("%snull", k ? "," : "");
        STATUS_PUT("]}");
    }
    STATUS_PUT("],");
    return n;
}

static size_t status_character(const viewer* v, char* o, size_t cap, size_t n) {
    const character* c = &v->ch;
    n += viewer_json_string(o + n, cap - n, c->name);
    STATUS_PUT(",\"joints\":%u,\"meshes\":%u,\"clips\":[", c->skel ? c->skel->joints_count : 0u,
               c->meshes_count);
    for (uint32_t i = 0; i < c->clips_count && n < cap - 600; ++i) {
        if (i) STATUS_PUT(",");
        n += viewer_json_string(o + n, cap - n, sw_clip_name(c->clips[i]));
    }
    const float dur = v->clip_a >= 0 ? c->clips[v->clip_a]->duration : 0.0f;
    STATUS_PUT("],\"locomotion\":%s,\"locomotion_available\":%s,"
               "\"place\":[%.4f,%.4f,%.4f,%.5f],\"grid_cell\":%g,\"clip_a\":%d,\"clip_b\":%d,"
               "\"blend\":%.4f,"
               "\"speed\":%.4f,\"phase\":%.5f,\"time\":%.5f,\"duration\":%.5f,\"paused\":%s,"
               "\"frames\":%llu,",
               loco_on(v) ? "true" : "false", c->locomotion ? "true" : "false", (double)v->place.x,
               (double)v->place.y, (double)v->place.z, (double)v->heading, (double)v->grid_cell,
               v->clip_a, v->clip_b, (double)v->blend, (double)v->speed, (double)v->phase,
               (double)v->time_a, (double)dur, v->paused ? "true" : "false",
               (unsigned long long)v->frames);
    STATUS_PUT("\"mirror\":{\"on\":%s,\"available\":%s,\"pairs\":%u,\"axis\":%u,"
               "\"probe\":",
               v->mirrored && c->mirror ? "true" : "false", c->mirror ? "true" : "false",
               c->mirror ? c->mirror->pairs_count : 0u, c->mirror ? c->mirror->axis : 0u);
    const int32_t pj = c->mirror_probe;
    n += viewer_json_string(o + n, cap - n,
                            pj >= 0 ? sw_skeleton_joint_name(c->skel, (uint32_t)pj) : "");
    STATUS_PUT(",\"twin\":");
    n += viewer_json_string(
        o + n, cap - n,
        pj >= 0 ? sw_skeleton_joint_name(c->skel, sw_mirror_twin(c->mirror, (uint32_t)pj)) : "");
    STATUS_PUT(",\"probe_pos\":[%.5f,%.5f,%.5f],\"twin_pos\":[%.5f,%.5f,%.5f]},",
               (double)v->probe_pos[0].x, (double)v->probe_pos[0].y, (double)v->probe_pos[0].z,
               (double)v->probe_pos[1].x, (double)v->probe_pos[1].y, (double)v->probe_pos[1].z);
    STATUS_PUT("\"compressed\":{\"on\":%s,\"raw_bytes\":%llu,\"bytes\":%llu,"
               "\"max_error\":%.6f},",
               c->use_packed ? "true" : "false", (unsigned long long)c->raw_bytes,
               (unsigned long long)c->packed_bytes, (double)c->packed_error);
    n = status_morphs(c, o, cap, n);
    n = workbench_status(&v->wb, v->wb_bound ? c->anim_inst : NULL,
                         v->wb_bound ? c->anim_bound : NULL, o, cap, n);
    STATUS_PUT("\"animator_error\":");
    n += viewer_json_string(o + n, cap - n, v->wb_error);
    STATUS_PUT(",");
    if (loco_on(v)) {
        STATUS_PUT("\"walker\":{\"speed\":%.4f,\"weights\":[%.4f,%.4f,%.4f,%.4f],"
                   "\"speeds\":[%.4f,%.4f,%.4f,%.4f]},",
                   (double)v->loco_speed, (double)v->loco_weights[0], (double)v->loco_weights[1],
                   (double)v->loco_weights[2], (double)v->loco_weights[3], (double)c->speeds[0],
                   (double)c->speeds[1], (double)c->speeds[2], (double)c->speeds[3]);
    }
    return n;
}

/* The state as JSON text for the page (valid until the next call). */
EMSCRIPTEN_KEEPALIVE const char* viewer_status(void) {
    viewer* v = &g_viewer;
    const character* c = &v->ch;
    char* o = v->status;
    const size_t cap = VIEWER_STATUS_BYTES - 256;
    size_t n = 0;
    STATUS_PUT("{\"mode\":\"%s\",\"character\":", v->showcase_mode ? "showcase" : "character");
    n = v->showcase_mode ? status_showcase(v, o, cap, n) : status_character(v, o, cap, n);
    /* The look target's canvas pixel, where its marker is drawn (as the
     * actors' labels: [x, y, 1], or [0, 0, 0] behind the camera). */
    const sw_vec3 look_px = project(v, v->look_target);
    STATUS_PUT("\"look\":{\"on\":%s,\"available\":%s,\"target\":[%.4f,%.4f,%.4f],"
               "\"pixel\":[%.1f,%.1f,%d]},"
               "\"ik\":{\"on\":%s,\"available\":%s,\"target\":[%.4f,%.4f,%.4f]},"
               "\"target_mode\":%d,\"clock\":%.4f,\"follow\":%s,\"skeleton\":%s,\"mesh\":%s,"
               "\"skinning\":\"%s\",\"cpu_skin\":%s,\"error\":",
               v->look_on ? "true" : "false", v->showcase_mode || c->look_count ? "true" : "false",
               (double)v->look_target.x, (double)v->look_target.y, (double)v->look_target.z,
               (double)look_px.x, (double)look_px.y, look_px.z > 0.0f, v->ik_on ? "true" : "false",
               v->showcase_mode || c->has_arm ? "true" : "false", (double)v->ik_target.x,
               (double)v->ik_target.y, (double)v->ik_target.z, v->target_mode, v->clock,
               v->follow_mouse ? "true" : "false", v->show_skeleton ? "true" : "false",
               v->show_mesh ? "true" : "false", v->dq ? "dq" : "lbs",
               v->cpu_skin ? "true" : "false");
    n += viewer_json_string(o + n, VIEWER_STATUS_BYTES - n - 2, v->error);
    o[n++] = '}';
    o[n] = '\0';
    return o;
}

/* Self-check of the SIMD kernels as compiled here (-msimd128: the wasm128
 * path): every SoA kernel on the fastest path against the scalar reference
 * on random data, with the comparison and tolerances tests/unit/test_soa.c
 * applies to the native paths (src/runtime/simd/soa_check.c, library sinew_soa_check). Returns JSON
 * text (static, valid until the next call): {"path", "worst" (largest difference as a fraction of
 * test_soa.c's tolerance: <= 1 agrees), "max_abs_diff", "exact" (share of bit-identical values),
 * "kernels": {name: [worst, max_abs_diff]}}. */
EMSCRIPTEN_KEEPALIVE const char* viewer_simd_check(void) {
    static char text[1024];
    const char* path = NULL;
    sw_soa_diff d[SW_SOA_CHECK_KERNELS];
    const double worst = sw_soa_check_best(2026u, 200u, d, &path);
    double max_abs = 0.0;
    uint64_t values = 0, exact = 0;
    for (int k = 0; k < SW_SOA_CHECK_KERNELS; ++k) {
        max_abs = fmax(max_abs, d[k].max_abs);
        values += d[k].values;
        exact += d[k].exact;
    }
    char* o = text;
    const size_t cap = sizeof(text);
    size_t n = 0;
    STATUS_PUT("{\"path\":\"%s\",\"worst\":%.6g,\"max_abs_diff\":%.6g,\"exact\":%.4f,"
               "\"kernels\":{",
               path, worst, max_abs, values ? (double)exact / (double)values : 0.0);
    for (int k = 0; k < SW_SOA_CHECK_KERNELS; ++k)
        STATUS_PUT("%s\"%s\":[%.6g,%.6g]", k ? "," : "", sw_soa_check_kernel_name(k), d[k].worst,
                   d[k].max_abs);
    STATUS_PUT("}}");
    return text;
}

/* Largest difference between the vertex shader's skinning and the
 * runtime's skin job over one mesh (gpu: 6 floats per vertex from
 * gpu_capture; pos, nrm: sw_skin_job's); d[0] position (model units), d[1]
 * squared positions summed, d[2] normal angle (radians, over non-zero
 * normals), d[3] the vertex of d[0]; lo, hi grow to the positions' bounds. */
static void skin_diff(const float* gpu, const float* pos, const float* nrm, uint32_t count,
                      double d[4], sw_vec3* lo, sw_vec3* hi) {
    for (uint32_t i = 0; i < count; ++i) {
        const float* q = gpu + 6u * i;
        const sw_vec3 p = v3(pos[3 * i], pos[3 * i + 1], pos[3 * i + 2]);
        const sw_vec3 e = v3_sub(v3(q[0], q[1], q[2]), p);
        const double e2 = sqrt((double)v3_dot(e, e)), dp = isfinite(e2) ? e2 : 1e30;
        if (dp > d[0]) d[0] = dp, d[3] = i;
        d[1] += dp * dp;
        *lo = v3(fminf(lo->x, p.x), fminf(lo->y, p.y), fminf(lo->z, p.z));
        *hi = v3(fmaxf(hi->x, p.x), fmaxf(hi->y, p.y), fmaxf(hi->z, p.z));
        /* the angle from the cross and dot products in double: acos of a
         * float dot product would not resolve angles under 1e-3 rad */
        const double a[3] = {q[3], q[4], q[5]}, b[3] = {nrm[3 * i], nrm[3 * i + 1], nrm[3 * i + 2]};
        const double la = sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
        const double lb = sqrt(b[0] * b[0] + b[1] * b[1] + b[2] * b[2]);
        if (lb == 0.0) continue;
        const double cx = a[1] * b[2] - a[2] * b[1], cy = a[2] * b[0] - a[0] * b[2],
                     cz = a[0] * b[1] - a[1] * b[0];
        const double sn = sqrt(cx * cx + cy * cy + cz * cz) / (la * lb);
        const double cs = (a[0] * b[0] + a[1] * b[1] + a[2] * b[2]) / (la * lb);
        const double angle = la > 0.0 && isfinite(sn + cs) ? atan2(sn, cs) : VIEWER_PI;
        if (angle > d[2]) d[2] = angle;
    }
}

/* Compares the vertex shader's skinning with the runtime's CPU skin job on
 * the character's meshes as last posed, in the current mode (linear blend,
 * or dual quaternion with "dq"): the shader's model-space positions and
 * normals captured by transform feedback (gpu_capture) against
 * sw_skin_job_run on the same inputs (gpu_skin_job). Returns JSON text
 * (static, valid until the next call): {"skinning", "meshes", "vertices",
 * "diagonal" (of the skinned positions' bounds), "max_pos_diff" and
 * "rms_pos_diff" (model units), "worst" ([mesh, vertex] of the largest),
 * "max_normal_angle" (radians)}, or {"error": "..."}. */
EMSCRIPTEN_KEEPALIVE const char* viewer_skin_compare(void) {
    static char text[512];
    viewer* v = &g_viewer;
    const character* c = &v->ch;
    if (v->showcase_mode || c->meshes_count == 0) {
        snprintf(text, sizeof text, "{\"error\":\"no character mesh\"}");
        return text;
    }
    double worst[4] = {0.0, 0.0, 0.0, 0.0}, wmesh = 0.0;
    uint64_t vertices = 0;
    sw_vec3 lo = v3(INFINITY, INFINITY, INFINITY), hi = v3(-INFINITY, -INFINITY, -INFINITY);
    for (uint32_t i = 0; i < c->meshes_count; ++i) {
        const gpu_mesh* g = &c->gpu[i];
        const uint32_t n = g->mesh->vertices_count;
        float* gpu = malloc(24u * (size_t)n + 1u);
        float* cpu = malloc(24u * (size_t)n + 1u);
        const sw_skin_job job = gpu_skin_job(g, cpu, cpu ? cpu + 3u * (size_t)n : NULL);
        const bool ok = gpu && cpu && sw_skin_job_run(&job) == SW_RESULT_OK;
        double d[4] = {0.0, 0.0, 0.0, 0.0};
        if (ok) {
            gpu_capture(g, gpu);
            skin_diff(gpu, cpu, cpu + 3u * (size_t)n, n, d, &lo, &hi);
        }
        free(gpu);
        free(cpu);
        if (!ok) {
            snprintf(text, sizeof text, "{\"error\":\"the skin job failed on mesh %u\"}", i);
            return text;
        }
        if (d[0] > worst[0] || i == 0) worst[0] = d[0], worst[3] = d[3], wmesh = i;
        worst[1] += d[1];
        worst[2] = fmax(worst[2], d[2]);
        vertices += n;
    }
    const sw_vec3 span = v3_sub(hi, lo);
    snprintf(text, sizeof text,
             "{\"skinning\":\"%s\",\"meshes\":%u,\"vertices\":%llu,\"diagonal\":%.6g,"
             "\"max_pos_diff\":%.6g,\"rms_pos_diff\":%.6g,\"worst\":[%.0f,%.0f],"
             "\"max_normal_angle\":%.6g}",
             v->dq ? "dq" : "lbs", c->meshes_count, (unsigned long long)vertices,
             sqrt((double)v3_dot(span, span)), worst[0],
             vertices ? sqrt(worst[1] / (double)vertices) : 0.0, wmesh, worst[3], worst[2]);
    return text;
}

int main(void) {
    return 0;
}
