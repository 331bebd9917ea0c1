/* sinew retarget SRC --to TARGET -o OUT [--json] [--map FILE] [--clips A,B] [--scale S]
 *                 [--to-scale S] [--no-ik] [--no-foot-lock] [--rate R] [--print-map]:
 * carries SRC's clips onto TARGET's skeleton (docs/retargeting.md) and writes
 * the target's skeleton, its meshes and the retargeted clips in the format of
 * OUT's extension (.sinew, .glb, .gltf: sinew/tools/writers/output.h).
 * TARGET may be the word "default" (the built-in humanoid). */
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "sinew/showcase/character.h"
#include "sinew/tools/builders/retarget_map.h"
#include "sinew/tools/writers/file.h"

typedef struct cli_rt_args {
    cli_asset_args src;
    const char* in;
    const char* to;
    const char* out;
    const char* map;
    float to_scale;
    float rate;
    bool no_ik;
    bool no_foot_lock;
    bool print_map;
    bool json;
} cli_rt_args;

static int cli_rt_parse(int argc, char** argv, cli_rt_args* a) {
    for (int i = 1; i < argc; ++i) {
        const char* arg = argv[i];
        const int used = cli_asset_option("retarget", argc, argv, &i, &a->src);
        if (used < 0) return CLI_EXIT_USAGE;
        if (used) continue;
        const char* next = i + 1 < argc ? argv[i + 1] : NULL;
        if ((strcmp(arg, "-o") == 0 || strcmp(arg, "--output") == 0) && next) {
            a->out = argv[++i];
        } else if (strcmp(arg, "--to") == 0 && next) {
            a->to = argv[++i];
        } else if (strcmp(arg, "--map") == 0 && next) {
            a->map = argv[++i];
        } else if (strcmp(arg, "--to-scale") == 0 && next) {
            if (!cli_parse_scale("retarget", "--to-scale", argv[++i], &a->to_scale))
                return CLI_EXIT_USAGE;
        } else if (strcmp(arg, "--rate") == 0 && next) {
            double v = 0.0;
            if (!cli_parse_double(argv[++i], &v) || !(v > 0.0) || v > 10000.0) {
                cli_error("retarget", "--rate needs keys per second in (0, 10000]");
                return CLI_EXIT_USAGE;
            }
            a->rate = (float)v;
        } else if (strcmp(arg, "--no-ik") == 0) {
            a->no_ik = true;
        } else if (strcmp(arg, "--no-foot-lock") == 0) {
            a->no_foot_lock = true;
        } else if (strcmp(arg, "--print-map") == 0) {
            a->print_map = true;
        } else if (strcmp(arg, "--json") == 0) {
            a->json = true;
        } else if (arg[0] == '-' && arg[1] != '\0') {
            cli_error("retarget", "unknown option or missing value \"%s\" (sinew retarget --help)",
                      arg);
            return CLI_EXIT_USAGE;
        } else if (!a->in) {
            a->in = arg;
        } else {
            cli_error("retarget", "one SRC file expected");
            return CLI_EXIT_USAGE;
        }
    }
    if (!a->in || !a->to || (!a->out && !a->print_map)) return cli_usage_error("retarget");
    if (a->print_map && a->json) {
        cli_error("retarget", "--print-map prints the map as text: give it without --json");
        return CLI_EXIT_USAGE;
    }
    const char* inputs[3] = {a->in, strcmp(a->to, "default") == 0 ? NULL : a->to, a->map};
    return a->out ? cli_output_check("retarget", "-o", a->out, SW_OUTPUT_FORMATS_ALL, inputs, 3)
                  : CLI_EXIT_OK;
}

/* Largest --map file. */
#define CLI_RT_MAP_MAX_BYTES ((size_t)1 << 24)

