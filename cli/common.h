/* Shared printing and argument helpers of the sinew CLI (no library logic). */
#ifndef SINEW_CLI_COMMON_H
#define SINEW_CLI_COMMON_H

#include <stdbool.h>
#include <stdio.h>

#include "sinew/sinew.h"
#include "sinew/tools/readers/asset.h"
#include "sinew/tools/writers/output.h"

/* Exit codes. */
#define CLI_EXIT_OK 0
#define CLI_EXIT_FAIL 1  /* the file or the operation failed */
#define CLI_EXIT_USAGE 2 /* bad command line */

/* Verbs: argv[0] is the verb itself. */
int cli_info(int argc, char** argv);
int cli_convert(int argc, char** argv);
int cli_sample(int argc, char** argv);
int cli_validate(int argc, char** argv);
int cli_import(int argc, char** argv);
int cli_export(int argc, char** argv);

/* Options of verbs that open files, filled by cli_asset_option. */
#define CLI_MAX_CLIPS 256
typedef struct cli_asset_args {
    sw_asset_options opt;
    const char* clip_names[CLI_MAX_CLIPS];
    char clip_text[4096]; /* the --clips list, split in place */
} cli_asset_args;

/* Recognises argv[*i] as one of --scale S, --clips A,B, --isolate,
 * --in-process, --timeout MS, --end-sites, --max-size BYTES, --max-memory BYTES and consumes it
 * (advancing *i past its value). Returns 1 when consumed, 0 when argv[*i] is not one of them, -1
 * after printing a usage error. */
int cli_asset_option(const char* verb, int argc, char** argv, int* i, cli_asset_args* a);

/* Sets the options' readers to the CLI's (assimp, from sinew_assimp). */
void cli_asset_readers(sw_asset_options* opt);
/* sw_asset_open with the CLI's readers (assimp, from sinew_assimp) added to
 * the options (NULL: defaults). */
sw_result cli_asset_open(const char* path, const sw_asset_options* options, sw_asset* out,
                         sw_error* err);

/* One line on stderr: "sinew: VERB: FILE: <result>[: <system error>][: <detail>]
 * (check "..."[, offset N][, line|chunk|index I])", the offset only when
 * not 0 and the index only when not -1 and no detail names the element.
 * `format` names err->index (line for BVH text, chunk for archives, index
 * otherwise). */
void cli_report(const char* verb, const char* file, sw_asset_format format, sw_result r,
                const sw_error* err);
/* "sinew: VERB: message" on stderr (usage and other non-file errors). */
void cli_error(const char* verb, const char* fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* Prints an asset's non-fatal warning (if any) on stderr. */
void cli_warn_asset(const char* verb, const char* file, const sw_asset* a);

/* Usage errors. cli_usage_error prints "sinew: VERB: usage: ..." (the verb's
 * line from cli/main.c's table); cli_unknown_option names the argument and
 * points at VERB --help. Both return CLI_EXIT_USAGE. */
int cli_usage_error(const char* verb);
int cli_unknown_option(const char* verb, const char* arg);

/* The output policy (sinew/tools/writers/output.h) before any work: `out`
 * may be written as one of `allowed` (sw_output_format bits; 0: any name)
 * and is none of the n `inputs` (NULL entries skipped). Prints one line and
 * returns CLI_EXIT_USAGE (extension, an input) or CLI_EXIT_FAIL (folder);
 * CLI_EXIT_OK otherwise. `what` names the option ("-o", "--bake"). */
int cli_output_check(const char* verb, const char* what, const char* out, uint32_t allowed,
                     const char* const* inputs, uint32_t n);
/* The asset's skeleton and meshes with `clips` (n) as a scene that borrows
 * them (nothing to free). */
sw_scene cli_asset_scene(const sw_asset* a, const sw_clip* const* clips, uint32_t n);
/* Writes the scene to out in the format of its extension (sw_output_write);
 * reports a failure on stderr. Returns CLI_EXIT_OK or CLI_EXIT_FAIL. */
int cli_write_scene(const char* verb, const char* out, const sw_scene* scene);
/* The output format's word ("sinew", "glb", "gltf"; "none"). */
const char* cli_output_format_name(const char* out);
/* Starts the JSON report of a verb that wrote a file: {"file": IN, "format":
 * FORMAT, "output": OUT, "output_format": ..., "joints_count": J,
 * "clips_count": C, "meshes_count": M -- without the closing brace, so the
 * verb appends its own fields and then "}\n". */
void cli_json_written(FILE* f, const char* in, const char* format, const char* out,
                      const sw_scene* written);

/* A text file (a script, a map) read whole through sw_file_read and handed
 * out line by line as fgets does. */
typedef struct cli_lines {
    void* text;
    size_t size;
    size_t pos;
} cli_lines;
/* Reads the file (at most max_size bytes); false after reporting the
 * failure on one line (cli_report). */
bool cli_lines_open(const char* verb, const char* path, size_t max_size, cli_lines* l);
/* The next line into buf (at most cap - 1 bytes, its newline kept, NUL
 * ended; a longer line comes in pieces); false at the end. */
bool cli_lines_next(cli_lines* l, char* buf, size_t cap);
void cli_lines_close(cli_lines* l);

/* Strict number parsing of a whole argument; false when it is not one. */
bool cli_parse_double(const char* s, double* out);
/* Parses the value s of a scale option (`option`, named in the error):
 * finite and > 0. */
bool cli_parse_scale(const char* verb, const char* option, const char* s, float* out);

/* Prints s as a JSON string literal (with quotes). */
void cli_json_string(FILE* f, const char* s);
/* Prints a number for JSON with %.9g (null when not finite). */
void cli_json_number(FILE* f, double v);

const char* cli_format_name(sw_asset_format f);
/* The clip's codec as a word: "raw", "quantized", "frames" ("none" otherwise). */
const char* cli_codec_name(const sw_clip* c);
/* For verbs that rebuild clips from their raw keys (compress, mirror,
 * convert --codec frames): when clip `index` of `file` is not raw, prints one
 * line naming its codec and returns true. */
bool cli_refuse_non_raw(const char* verb, const char* file, uint32_t index, const sw_clip* c);

#endif
