/* sinew play FILE --animator DEF.json --script SCRIPT --seconds S --fps F [--json]
 *            [--bake OUT.sinew|OUT.glb|OUT.gltf] [asset options]:
 * runs an animator over the file's clips with parameter changes from a
 * script, printing per frame the playing states, clips (weights, phases),
 * root-motion delta and events; --bake stores the evaluated motion as a clip
 * with the file's skeleton and meshes, in the format of its extension.
 *
 * Script: one change per line, "TIME NAME=VALUE [NAME=VALUE ...]" with TIME in
 * seconds (lines in any order, applied at the first frame at or after TIME);
 * "trigger=NAME" sets a trigger, "play=STATE" or "play=STATE:FADE" calls
 * sw_animator_play; '#' starts a comment; true/false are 1/0. */
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "sinew/animator/animator.h"
#include "sinew/tools/builders/animator_bake.h"
#include "sinew/tools/readers/animator_json.h"

#define PLAY_MAX_CHANGES 4096
#define PLAY_MAX_LINE 1024
#define PLAY_MAX_SCRIPT_BYTES ((size_t)1 << 24) /* largest --script file */

typedef struct play_args {
    const char* path;
    const char* animator;
    const char* script;
    const char* bake;
    double seconds, fps;
    bool json;
    cli_asset_args asset;
} play_args;

typedef enum play_kind { PLAY_SET, PLAY_TRIGGER, PLAY_STATE } play_kind;

typedef struct play_change {
    double time;
    play_kind kind;
    uint32_t index; /* parameter or state */
    float value;    /* value or fade */
    uint32_t line;
    bool done;
} play_change;

static int play_parse(int argc, char** argv, play_args* a) {
    memset(a, 0, sizeof *a);
    a->fps = 30.0;
    for (int i = 1; i < argc; ++i) {
        const char* s = argv[i];
        const char* next = i + 1 < argc ? argv[i + 1] : NULL;
        int used = cli_asset_option("play", argc, argv, &i, &a->asset);
        if (used < 0) return CLI_EXIT_USAGE;
        if (used > 0) continue;
        if (strcmp(s, "--json") == 0) {
            a->json = true;
        } else if (strcmp(s, "--animator") == 0 || strcmp(s, "--script") == 0 ||
                   strcmp(s, "--bake") == 0) {
            if (!next) {
                cli_error("play", "%s needs a file", s);
                return CLI_EXIT_USAGE;
            }
            if (s[2] == 'a')
                a->animator = next;
            else if (s[2] == 's')
                a->script = next;
            else
                a->bake = next;
            ++i;
        } else if (strcmp(s, "--seconds") == 0 || strcmp(s, "--fps") == 0) {
            double v = 0.0;
            if (!cli_parse_double(next, &v) || !(v > 0.0) || v > 1e5) {
                cli_error("play", "%s needs a positive number (at most 100000)", s);
                return CLI_EXIT_USAGE;
            }
            if (s[2] == 's')
                a->seconds = v;
            else
                a->fps = v;
            ++i;
        } else if (s[0] == '-' && s[1] != '\0') {
            return cli_unknown_option("play", s);
        } else if (!a->path) {
            a->path = s;
        } else {
            cli_error("play", "one FILE expected");
            return CLI_EXIT_USAGE;
        }
    }
    if (!a->path || !a->animator || !(a->seconds > 0.0)) return cli_usage_error("play");
    if (a->seconds * a->fps > 1e6) {
        cli_error("play", "--seconds times --fps is more than 1000000 frames");
        return CLI_EXIT_USAGE;
    }
    const char* inputs[3] = {a->path, a->animator, a->script};
    return a->bake ? cli_output_check("play", "--bake", a->bake, SW_OUTPUT_FORMATS_ALL, inputs, 3)
                   : CLI_EXIT_OK;
}