static int cli_rt_apply_map_file(const char* path, sw_retarget_joint_map* jm) {
    void* text = NULL;
    size_t size = 0;
    sw_error err = SW_ERROR_INIT;
    sw_result r = sw_file_read(path, CLI_RT_MAP_MAX_BYTES, NULL, &text, &size, &err);
    if (r != SW_RESULT_OK) {
        cli_report("retarget", path, SW_ASSET_FORMAT_NONE, r, &err);
        return CLI_EXIT_FAIL;
    }
    r = sw_retarget_joint_map_parse(jm, (const char*)text, size, &err);
    sw_free(NULL, text, size);
    if (r != SW_RESULT_OK) {
        cli_error("retarget", "%s:%lld: %s (check \"%s\")", path, (long long)err.index,
                  sw_result_str(r), err.check ? err.check : "");
        return CLI_EXIT_FAIL;
    }
    return CLI_EXIT_OK;
}

/* The target: the built-in humanoid or a file's skeleton and meshes. */
typedef struct cli_rt_target {
    sw_scene human;
    sw_asset asset;
    const sw_skeleton* skeleton;
    const sw_mesh* const* meshes;
    uint32_t meshes_count;
} cli_rt_target;

static int cli_rt_open_target(const cli_rt_args* a, cli_rt_target* t) {
    sw_error err = {0};
    if (strcmp(a->to, "default") == 0) {
        const sw_result r = sw_showcase_humanoid(NULL, &t->human, NULL, &err);
        if (r != SW_RESULT_OK) {
            cli_report("retarget", "default humanoid", SW_ASSET_FORMAT_NONE, r, &err);
            return CLI_EXIT_FAIL;
        }
        t->skeleton = t->human.skeleton;
        t->meshes = (const sw_mesh* const*)t->human.meshes;
        t->meshes_count = t->human.meshes_count;
        return CLI_EXIT_OK;
    }
    const sw_asset_options topt = {.scale = a->to_scale};
    const sw_result r = cli_asset_open(a->to, &topt, &t->asset, &err);
    if (r != SW_RESULT_OK) {
        cli_report("retarget", a->to, t->asset.format, r, &err);
        return CLI_EXIT_FAIL;
    }
    cli_warn_asset("retarget", a->to, &t->asset);
    t->skeleton = t->asset.skeleton;
    t->meshes = t->asset.meshes;
    t->meshes_count = t->asset.meshes_count;
    return CLI_EXIT_OK;
}

/* "left_toes, right_toes" for the roles the map leaves unmapped. */
static void cli_rt_missing(const sw_retarget_joint_map* jm, char* out, size_t cap) {
    const uint32_t bits = sw_retarget_joint_map_missing(jm);
    size_t n = 0;
    out[0] = 0;
    for (int b = 1; b < SW_RETARGET_BONE_COUNT && n + 1 < cap; ++b)
        if (bits & (1u << b)) {
            const int w = snprintf(out + n, cap - n, "%s%s", n ? ", " : "",
                                   sw_retarget_bone_str((sw_retarget_bone)b));
            if (w > 0) n += (size_t)w;
        }
}

static void cli_rt_print_map(const sw_retarget_joint_map* jm) {
    const sw_skeleton* tskel = jm->target;
    printf("# sinew retarget map: source=target (%u of %u target joints mapped)\n",
           sw_retarget_joint_map_count(jm), tskel->joints_count);
    for (uint32_t t = 0; t < tskel->joints_count; ++t) {
        if (jm->source_of[t] >= 0)
            printf("%s=%s\n", sw_skeleton_joint_name(jm->source, (uint32_t)jm->source_of[t]),
                   sw_skeleton_joint_name(tskel, t));
        else
            printf("=%s\n", sw_skeleton_joint_name(tskel, t));
    }
}

/* The joint map (automatic among skeleton joints, then the map file) into
 * jm, printed with --print-map. */
