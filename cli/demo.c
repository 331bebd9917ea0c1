/* sinew demo [--seconds S] [--fps F] [--out DIR] [--character FILE [--map FILE]]
 *            [--frame-size WxH] [--seed N] [--no-physics]:
 * runs the showcase scene (sinew/showcase/scene.h) headless, with its
 * ragdoll actors on the ODE backend (sinew/backends/ode.h) when the CLI is built with
 * it and --no-physics is not given, and writes
 * DIR/demo.glb (every actor's skeleton and mesh under one root, with a clip
 * of the evaluated motion at the frame rate), DIR/demo.png (an overview and
 * a labelled close-up of each actor, demo_sheet.h) and DIR/metrics.json,
 * then prints a summary table. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common.h"
#include "demo_sheet.h"
#include "sinew/showcase/observer.h"
#include "sinew/showcase/recording.h"
#include "sinew/showcase/scene.h"
#include "sinew/tools/writers/file.h"
#include "sinew/tools/writers/gltf_export.h"
#include "sinew/tools/writers/png.h"
#ifdef SINEW_CLI_ODE
#include "sinew/backends/ode.h"
#endif

#define DEMO_MAX_MAP_BYTES ((size_t)1 << 20) /* largest --map file */

typedef struct demo_args {
    double seconds, fps;
    const char* out;
    const char* character;
    const char* map;
    uint32_t frame_w, frame_h;
    uint32_t seed;
    bool no_physics;
    bool json;
} demo_args;

static int demo_parse(int argc, char** argv, demo_args* a) {
    *a = (demo_args){.seconds = 10.0, .fps = 30.0, .out = ".", .frame_w = 320, .frame_h = 320};
    for (int i = 1; i < argc; ++i) {
        const char* arg = argv[i];
        const char* next = i + 1 < argc ? argv[i + 1] : NULL;
        double v = 0.0;
        if (strcmp(arg, "--no-physics") == 0 || strcmp(arg, "--json") == 0) {
            *(arg[2] == 'j' ? &a->json : &a->no_physics) = true;
            continue;
        }
        if (strcmp(arg, "--seconds") == 0 && next) {
            if (!cli_parse_double(next, &v) || !(v > 0.0) || v > 3600.0) {
                cli_error("demo", "--seconds must be in (0, 3600]: \"%s\"", next);
                return CLI_EXIT_USAGE;
            }
            a->seconds = v;
        } else if (strcmp(arg, "--fps") == 0 && next) {
            if (!cli_parse_double(next, &v) || !(v >= 1.0) || v > 240.0) {
                cli_error("demo", "--fps must be in [1, 240]: \"%s\"", next);
                return CLI_EXIT_USAGE;
            }
            a->fps = v;
        } else if (strcmp(arg, "--out") == 0 && next) {
            a->out = next;
        } else if (strcmp(arg, "--character") == 0 && next) {
            a->character = next;
        } else if (strcmp(arg, "--map") == 0 && next) {
            a->map = next;
        } else if (strcmp(arg, "--frame-size") == 0 && next) {
            unsigned w = 0, h = 0;
            char tail = 0;
            if (sscanf(next, "%ux%u%c", &w, &h, &tail) != 2 || w < 16 || h < 16 || w > 2048 ||
                h > 2048) {
                cli_error("demo", "--frame-size must be WxH within 16..2048: \"%s\"", next);
                return CLI_EXIT_USAGE;
            }
            a->frame_w = w;
            a->frame_h = h;
        } else if (strcmp(arg, "--seed") == 0 && next) {
            if (!cli_parse_double(next, &v) || v < 0.0 || v > 4294967295.0 ||
                v != (double)(uint32_t)v) {
                cli_error("demo", "--seed must be a whole number in [0, 2^32): \"%s\"", next);
                return CLI_EXIT_USAGE;
            }
            a->seed = (uint32_t)v;
        } else if (arg[0] == '-' && next) {
            return cli_unknown_option("demo", arg);
        } else {
            return cli_usage_error("demo");
        }
        ++i;
    }
    if (a->map && !a->character) {
        cli_error("demo", "--map needs --character");
        return CLI_EXIT_USAGE;
    }
    return CLI_EXIT_OK;
}

