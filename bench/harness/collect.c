/* The parent: runs the children, parses their lines, aggregates. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../bench_util.h"
#include "harness_internal.h"

const char* const bench_path_names[BENCH_PATHS] = {"run-time", "sse2"};

/* Splits a line at tabs in place; returns the number of fields (at most cap). */
static int bench_split(char* line, char** f, int cap) {
    int n = 0;
    char* p = line;
    while (n < cap) {
        f[n++] = p;
        char* t = strchr(p, '\t');
        if (!t) break;
        *t = '\0';
        p = t + 1;
    }
    return n;
}

static bool bench_rig_ok(int r) {
    return r >= 0 && r < BENCH_RIGS;
}

/* Appends a positive finite figure as process `process`'s (one per process). */
static bool bench_put(double* v, int* cnt, int process, const char* text) {
    const double x = strtod(text, NULL);
    if (!(x > 0.0) || !isfinite(x) || *cnt != process) return false;
    v[(*cnt)++] = x;
    return true;
}

static bool bench_parse_rig(char** f, bench_results* res) {
    const int r = atoi(f[1]);
    if (!bench_rig_ok(r)) return false;
    bench_meta* m = &res->rigs[r];
    m->present = true;
    snprintf(m->name, sizeof m->name, "%s", f[2]);
    snprintf(m->file, sizeof m->file, "%s", strcmp(f[3], "-") == 0 ? "" : f[3]);
    m->joints = (uint32_t)strtoul(f[4], NULL, 10);
    snprintf(m->clips[0], sizeof m->clips[0], "%s", f[5]);
    snprintf(m->clips[1], sizeof m->clips[1], "%s", f[6]);
    for (int k = 0; k < 2; ++k)
        for (int j = 0; j < 3; ++j)
            snprintf(m->chains[k][j], sizeof m->chains[k][j], "%s", f[7 + 3 * k + j]);
    return true;
}

static bool bench_parse_row(char** f, int process, bench_results* res) {
    const int r = atoi(f[1]), ci = atoi(f[2]), st = atoi(f[3]), k = atoi(f[4]), p = atoi(f[5]);
    if (!bench_rig_ok(r) || ci < 0 || ci >= BENCH_COUNTS || st < 0 || st >= BENCH_STAGES || k < 0 ||
        k >= BENCH_CODECS || p < 0 || p >= BENCH_PATHS)
        return false;
    return bench_put(res->v[r][ci][st][k][p], &res->n[r][ci][st][k][p], process, f[6]);
}

static bool bench_parse_ozz_row(char** f, int process, bench_results* res) {
    const int ci = atoi(f[1]), st = atoi(f[2]), b = atoi(f[3]);
    if (ci < 0 || ci >= BENCH_COUNTS || st < 0 || st >= BENCH_STAGES || b < 0 ||
        b >= BENCH_OZZ_BUILDS)
        return false;
    return bench_put(res->ozz_v[ci][st][b], &res->ozz_n[ci][st][b], process, f[4]);
}

static bool bench_parse_crowd(char** f, int process, bench_results* res) {
    const int r = atoi(f[1]), lod = atoi(f[2]), t = atoi(f[3]), k = atoi(f[5]);
    if (!bench_rig_ok(r) || lod < 0 || lod > 1 || t < 1 || t > 2 || k < 0 || k >= BENCH_CODECS)
        return false;
    int* cnt = &res->crowd_n[r][lod][t - 1];
    res->crowd_size[r][lod][t - 1][process] = strtod(f[4], NULL);
    if (!bench_put(res->crowd[r][lod][t - 1], cnt, process, f[6])) return false;
    res->crowd_codec[r] = k;
    for (int l = 0; l < 3; ++l)
        res->crowd_levels[r][lod][t - 1][l] = (uint32_t)strtoul(f[7 + l], NULL, 10);
    return true;
}