static int cli_rt_joint_map(const cli_rt_args* a, const sw_asset* src, const cli_rt_target* t,
                            sw_retarget_joint_map* jm) {
    uint8_t* masks = malloc(2u * SW_SKELETON_MAX_JOINTS);
    if (!masks) {
        cli_error("retarget", "out of memory");
        return CLI_EXIT_FAIL;
    }
    sw_retarget_skeleton_joints(src->skeleton, src->meshes, src->meshes_count, src->clips,
                                src->clips_count, masks);
    sw_retarget_skeleton_joints(t->skeleton, t->meshes, t->meshes_count, t->asset.clips,
                                t->asset.clips_count, masks + SW_SKELETON_MAX_JOINTS);
    sw_retarget_joint_map_auto_masked(src->skeleton, masks, t->skeleton,
                                      masks + SW_SKELETON_MAX_JOINTS, jm);
    free(masks);
    if (a->map && cli_rt_apply_map_file(a->map, jm) != CLI_EXIT_OK) return CLI_EXIT_FAIL;
    if (a->print_map) cli_rt_print_map(jm);
    return CLI_EXIT_OK;
}

/* The runtime map from jm; a thin map's failure says how many joints and
 * which roles are mapped and how to fix it. */
static int cli_rt_prepare(const cli_rt_args* a, const sw_retarget_joint_map* jm,
                          sw_retarget_map* map) {
    sw_retarget_pair* pairs = malloc(SW_SKELETON_MAX_JOINTS * sizeof *pairs);
    if (!pairs) {
        cli_error("retarget", "out of memory");
        return CLI_EXIT_FAIL;
    }
    sw_retarget_limb limbs[SW_RETARGET_MAX_LIMBS];
    sw_retarget_map_desc desc;
    sw_error err = {SW_RESULT_NOT_FOUND, "a joint of the target mapped", 0, -1, 0, {0}};
    sw_result r = sw_retarget_joint_map_desc(jm, !a->no_ik, pairs, limbs, &desc);
    if (r == SW_RESULT_OK) r = sw_retarget_map_init(&desc, map, &err);
    free(pairs);
    char missing[512];
    cli_rt_missing(jm, missing, sizeof missing);
    const uint32_t mapped = sw_retarget_joint_map_count(jm), joints = jm->target->joints_count;
    if (r != SW_RESULT_OK) {
        cli_error("retarget",
                  "%s -> %s: %s (check \"%s\"): %u of %u target joints mapped%s%s; see the "
                  "map with --print-map, edit it and pass it with --map FILE",
                  a->in, a->to, sw_result_str(r), err.check ? err.check : "", mapped, joints,
                  missing[0] ? ", unmapped roles: " : "", missing);
        return CLI_EXIT_FAIL;
    }
    if (missing[0])
        cli_error("retarget",
                  "warning: %s -> %s: %u of %u target joints mapped, unmapped roles: %s (see "
                  "--print-map and --map FILE)",
                  a->in, a->to, mapped, joints, missing);
    return CLI_EXIT_OK;
}

/* Each clip of src baked for the target into baked[0..*count). */
static int cli_rt_bake(const cli_rt_args* a, const sw_asset* src, const sw_skeleton* tskel,
                       sw_retarget_map* map, const sw_clip** baked, uint32_t* count) {
    const sw_retarget_bake_options bopt = {
        .rate = a->rate, .ik_weight = a->no_ik ? 0.0f : 1.0f, .foot_lock = !a->no_foot_lock};
    for (uint32_t c = 0; c < src->clips_count; ++c) {
        float ground = 0.0f;
        map->source_ground = 0.0f;
        if (sw_retarget_fit_ground(map, src->skeleton, src->clips[c], tskel, &ground) ==
            SW_RESULT_OK)
            map->source_ground = ground;
        sw_error err = {0};
        const sw_result r = sw_retarget_bake(map, src->skeleton, src->clips[c], tskel, &bopt, NULL,
                                             &baked[c], &err);
        if (r != SW_RESULT_OK) {
            cli_report("retarget", a->in, SW_ASSET_FORMAT_NONE, r, &err);
            cli_error("retarget", "clip \"%s\" failed", sw_clip_name(src->clips[c]));
            return CLI_EXIT_FAIL;
        }
        *count = c + 1;
        if (!a->json)
            printf("  clip \"%s\": %.3g s, %u tracks, source ground %.4g\n", sw_clip_name(baked[c]),
                   (double)baked[c]->duration, baked[c]->tracks_count, (double)map->source_ground);
    }
    return CLI_EXIT_OK;
}