/* Reads "idle=NAME", "walk=NAME", "jog=NAME" (or "run=NAME") lines; '#' comments. */
static bool demo_read_map(const char* path, char names[3][256]) {
    cli_lines f;
    if (!cli_lines_open("demo", path, DEMO_MAX_MAP_BYTES, &f)) return false;
    char line[512];
    int n = 0;
    bool ok = true;
    while (ok && cli_lines_next(&f, line, sizeof line)) {
        ++n;
        line[strcspn(line, "\r\n")] = 0;
        char* p = line;
        while (*p == ' ' || *p == '\t')
            ++p;
        if (*p == 0 || *p == '#') continue;
        char* eq = strchr(p, '=');
        if (!eq || eq[1] == 0) {
            cli_error("demo", "%s:%d: expected ROLE=CLIP", path, n);
            ok = false;
            break;
        }
        *eq = 0;
        int role = strcmp(p, "idle") == 0                             ? 0
                   : strcmp(p, "walk") == 0                           ? 1
                   : (strcmp(p, "jog") == 0 || strcmp(p, "run") == 0) ? 2
                                                                      : -1;
        if (role < 0) {
            cli_error("demo", "%s:%d: unknown role \"%s\" (idle, walk, jog or run)", path, n, p);
            ok = false;
            break;
        }
        snprintf(names[role], 256, "%s", eq + 1);
    }
    cli_lines_close(&f);
    return ok;
}

/* ---- export ---- */

/* Writes the recorded run as one glTF binary (sinew/showcase/recording.h). */
static int demo_write_glb(const sw_showcase_recording* rec, double fps, const char* path,
                          size_t* glb_size, uint32_t* joints_out) {
    sw_scene scene;
    sw_error err = {0};
    sw_result r = sw_showcase_recording_scene(rec, fps, "demo", NULL, &scene, &err);
    if (r != SW_RESULT_OK) {
        cli_report("demo", "merged scene", SW_ASSET_FORMAT_NONE, r, &err);
        return CLI_EXIT_FAIL;
    }
    *joints_out = scene.skeleton->joints_count;
    void* data = NULL;
    r = sw_gltf_export(&scene, NULL, NULL, &data, glb_size, &err);
    if (r == SW_RESULT_OK) {
        r = sw_file_write_atomic(path, data, *glb_size, &err);
        sw_free(NULL, data, *glb_size);
    }
    sw_scene_free(&scene, NULL);
    if (r != SW_RESULT_OK) {
        cli_report("demo", path, SW_ASSET_FORMAT_NONE, r, &err);
        return CLI_EXIT_FAIL;
    }
    return CLI_EXIT_OK;
}

/* ---- output ---- */

static void demo_json_cm(FILE* f, const char* key, float metres, bool comma) {
    fprintf(f, "    \"%s\": ", key);
    cli_json_number(f, (double)metres * 100.0);
    fputs(comma ? ",\n" : "\n", f);
}

/* The observer's figures (sinew/showcase/observer.h) as metrics.json's
 * "observer": per actor, its feet's sliding and its lowest joint (cm). */
