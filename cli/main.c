/* sinew: command-line tool. Dispatches to one verb per file; the verbs'
 * usage lines, summaries and examples live in the table here, for
 * `sinew help`, `sinew help VERB`, `sinew VERB --help` and usage errors. */
#include <string.h>

#include "common.h"

int cli_play(int argc, char** argv);     /* cli/play.c */
int cli_compress(int argc, char** argv); /* cli/compress.c */
int cli_demo(int argc, char** argv);     /* cli/demo.c */
int cli_retarget(int argc, char** argv); /* cli/retarget.c */
int cli_mirror(int argc, char** argv);   /* cli/mirror.c */
int cli_bench(int argc, char** argv);    /* cli/bench.c */

typedef struct cli_verb {
    const char* name;
    int (*run)(int, char**);
    const char* usage;   /* the arguments after "sinew VERB" */
    const char* summary; /* what it does, for `sinew help` */
    const char* example; /* one command line after "sinew " */
} cli_verb;

#define CLI_OUT "OUT.sinew|OUT.glb|OUT.gltf"

static const cli_verb k_verbs[] = {
    {"info", cli_info, "FILE [--json] [--clips A,B] [--scale S] [--isolate] [--timeout MS]",
     "format, joint tree, clips, tracks, keys, bytes, skinned meshes",
     "info /usr/share/assimp/models/BVH/01_01.bvh --json"},
    {"import", cli_import,
     "IN -o " CLI_OUT " [--json] [--clips A,B] [--scale S] [--isolate] [--in-process]\n"
     "       [--timeout MS]\n"
     "   or: sinew import --batch PATH... [-o OUTDIR] [--json] [--timeout MS]",
     "write skeleton, clips and meshes in the format of OUT's extension; --batch\n"
     "imports every model file under PATH (known extensions; others are listed\n"
     "as skipped), each in a child process, one line per file",
     "import RobotExpressive.glb -o robot.sinew --clips Idle,Walking"},
    {"export", cli_export,
     "IN -o " CLI_OUT " [--json] [--clips A,B] [--scale S] [--isolate]\n"
     "       [--timeout MS]",
     "write skeleton, skinned meshes and clips (glTF 2.0 for .glb and .gltf)",
     "export robot.sinew -o robot.glb"},
    {"convert", cli_convert,
     "IN -o " CLI_OUT " [--json] [--scale S] [--end-sites] [--codec raw|frames]\n"
     "       [--rate R] [--precision P] [--shell D] [--lod-order]",
     "read BVH, glTF or what assimp reads and write it; --codec frames stores\n"
     "clips as pose frames for fast sampling (.sinew only); --lod-order writes\n"
     "the joints in detail-major order (joint LOD levels keep a prefix)",
     "convert 01_01.bvh -o 01_01.sinew --scale 0.056444"},
    {"sample", cli_sample, "FILE --time SECONDS [--loop] [--clip NAME|INDEX] [--json] [--scale S]",
     "model-space translation, rotation (x y z w) and scale of every joint at a\n"
     "time; outside the clip, clamped with a note on stderr, or wrapped with --loop",
     "sample 01_01.bvh --time 8.3333 --json"},
    {"validate", cli_validate,
     "FILE [--json] [--isolate] [--timeout MS] [--scale S] [--end-sites] [--in-process]\n"
     "       [--clips A,B]",
     "load with every check, print OK or the failed check (--isolate: the reader\n"
     "in a child process)",
     "validate robot.sinew --json"},
    {"play", cli_play,
     "FILE --animator DEF.json [--script SCRIPT] --seconds S [--fps F] [--json]\n"
     "       [--bake " CLI_OUT "]",
     "run an animator (docs/animator.md) frame by frame; --bake writes the\n"
     "evaluated motion as a clip",
     "play RobotExpressive.glb --animator examples/robot.json --seconds 6 --json"},
    {"compress", cli_compress,
     "IN -o OUT.sinew [--precision P] [--shell D] [--rate R] [--json] [--plot FILE.png]\n"
     "       [--scale S] [--clips A,B] [--isolate]",
     "error-bounded compression of every clip (docs/compression.md)",
     "compress 01_01.bvh -o 01_01.sinew --precision 0.01 --json"},
    {"demo", cli_demo,
     "[--seconds S] [--fps F] [--out DIR] [--character FILE [--map FILE]]\n"
     "       [--frame-size WxH] [--seed N] [--no-physics] [--json]",
     "run the showcase scene headless: DIR/demo.glb, demo.png, metrics.json\n"
     "(docs/showcase.md); ragdoll actors on ODE unless --no-physics",
     "demo --seconds 4 --out /tmp/demo"},
    {"mirror", cli_mirror,
     "IN -o " CLI_OUT " [--json] [--clips A,B] [--axis x|y|z] [--pair A,B]...\n"
     "       [--scale S] [--isolate] [--timeout MS]",
     "every clip mirrored left for right (docs/mirroring.md)",
     "mirror robot.sinew -o robot_mirrored.glb"},
    {"retarget", cli_retarget,
     "SRC --to TARGET|default -o " CLI_OUT " [--json] [--map FILE] [--clips A,B]\n"
     "       [--scale S] [--to-scale S] [--no-ik] [--no-foot-lock] [--rate R] [--print-map]",
     "carry SRC's clips onto TARGET's skeleton (docs/retargeting.md)",
     "retarget 01_01.bvh --to default -o cmu_on_humanoid.glb"},
    {"bench", cli_bench, "[--json] [--processes N] [--quick] [--no-crowd] [--asset FILE]",
     "runtime cost per character and stage against ozz-animation\n"
     "(docs/benchmarks.md)",
     "bench --quick --json"},
};

