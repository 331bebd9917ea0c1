/* sinew sample FILE --time SECONDS [--loop] [--clip NAME|INDEX] [--json] [--scale S]
 *              [--isolate] [--timeout MS]:
 * every joint's model-space translation, rotation (x, y, z, w) and scale, for
 * any file sw_asset_open reads. A time outside the clip is clamped into it
 * with a note on stderr, or wrapped with --loop (sw_clip_play_time). */
#include <string.h>

#include "common.h"

typedef struct sample_args {
    const char* path;
    const char* clip;
    double time;      /* as asked */
    double play_time; /* where the clip plays it */
    bool has_time, loop;
    bool json;
    float scale; /* 0: file units */
    cli_asset_args asset;
} sample_args;

static int sample_parse(int argc, char** argv, sample_args* a) {
    memset(a, 0, sizeof *a);
    for (int i = 1; i < argc; ++i) {
        const char* s = argv[i];
        const char* next = i + 1 < argc ? argv[i + 1] : NULL;
        int used = cli_asset_option("sample", argc, argv, &i, &a->asset);
        if (used < 0) return CLI_EXIT_USAGE;
        if (used) continue;
        if (strcmp(s, "--json") == 0) {
            a->json = true;
        } else if (strcmp(s, "--loop") == 0) {
            a->loop = true;
        } else if (strcmp(s, "--time") == 0 || strcmp(s, "-t") == 0) {
            if (!cli_parse_double(next, &a->time)) {
                cli_error("sample", "--time needs a number of seconds");
                return CLI_EXIT_USAGE;
            }
            a->has_time = true;
            ++i;
        } else if (strcmp(s, "--clip") == 0) {
            if (!next) {
                cli_error("sample", "--clip needs a name or an index");
                return CLI_EXIT_USAGE;
            }
            a->clip = next;
            ++i;
        } else if (s[0] == '-' && s[1] != '\0') {
            return cli_unknown_option("sample", s);
        } else if (!a->path) {
            a->path = s;
        } else {
            cli_error("sample", "one FILE expected");
            return CLI_EXIT_USAGE;
        }
    }
    a->scale = a->asset.opt.scale;
    if (!a->path || !a->has_time) return cli_usage_error("sample");
    return CLI_EXIT_OK;
}

static void sample_print(const sample_args* a, const sw_skeleton* s, const sw_clip* clip,
                         const sw_xform* model) {
    const int16_t* parents = sw_skeleton_parents(s);
    if (a->json) {
        printf("{\"clip\": ");
        cli_json_string(stdout, sw_clip_name(clip));
        printf(", \"time\": ");
        cli_json_number(stdout, a->play_time);
        printf(", \"joints\": [");
        for (uint32_t j = 0; j < s->joints_count; ++j) {
            const sw_xform* x = &model[j];
            printf("%s\n  {\"name\": ", j ? "," : "");
            cli_json_string(stdout, sw_skeleton_joint_name(s, j));
            printf(", \"parent\": %d, \"t\": [", (int)parents[j]);
            const double v[10] = {x->t.x, x->t.y, x->t.z, x->r.x, x->r.y,
                                  x->r.z, x->r.w, x->s.x, x->s.y, x->s.z};
            for (int k = 0; k < 10; ++k) {
                if (k == 3)
                    printf("], \"r\": [");
                else if (k == 7)
                    printf("], \"s\": [");
                else if (k)
                    printf(", ");
                cli_json_number(stdout, v[k]);
            }
            printf("]}");
        }
        printf("\n], \"requested_time\": ");
        cli_json_number(stdout, a->time);
        printf(", \"duration\": ");
        cli_json_number(stdout, (double)clip->duration);
        printf(", \"loop\": %s}\n", a->loop ? "true" : "false");
        return;
    }
    printf("clip \"%s\" (%.6g s) at %.9g s, model space%s\n", sw_clip_name(clip),
           (double)clip->duration, a->play_time, a->scale > 0.0f ? ", scaled" : ", file units");
    printf("%4s %6s  %-24s %12s %12s %12s  %10s %10s %10s %10s  %9s %9s %9s\n", "#", "parent",
           "name", "tx", "ty", "tz", "rx", "ry", "rz", "rw", "sx", "sy", "sz");
    for (uint32_t j = 0; j < s->joints_count; ++j) {
        const sw_xform* x = &model[j];
        printf("%4u %6d  %-24s %12.6f %12.6f %12.6f  %10.7f %10.7f %10.7f %10.7f  %9.6f %9.6f "
               "%9.6f\n",
               j, (int)parents[j], sw_skeleton_joint_name(s, j), (double)x->t.x, (double)x->t.y,
               (double)x->t.z, (double)x->r.x, (double)x->r.y, (double)x->r.z, (double)x->r.w,
               (double)x->s.x, (double)x->s.y, (double)x->s.z);
    }
}