static void demo_json_observer(FILE* f, const sw_showcase* sc, const sw_showcase_observer* o) {
    fputs("  \"observer\": {\n    \"planted_cm\": ", f);
    cli_json_number(f, (double)SW_SHOWCASE_OBSERVER_PLANTED * 100.0);
    fputs(",\n    \"actors\": {", f);
    for (uint32_t i = 0; i < o->actors_count; ++i) {
        const sw_showcase_actor a = sw_showcase_get_actor(sc, i);
        fputs(i ? ",\n      " : "\n      ", f);
        cli_json_string(f, a.name);
        fputs(": {\"lowest_cm\": ", f);
        cli_json_number(f, (double)o->lowest[i] * 100.0);
        fputs(", \"lowest_joint\": ", f);
        cli_json_string(f, sw_skeleton_joint_name(a.skeleton, o->lowest_joint[i]));
        fputs(", \"feet\": {", f);
        bool first = true;
        for (uint32_t k = 0; k < o->feet_count; ++k) {
            const sw_showcase_observer_foot* ft = &o->feet[k];
            if (ft->actor != i) continue;
            fputs(first ? "\n        " : ",\n        ", f);
            first = false;
            cli_json_string(f, sw_skeleton_joint_name(a.skeleton, ft->joint));
            fprintf(f, ": {\"spans\": %u, \"sliding_cm_max\": ", ft->spans);
            cli_json_number(f, (double)ft->slide_max * 100.0);
            fputs(", \"sliding_cm_median\": ", f);
            cli_json_number(f, (double)ft->slide_median * 100.0);
            fputs("}", f);
        }
        fputs("}}", f);
    }
    fputs("\n    }\n  },\n", f);
}

/* metrics.json's document (docs/showcase.md). */
static void demo_print_metrics(FILE* f, const demo_args* a, uint32_t frames,
                               const sw_showcase_metrics* m, const char* character, bool physics,
                               const sw_showcase* sc, const sw_showcase_observer* obs) {
    fputs("{\n  \"seconds\": ", f);
    cli_json_number(f, a->seconds);
    fputs(",\n  \"fps\": ", f);
    cli_json_number(f, a->fps);
    fprintf(f, ",\n  \"frames\": %u,\n  \"character\": ", frames);
    cli_json_string(f, character);
    fprintf(f,
            ",\n  \"features\": {\"sync_markers\": %s, \"foot_ik\": %s, \"reach\": %s, "
            "\"look_at\": %s, \"spine_wander\": %s, \"foot_tracking\": %s},\n",
            (m->features & SW_SHOWCASE_FEATURE_SYNC) ? "true" : "false",
            (m->features & SW_SHOWCASE_FEATURE_FOOT_IK) ? "true" : "false",
            (m->features & SW_SHOWCASE_FEATURE_REACH) ? "true" : "false",
            (m->features & SW_SHOWCASE_FEATURE_LOOK) ? "true" : "false",
            (m->features & SW_SHOWCASE_FEATURE_WANDER) ? "true" : "false",
            (m->features & SW_SHOWCASE_FEATURE_FOOT_TRACK) ? "true" : "false");
    demo_json_observer(f, sc, obs);
    fprintf(f, "  \"locomotion\": {\n    \"steps\": %u,\n", m->locomotion_steps);
    demo_json_cm(f, "sliding_cm_max", m->locomotion_slide_max, true);
    demo_json_cm(f, "sliding_cm_mean", m->locomotion_slide_mean, true);
    demo_json_cm(f, "unlocked_sliding_cm_max", m->locomotion_unlocked_slide_max, true);
    demo_json_cm(f, "unlocked_sliding_cm_mean", m->locomotion_unlocked_slide_mean, false);
    fprintf(f, "  },\n  \"walker\": {\n    \"steps\": %u,\n", m->spider_steps);
    demo_json_cm(f, "sliding_cm_max", m->spider_slide_max, true);
    demo_json_cm(f, "sliding_cm_mean", m->spider_slide_mean, true);
    demo_json_cm(f, "penetration_cm_max", m->spider_penetration_max, false);
    fprintf(f, "  },\n  \"transitions\": {\n    \"count\": %u,\n", m->transitions);
    fputs("    \"velocity_jump_max_m_per_s\": ", f);
    cli_json_number(f, m->transition_velocity_jump_max);
    fputs(",\n    \"hit_cut_velocity_jump_max_m_per_s\": ", f);
    cli_json_number(f, m->hit_velocity_jump_max);
    fprintf(f, ",\n    \"hits\": %u\n  },\n  \"ik\": {\n", m->hits);
    demo_json_cm(f, "reach_error_cm_max", m->reach_error_max, true);
    demo_json_cm(f, "arm_error_cm_max", m->arm_error_max, true);
    fprintf(f, "    \"arm_out_of_reach_frames\": %u\n  },\n  \"feet\": {\n",
            m->arm_out_of_reach_frames);
    demo_json_cm(f, "penetration_cm_max", m->foot_penetration_max, false);
    if (physics) {
        fprintf(f, "  },\n  \"ragdoll\": {\n    \"backend\": \"ode\",\n    \"impulses\": %u,\n",
                m->ragdoll_impulses);
        demo_json_cm(f, "tracking_error_cm_mean", m->ragdoll_tracking_error_mean, true);
        demo_json_cm(f, "tracking_error_cm_max", m->ragdoll_tracking_error_max, true);
        fprintf(f,
                "    \"knockdowns\": %u,\n    \"getups_face_up\": %u,\n"
                "    \"getups_face_down\": %u,\n    \"getups_done\": %u,\n"
                "    \"settle_time_s_max\": ",
                m->knockdowns, m->getups_face_up, m->getups_face_down, m->getups_done);
        cli_json_number(f, m->settle_time_max);
        fputs(",\n    \"settle_time_s_last\": ", f);
        cli_json_number(f, m->settle_time_last);
        fputs(",\n    \"getup_velocity_jump_max_m_per_s\": ", f);
        cli_json_number(f, m->getup_velocity_jump_max);
        fputs(",\n    \"getup_clip_noise_max_m_per_s\": ", f);
        cli_json_number(f, m->getup_clip_noise_max);
        fputs("\n", f);
    }
    fputs("  }\n}\n", f);
}