static bool bench_parse_pair(char** f, int process, bench_results* res) {
    const int r = atoi(f[1]), lod = atoi(f[2]);
    if (!bench_rig_ok(r) || lod < 0 || lod > 1) return false;
    double* q = res->pair[r][lod];
    for (int k = 0; k < BENCH_PAIR_FIELDS; ++k)
        q[k] = strtod(f[3 + k], NULL);
    int* cnt = &res->pair_n[r][lod];
    if (*cnt != process || !(q[2] > 0.0) || !(q[12] > 0.0)) return false;
    res->pair_cpu_ratio[r][lod][*cnt] = q[12];
    res->pair_ratio[r][lod][(*cnt)++] = q[2];
    return true;
}

static bool bench_parse_budget(char** f, int process, bench_results* res) {
    const int r = atoi(f[1]);
    if (!bench_rig_ok(r)) return false;
    if (res->budget_process[r] != process) { /* keep the last process's runs */
        res->budget_process[r] = process;
        res->budget_n[r] = 0;
    }
    if (res->budget_n[r] >= 8) return false;
    double* row = res->budget[r][res->budget_n[r]++];
    for (int k = 0; k < 8; ++k)
        row[k] = strtod(f[2 + k], NULL);
    return true;
}

/* "crowdskip": the last process's fields, and each process's cost ratios. */
static bool bench_parse_skip(char** f, int process, bench_results* res) {
    const int r = atoi(f[1]);
    if (!bench_rig_ok(r) || process >= BENCH_MAX_PROCESSES) return false;
    for (int k = 0; k < BENCH_SKIP_FIELDS; ++k)
        res->skip[r][k] = strtod(f[2 + k], NULL);
    const double all = res->skip[r][2];
    res->skip_ratio[r][0][process] = res->skip[r][3] / all;
    res->skip_ratio[r][1][process] = res->skip[r][4] / all;
    res->skip_n[r] = process + 1;
    return true;
}

/* "crowdlod": each process's cost of a codec's level in one crowd, the
 * level's cut and kept joints, the crowd's characters, the frames. */
static bool bench_parse_lod(char** f, int process, bench_results* res) {
    const int r = atoi(f[1]), c = atoi(f[2]), k = atoi(f[3]), l = atoi(f[4]);
    if (!bench_rig_ok(r) || c < 0 || c >= BENCH_LOD_COUNTS || k < 0 || k >= BENCH_CODECS || l < 0 ||
        l >= BENCH_LOD_LEVELS)
        return false;
    res->lod_cut[r][l] = (uint32_t)strtoul(f[5], NULL, 10);
    res->lod_kept[r][l] = (uint32_t)strtoul(f[6], NULL, 10);
    res->lod_chars[r][c] = (uint32_t)strtoul(f[7], NULL, 10);
    res->lod_frames[r] = (uint32_t)strtoul(f[8], NULL, 10);
    return bench_put(res->lod[r][c][k][l], &res->lod_n[r][c][k][l], process, f[9]);
}

/* ozz's description, its absence note, and both sides' IK checks (the last
 * process's). */
static bool bench_parse_checks(char** f, int n, bench_results* res) {
    bench_ozz_meta* z = &res->ozz;
    if (n == 6 && strcmp(f[0], "ozz") == 0) {
        z->present = true;
        z->joints = (uint32_t)strtoul(f[1], NULL, 10);
        z->bytes = strtoull(f[2], NULL, 10);
        z->error = strtod(f[3], NULL);
        z->builds[0] = atoi(f[4]) != 0;
        z->builds[1] = atoi(f[5]) != 0;
    } else if (n == 2 && strcmp(f[0], "ozznote") == 0) {
        snprintf(z->note, sizeof z->note, "%s", f[1]);
    } else if (n == 5 && strcmp(f[0], "ik") == 0 && bench_rig_ok(atoi(f[1]))) {
        bench_meta* m = &res->rigs[atoi(f[1])];
        m->ik_chains = (uint32_t)strtoul(f[2], NULL, 10);
        m->ik_reached = (uint32_t)strtoul(f[3], NULL, 10);
        m->ik_worst = strtod(f[4], NULL);
    } else if (n == 5 && strcmp(f[0], "ozzik") == 0) {
        z->ik_chains = (uint32_t)strtoul(f[2], NULL, 10);
        z->ik_reached = (uint32_t)strtoul(f[3], NULL, 10);
        if (strtod(f[4], NULL) > z->ik_worst) z->ik_worst = strtod(f[4], NULL);
    } else {
        return false;
    }
    return true;
}

