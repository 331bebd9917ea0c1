/* Replays fuzz inputs without libFuzzer: every file named on the command
 * line, or every file in a named folder, goes through LLVMFuzzerTestOneInput.
 * A missing folder counts as empty. Exit 0 when all inputs ran. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

static int replay_file(const char* path) {
    FILE* f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "replay: cannot open %s\n", path);
        return 1;
    }
    if (fseek(f, 0, SEEK_END) != 0) {
        fclose(f);
        return 1;
    }
    long n = ftell(f);
    rewind(f);
    if (n < 0) {
        fclose(f);
        return 1;
    }
    uint8_t* buf = (uint8_t*)malloc(n > 0 ? (size_t)n : 1u);
    if (!buf) {
        fclose(f);
        return 1;
    }
    size_t got = fread(buf, 1, (size_t)n, f);
    fclose(f);
    LLVMFuzzerTestOneInput(buf, got);
    free(buf);
    return 0;
}

static int replay_path(const char* path, unsigned* count) {
    struct stat st;
    if (stat(path, &st) != 0) return 0;
    if (!S_ISDIR(st.st_mode)) {
        ++*count;
        return replay_file(path);
    }
    DIR* d = opendir(path);
    if (!d) return 1;
    int failed = 0;
    struct dirent* e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.') continue;
        char full[4096];
        int w = snprintf(full, sizeof full, "%s/%s", path, e->d_name);
        if (w < 0 || (size_t)w >= sizeof full) continue;
        failed |= replay_path(full, count);
    }
    closedir(d);
    return failed;
}

int main(int argc, char** argv) {
    unsigned count = 0;
    int failed = 0;
    for (int i = 1; i < argc; ++i)
        failed |= replay_path(argv[i], &count);
    printf("replayed %u inputs\n", count);
    return failed;
}