/* The observer's table: per actor, the lowest joint, and its feet's sliding. */
static void demo_print_observer(const sw_showcase* sc, const sw_showcase_observer* o) {
    printf("  observer (output poses in world space, planted within %.0f cm of the lowest):\n",
           (double)SW_SHOWCASE_OBSERVER_PLANTED * 100.0);
    for (uint32_t i = 0; i < o->actors_count; ++i) {
        const sw_showcase_actor a = sw_showcase_get_actor(sc, i);
        printf("    %-12s lowest joint %7.2f cm (%s at %.2f s)\n", a.name,
               (double)o->lowest[i] * 100.0, sw_skeleton_joint_name(a.skeleton, o->lowest_joint[i]),
               (double)o->lowest_time[i]);
        for (uint32_t k = 0; k < o->feet_count; ++k) {
            const sw_showcase_observer_foot* ft = &o->feet[k];
            if (ft->actor != i) continue;
            printf("      %-18s sliding per planted span (cm) max %.2f, median %.2f over %u\n",
                   sw_skeleton_joint_name(a.skeleton, ft->joint), (double)ft->slide_max * 100.0,
                   (double)ft->slide_median * 100.0, ft->spans);
        }
    }
}

static void demo_summary(const sw_showcase_metrics* m, const demo_args* a, uint32_t frames,
                         const char* character, uint32_t joints, size_t glb_size, uint32_t png_w,
                         uint32_t png_h, bool physics, const sw_showcase* sc,
                         const sw_showcase_observer* obs) {
    printf("sinew demo: %.3g s at %.3g fps (%u frames), character %s\n", a->seconds, a->fps, frames,
           character);
    printf("  %-44s %s\n", "metric", "value");
    printf("  %-44s max %.3f, mean %.3f over %u steps\n",
           "controller-side: ankle lock sliding (cm)", (double)m->locomotion_slide_max * 100.0,
           (double)m->locomotion_slide_mean * 100.0, m->locomotion_steps);
    printf("  %-44s max %.2f, mean %.2f\n", "  the same, animation alone (cm)",
           (double)m->locomotion_unlocked_slide_max * 100.0,
           (double)m->locomotion_unlocked_slide_mean * 100.0);
    printf("  %-44s max %.3f, mean %.3f over %u steps\n", "walker planted-foot sliding (cm)",
           (double)m->spider_slide_max * 100.0, (double)m->spider_slide_mean * 100.0,
           m->spider_steps);
    printf("  %-44s %.3f over %u transitions\n", "crossfade joint velocity jump (m/s)",
           (double)m->transition_velocity_jump_max, m->transitions);
    printf("  %-44s %.3f over %u hits\n", "hit cut joint velocity jump (m/s)",
           (double)m->hit_velocity_jump_max, m->hits);
    printf("  %-44s %.4f\n", "reach IK end-effector error (cm)",
           (double)m->reach_error_max * 100.0);
    printf("  %-44s %.4f (%u frames out of reach)\n", "arm IK end-effector error (cm)",
           (double)m->arm_error_max * 100.0, m->arm_out_of_reach_frames);
    printf("  %-44s %.3f\n", "controller-side: sole penetration (cm)",
           (double)m->foot_penetration_max * 100.0);
    printf("  %-44s %.3f\n", "walker tip ground penetration (cm)",
           (double)m->spider_penetration_max * 100.0);
    if (physics) {
        printf("  %-44s mean %.2f, max %.2f over %u impulses\n",
               "ragdoll powered walker tracking error (cm)",
               (double)m->ragdoll_tracking_error_mean * 100.0,
               (double)m->ragdoll_tracking_error_max * 100.0, m->ragdoll_impulses);
        printf("  %-44s %u (got up %u: %u face up, %u face down)\n", "ragdoll knock-downs",
               m->knockdowns, m->getups_done, m->getups_face_up, m->getups_face_down);
        printf("  %-44s last %.2f, max %.2f\n", "ragdoll settle time (s)",
               (double)m->settle_time_last, (double)m->settle_time_max);
        printf("  %-44s %.3f (the clip's own: %.3f)\n", "get-up blend joint velocity jump (m/s)",
               (double)m->getup_velocity_jump_max, (double)m->getup_clip_noise_max);
    }
    demo_print_observer(sc, obs);
    if (!(m->features & SW_SHOWCASE_FEATURE_FOOT_IK))
        printf("  note: no hip-knee-ankle chain found: foot placement skipped\n");
    if (!(m->features & SW_SHOWCASE_FEATURE_FOOT_TRACK))
        printf("  note: clips without LeftFootDown/RightFootDown events: locomotion sliding not "
               "measured, blend space synchronized by normalized phase\n");
    if (!(m->features & SW_SHOWCASE_FEATURE_REACH)) printf("  note: no arm chain: reach skipped\n");
    printf("wrote %s/demo.glb (%zu bytes, %u joints), %s/demo.png (%ux%u), %s/metrics.json\n",
           a->out, glb_size, joints, a->out, png_w, png_h, a->out);
}

