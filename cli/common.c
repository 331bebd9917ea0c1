/* Shared printing and argument helpers of the sinew CLI. */
#include "common.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>

void cli_report(const char* verb, const char* file, sw_asset_format format, sw_result r,
                const sw_error* err) {
    fprintf(stderr, "sinew: %s: %s: %s", verb, file, sw_result_str(r));
    if (err && err->check) {
        fprintf(stderr, " (check \"%s\", offset %llu, %s %lld)", err->check,
                (unsigned long long)err->offset, format == SW_ASSET_FORMAT_BVH ? "line" : "chunk",
                (long long)err->index);
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

bool cli_parse_double(const char* s, double* out) {
    if (!s || !*s) return false;
    char* end = NULL;
    double v = strtod(s, &end);
    if (!end || *end != '\0' || !isfinite(v)) return false;
    *out = v;
    return true;
}

bool cli_parse_scale(const char* verb, const char* s, float* out) {
    double v = 0.0;
    if (!cli_parse_double(s, &v) || !(v > 0.0) || !isfinite((float)v) || !((float)v > 0.0f)) {
        cli_error(verb, "--scale needs a finite number > 0, got \"%s\"", s ? s : "");
        return false;
    }
    *out = (float)v;
    return true;
}

void cli_json_string(FILE* f, const char* s) {
    fputc('"', f);
    for (const unsigned char* p = (const unsigned char*)s; *p; ++p) {
        if (*p == '"' || *p == '\\') {
            fprintf(f, "\\%c", *p);
        } else if (*p < 0x20) {
            fprintf(f, "\\u%04x", *p);
        } else {
            fputc(*p, f);
        }
    }
    fputc('"', f);
}

void cli_json_number(FILE* f, double v) {
    if (isfinite(v)) {
        fprintf(f, "%.9g", v);
    } else {
        fputs("null", f);
    }
}

const char* cli_format_name(sw_asset_format f) {
    switch (f) {
    case SW_ASSET_FORMAT_SINEW:
        return "sinew";
    case SW_ASSET_FORMAT_BVH:
        return "bvh";
    default:
        return "unknown";
    }
}