/* The report of a written retarget: a line, or the JSON object. */
static void cli_rt_print(const cli_rt_args* a, const sw_asset* src, const sw_scene* written,
                         uint32_t mapped, const sw_retarget_map* map) {
    const bool ik = map->limbs_count && !a->no_ik;
    if (a->json) {
        cli_json_written(stdout, a->in, cli_format_name(src->format), a->out, written);
        printf(", \"target\": ");
        cli_json_string(stdout, a->to);
        printf(", \"mapped\": %u, \"scale\": ", mapped);
        cli_json_number(stdout, map->root_scale);
        printf(", \"foot_ik\": %s, \"foot_lock\": %s}\n", ik ? "true" : "false",
               a->no_foot_lock ? "false" : "true");
        return;
    }
    const uint32_t n = written->clips_count, m = written->meshes_count;
    printf("sinew retarget: %s -> %s: %u of %u target joints mapped, scale %.4g, foot IK %s, "
           "foot lock %s, %u clip%s, %u mesh%s -> %s\n",
           a->in, a->to, mapped, written->skeleton->joints_count, (double)map->root_scale,
           ik ? "on" : "off", a->no_foot_lock ? "off" : "on", n, n == 1 ? "" : "s", m,
           m == 1 ? "" : "es", a->out);
}

int cli_retarget(int argc, char** argv) {
    cli_rt_args a;
    memset(&a, 0, sizeof a);
    int code = cli_rt_parse(argc, argv, &a);
    if (code != CLI_EXIT_OK) return code;
    sw_asset src;
    memset(&src, 0, sizeof src);
    cli_rt_target t;
    memset(&t, 0, sizeof t);
    sw_retarget_joint_map* jm = NULL;
    sw_retarget_map* map = NULL;
    const sw_clip** baked = NULL;
    uint32_t baked_count = 0;
    sw_error err = {0};
    const sw_result r = cli_asset_open(a.in, &a.src.opt, &src, &err);
    if (r != SW_RESULT_OK) {
        cli_report("retarget", a.in, src.format, r, &err);
        return CLI_EXIT_FAIL;
    }
    cli_warn_asset("retarget", a.in, &src);
    code = CLI_EXIT_FAIL;
    if (src.clips_count == 0) {
        cli_error("retarget", "%s: no clips to retarget", a.in);
        goto done;
    }
    if (cli_rt_open_target(&a, &t) != CLI_EXIT_OK) goto done;
    jm = malloc(sizeof *jm);
    map = malloc(sizeof *map);
    baked = calloc(src.clips_count, sizeof *baked);
    if (!jm || !map || !baked) {
        cli_error("retarget", "out of memory");
        goto done;
    }
    if (cli_rt_joint_map(&a, &src, &t, jm) != CLI_EXIT_OK) goto done;
    if (!a.out) {
        code = CLI_EXIT_OK;
        goto done;
    }
    if (cli_rt_prepare(&a, jm, map) != CLI_EXIT_OK ||
        cli_rt_bake(&a, &src, t.skeleton, map, baked, &baked_count) != CLI_EXIT_OK)
        goto done;
    sw_scene written;
    memset(&written, 0, sizeof written);
    written.skeleton = t.skeleton;
    written.clips = baked;
    written.clips_count = baked_count;
    written.meshes = (const sw_mesh**)(uintptr_t)t.meshes;
    written.meshes_count = t.meshes_count;
    if (cli_write_scene("retarget", a.out, &written) != CLI_EXIT_OK) goto done;
    cli_rt_print(&a, &src, &written, sw_retarget_joint_map_count(jm), map);
    code = CLI_EXIT_OK;
done:
    for (uint32_t c = 0; c < baked_count; ++c)
        sw_clip_destroy(baked[c], NULL);
    free(baked);
    free(map);
    free(jm);
    sw_scene_free(&t.human, NULL);
    sw_asset_free(&t.asset);
    sw_asset_free(&src);
    return code;
}