/* Everything a run holds, freed by demo_free. */
typedef struct demo_run {
    demo_args a;
    sw_asset asset;
    sw_scene character;
    char map_names[3][256];
    const char* character_name;
    sw_showcase_options opt;
    sw_physics physics; /* the ODE world's, when opt.physics points here */
    sw_showcase* sc;
    sw_showcase_recording* rec;
    demo_sheet sheet;
    uint32_t frames;
    char paths[3][4096]; /* DIR/demo.png, DIR/demo.glb, DIR/metrics.json */
} demo_run;

/* The physics engine of the ragdoll actors: an ODE world (sinew_ode). */
#ifdef SINEW_CLI_ODE
static sw_result demo_ode_step(void* world) {
    return sw_ode_world_step((sw_ode_world*)world);
}
#endif

static void demo_free(demo_run* d) {
    sw_showcase_recording_destroy(d->rec);
    demo_sheet_free(&d->sheet);
    sw_showcase_destroy(d->sc);
#ifdef SINEW_CLI_ODE
    if (d->opt.physics_user) sw_ode_world_destroy((sw_ode_world*)d->opt.physics_user, NULL);
#endif
    sw_asset_free(&d->asset);
}

/* The output folder and its three files, none of them an input. */
static int demo_outputs(demo_run* d) {
    if (mkdir(d->a.out, 0777) != 0 && errno != EEXIST) {
        cli_error("demo", "--out %s: cannot create the output folder (%s)", d->a.out,
                  strerror(errno));
        return CLI_EXIT_FAIL;
    }
    static const char* const names[3] = {"demo.png", "demo.glb", "metrics.json"};
    const char* inputs[2] = {d->a.character, d->a.map};
    for (int k = 0; k < 3; ++k) {
        snprintf(d->paths[k], sizeof d->paths[k], "%s/%s", d->a.out, names[k]);
        const int rc = cli_output_check("demo", "--out", d->paths[k], 0, inputs, 2);
        if (rc != CLI_EXIT_OK) return rc;
    }
    return CLI_EXIT_OK;
}

