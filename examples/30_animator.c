/* 30_animator: an animator defined in C over two CMU captures.
 *
 *     example_30_animator [A.bvh] [B.bvh]
 *
 * Defaults: Debian's CMU walks 01_01.bvh and 01_03.bvh (same skeleton). The
 * animator has a 1D blend space between the two clips (parameter "blend",
 * driven by the randomized idle controller), a one-shot state playing the
 * second clip once on a trigger, and root motion from the "Hips" joint. It
 * runs 4 seconds at 30 fps and prints the playing clips, the root motion
 * accumulated into a character position, and the events. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sinew/animator/animator.h"
#include "sinew/tools/readers/bvh.h"

static int load(const char* path, const char* name, sw_bvh_result* out) {
    sw_bvh_options opt;
    memset(&opt, 0, sizeof opt);
    opt.scale = 0.056444f; /* CMU units to metres */
    opt.clip_name = name;
    sw_error err;
    memset(&err, 0, sizeof err);
    sw_result r = sw_bvh_read_file(path, &opt, NULL, out, &err);
    if (r != SW_RESULT_OK) {
        fprintf(stderr, "%s: %s (%s)\n", path, sw_result_str(r), err.check ? err.check : "");
        return 1;
    }
    return 0;
}

/* The definition: parameters, a blend space, one machine, one layer.
 * NULL after printing the failure. */
static const sw_animator* make_definition(void) {
    const sw_animator_param_desc params[] = {
        {"blend", SW_ANIMATOR_PARAM_TYPE_FLOAT, 0.0f},
        {"once", SW_ANIMATOR_PARAM_TYPE_TRIGGER, 0.0f},
    };
    const sw_animator_member_desc members[] = {{"A", 0.0f, 0.0f}, {"B", 1.0f, 0.0f}};
    const sw_animator_blend_space_desc spaces[] = {
        {"mix", "blend", NULL, members, 2, NULL, 0, false}};
    const sw_animator_state_desc states[] = {
        {"Mix", SW_ANIMATOR_MOTION_BLEND_SPACE, "mix", false, 0.0f, NULL},
        {"OneShot", SW_ANIMATOR_MOTION_CLIP, "B", true, 1.5f, NULL},
    };
    const sw_animator_condition_desc on_trigger[] = {{"once", SW_ANIMATOR_OP_TRIGGER, 0.0f}};
    const sw_animator_transition_desc transitions[] = {
        {.from = "Mix",
         .to = "OneShot",
         .conditions = on_trigger,
         .conditions_count = 1,
         .duration = 0.3f,
         .mode = SW_ANIMATOR_TRANSITION_MODE_INERTIALIZE,
         .interrupt = SW_ANIMATOR_INTERRUPT_NONE},
        {.from = "OneShot",
         .to = "Mix",
         .has_exit_time = true,
         .exit_time = 0.9f,
         .duration = 0.4f,
         .mode = SW_ANIMATOR_TRANSITION_MODE_CROSSFADE,
         .interrupt = SW_ANIMATOR_INTERRUPT_NONE},
    };
    const sw_animator_machine_desc machines[] = {{"Main", states, 2, transitions, 2, NULL}};
    const sw_animator_layer_desc layers[] = {{"base", "Main", SW_ANIMATOR_LAYER_MODE_DEFAULT, 0.0f,
                                              NULL, NULL, 0, SW_ANIMATOR_REFERENCE_DEFAULT}};
    const sw_animator_desc desc = {.params = params,
                                   .params_count = 2,
                                   .blend_spaces = spaces,
                                   .blend_spaces_count = 1,
                                   .machines = machines,
                                   .machines_count = 1,
                                   .layers = layers,
                                   .layers_count = 1,
                                   .root_motion_joint = "Hips"};
    const sw_animator* def = NULL;
    sw_error err;
    memset(&err, 0, sizeof err);
    sw_result r = sw_animator_create(&desc, NULL, &def, &err);
    if (r != SW_RESULT_OK) {
        fprintf(stderr, "animator: %s (%s)\n", sw_result_str(r), err.check);
        return NULL;
    }
    return def;
}