/* Reads the script into changes; returns false after printing the failing line. */
static bool play_read_script(const char* path, const sw_animator* def, play_change* out,
                             uint32_t* count) {
    cli_lines f;
    if (!cli_lines_open("play", path, PLAY_MAX_SCRIPT_BYTES, &f)) return false;
    char line[PLAY_MAX_LINE];
    uint32_t n = 0, lineno = 0;
    bool ok = true;
    while (ok && cli_lines_next(&f, line, sizeof line)) {
        ++lineno;
        char* hash = strchr(line, '#');
        if (hash) *hash = '\0';
        char* tok = strtok(line, " \t\r\n");
        if (!tok) continue;
        double time = 0.0;
        if (!cli_parse_double(tok, &time) || time < 0.0) {
            cli_error("play", "%s:%u: a time in seconds first", path, lineno);
            ok = false;
            break;
        }
        bool any = false;
        while (ok && (tok = strtok(NULL, " \t\r\n")) != NULL) {
            any = true;
            char* eq = strchr(tok, '=');
            if (!eq || eq == tok || !eq[1]) {
                cli_error("play", "%s:%u: \"%s\" is not NAME=VALUE", path, lineno, tok);
                ok = false;
                break;
            }
            *eq = '\0';
            const char* name = tok;
            char* value = eq + 1;
            if (n == PLAY_MAX_CHANGES) {
                cli_error("play", "%s:%u: more than %d changes", path, lineno, PLAY_MAX_CHANGES);
                ok = false;
                break;
            }
            play_change* c = &out[n];
            memset(c, 0, sizeof *c);
            c->time = time;
            c->line = lineno;
            if (strcmp(name, "trigger") == 0) {
                int32_t p = sw_animator_find_param(def, value);
                if (p < 0) {
                    cli_error("play", "%s:%u: no parameter \"%s\"", path, lineno, value);
                    ok = false;
                    break;
                }
                c->kind = PLAY_TRIGGER;
                c->index = (uint32_t)p;
                c->value = 1.0f;
            } else if (strcmp(name, "play") == 0) {
                char* colon = strchr(value, ':');
                double fade = 0.0;
                if (colon) {
                    *colon = '\0';
                    if (!cli_parse_double(colon + 1, &fade) || fade < 0.0) {
                        cli_error("play", "%s:%u: play=STATE:FADE needs seconds", path, lineno);
                        ok = false;
                        break;
                    }
                }
                int32_t s = sw_animator_find_state(def, value);
                if (s < 0) {
                    cli_error("play", "%s:%u: no state \"%s\"", path, lineno, value);
                    ok = false;
                    break;
                }
                c->kind = PLAY_STATE;
                c->index = (uint32_t)s;
                c->value = (float)fade;
            } else {
                int32_t p = sw_animator_find_param(def, name);
                double v = 0.0;
                if (p < 0) {
                    cli_error("play", "%s:%u: no parameter \"%s\"", path, lineno, name);
                    ok = false;
                    break;
                }
                if (strcmp(value, "true") == 0)
                    v = 1.0;
                else if (strcmp(value, "false") == 0)
                    v = 0.0;
                else if (!cli_parse_double(value, &v) || fabs(v) > 3.4e38) {
                    cli_error("play", "%s:%u: \"%s\" is not a number", path, lineno, value);
                    ok = false;
                    break;
                }
                c->kind = PLAY_SET;
                c->index = (uint32_t)p;
                c->value = (float)v;
            }
            ++n;
        }
        if (ok && !any) {
            cli_error("play", "%s:%u: a time without changes", path, lineno);
            ok = false;
        }
    }
    cli_lines_close(&f);
    *count = n;
    return ok;
}

/* The event kind's word from its list in sinew/animator.h ("none" for a kind without one). */
static const char* play_event_kind(sw_animator_event_kind k) {
    const char* word = sw_animator_enum_word(SW_ANIMATOR_ENUM_EVENT_KIND, (uint32_t)k);
    return word ? word : "none";
}

typedef struct play_frame {
    uint32_t index;
    double time;
    const sw_animator_event* events;
    uint32_t events_count;
    sw_animator_root_motion rm;
    const sw_animator_state_info* states;
    uint32_t states_count;
    const sw_animator_contribution* contribs;
    uint32_t contribs_count;
    float layer_weights[SW_ANIMATOR_MAX_LAYERS];
    uint32_t layers_count;
} play_frame;

