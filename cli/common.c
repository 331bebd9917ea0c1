/* Shared printing and argument helpers of the sinew CLI. */
#include "common.h"

#include "sinew/assimp/assimp_import.h"
#include "sinew/tools/writers/file.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* Prints s on stderr with line breaks as spaces (a reader's message may hold some). */
static void cli_put_one_line(const char* s) {
    for (; *s; ++s)
        fputc(*s == '\n' || *s == '\r' ? ' ' : *s, stderr);
}

void cli_report(const char* verb, const char* file, sw_asset_format format, sw_result r,
                const sw_error* err) {
    fprintf(stderr, "sinew: %s: %s: %s", verb, file, sw_result_str(r));
    if (err && err->sys_errno) fprintf(stderr, ": %s", strerror(err->sys_errno));
    if (err && err->detail[0]) {
        fputs(": ", stderr);
        cli_put_one_line(err->detail);
    }
    if (err && err->check) {
        fprintf(stderr, " (check \"%s\"", err->check);
        if (err->offset > 0) fprintf(stderr, ", offset %llu", (unsigned long long)err->offset);
        /* a detail names the element itself */
        if (err->index >= 0 && !err->detail[0]) {
            const char* what = format == SW_ASSET_FORMAT_BVH     ? "line"
                               : format == SW_ASSET_FORMAT_SINEW ? "chunk"
                                                                 : "index";
            fprintf(stderr, ", %s %lld", what, (long long)err->index);
        }
        fputc(')', stderr);
    }
    fputc('\n', stderr);
}

void cli_error(const char* verb, const char* fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "sinew: %s: ", verb);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

void cli_warn_asset(const char* verb, const char* file, const sw_asset* a) {
    if (a->warning[0]) fprintf(stderr, "sinew: %s: %s: warning: %s\n", verb, file, a->warning);
}

bool cli_lines_open(const char* verb, const char* path, size_t max_size, cli_lines* l) {
    memset(l, 0, sizeof *l);
    sw_error err = SW_ERROR_INIT;
    const sw_result r = sw_file_read(path, max_size, NULL, &l->text, &l->size, &err);
    if (r != SW_RESULT_OK) cli_report(verb, path, SW_ASSET_FORMAT_NONE, r, &err);
    return r == SW_RESULT_OK;
}

bool cli_lines_next(cli_lines* l, char* buf, size_t cap) {
    if (l->pos >= l->size || cap < 2) return false;
    const char* text = (const char*)l->text;
    size_t n = 0;
    while (n + 1 < cap && l->pos < l->size) {
        const char c = text[l->pos++];
        buf[n++] = c;
        if (c == '\n') break;
    }
    buf[n] = '\0';
    return true;
}

void cli_lines_close(cli_lines* l) {
    sw_free(NULL, l->text, l->size);
    memset(l, 0, sizeof *l);
}

bool cli_parse_double(const char* s, double* out) {
    if (!s || !*s) return false;
    char* end = NULL;
    double v = strtod(s, &end);
    if (!end || *end != '\0' || !isfinite(v)) return false;
    *out = v;
    return true;
}

bool cli_parse_scale(const char* verb, const char* option, const char* s, float* out) {
    double v = 0.0;
    if (!cli_parse_double(s, &v) || !(v > 0.0) || !isfinite((float)v) || !((float)v > 0.0f)) {
        cli_error(verb, "%s needs a finite number > 0, got \"%s\"", option, s ? s : "");
        return false;
    }
    *out = (float)v;
    return true;
}

void cli_json_string(FILE* f, const char* s) {
    char buf[512];
    const size_t n = sw_json_quote(s, buf, sizeof buf);
    if (n < sizeof buf) {
        fwrite(buf, 1, n, f);
        return;
    }
    char* big = (char*)malloc(n + 1u);
    if (!big) {
        fputs("\"?\"", f); /* still a JSON string */
        return;
    }
    sw_json_quote(s, big, n + 1u);
    fwrite(big, 1, n, f);
    free(big);
}

void cli_json_number(FILE* f, double v) {
    if (isfinite(v)) {
        fprintf(f, "%.9g", v);
    } else {
        fputs("null", f);
    }
}

/* What the CLI reads besides the tools' own formats. */
static const sw_asset_reader k_cli_readers[] = {SW_ASSIMP_ASSET_READER};

void cli_asset_readers(sw_asset_options* opt) {
    opt->readers = k_cli_readers;
    opt->readers_count = sizeof k_cli_readers / sizeof k_cli_readers[0];
}