int cli_sample(int argc, char** argv) {
    sample_args a;
    int code = sample_parse(argc, argv, &a);
    if (code != CLI_EXIT_OK) return code;
    sw_asset asset;
    sw_error err;
    sw_result r = cli_asset_open(a.path, &a.asset.opt, &asset, &err);
    if (r != SW_RESULT_OK) {
        cli_report("sample", a.path, asset.format, r, &err);
        return CLI_EXIT_FAIL;
    }
    cli_warn_asset("sample", a.path, &asset);
    int32_t ci =
        a.clip ? sw_asset_require_clip(&asset, a.clip, &err) : (asset.clips_count ? 0 : -1);
    if (ci < 0) {
        if (a.clip)
            cli_report("sample", a.path, asset.format, SW_RESULT_NOT_FOUND, &err);
        else
            cli_error("sample", "%s: the file holds no clip", a.path);
        sw_asset_free(&asset);
        return CLI_EXIT_FAIL;
    }
    const sw_skeleton* s = asset.skeleton;
    const sw_clip* clip = asset.clips[ci];
    sw_xform4* local = (sw_xform4*)sw_alloc(NULL, s->packets_count * sizeof(sw_xform4), 16);
    sw_mat4* model = (sw_mat4*)sw_alloc(NULL, s->joints_count * sizeof(sw_mat4), 16);
    sw_xform* out = (sw_xform*)sw_alloc(NULL, s->joints_count * sizeof(sw_xform), 16);
    code = CLI_EXIT_FAIL;
    if (!local || !model || !out) {
        cli_error("sample", "%s: out of memory", a.path);
        goto done;
    }
    sw_sample_job sj;
    memset(&sj, 0, sizeof sj);
    sj.clip = clip;
    sj.skeleton = s;
    const bool outside = a.time < 0.0 || a.time > (double)clip->duration;
    a.play_time = outside || a.loop ? (double)sw_clip_play_time(clip, a.time, a.loop) : a.time;
    if (outside && !a.loop) {
        cli_error("sample",
                  "note: %.9g s is outside clip \"%s\" (0 to %.9g s): sampled at %.9g s "
                  "(--loop wraps instead)",
                  a.time, sw_clip_name(clip), (double)clip->duration, a.play_time);
    }
    sj.time = (float)a.play_time;
    sj.out = local;
    sj.out_count = s->packets_count;
    r = sw_sample_job_run(&sj);
    if (r != SW_RESULT_OK) {
        cli_error("sample", "%s: sample job: %s", a.path, sw_result_str(r));
        goto done;
    }
    sw_local_to_model_job lj;
    memset(&lj, 0, sizeof lj);
    lj.skeleton = s;
    lj.local = local;
    lj.local_count = s->packets_count;
    lj.out = model;
    lj.out_count = s->joints_count;
    r = sw_local_to_model_job_run(&lj);
    if (r != SW_RESULT_OK) {
        cli_error("sample", "%s: local-to-model job: %s", a.path, sw_result_str(r));
        goto done;
    }
    /* Readers scale what they read; archives scale here (model-space
     * translations are linear in the local translations). */
    const float post = asset.format == SW_ASSET_FORMAT_SINEW && a.scale > 0.0f ? a.scale : 1.0f;
    for (uint32_t j = 0; j < s->joints_count; ++j) {
        sw_mat4_decompose(&model[j], &out[j]);
        out[j].t = sw_vec3_scale(out[j].t, post);
    }
    sample_print(&a, s, clip, out);
    code = CLI_EXIT_OK;
done:
    sw_free(NULL, local, s->packets_count * sizeof(sw_xform4));
    sw_free(NULL, model, s->joints_count * sizeof(sw_mat4));
    sw_free(NULL, out, s->joints_count * sizeof(sw_xform));
    sw_asset_free(&asset);
    return code;
}