static void play_print_json(const sw_animator* def, const play_frame* f, bool first) {
    printf("%s\n  {\"frame\": %u, \"time\": ", first ? "" : ",", f->index);
    cli_json_number(stdout, f->time);
    printf(", \"layers\": [");
    for (uint32_t l = 0; l < f->layers_count; ++l) {
        printf("%s{\"name\": ", l ? ", " : "");
        cli_json_string(stdout, sw_animator_layer_name(def, l));
        printf(", \"weight\": ");
        cli_json_number(stdout, f->layer_weights[l]);
        printf("}");
    }
    printf("], \"states\": [");
    for (uint32_t i = 0; i < f->states_count; ++i) {
        const sw_animator_state_info* s = &f->states[i];
        printf("%s{\"machine\": ", i ? ", " : "");
        cli_json_string(stdout, sw_animator_machine_name(def, s->machine));
        printf(", \"state\": ");
        cli_json_string(stdout, sw_animator_state_name(def, s->state));
        printf(", \"weight\": ");
        cli_json_number(stdout, s->weight);
        printf(", \"normalized_time\": ");
        cli_json_number(stdout, s->normalized_time);
        printf(", \"current\": %s}", s->current ? "true" : "false");
    }
    printf("], \"clips\": [");
    for (uint32_t i = 0; i < f->contribs_count; ++i) {
        const sw_animator_contribution* c = &f->contribs[i];
        printf("%s{\"layer\": ", i ? ", " : "");
        cli_json_string(stdout, sw_animator_layer_name(def, c->layer));
        printf(", \"state\": ");
        cli_json_string(stdout, sw_animator_state_name(def, c->state));
        printf(", \"clip\": ");
        cli_json_string(stdout, sw_animator_clip_name(def, c->clip));
        printf(", \"weight\": ");
        cli_json_number(stdout, c->weight);
        printf(", \"phase\": ");
        cli_json_number(stdout, c->phase);
        printf(", \"time\": ");
        cli_json_number(stdout, c->time);
        printf("}");
    }
    printf("], \"root_motion\": {\"translation\": [");
    cli_json_number(stdout, f->rm.translation.x);
    printf(", ");
    cli_json_number(stdout, f->rm.translation.y);
    printf(", ");
    cli_json_number(stdout, f->rm.translation.z);
    printf("], \"yaw\": ");
    cli_json_number(stdout, f->rm.yaw);
    printf("}, \"events\": [");
    bool finished = false;
    for (uint32_t i = 0; i < f->events_count; ++i) {
        const sw_animator_event* e = &f->events[i];
        finished = finished || e->kind == SW_ANIMATOR_EVENT_KIND_FINISHED;
        printf("%s{\"kind\": \"%s\", \"layer\": ", i ? ", " : "", play_event_kind(e->kind));
        cli_json_string(stdout, sw_animator_layer_name(def, e->layer));
        printf(", \"state\": ");
        cli_json_string(stdout, sw_animator_state_name(def, e->state));
        printf(", \"name\": ");
        cli_json_string(stdout, e->name);
        if (e->kind == SW_ANIMATOR_EVENT_KIND_CLIP) {
            printf(", \"clip\": ");
            cli_json_string(stdout, sw_animator_clip_name(def, e->clip));
            printf(", \"time\": ");
            cli_json_number(stdout, e->time);
        }
        printf(", \"weight\": ");
        cli_json_number(stdout, e->weight);
        printf("}");
    }
    printf("], \"finished\": %s}", finished ? "true" : "false");
}