sw_result cli_asset_open(const char* path, const sw_asset_options* options, sw_asset* out,
                         sw_error* err) {
    sw_asset_options opt;
    memset(&opt, 0, sizeof opt);
    if (options) opt = *options;
    cli_asset_readers(&opt);
    const sw_result r = sw_asset_open(path, &opt, out, err);
    if (r == SW_RESULT_LIMIT && err && err->check && strcmp(err->check, "file size") == 0) {
        const size_t n = strlen(err->detail);
        snprintf(err->detail + n, sizeof err->detail - n, " (--max-size raises it)");
    } else if (r != SW_RESULT_OK && err && err->check &&
               (strcmp(err->check, "memory budget") == 0 ||
                strstr(err->detail, "memory limit of"))) {
        const size_t n = strlen(err->detail);
        snprintf(err->detail + n, sizeof err->detail - n, " (--max-memory raises it)");
    }
    return r;
}

const char* cli_format_name(sw_asset_format f) {
    switch (f) {
    case SW_ASSET_FORMAT_SINEW:
        return "sinew";
    case SW_ASSET_FORMAT_BVH:
        return "bvh";
    case SW_ASSET_FORMAT_GLTF:
        return "gltf";
    case SW_ASSET_FORMAT_READER:
        return k_cli_readers[0].name; /* the CLI's one reader */
    default:
        return "unknown";
    }
}

const char* cli_codec_name(const sw_clip* c) {
    switch ((sw_clip_codec)c->codec) {
    case SW_CLIP_CODEC_RAW:
        return "raw";
    case SW_CLIP_CODEC_QUANTIZED:
        return "quantized";
    case SW_CLIP_CODEC_FRAMES:
        return "frames";
    case SW_CLIP_CODEC_NONE:
    default:
        return "none";
    }
}

bool cli_refuse_non_raw(const char* verb, const char* file, uint32_t index, const sw_clip* c) {
    if (c->codec == SW_CLIP_CODEC_RAW) return false;
    cli_error(verb,
              "%s: clip %u (%s) is stored with the %s codec%s; %s works on raw clips: give it "
              "the source file, or an archive from import or from convert without --codec",
              file, index, sw_clip_name(c), cli_codec_name(c),
              c->codec == SW_CLIP_CODEC_QUANTIZED ? " (already compressed)" : "", verb);
    return true;
}

/* "N", "NK", "NM" or "NG" (binary units) as a byte count > 0 that fits a size_t. */
static bool cli_parse_size(const char* s, size_t* out) {
    if (!s || *s < '0' || *s > '9') return false;
    char* end = NULL;
    errno = 0;
    const unsigned long long v = strtoull(s, &end, 10);
    unsigned shift = 0;
    if (*end == 'K') shift = 10;
    if (*end == 'M') shift = 20;
    if (*end == 'G') shift = 30;
    if (shift) ++end;
    if (errno || *end || v == 0 || v > (unsigned long long)(SIZE_MAX >> shift)) return false;
    *out = (size_t)v << shift;
    return true;
}

int cli_asset_option(const char* verb, int argc, char** argv, int* i, cli_asset_args* a) {
    const char* s = argv[*i];
    const char* next = *i + 1 < argc ? argv[*i + 1] : NULL;
    if (strcmp(s, "--isolate") == 0) {
        a->opt.isolate = true;
        return 1;
    }
    if (strcmp(s, "--in-process") == 0) {
        a->opt.readers_in_process = true;
        return 1;
    }
    if (strcmp(s, "--end-sites") == 0) {
        a->opt.end_sites = true;
        return 1;
    }
    if (strcmp(s, "--scale") == 0) {
        if (!next) {
            cli_error(verb, "--scale needs a number");
            return -1;
        }
        if (!cli_parse_scale(verb, "--scale", next, &a->opt.scale)) return -1;
        ++*i;
        return 1;
    }
    if (strcmp(s, "--max-size") == 0 || strcmp(s, "--max-memory") == 0) {
        size_t bytes = 0;
        if (!cli_parse_size(next, &bytes)) {
            cli_error(verb,
                      "%s needs a whole number of bytes > 0 (K, M or G: binary units), got "
                      "\"%s\"",
                      s, next ? next : "");
            return -1;
        }
        if (strcmp(s, "--max-size") == 0)
            a->opt.max_file_size = bytes;
        else
            a->opt.max_memory = bytes;
        ++*i;
        return 1;
    }
    if (strcmp(s, "--timeout") == 0) {
        double ms = 0.0;
        if (!cli_parse_double(next, &ms) || ms < 1.0 || ms > 86400000.0) {
            cli_error(verb, "--timeout needs milliseconds (1 to 86400000)");
            return -1;
        }
        a->opt.timeout_ms = (uint32_t)ms;
        ++*i;
        return 1;
    }
    if (strcmp(s, "--clips") == 0) {
        if (!next || !*next || strlen(next) >= sizeof a->clip_text) {
            cli_error(verb, "--clips needs a comma-separated list of clip names");
            return -1;
        }
        memcpy(a->clip_text, next, strlen(next) + 1u);
        uint32_t n = 0;
        for (char* p = a->clip_text;;) {
            char* comma = strchr(p, ',');
            if (comma) *comma = '\0';
            if (!*p || n == CLI_MAX_CLIPS) {
                cli_error(verb, "--clips: empty name or more than %d names", CLI_MAX_CLIPS);
                return -1;
            }
            a->clip_names[n++] = p;
            if (!comma) break;
            p = comma + 1;
        }
        a->opt.clips = a->clip_names;
        a->opt.clips_count = n;
        ++*i;
        return 1;
    }
    return 0;
}