/* "skinset" (what a set skins, its vertices, the paths) and "skin" (one
 * row's ns per vertex). */
static bool bench_parse_skin(char** f, int n, int process, bench_results* res) {
    const int set = atoi(f[1]);
    if (set < 0 || set >= BENCH_SKIN_SETS) return false;
    if (n == 7 && strcmp(f[0], "skinset") == 0) {
        res->skin_present[set] = true;
        snprintf(res->skin_what[set], sizeof res->skin_what[set], "%s", f[2]);
        res->skin_vertices[set][0] = strtoull(f[3], NULL, 10);
        res->skin_vertices[set][1] = strtoull(f[4], NULL, 10);
        for (int p = 0; p < BENCH_SKIN_PATHS; ++p)
            snprintf(res->skin_path_names[p], sizeof res->skin_path_names[p], "%s", f[5 + p]);
        return true;
    }
    const int kind = atoi(f[2]), p = atoi(f[3]);
    if (kind < 0 || kind >= BENCH_SKIN_KINDS || p < 0 || p >= BENCH_SKIN_PATHS) return false;
    return bench_put(res->skin[set][kind][p], &res->skin_n[set][kind][p], process, f[4]);
}

static bool bench_parse_line(char** f, int n, int process, bench_results* res) {
    if (n == 13 && strcmp(f[0], "rig") == 0) return bench_parse_rig(f, res);
    if (n == 6 && strcmp(f[0], "codec") == 0) {
        const int r = atoi(f[1]), k = atoi(f[2]);
        if (!bench_rig_ok(r) || k < 0 || k >= BENCH_CODECS) return false;
        res->rigs[r].codec_bytes[k] = strtoull(f[3], NULL, 10);
        res->rigs[r].codec_error[k] = strtod(f[4], NULL);
        res->rigs[r].codec_rate[k] = strtod(f[5], NULL);
        return true;
    }
    if (n == 4 && strcmp(f[0], "path") == 0) {
        const int r = atoi(f[1]), p = atoi(f[2]);
        if (!bench_rig_ok(r) || p < 0 || p >= BENCH_PATHS) return false;
        snprintf(res->rigs[r].path_names[p], sizeof res->rigs[r].path_names[p], "%s", f[3]);
        return true;
    }
    if (n == 7 && strcmp(f[0], "row") == 0) return bench_parse_row(f, process, res);
    if (n == 5 && strcmp(f[0], "ozzrow") == 0) return bench_parse_ozz_row(f, process, res);
    if (n == 10 && strcmp(f[0], "crowd") == 0) return bench_parse_crowd(f, process, res);
    if (n == 3 + BENCH_PAIR_FIELDS + 1 && strcmp(f[0], "crowdpair") == 0)
        return bench_parse_pair(f, process, res);
    if (n == 10 && strcmp(f[0], "crowdbudget") == 0) return bench_parse_budget(f, process, res);
    if (n == 10 && strcmp(f[0], "crowdskip") == 0) return bench_parse_skip(f, process, res);
    if (n == 10 && strcmp(f[0], "crowdlod") == 0) return bench_parse_lod(f, process, res);
    if ((n == 7 && strcmp(f[0], "skinset") == 0) || (n == 5 && strcmp(f[0], "skin") == 0))
        return bench_parse_skin(f, n, process, res);
    return bench_parse_checks(f, n, res);
}