/* The character (--character, --map), the physics and the showcase. */
static int demo_open(demo_run* d) {
    sw_error err = {0};
    d->opt.seed = d->a.seed;
    d->character_name = "sinew_humanoid (built in)";
    if (d->a.character) {
        const sw_result r = cli_asset_open(d->a.character, NULL, &d->asset, &err);
        if (r != SW_RESULT_OK) {
            cli_report("demo", d->a.character, d->asset.format, r, &err);
            memset(&d->asset, 0, sizeof d->asset);
            return CLI_EXIT_FAIL;
        }
        cli_warn_asset("demo", d->a.character, &d->asset);
        d->character = cli_asset_scene(&d->asset, d->asset.clips, d->asset.clips_count);
        d->opt.character = &d->character;
        d->character_name = d->a.character;
        if (d->a.map && !demo_read_map(d->a.map, d->map_names)) return CLI_EXIT_FAIL;
        for (int k = 0; k < 3; ++k)
            d->opt.clip_names[k] = d->map_names[k][0] ? d->map_names[k] : NULL;
    }
#ifdef SINEW_CLI_ODE
    if (!d->a.no_physics) {
        sw_ode_world* world = NULL;
        const sw_result wr = sw_ode_world_create(&(sw_ode_world_desc){0}, NULL, &world, &err);
        if (wr != SW_RESULT_OK) {
            cli_report("demo", "ODE world", SW_ASSET_FORMAT_NONE, wr, &err);
            return CLI_EXIT_FAIL;
        }
        d->physics = sw_ode_world_physics(world);
        d->opt.physics = &d->physics;
        d->opt.physics_step = demo_ode_step;
        d->opt.physics_user = world;
        d->opt.physics_step_size = sw_ode_world_step_size(world);
    }
#endif
    const sw_result r = sw_showcase_create(&d->opt, &d->sc, &err);
    if (r != SW_RESULT_OK) {
        cli_report("demo", d->a.character ? d->a.character : "showcase", SW_ASSET_FORMAT_NONE, r,
                   &err);
        return CLI_EXIT_FAIL;
    }
    const uint32_t bones = sw_showcase_character_bones(d->sc);
    if (bones > 0)
        fprintf(stderr, "sinew: demo: %s has no mesh: drawing its %u bones\n", d->a.character,
                bones);
    return CLI_EXIT_OK;
}

/* Runs the scene frame by frame into the recording and the picture. */
static int demo_record(demo_run* d) {
    const demo_args* a = &d->a;
    d->frames = (uint32_t)(a->seconds * a->fps + 0.5) + 1u;
    if (!demo_sheet_init(&d->sheet, d->sc, a->frame_w, a->frame_h, d->frames)) return CLI_EXIT_FAIL;
    sw_error err = {0};
    sw_result r = sw_showcase_recording_create(d->sc, d->frames, NULL, &d->rec, &err);
    if (r != SW_RESULT_OK) {
        cli_report("demo", "recording", SW_ASSET_FORMAT_NONE, r, &err);
        return CLI_EXIT_FAIL;
    }
    for (uint32_t f = 0; f < d->frames; ++f) {
        if (f > 0 && (r = sw_showcase_update(d->sc, (float)(1.0 / a->fps), NULL)) != SW_RESULT_OK) {
            cli_error("demo", "update at frame %u: %s", f, sw_result_str(r));
            return CLI_EXIT_FAIL;
        }
        if ((r = sw_showcase_recording_add(d->rec, d->sc)) != SW_RESULT_OK) {
            cli_error("demo", "recording frame %u: %s", f, sw_result_str(r));
            return CLI_EXIT_FAIL;
        }
        if (!demo_sheet_frame(&d->sheet, d->sc, f, (double)f / a->fps)) return CLI_EXIT_FAIL;
    }
    return CLI_EXIT_OK;
}