/* One line: time, parameter, position, the playing clips and the events. */
static void print_frame(const sw_animator_instance* inst, const sw_animator_bound* bound,
                        const sw_animator* def, float t, float blend, const float pos[3],
                        const sw_animator_event* events, uint32_t events_count) {
    sw_animator_contribution playing[8];
    uint32_t n = sw_animator_contributions(inst, bound, playing, 8);
    printf("%5.2f s  blend %.2f  at (%6.3f, %6.3f) heading %6.3f |", (double)t, (double)blend,
           (double)pos[0], (double)pos[1], (double)pos[2]);
    for (uint32_t i = 0; i < n && i < 8; ++i) {
        printf(" %s %.2f@%.2f", sw_animator_clip_name(def, playing[i].clip),
               (double)playing[i].weight, (double)playing[i].phase);
    }
    for (uint32_t i = 0; i < events_count && i < 8; ++i) {
        printf(" [%s %s]", events[i].kind == SW_ANIMATOR_EVENT_KIND_FINISHED ? "finished" : "enter",
               events[i].name);
    }
    printf("\n");
}

/* One character over 4 s: instance, scratch, pose and parameters, the
 * root motion accumulated into a position (x, z) and heading. */
static void run(const sw_animator* def, const sw_animator_bound* bound, const sw_skeleton* skel) {
    size_t inst_size = sw_animator_instance_size(bound);
    size_t scratch_size = sw_animator_scratch_size(bound);
    void* inst_mem = sw_alloc(NULL, inst_size, 16);
    void* scratch = sw_alloc(NULL, scratch_size, 16);
    sw_xform4* pose = (sw_xform4*)sw_alloc(NULL, sizeof(sw_xform4) * skel->packets_count, 16);
    sw_animator_instance* inst = NULL;
    sw_animator_instance_init(inst_mem, inst_size, bound, &inst);
    float values[2];
    sw_animator_params_reset(def, values, 2);

    /* "blend" wanders between the two walks, never the same way twice. */
    const sw_animator_idle_channel wander[] = {{0, 0.0f, 1.0f, 0.3f, 1.0f, 0.2f, 0.8f}};
    sw_animator_idle idle;
    sw_animator_idle_init(&idle, wander, 1, 2024);

    float pos[3] = {0.0f, 0.0f, 0.0f}; /* x, z, heading */
    const float dt = 1.0f / 30.0f;
    for (int frame = 0; frame < 120; ++frame) {
        if (frame == 60) values[1] = 1.0f; /* trigger the one-shot */
        sw_animator_idle_update(&idle, values, 2, dt);
        sw_animator_event events[8];
        uint32_t events_count = 0;
        sw_animator_root_motion rm;
        sw_animator_update(inst, bound, values, 2, dt, events, 8, &events_count, &rm);
        sw_animator_evaluate(inst, bound, scratch, scratch_size, pose, skel->packets_count);
        /* move the character by the root motion, in its own frame */
        float c = cosf(pos[2]), s = sinf(pos[2]);
        pos[0] += c * rm.translation.x + s * rm.translation.z;
        pos[1] += -s * rm.translation.x + c * rm.translation.z;
        pos[2] += rm.yaw;
        if (frame % 10 == 0 || events_count > 0)
            print_frame(inst, bound, def, (float)frame * dt, values[0], pos, events, events_count);
    }
    sw_free(NULL, pose, sizeof(sw_xform4) * skel->packets_count);
    sw_free(NULL, scratch, scratch_size);
    sw_free(NULL, inst_mem, inst_size);
}

int main(int argc, char** argv) {
    const char* pa = argc > 1 ? argv[1] : "/usr/share/assimp/models/BVH/01_01.bvh";
    const char* pb = argc > 2 ? argv[2] : "/usr/share/assimp/models/BVH/01_03.bvh";
    sw_bvh_result a, b;
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    const sw_animator* def = NULL;
    int rc = load(pa, "A", &a) || load(pb, "B", &b) || !(def = make_definition());
    if (rc == 0) {
        /* Bind to the skeleton and the clips (shared by every character). */
        const sw_clip* clips[2] = {a.clip, b.clip};
        size_t bound_size = sw_animator_bound_size(def, a.skeleton);
        void* bound_mem = sw_alloc(NULL, bound_size, 16);
        const sw_animator_bound* bound = NULL;
        sw_error err;
        memset(&err, 0, sizeof err);
        sw_result r =
            sw_animator_bind(def, a.skeleton, clips, 2, bound_mem, bound_size, &bound, &err);
        if (r == SW_RESULT_OK) {
            run(def, bound, a.skeleton);
        } else {
            fprintf(stderr, "bind: %s (%s)\n", sw_result_str(r), err.check);
            rc = 1;
        }
        sw_free(NULL, bound_mem, bound_size);
    }
    sw_animator_destroy(def, NULL);
    sw_bvh_result_free(&a, NULL);
    sw_bvh_result_free(&b, NULL);
    return rc;
}