static bool bench_parse_child(char* text, int process, bench_results* res) {
    bool header = false;
    for (char* line = text; line && *line;) {
        char* nl = strchr(line, '\n');
        if (nl) *nl = '\0';
        char* f[24];
        const int n = bench_split(line, f, 24);
        if (n == 2 && strcmp(f[0], "sinew-bench") == 0)
            header = strcmp(f[1], "2") == 0;
        else if (!bench_parse_line(f, n, process, res))
            return false;
        line = nl ? nl + 1 : NULL;
    }
    return header;
}

/* Reads fd to its end into a malloc'd string (NULL when out of memory). */
static char* bench_read_all(int fd) {
    size_t cap = 4096, len = 0;
    char* buf = (char*)malloc(cap);
    for (;;) {
        if (buf && len + 1024 > cap) {
            char* grown = (char*)realloc(buf, cap * 2);
            if (!grown) {
                free(buf);
                buf = NULL;
            } else {
                buf = grown;
                cap *= 2;
            }
        }
        char scratch[1024];
        char* dst = buf ? buf + len : scratch;
        const ssize_t got = read(fd, dst, 1023);
        if (got <= 0) break;
        if (buf) len += (size_t)got;
    }
    if (buf) buf[len] = '\0';
    return buf;
}

/* Runs one child process; its stdout is collected into *out (malloc'd). */
static int bench_run_child(const bench_opts* o, char** out) {
    int fds[2];
    *out = NULL;
    if (pipe(fds) != 0) return -1;
    fflush(stdout);
    fflush(stderr);
    const pid_t pid = fork();
    if (pid < 0) {
        close(fds[0]);
        close(fds[1]);
        return -1;
    }
    if (pid == 0) {
        close(fds[0]);
        if (dup2(fds[1], STDOUT_FILENO) < 0) _exit(127);
        close(fds[1]);
        char* args[16];
        int a = 0;
        for (const char* const* p = o->child_args; *p && a < 10; ++p)
            args[a++] = (char*)*p;
        if (o->quick) args[a++] = (char*)"--quick";
        if (o->no_crowd) args[a++] = (char*)"--no-crowd";
        if (o->asset) {
            args[a++] = (char*)"--asset";
            args[a++] = (char*)o->asset;
        }
        if (o->ozz_data) {
            args[a++] = (char*)"--ozz";
            args[a++] = (char*)o->ozz_data;
        }
        args[a] = NULL;
        execv(o->self, args);
        _exit(127);
    }
    close(fds[1]);
    char* buf = bench_read_all(fds[0]);
    close(fds[0]);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0) {
    }
    *out = buf;
    return !buf ? -1 : WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* Every row must have one figure per process (ozz's when it ran). */
static bool bench_complete(const bench_opts* o, const bench_results* res) {
    for (int r = 0; r < BENCH_RIGS; ++r) {
        if (!res->rigs[r].present) continue;
        for (int ci = 0; ci < BENCH_COUNTS; ++ci)
            for (int st = 0; st < BENCH_STAGES; ++st) {
                for (int k = 0; k < (bench_stages[st].per_codec ? BENCH_CODECS : 1); ++k)
                    for (int p = 0; p < BENCH_PATHS; ++p)
                        if (res->n[r][ci][st][k][p] != o->processes) return false;
                for (int b = 0; b < BENCH_OZZ_BUILDS && r == 0; ++b)
                    if (res->ozz.builds[b] && res->ozz_n[ci][st][b] != o->processes) return false;
            }
        for (int lod = 0; lod < 2 && !o->no_crowd; ++lod)
            for (int t = 0; t < 2; ++t)
                if (res->crowd_n[r][lod][t] != o->processes) return false;
        for (int c = 0; c < BENCH_LOD_COUNTS && !o->no_crowd; ++c)
            for (int k = 0; k < BENCH_CODECS; ++k)
                for (int l = 0; l < BENCH_LOD_LEVELS; ++l)
                    if (res->lod_n[r][c][k][l] != o->processes) return false;
    }
    for (int set = 0; set < BENCH_SKIN_SETS; ++set)
        for (int kind = 0; kind < BENCH_SKIN_KINDS && res->skin_present[set]; ++kind)
            for (int p = 0; p < BENCH_SKIN_PATHS; ++p)
                if ((kind < 2 || res->skin_vertices[set][1] > 0) &&
                    res->skin_n[set][kind][p] != o->processes)
                    return false;
    return true;
}

bench_results* bench_collect(const bench_opts* o) {
    bench_results* res = (bench_results*)calloc(1, sizeof *res);
    if (!res) {
        bench_error("out of memory");
        return NULL;
    }
    res->crowd_probe = o->quick ? 64u : 1000u;
    res->crowd_confirmed = !o->quick;
    const bool bar = isatty(STDERR_FILENO) != 0;
    for (int p = 0; p < o->processes; ++p) {
        if (bar) fprintf(stderr, "\rsinew bench: process %d/%d", p + 1, o->processes);
        char* out = NULL;
        const int code = bench_run_child(o, &out);
        if (code != 0 || !out || !bench_parse_child(out, p, res)) {
            if (bar) fputc('\n', stderr);
            if (code == 0)
                bench_error("process %d printed unexpected output", p + 1);
            else
                bench_error("process %d failed (exit %d)", p + 1, code);
            free(out);
            free(res);
            return NULL;
        }
        free(out);
    }
    if (bar) fputc('\n', stderr);
    if (!bench_complete(o, res)) {
        bench_error("a row is missing from a process");
        free(res);
        return NULL;
    }
    return res;
}

double bench_median_of(const double* v, int n) {
    double tmp[BENCH_MAX_PROCESSES];
    if (n < 1) return NAN;
    memcpy(tmp, v, sizeof(double) * (size_t)n);
    return bench_median(tmp, n);
}

double bench_min_of(const double* v, int n) {
    double m = n > 0 ? v[0] : NAN;
    for (int i = 1; i < n; ++i)
        if (v[i] < m) m = v[i];
    return m;
}

double bench_row_median(const bench_results* res, int rig, int ci, int stage, int codec, int path) {
    return bench_median_of(res->v[rig][ci][stage][codec][path],
                           res->n[rig][ci][stage][codec][path]);
}

double bench_ozz_median(const bench_results* res, int ci, int stage, int build) {
    return bench_median_of(res->ozz_v[ci][stage][build], res->ozz_n[ci][stage][build]);
}

double bench_crowd_speedup(const bench_results* res, int rig, int lod) {
    return bench_median_of(res->crowd[rig][lod][0], res->crowd_n[rig][lod][0]) /
           bench_median_of(res->crowd[rig][lod][1], res->crowd_n[rig][lod][1]);
}

void bench_machine(char* cpu, size_t cap, int* family, int* model, double* load) {
    snprintf(cpu, cap, "unknown");
    *family = *model = -1;
    *load = -1.0;
    FILE* f = fopen("/proc/cpuinfo", "r");
    if (f) {
        char line[512];
        bool named = false;
        while (fgets(line, sizeof line, f) && !(named && *family >= 0 && *model >= 0)) {
            const char* c = strchr(line, ':');
            if (!c) continue;
            c += c[1] == ' ' ? 2 : 1;
            if (strncmp(line, "model name", 10) == 0 && !named) {
                snprintf(cpu, cap, "%s", c);
                cpu[strcspn(cpu, "\n")] = '\0';
                named = true;
            } else if (strncmp(line, "cpu family", 10) == 0 && *family < 0) {
                *family = atoi(c);
            } else if (strncmp(line, "model\t", 6) == 0 && *model < 0) {
                *model = atoi(c);
            }
        }
        fclose(f);
    }
    f = fopen("/proc/loadavg", "r");
    if (f) {
        if (fscanf(f, "%lf", load) != 1) *load = -1.0;
        fclose(f);
    }
}