static void play_print_text(const sw_animator* def, const play_frame* f) {
    printf("%5u %8.4f ", f->index, f->time);
    for (uint32_t l = 1; l < f->layers_count; ++l) {
        printf(" %s=%.2f", sw_animator_layer_name(def, l), (double)f->layer_weights[l]);
    }
    for (uint32_t i = 0; i < f->states_count; ++i) {
        const sw_animator_state_info* s = &f->states[i];
        printf(" %s/%s%s w=%.3f n=%.3f", sw_animator_machine_name(def, s->machine),
               sw_animator_state_name(def, s->state), s->current ? "*" : "", (double)s->weight,
               s->normalized_time);
    }
    printf(" |");
    for (uint32_t i = 0; i < f->contribs_count; ++i) {
        const sw_animator_contribution* c = &f->contribs[i];
        printf(" %s w=%.3f ph=%.3f", sw_animator_clip_name(def, c->clip), (double)c->weight,
               (double)c->phase);
    }
    printf(" | rm %.4f %.4f yaw %.4f", (double)f->rm.translation.x, (double)f->rm.translation.z,
           (double)f->rm.yaw);
    for (uint32_t i = 0; i < f->events_count; ++i) {
        const sw_animator_event* e = &f->events[i];
        printf(" | %s %s", play_event_kind(e->kind), e->name);
    }
    printf("\n");
}

/* What a run holds: the animator bound to the file's skeleton, its
 * instance and scratch, the pose, the parameters and the per-frame reports. */
typedef struct play_run {
    const sw_animator* def;
    const sw_skeleton* skel;
    void* bound_mem;
    size_t bound_size;
    const sw_animator_bound* bound;
    void* inst_mem;
    sw_animator_instance* inst;
    void* scratch;
    sw_xform4* pose;
    float* params;
    sw_animator_state_info* states;
    sw_animator_contribution* contribs;
    sw_animator_event* events;
    sw_animator_bake* baked;
} play_run;

#define PLAY_EVENTS_CAP 256u
#define PLAY_STATES_CAP 256u
#define PLAY_CONTRIBS_CAP 512u

static void play_run_free(play_run* p) {
    sw_animator_bake_destroy(p->baked);
    free(p->events);
    free(p->contribs);
    free(p->states);
    free(p->params);
    if (p->skel) sw_free(NULL, p->pose, sizeof(sw_xform4) * p->skel->packets_count);
    if (p->bound) {
        sw_free(NULL, p->scratch, sw_animator_scratch_size(p->bound));
        sw_free(NULL, p->inst_mem, sw_animator_instance_size(p->bound));
    }
    sw_free(NULL, p->bound_mem, p->bound_size);
}

/* Binds the animator to the asset and allocates the run; prints the failure. */
static int play_run_init(play_run* p, const play_args* a, const sw_animator* def,
                         const sw_asset* asset) {
    memset(p, 0, sizeof *p);
    p->def = def;
    p->skel = asset->skeleton;
    sw_error err;
    memset(&err, 0, sizeof err);
    p->bound_size = sw_animator_bound_size(def, p->skel);
    p->bound_mem = sw_alloc(NULL, p->bound_size, 16);
    if (!p->bound_mem) {
        cli_error("play", "out of memory");
        return CLI_EXIT_FAIL;
    }
    sw_result r = sw_animator_bind(def, p->skel, asset->clips, asset->clips_count, p->bound_mem,
                                   p->bound_size, &p->bound, &err);
    if (r != SW_RESULT_OK) {
        p->bound = NULL;
        /* a clip the definition names: the file's clips, nearest first */
        if (r == SW_RESULT_NOT_FOUND && err.check &&
            strcmp(err.check, "clip slot has a clip") == 0 &&
            sw_asset_require_clip(asset, sw_animator_clip_name(def, (uint32_t)err.index), &err) <
                0) {
            err.check = "clip the animator plays in the file";
            cli_report("play", a->path, asset->format, r, &err);
        } else {
            cli_report("play", a->animator, SW_ASSET_FORMAT_NONE, r, &err);
        }
        return CLI_EXIT_FAIL;
    }
    const size_t isize = sw_animator_instance_size(p->bound);
    p->inst_mem = sw_alloc(NULL, isize, 16);
    p->scratch = sw_alloc(NULL, sw_animator_scratch_size(p->bound), 16);
    p->pose = (sw_xform4*)sw_alloc(NULL, sizeof(sw_xform4) * p->skel->packets_count, 16);
    p->params = (float*)calloc(sw_animator_params_count(def) + 1u, sizeof(float));
    p->states = (sw_animator_state_info*)calloc(PLAY_STATES_CAP, sizeof *p->states);
    p->contribs = (sw_animator_contribution*)calloc(PLAY_CONTRIBS_CAP, sizeof *p->contribs);
    p->events = (sw_animator_event*)calloc(PLAY_EVENTS_CAP, sizeof *p->events);
    if (!p->inst_mem || !p->scratch || !p->pose || !p->params || !p->states || !p->contribs ||
        !p->events) {
        cli_error("play", "out of memory");
        return CLI_EXIT_FAIL;
    }
    if (a->bake &&
        (r = sw_animator_bake_create(p->skel, a->fps, NULL, &p->baked, &err)) != SW_RESULT_OK) {
        cli_report("play", a->bake, SW_ASSET_FORMAT_NONE, r, &err);
        return CLI_EXIT_FAIL;
    }
    r = sw_animator_instance_init(p->inst_mem, isize, p->bound, &p->inst);
    if (r != SW_RESULT_OK) {
        cli_error("play", "instance: %s", sw_result_str(r));
        return CLI_EXIT_FAIL;
    }
    sw_animator_params_reset(def, p->params, sw_animator_params_count(def));
    return CLI_EXIT_OK;
}