/* --json: the files written and metrics.json's document. */
static void demo_json(const demo_run* d, const char* metrics, size_t glb_size, uint32_t joints) {
    printf("{\"out\": ");
    cli_json_string(stdout, d->a.out);
    printf(", \"png\": ");
    cli_json_string(stdout, d->paths[0]);
    printf(", \"png_size\": [%u, %u], \"glb\": ", d->sheet.width, d->sheet.height);
    cli_json_string(stdout, d->paths[1]);
    printf(", \"glb_bytes\": %zu, \"joints_count\": %u, \"metrics_file\": ", glb_size, joints);
    cli_json_string(stdout, d->paths[2]);
    printf(",\n \"metrics\": %s}\n", metrics);
}

/* demo.png, demo.glb and metrics.json (each through a temporary file), then the report. */
static int demo_write(demo_run* d) {
    const sw_png_image img = {.width = d->sheet.width,
                              .height = d->sheet.height,
                              .format = SW_PNG_FORMAT_INDEXED,
                              .pixels = d->sheet.pixels,
                              .palette = d->sheet.tile.palette,
                              .palette_count = SW_RASTER_PALETTE_COUNT};
    sw_result r = sw_png_write_file(&img, d->paths[0]);
    if (r != SW_RESULT_OK) {
        cli_error("demo", "%s: %s", d->paths[0], sw_result_str(r));
        return CLI_EXIT_FAIL;
    }
    size_t glb_size = 0;
    uint32_t joints = 0;
    if (demo_write_glb(d->rec, d->a.fps, d->paths[1], &glb_size, &joints) != CLI_EXIT_OK)
        return CLI_EXIT_FAIL;
    sw_showcase_observer obs;
    if ((r = sw_showcase_observe(d->sc, d->rec, d->a.fps, NULL, &obs)) != SW_RESULT_OK) {
        cli_error("demo", "observer figures: %s", sw_result_str(r));
        return CLI_EXIT_FAIL;
    }
    const sw_showcase_metrics* m = sw_showcase_get_metrics(d->sc);
    const bool physics = d->opt.physics != NULL;
    char* text = NULL;
    size_t size = 0;
    FILE* f = open_memstream(&text, &size);
    if (f) demo_print_metrics(f, &d->a, d->frames, m, d->character_name, physics, d->sc, &obs);
    if (!f || fclose(f) != 0) {
        cli_error("demo", "out of memory");
        return CLI_EXIT_FAIL;
    }
    sw_error err = {0};
    r = sw_file_write_atomic(d->paths[2], text, size, &err);
    if (r != SW_RESULT_OK) {
        cli_report("demo", d->paths[2], SW_ASSET_FORMAT_NONE, r, &err);
    } else if (d->a.json) {
        demo_json(d, text, glb_size, joints);
    } else {
        demo_summary(m, &d->a, d->frames, d->character_name, joints, glb_size, d->sheet.width,
                     d->sheet.height, physics, d->sc, &obs);
    }
    free(text);
    return r == SW_RESULT_OK ? CLI_EXIT_OK : CLI_EXIT_FAIL;
}

int cli_demo(int argc, char** argv);

int cli_demo(int argc, char** argv) {
    demo_run* d = (demo_run*)calloc(1, sizeof *d);
    if (!d) {
        cli_error("demo", "out of memory");
        return CLI_EXIT_FAIL;
    }
    int rc = demo_parse(argc, argv, &d->a);
    if (rc == CLI_EXIT_OK) rc = demo_outputs(d);
    if (rc == CLI_EXIT_OK) rc = demo_open(d);
    if (rc == CLI_EXIT_OK) rc = demo_record(d);
    if (rc == CLI_EXIT_OK) rc = demo_write(d);
    demo_free(d);
    free(d);
    return rc;
}