int cli_unknown_option(const char* verb, const char* arg) {
    cli_error(verb, "unknown option \"%s\" (sinew %s --help)", arg, verb);
    return CLI_EXIT_USAGE;
}

int cli_output_check(const char* verb, const char* what, const char* out, uint32_t allowed,
                     const char* const* inputs, uint32_t n) {
    sw_error err = SW_ERROR_INIT;
    const sw_result r = sw_output_check(out, allowed, inputs, n, NULL, &err);
    if (r == SW_RESULT_OK) return CLI_EXIT_OK;
    const char* ext = sw_output_extension(sw_output_format_of(out));
    if (r == SW_RESULT_NOT_FOUND) {
        cli_error(verb,
                  "%s %s: unknown output extension (.sinew archive, .glb binary glTF, "
                  ".gltf glTF with its .bin)",
                  what, out);
    } else if (r == SW_RESULT_INVALID_ARGUMENT && err.check &&
               strcmp(err.check, "output format allowed") == 0) {
        char list[64] = "";
        for (uint32_t bit = 1; bit <= (uint32_t)SW_OUTPUT_FORMAT_GLTF; bit <<= 1) {
            if (!(allowed & bit)) continue;
            if (list[0]) strcat(list, " or ");
            strcat(list, sw_output_extension((sw_output_format)bit));
        }
        cli_error(verb, "%s %s: %s cannot write %s here, only %s", what, out, verb, ext, list);
    } else if (r == SW_RESULT_OVERLAP) {
        cli_error(verb, "%s %s: %s the input %s (the same file); choose another name", what, out,
                  err.offset ? "its .bin would overwrite" : "is", inputs[err.index]);
    } else if (r == SW_RESULT_IO && err.check && strcmp(err.check, "output is not a folder") == 0) {
        cli_error(verb, "%s %s: is a folder; give a file name", what, out);
    } else {
        cli_error(verb, "%s %s: the output's folder: %s", what, out, strerror(errno));
        return CLI_EXIT_FAIL;
    }
    return CLI_EXIT_USAGE;
}

sw_scene cli_asset_scene(const sw_asset* a, const sw_clip* const* clips, uint32_t n) {
    sw_scene s;
    memset(&s, 0, sizeof s);
    s.skeleton = a->skeleton;
    s.clips = (const sw_clip**)(uintptr_t)clips;
    s.clips_count = n;
    s.meshes = (const sw_mesh**)(uintptr_t)a->meshes;
    s.meshes_count = a->meshes_count;
    return s;
}

int cli_write_scene(const char* verb, const char* out, const sw_scene* scene) {
    sw_error err = SW_ERROR_INIT;
    const sw_result r = sw_output_write(scene, out, &err);
    if (r == SW_RESULT_OK) return CLI_EXIT_OK;
    cli_report(verb, out, SW_ASSET_FORMAT_NONE, r, &err);
    return CLI_EXIT_FAIL;
}

const char* cli_output_format_name(const char* out) {
    const char* ext = sw_output_extension(sw_output_format_of(out));
    return ext[0] ? ext + 1 : "none";
}

void cli_json_written(FILE* f, const char* in, const char* format, const char* out,
                      const sw_scene* written) {
    fputs("{\"file\": ", f);
    cli_json_string(f, in);
    fputs(", \"format\": ", f);
    cli_json_string(f, format);
    fputs(", \"output\": ", f);
    cli_json_string(f, out);
    fprintf(f,
            ", \"output_format\": \"%s\", \"joints_count\": %u, \"clips_count\": %u, "
            "\"meshes_count\": %u",
            cli_output_format_name(out), written->skeleton->joints_count, written->clips_count,
            written->meshes_count);
}
