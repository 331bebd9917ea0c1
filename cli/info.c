/* sinew info FILE [--json] [--isolate] [--timeout MS] [--scale S] [--clips A,B]:
 * format, joint tree, clips with durations, tracks, keys, bytes, and skinned
 * meshes (vertices, triangles, palette, morph targets). */
#include <stdlib.h>
#include <string.h>

#include "common.h"

static uint64_t info_keys(const sw_clip* c) {
    uint64_t keys = 0;
    const sw_clip_track* t = sw_clip_tracks(c);
    for (uint32_t i = 0; i < c->tracks_count; ++i)
        keys += t[i].keys_count;
    return keys;
}

static void info_text(const char* path, const sw_asset* a) {
    const sw_skeleton* s = a->skeleton;
    const int16_t* parents = sw_skeleton_parents(s);
    printf("file: %s\n", path);
    printf("format: %s\n", cli_format_name(a->format));
    printf("bytes: %llu\n", (unsigned long long)a->file_size);
    printf("skeleton: %u joints, %u bytes\n", s->joints_count, s->size);
    /* Depth of each joint (parents come first). */
    uint32_t depth[SW_SKELETON_MAX_JOINTS];
    for (uint32_t j = 0; j < s->joints_count; ++j) {
        depth[j] = parents[j] < 0 ? 0u : depth[parents[j]] + 1u;
        printf("  %*s%s\n", (int)(2u * depth[j]), "", sw_skeleton_joint_name(s, j));
    }
    printf("clips: %u\n", a->clips_count);
    for (uint32_t i = 0; i < a->clips_count; ++i) {
        const sw_clip* c = a->clips[i];
        printf("  [%u] \"%s\": %.6g s, %u tracks (%u float), %llu keys, %u events, %u bytes, "
               "codec %s\n",
               i, sw_clip_name(c), (double)c->duration, c->tracks_count, c->float_tracks_count,
               (unsigned long long)info_keys(c), c->events_count, c->size, cli_codec_name(c));
    }
    printf("meshes: %u\n", a->meshes_count);
    for (uint32_t i = 0; i < a->meshes_count; ++i) {
        const sw_mesh* m = a->meshes[i];
        printf("  [%u] \"%s\": %u vertices, %u triangles, palette %u, %u morph targets%s%s, "
               "%u bytes\n",
               i, sw_mesh_name(m), m->vertices_count, m->indices_count / 3u, m->palette_count,
               m->morph_targets_count, sw_mesh_normals(m) ? ", normals" : "",
               sw_mesh_uvs(m) ? ", uvs" : "", m->size);
    }
}

static void info_json(const char* path, const sw_asset* a) {
    const sw_skeleton* s = a->skeleton;
    const int16_t* parents = sw_skeleton_parents(s);
    printf("{\"file\": ");
    cli_json_string(stdout, path);
    printf(", \"format\": \"%s\", \"bytes\": %llu,\n", cli_format_name(a->format),
           (unsigned long long)a->file_size);
    printf(" \"skeleton\": {\"joints_count\": %u, \"bytes\": %u, \"joints\": [", s->joints_count,
           s->size);
    for (uint32_t j = 0; j < s->joints_count; ++j) {
        printf("%s\n  {\"name\": ", j ? "," : "");
        cli_json_string(stdout, sw_skeleton_joint_name(s, j));
        printf(", \"parent\": %d}", (int)parents[j]);
    }
    printf("]},\n \"clips\": [");
    for (uint32_t i = 0; i < a->clips_count; ++i) {
        const sw_clip* c = a->clips[i];
        printf("%s\n  {\"name\": ", i ? "," : "");
        cli_json_string(stdout, sw_clip_name(c));
        printf(", \"duration\": ");
        cli_json_number(stdout, (double)c->duration);
        printf(", \"tracks\": %u, \"float_tracks\": %u, \"keys\": %llu, \"events\": %u, "
               "\"bytes\": %u, \"codec\": \"%s\"}",
               c->tracks_count, c->float_tracks_count, (unsigned long long)info_keys(c),
               c->events_count, c->size, cli_codec_name(c));
    }
    printf("],\n \"meshes\": [");
    for (uint32_t i = 0; i < a->meshes_count; ++i) {
        const sw_mesh* m = a->meshes[i];
        printf("%s\n  {\"name\": ", i ? "," : "");
        cli_json_string(stdout, sw_mesh_name(m));
        printf(", \"vertices\": %u, \"triangles\": %u, \"palette\": %u, \"morph_targets\": %u, "
               "\"normals\": %s, \"uvs\": %s, \"bytes\": %u}",
               m->vertices_count, m->indices_count / 3u, m->palette_count, m->morph_targets_count,
               sw_mesh_normals(m) ? "true" : "false", sw_mesh_uvs(m) ? "true" : "false", m->size);
    }
    printf("],\n \"warning\": ");
    cli_json_string(stdout, a->warning);
    printf("}\n");
}

int cli_info(int argc, char** argv) {
    const char* path = NULL;
    bool json = false;
    cli_asset_args args;
    memset(&args, 0, sizeof args);
    for (int i = 1; i < argc; ++i) {
        int used = cli_asset_option("info", argc, argv, &i, &args);
        if (used < 0) return CLI_EXIT_USAGE;
        if (used) continue;
        if (strcmp(argv[i], "--json") == 0) {
            json = true;
        } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
            return cli_unknown_option("info", argv[i]);
        } else if (!path) {
            path = argv[i];
        } else {
            cli_error("info", "one FILE expected");
            return CLI_EXIT_USAGE;
        }
    }
    if (!path) return cli_usage_error("info");
    sw_asset a;
    sw_error err;
    sw_result r = cli_asset_open(path, &args.opt, &a, &err);
    if (r != SW_RESULT_OK) {
        cli_report("info", path, a.format, r, &err);
        return CLI_EXIT_FAIL;
    }
    cli_warn_asset("info", path, &a);
    if (json) {
        info_json(path, &a);
    } else {
        info_text(path, &a);
    }
    sw_asset_free(&a);
    return CLI_EXIT_OK;
}
