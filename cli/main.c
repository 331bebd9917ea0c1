/* sinew: command-line tool. Dispatches to one verb per file. */
#include <string.h>

#include "common.h"

int cli_play(int argc, char** argv);     /* cli/play.c */
int cli_compress(int argc, char** argv); /* cli/compress.c */
int cli_demo(int argc, char** argv);     /* cli/demo.c */
int cli_retarget(int argc, char** argv); /* cli/retarget.c */
int cli_mirror(int argc, char** argv);   /* cli/mirror.c */
int cli_bench(int argc, char** argv);    /* cli/bench.c */

static void cli_usage(FILE* f) {
    fputs("usage: sinew VERB [ARGS]\n"
          "\n"
          "verbs:\n"
          "  info FILE [--json]                 format, joint tree, clips, tracks, keys, bytes,\n"
          "                                     skinned meshes\n"
          "  import IN -o OUT.sinew [--clips A,B] [--scale S] [--isolate] [--timeout MS]\n"
          "                                     write skeleton, clips and meshes as .sinew\n"
          "  import --batch PATH... [-o OUTDIR] [--timeout MS]\n"
          "                                     import every file under PATH, each in a child\n"
          "                                     process; one line per file\n"
          "  export IN -o OUT.glb [--clips A,B] [--scale S]\n"
          "                                     write skeleton, skinned meshes and clips as\n"
          "                                     glTF 2.0 binary\n"
          "  convert IN -o OUT.sinew [--scale S] [--end-sites] [--codec raw|frames]\n"
          "          [--rate R] [--precision P] [--shell D]\n"
          "                                     write a .sinew archive; --codec frames stores\n"
          "                                     clips as pose frames (fast sampling)\n"
          "  sample FILE --time SECONDS [--clip NAME|INDEX] [--json] [--scale S]\n"
          "                                     model-space translation, rotation (x y z w)\n"
          "                                     and scale of every joint at a time\n"
          "  validate FILE [--isolate] [--timeout MS]\n"
          "                                     load with every check, print OK or the check\n"
          "                                     (--isolate: the reader in a child process)\n"
          "  play FILE --animator DEF.json [--script SCRIPT] --seconds S [--fps F] [--json]\n"
          "       [--bake OUT.sinew]            run an animator (docs/animator.md) frame by frame\n"
          "  compress IN -o OUT.sinew [--precision P] [--shell D] [--rate R] [--json]\n"
          "       [--plot FILE.png]             error-bounded compression of every clip\n"
          "                                     (docs/compression.md)\n"
          "  demo [--seconds S] [--fps F] [--out DIR] [--character FILE [--map FILE]]\n"
          "       [--frame-size WxH] [--seed N] run the showcase scene headless: demo.glb,\n"
          "       [--no-physics]                demo.png, metrics.json (docs/showcase.md);\n"
          "                                     ragdoll actors on ODE unless --no-physics\n"
          "  mirror IN -o OUT.sinew|OUT.glb [--clips A,B] [--axis x|y|z] [--pair A,B]...\n"
          "                                     every clip mirrored left for right\n"
          "                                     (docs/mirroring.md)\n"
          "  retarget SRC --to TARGET|default -o OUT.sinew|OUT.glb [--map FILE] [--clips A,B]\n"
          "       [--scale S] [--to-scale S] [--no-ik] [--no-foot-lock] [--rate R] [--print-map]\n"
          "                                     carry SRC's clips onto TARGET's skeleton\n"
          "                                     (docs/retargeting.md)\n"
          "  bench [--json] [--processes N] [--quick] [--asset FILE]\n"
          "                                     runtime cost per character and stage against\n"
          "                                     ozz-animation (docs/benchmarks.md)\n"
          "  help                               this text\n"
          "\n"
          "options:\n"
          "  --scale S      multiply lengths by S (file units by default; FBX through\n"
          "                 assimp: metres)\n"
          "  --clips A,B    keep only these clips\n"
          "  --isolate      run the reader in a child process (assimp always is, unless\n"
          "                 --in-process)\n"
          "  --timeout MS   time limit of a child process (30000; batch: 10000)\n"
          "  --end-sites    keep BVH End Sites as leaf joints named <parent>_end\n"
          "  --version      print the version\n"
          "\n"
          "Files are recognised by content: .sinew archives, BVH text, glTF 2.0 (.glb,\n"
          ".gltf), and through assimp everything else it reads (FBX, Collada, .x, ...).\n"
          "Exit status: 0 on success, 1 when a file or operation fails (one line on stderr\n"
          "naming the failed check), 2 for a bad command line.\n",
          f);
}

int main(int argc, char** argv) {
    if (argc < 2) {
        cli_usage(stderr);
        return CLI_EXIT_USAGE;
    }
    const char* verb = argv[1];
    if (strcmp(verb, "help") == 0 || strcmp(verb, "--help") == 0 || strcmp(verb, "-h") == 0) {
        cli_usage(stdout);
        return CLI_EXIT_OK;
    }
    if (strcmp(verb, "--version") == 0 || strcmp(verb, "version") == 0) {
        printf("sinew %d.%d.%d\n", SINEW_VERSION_MAJOR, SINEW_VERSION_MINOR, SINEW_VERSION_PATCH);
        return CLI_EXIT_OK;
    }
    static const struct {
        const char* name;
        int (*run)(int, char**);
    } verbs[] = {
        {"info", cli_info},         {"convert", cli_convert},   {"sample", cli_sample},
        {"validate", cli_validate}, {"import", cli_import},     {"export", cli_export},
        {"play", cli_play},         {"compress", cli_compress}, {"demo", cli_demo},
        {"retarget", cli_retarget}, {"mirror", cli_mirror},     {"bench", cli_bench},
    };
    for (size_t i = 0; i < sizeof verbs / sizeof verbs[0]; ++i) {
        if (strcmp(verb, verbs[i].name) == 0) return verbs[i].run(argc - 1, argv + 1);
    }
    fprintf(stderr, "sinew: unknown verb \"%s\" (try sinew help)\n", verb);
    return CLI_EXIT_USAGE;
}