/* Applies the script's changes due at `now`. */
static void play_apply_changes(play_run* p, const char* script, play_change* changes,
                               uint32_t count, double now) {
    for (uint32_t i = 0; i < count; ++i) {
        play_change* c = &changes[i];
        if (c->done || c->time > now + 1e-9) continue;
        c->done = true;
        if (c->kind != PLAY_STATE) {
            p->params[c->index] = c->value;
            continue;
        }
        const sw_result r = sw_animator_play(p->inst, p->bound, c->index, c->value);
        if (r != SW_RESULT_OK)
            cli_error("play", "%s:%u: play: %s", script, c->line, sw_result_str(r));
    }
}

/* Updates and evaluates frame f (dt seconds after the last) and fills its report. */
static sw_result play_step(play_run* p, uint32_t f, float dt, play_frame* pf) {
    uint32_t n = 0;
    const uint32_t params = sw_animator_params_count(p->def);
    sw_result r = sw_animator_update(p->inst, p->bound, p->params, params, dt, p->events,
                                     PLAY_EVENTS_CAP, &n, &pf->rm);
    if (r == SW_RESULT_OK)
        r = sw_animator_evaluate(p->inst, p->bound, p->scratch, sw_animator_scratch_size(p->bound),
                                 p->pose, p->skel->packets_count);
    if (r != SW_RESULT_OK) return r;
    pf->index = f;
    pf->events = p->events;
    pf->events_count = n < PLAY_EVENTS_CAP ? n : PLAY_EVENTS_CAP;
    pf->states = p->states;
    pf->states_count = sw_animator_states(p->inst, p->bound, p->states, PLAY_STATES_CAP);
    if (pf->states_count > PLAY_STATES_CAP) pf->states_count = PLAY_STATES_CAP;
    pf->contribs = p->contribs;
    pf->contribs_count =
        sw_animator_contributions(p->inst, p->bound, p->contribs, PLAY_CONTRIBS_CAP);
    if (pf->contribs_count > PLAY_CONTRIBS_CAP) pf->contribs_count = PLAY_CONTRIBS_CAP;
    pf->layers_count = sw_animator_layers_count(p->def);
    for (uint32_t l = 0; l < pf->layers_count; ++l)
        pf->layer_weights[l] = sw_animator_layer_weight(p->inst, p->bound, l);
    return SW_RESULT_OK;
}