static const cli_verb* cli_find_verb(const char* name) {
    for (size_t i = 0; i < sizeof k_verbs / sizeof k_verbs[0]; ++i) {
        if (strcmp(name, k_verbs[i].name) == 0) return &k_verbs[i];
    }
    return NULL;
}

/* Prints `text` with every line after the first indented by `indent`. */
static void cli_print_indented(FILE* f, const char* text, int indent) {
    for (const char* p = text; *p; ++p) {
        fputc(*p, f);
        if (*p == '\n') fprintf(f, "%*s", indent, "");
    }
}

static void cli_usage(FILE* f) {
    fputs("usage: sinew VERB [ARGS]   (sinew help VERB, sinew VERB --help: one verb)\n"
          "\nverbs:\n",
          f);
    for (size_t i = 0; i < sizeof k_verbs / sizeof k_verbs[0]; ++i) {
        fprintf(f, "  %-9s ", k_verbs[i].name);
        cli_print_indented(f, k_verbs[i].summary, 12);
        fputc('\n', f);
    }
    fputs("  help [VERB]  this text, or one verb's usage and an example\n"
          "\n"
          "options of the verbs that read models:\n"
          "  --scale S      multiply lengths by S (file units by default; FBX through\n"
          "                 assimp: metres)\n"
          "  --clips A,B    keep only these clips\n"
          "  --isolate      run the reader in a child process (assimp always is, unless\n"
          "                 --in-process)\n"
          "  --timeout MS   time limit of a child process (30000; batch: 10000)\n"
          "  --end-sites    keep BVH End Sites as leaf joints named <parent>_end\n"
          "  --json         print the report as JSON (docs/cli.md gives each shape)\n"
          "  --version      print the version\n"
          "\n"
          "Files are recognised by content: .sinew archives, BVH text, glTF 2.0 (.glb,\n"
          ".gltf), and through assimp everything else it reads (FBX, Collada, .x, ...).\n"
          "Outputs take the format of their extension: .sinew (archive), .glb (binary\n"
          "glTF), .gltf (glTF with its .bin beside it); an output is never an input and\n"
          "is written under a temporary name, then renamed.\n"
          "Exit status: 0 on success, 1 when a file or operation fails (one line on stderr\n"
          "naming the failed check), 2 for a bad command line.\n",
          f);
}

/* "usage: sinew VERB ARGS" and, with `example`, its summary and an example. */
static void cli_verb_help(FILE* f, const cli_verb* v, bool example) {
    fprintf(f, "usage: sinew %s %s\n", v->name, v->usage);
    if (!example) return;
    fputc('\n', f);
    cli_print_indented(f, v->summary, 0);
    fprintf(f, "\n\nexample:\n  sinew %s\n", v->example);
}

int cli_usage_error(const char* verb) {
    const cli_verb* v = cli_find_verb(verb);
    fprintf(stderr, "sinew: %s: ", verb);
    if (v) cli_verb_help(stderr, v, false);
    return CLI_EXIT_USAGE;
}

static bool cli_is_help(const char* s) {
    return strcmp(s, "--help") == 0 || strcmp(s, "-h") == 0;
}

int main(int argc, char** argv) {
    if (argc < 2) {
        cli_usage(stderr);
        return CLI_EXIT_USAGE;
    }
    const char* verb = argv[1];
    if (strcmp(verb, "help") == 0 || cli_is_help(verb)) {
        if (argc < 3) {
            cli_usage(stdout);
            return CLI_EXIT_OK;
        }
        const cli_verb* v = cli_find_verb(argv[2]);
        if (!v) {
            fprintf(stderr, "sinew: help: unknown verb \"%s\" (try sinew help)\n", argv[2]);
            return CLI_EXIT_USAGE;
        }
        cli_verb_help(stdout, v, true);
        return CLI_EXIT_OK;
    }
    if (strcmp(verb, "--version") == 0 || strcmp(verb, "version") == 0) {
        printf("sinew %d.%d.%d\n", SINEW_VERSION_MAJOR, SINEW_VERSION_MINOR, SINEW_VERSION_PATCH);
        return CLI_EXIT_OK;
    }
    const cli_verb* v = cli_find_verb(verb);
    if (!v) {
        fprintf(stderr, "sinew: unknown verb \"%s\" (try sinew help)\n", verb);
        return CLI_EXIT_USAGE;
    }
    for (int i = 2; i < argc; ++i) {
        if (cli_is_help(argv[i])) {
            cli_verb_help(stdout, v, true);
            return CLI_EXIT_OK;
        }
    }
    return v->run(argc - 1, argv + 1);
}