/* Runs every frame, printing it and appending it to the bake; prints the failure. */
static int play_frames(play_run* p, const play_args* a, const sw_animator_json* aj,
                       play_change* changes, uint32_t changes_count) {
    sw_animator_idle idle;
    sw_animator_idle_init(&idle, aj->idle, aj->idle_count, aj->idle_seed);
    const uint32_t params = sw_animator_params_count(p->def);
    const uint32_t frames = (uint32_t)(a->seconds * a->fps + 0.5) + 1u;
    const float dt = (float)(1.0 / a->fps);
    for (uint32_t f = 0; f < frames; ++f) {
        const double now = (double)f / a->fps;
        play_apply_changes(p, a->script, changes, changes_count, now);
        if (aj->idle_count) sw_animator_idle_update(&idle, p->params, params, f == 0 ? 0.0f : dt);
        play_frame pf;
        sw_result r = play_step(p, f, f == 0 ? 0.0f : dt, &pf);
        if (r != SW_RESULT_OK) {
            cli_error("play", "frame %u: %s", f, sw_result_str(r));
            return CLI_EXIT_FAIL;
        }
        pf.time = now;
        if (a->json)
            play_print_json(p->def, &pf, f == 0);
        else
            play_print_text(p->def, &pf);
        sw_error err;
        memset(&err, 0, sizeof err);
        if (p->baked && (r = sw_animator_bake_append(p->baked, p->pose, p->skel->packets_count,
                                                     &pf.rm, &err)) != SW_RESULT_OK) {
            cli_report("play", a->bake, SW_ASSET_FORMAT_NONE, r, &err);
            return CLI_EXIT_FAIL;
        }
    }
    return CLI_EXIT_OK;
}

/* Writes the baked clip with the file's skeleton and meshes to --bake's
 * file, in the format of its extension. */
static int play_write_bake(const play_args* a, const sw_asset* asset, const play_run* p) {
    const sw_clip* clip = NULL;
    sw_error err;
    memset(&err, 0, sizeof err);
    const sw_result r = sw_animator_bake_build(p->baked, NULL, &clip, &err);
    if (r != SW_RESULT_OK) {
        cli_report("play", a->bake, SW_ASSET_FORMAT_NONE, r, &err);
        return CLI_EXIT_FAIL;
    }
    const sw_clip* clips[1] = {clip};
    const sw_scene scene = cli_asset_scene(asset, clips, 1);
    const int rc = cli_write_scene("play", a->bake, &scene);
    sw_clip_destroy(clip, NULL);
    return rc;
}

/* Runs the animator over the opened file; prints the frames and writes the bake. */
static int play_asset(const play_args* a, const sw_animator_json* aj, play_change* changes,
                      uint32_t changes_count, const sw_asset* asset) {
    play_run p;
    int code = play_run_init(&p, a, aj->animator, asset);
    if (code == CLI_EXIT_OK && a->json) {
        printf("{\"file\": ");
        cli_json_string(stdout, a->path);
        printf(", \"animator\": ");
        cli_json_string(stdout, a->animator);
        printf(", \"fps\": ");
        cli_json_number(stdout, a->fps);
        printf(", \"frames\": [");
    }
    if (code == CLI_EXIT_OK) code = play_frames(&p, a, aj, changes, changes_count);
    if (code == CLI_EXIT_OK && a->json) printf("\n]}\n");
    if (code == CLI_EXIT_OK && a->bake) code = play_write_bake(a, asset, &p);
    play_run_free(&p);
    return code;
}

int cli_play(int argc, char** argv) {
    play_args a;
    int code = play_parse(argc, argv, &a);
    if (code != CLI_EXIT_OK) return code;
    sw_error err;
    memset(&err, 0, sizeof err);
    sw_animator_json aj;
    sw_result r = sw_animator_json_read_file(a.animator, NULL, &aj, &err);
    if (r != SW_RESULT_OK) {
        cli_report("play", a.animator, SW_ASSET_FORMAT_NONE, r, &err);
        return CLI_EXIT_FAIL;
    }
    play_change* changes = (play_change*)calloc(PLAY_MAX_CHANGES, sizeof(play_change));
    uint32_t changes_count = 0;
    code = CLI_EXIT_FAIL;
    sw_asset asset;
    if (!changes) {
        cli_error("play", "out of memory");
    } else if (!a.script || play_read_script(a.script, aj.animator, changes, &changes_count)) {
        r = cli_asset_open(a.path, &a.asset.opt, &asset, &err);
        if (r == SW_RESULT_OK) {
            cli_warn_asset("play", a.path, &asset);
            code = play_asset(&a, &aj, changes, changes_count, &asset);
            sw_asset_free(&asset);
        } else {
            cli_report("play", a.path, asset.format, r, &err);
        }
    }
    free(changes);
    sw_animator_json_free(&aj, NULL);
    return code;
}
