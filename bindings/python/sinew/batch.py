"""Batch processing on Dask distributed: ``python3 -m sinew.batch``.

    python3 -m sinew.batch VERB INPUTS... -o OUTDIR [options] [-- CLI options]

VERB is one of convert, compress, retarget, export. Every input file is one
Dask task that runs ``sinew VERB INPUT -o OUTDIR/NAME --json CLI-OPTIONS``
in its own process (sinew._batch_task), on a local cluster of this machine's
cores by default or on an existing cluster (--scheduler ADDRESS). The
results (status, exit status, ratio, maximum error, seconds, the error line
and the CLI's report) are gathered into OUTDIR/sinew-batch.json and a table
on stdout; OUTDIR/sinew-batch-manifest.json records what made each output so
that a re-run skips outputs that are up to date. See docs/batch.md.
"""

import argparse
import contextlib
import datetime
import fcntl
import hashlib
import json
import logging
import os
import re
import shutil
import subprocess
import sys
import threading
import time
import uuid
import warnings

from . import _batch_task

VERBS = ("convert", "compress", "retarget", "export")
FORMATS = ("sinew", "glb", "gltf")
RESULTS_NAME = "sinew-batch.json"
MANIFEST_NAME = "sinew-batch-manifest.json"
LOCK_NAME = "sinew-batch.lock"
# Options the batch sets itself for every file.
_RESERVED = ("-o", "--out", "--json", "--batch", "--bake")


class UsageError(Exception):
    """A bad command line (exit status 2)."""


def _parser():
    p = argparse.ArgumentParser(
        prog="python3 -m sinew.batch",
        allow_abbrev=False,
        description="Run a sinew CLI verb over many files as Dask tasks, one file "
        "per task. Options after -- go to `sinew VERB` unchanged.",
        epilog="example: python3 -m sinew.batch convert /usr/share/assimp/models/BVH/*.bvh "
        "-o out -- --scale 0.056444",
    )
    p.add_argument("verb", choices=VERBS, help="the sinew CLI verb run on each file")
    p.add_argument("inputs", nargs="*", metavar="INPUT", help="input files")
    p.add_argument("-o", "--out", required=True, metavar="OUTDIR", help="output folder")
    p.add_argument("--from", dest="from_file", metavar="LIST",
                   help="read more inputs from LIST, one path per line (- for stdin)")
    p.add_argument("--format", choices=FORMATS,
                   help="output format (default: glb for export, sinew otherwise)")
    p.add_argument("--scheduler", metavar="ADDRESS",
                   help="an existing Dask scheduler (default: a local cluster)")
    p.add_argument("--workers", type=int, metavar="N",
                   help="worker processes of the local cluster (default: this "
                   "machine's cores)")
    p.add_argument("--sinew", metavar="PATH", help="the sinew CLI to run")
    p.add_argument("--timeout", type=float, default=600.0, metavar="SECONDS",
                   help="time limit per file (default 600)")
    p.add_argument("--force", action="store_true", help="redo outputs that are up to date")
    p.add_argument("--json", action="store_true",
                   help="print the results document instead of the table")
    return p


def parse_args(argv):
    """Splits argv at "--" and parses the batch's own options.

    Returns (namespace, CLI options). Raises UsageError for a bad command
    line (argparse itself exits with status 2 on its own errors).
    """
    argv = list(argv)
    passthrough = []
    if "--" in argv:
        cut = argv.index("--")
        argv, passthrough = argv[:cut], argv[cut + 1:]
    args, unknown = _parser().parse_known_args(argv)
    if unknown:
        raise UsageError("unknown option %s (options of sinew %s go after --)"
                         % (unknown[0], args.verb))
    for a in passthrough:
        name = a.split("=", 1)[0]
        if name in _RESERVED:
            raise UsageError("%s after --: the batch sets %s itself" % (a, name))
    if args.workers is not None and (args.workers < 1 or args.scheduler):
        raise UsageError("--workers N: N >= 1, and only for the local cluster")
    if args.timeout <= 0:
        raise UsageError("--timeout SECONDS: must be positive")
    if args.format is None:
        args.format = "glb" if args.verb == "export" else "sinew"
    if args.format != "sinew" and args.verb == "compress":
        raise UsageError("compress writes .sinew only (--format %s)" % args.format)
    return args, passthrough


def find_cli(explicit=None):
    """The sinew CLI to run: --sinew, $SINEW_CLI, the one beside the package
    (an installed prefix's bin/sinew, or a build folder's sinew), then PATH.

    Returns an absolute path; raises UsageError when none is found.
    """
    for given, what in ((explicit, "--sinew"), (os.environ.get("SINEW_CLI"), "SINEW_CLI")):
        if given:
            if os.path.isfile(given) and os.access(given, os.X_OK):
                return os.path.abspath(given)
            raise UsageError("%s %s: not an executable file" % (what, given))
    here = os.path.dirname(os.path.abspath(__file__))
    # <build>/python/sinew -> <build>/sinew; <prefix>/lib/python3.X/site-packages/sinew
    # (or lib/python3/dist-packages/sinew) -> <prefix>/bin/sinew.
    for parent in list(_parents(here))[:4]:
        for cand in (os.path.join(parent, "bin", "sinew"), os.path.join(parent, "sinew")):
            if cand != here and os.path.isfile(cand) and os.access(cand, os.X_OK):
                return cand
    found = shutil.which("sinew")
    if found:
        return os.path.abspath(found)
    raise UsageError("no sinew CLI found: give --sinew PATH or set SINEW_CLI")


def _parents(path):
    while True:
        parent = os.path.dirname(path)
        if parent == path:
            return
        yield parent
        path = parent


def cli_identity(cli):
    """{"path", "version", "sha256"} of the CLI: what the manifest records."""
    try:
        out = subprocess.run([cli, "--version"], capture_output=True, text=True,
                             timeout=60, check=True).stdout.strip()
    except (OSError, subprocess.SubprocessError) as e:
        raise UsageError("%s --version failed: %s" % (cli, e)) from e
    digest = hashlib.sha256()
    with open(cli, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return {"path": cli, "version": out, "sha256": digest.hexdigest()}


def read_inputs(args):
    """The input paths, absolute, in the order given, each once."""
    paths = list(args.inputs)
    if args.from_file:
        try:
            with (contextlib.nullcontext(sys.stdin) if args.from_file == "-"
                  else open(args.from_file, encoding="utf-8")) as f:
                paths += [ln.rstrip("\n") for ln in f if ln.strip()]
        except OSError as e:
            raise UsageError("--from %s: %s" % (args.from_file, e.strerror)) from e
    if not paths:
        raise UsageError("no input files (give INPUT... or --from LIST)")
    seen, out = set(), []
    for p in paths:
        if os.path.isdir(p):
            raise UsageError("%s is a folder: give its files (a shell glob, or "
                             "find ... | --from -)" % p)
        a = os.path.abspath(p)
        key = os.path.realpath(a)
        if key not in seen:
            seen.add(key)
            out.append(a)
    return out


def output_names(inputs, fmt):
    """OUTDIR file names, one per input: the input's name with its extension
    replaced by fmt; inputs whose names would collide are named by their
    path below the inputs' common folder with "/" as "_", extension kept
    (BVH_01_01.bvh.sinew). Raises UsageError if names still collide."""
    stem = [os.path.splitext(os.path.basename(p))[0] + "." + fmt for p in inputs]
    counts = {}
    for s in stem:
        counts[s] = counts.get(s, 0) + 1
    common = os.path.commonpath([os.path.dirname(p) for p in inputs])
    names = []
    for p, s in zip(inputs, stem):
        if counts[s] > 1:
            s = os.path.relpath(p, common).replace(os.sep, "_") + "." + fmt
        names.append(s)
    if len(set(names)) != len(names):
        dup = sorted(n for n in set(names) if names.count(n) > 1)
        raise UsageError("inputs give the same output name %s; run them separately" % dup[0])
    return names


def _stamp(path):
    st = os.stat(path)
    return [st.st_size, st.st_mtime_ns]


def _write_json_atomic(path, doc):
    tmp = "%s.tmp.%d" % (path, os.getpid())
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")
    os.replace(tmp, path)


def load_manifest(outdir):
    """The manifest's entries by output name ({} when absent or unreadable)."""
    try:
        with open(os.path.join(outdir, MANIFEST_NAME), encoding="utf-8") as f:
            doc = json.load(f)
        return dict(doc.get("outputs", {}))
    except (OSError, ValueError, AttributeError):
        return {}


def _entry_key(job, identity):
    return {"input": job["input"], "verb": job["verb"], "args": job["args"],
            "cli_version": identity["version"], "cli_sha256": identity["sha256"]}


def up_to_date(entry, job, identity):
    """True when entry (a manifest record) says the output was made from the
    same input (path, size and modification time), verb, options and CLI, the
    output files are as the run left them, and they are newer than the input."""
    if not entry or any(entry.get(k) != v for k, v in _entry_key(job, identity).items()):
        return False
    try:
        src = _stamp(job["input"])
        outs = [_stamp(p) for p in _batch_task.output_files(job["output"])]
    except OSError:
        return False
    return (entry.get("input_stamp") == src and entry.get("output_stamps") == outs
            and all(o[1] >= src[1] for o in outs))


def manifest_entry(job, identity, result):
    """The manifest record for a job whose output was just written, or None
    when its files cannot be read back."""
    try:
        src = _stamp(job["input"])
        outs = [_stamp(p) for p in _batch_task.output_files(job["output"])]
    except OSError:
        return None
    entry = _entry_key(job, identity)
    entry.update(input_stamp=src, output_stamps=outs, result=result)
    return entry


def remove_temporaries(outdir, names):
    """Removes what a killed CLI left: NAME.tmp.PID for NAME an output (or a
    .gltf's .bin) of this batch. Returns the names removed."""
    mine = set()
    for n in names:
        mine.update(os.path.basename(p) for p in _batch_task.output_files(n))
    pattern = re.compile(r"(.+)\.tmp\.\d+$")
    removed = []
    with os.scandir(outdir) as it:
        for e in it:
            m = pattern.match(e.name)
            if m and m.group(1) in mine and e.is_file(follow_symlinks=False):
                os.remove(e.path)
                removed.append(e.name)
    return sorted(removed)


@contextlib.contextmanager
def dask_client(args):
    """A Client on --scheduler, or on a new LocalCluster of --workers worker
    processes (one thread each: the work is in the CLI's process). Yields
    (client, description); closes what it opened."""
    from distributed import Client, LocalCluster

    if args.scheduler:
        with Client(args.scheduler, timeout="60s") as client:
            yield client, args.scheduler
        return
    workers = args.workers or len(os.sched_getaffinity(0))
    # Dask's own logs stay quiet (a worker's heartbeat racing the cluster's
    # close logs a traceback); every file's outcome is in the results.
    with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                      dashboard_address=None, silence_logs=logging.CRITICAL) as cluster:
        with Client(cluster) as client:
            yield client, "local cluster"


def _progress_thread(futures):
    """dask.distributed's text progress bar, drawn from its own thread while
    the main thread gathers results."""
    from distributed import progress

    def draw():
        try:
            progress(futures, notebook=False)
        except Exception as e:  # a bar that cannot draw must not stop the run
            print("sinew.batch: no progress bar: %s" % e, file=sys.stderr)

    t = threading.Thread(target=draw, daemon=True)
    t.start()
    return t


def _failed_task(job, error):
    """A result that knows only its job: the result of a task that did not
    return (its workers died), and the base of an up-to-date file's record."""
    return {"input": job["input"], "output": job["output"], "status": "fail",
            "exit_status": None, "seconds": None, "ratio": None, "max_error": None,
            "error": error, "warnings": [], "output_bytes": None, "worker": None,
            "report": None}


def run_jobs(client, jobs, on_result, show_progress):
    """Submits one task per job, largest input first, and calls
    on_result(index, result) as each finishes. A task whose worker dies is
    rerun elsewhere by the scheduler (distributed.scheduler.allowed-failures
    times); past that it is reported as failed."""
    import cloudpickle
    from distributed import as_completed

    # Ship the task module by value: workers need the CLI, not this package.
    cloudpickle.register_pickle_by_value(_batch_task)
    token = uuid.uuid4().hex[:8]
    futures = {}
    for i, job in enumerate(jobs):
        f = client.submit(_batch_task.run_file, job, key="sinew-%s-%s-%d" % (job["verb"], token, i),
                          priority=job["input_bytes"], retries=0)
        futures[f] = i
    bar = _progress_thread(list(futures)) if show_progress else None
    for f in as_completed(list(futures)):
        i = futures[f]
        try:
            result = f.result()
        except Exception as e:
            result = _failed_task(jobs[i], "%s: %s" % (type(e).__name__, e))
        on_result(i, result)
    if bar:
        bar.join(timeout=5)


class Batch:
    """One batch run: its jobs, the manifest and the results as they arrive."""

    def __init__(self, args, cli_args, identity, inputs):
        self.args, self.identity = args, identity
        self.outdir = os.path.abspath(args.out)
        names = output_names(inputs, args.format)
        self.jobs = [{"cli": identity["path"], "verb": args.verb, "input": p,
                      "output": os.path.join(self.outdir, n), "args": list(cli_args),
                      "timeout": args.timeout, "input_bytes": _size(p)}
                     for p, n in zip(inputs, names)]
        self.names = names
        self.results = [None] * len(self.jobs)
        self.manifest = load_manifest(self.outdir)
        self._flushed = 0.0
        self.removed = []

    def plan(self):
        """Marks the jobs whose outputs are up to date; returns the others."""
        todo = []
        for i, (job, name) in enumerate(zip(self.jobs, self.names)):
            entry = self.manifest.get(name)
            if not self.args.force and up_to_date(entry, job, self.identity):
                last = entry.get("result")
                self.results[i] = dict(_failed_task(job, ""), **(last if isinstance(last, dict)
                                                                  else {}))
                self.results[i]["status"] = "up to date"
            else:
                todo.append(i)
        return todo

    def record(self, i, result):
        """Stores a result; a written output goes into the manifest, which is
        flushed at most every 2 s (and by flush())."""
        result["input_bytes"] = self.jobs[i]["input_bytes"]
        self.results[i] = result
        if result["status"] == "ok":
            entry = manifest_entry(self.jobs[i], self.identity, result)
            if entry:
                self.manifest[self.names[i]] = entry
        if time.monotonic() - self._flushed > 2.0:
            self.flush()

    def flush(self):
        _write_json_atomic(os.path.join(self.outdir, MANIFEST_NAME),
                           {"sinew_batch_manifest": 1, "outputs": self.manifest})
        self._flushed = time.monotonic()

    def document(self, started, seconds, run_seconds, where, workers, ran):
        counts = {}
        for r in self.results:
            counts[r["status"]] = counts.get(r["status"], 0) + 1
        return {
            "verb": self.args.verb, "args": self.jobs[0]["args"], "format": self.args.format,
            "outdir": self.outdir, "cli": self.identity,
            "cluster": {"scheduler": where, "workers": workers},
            "started": started, "seconds": seconds, "run_seconds": run_seconds,
            "files_per_second": (ran / run_seconds) if ran and run_seconds else None,
            "ok": counts.get("ok", 0), "failed": counts.get("fail", 0),
            "up_to_date": counts.get("up to date", 0),
            "removed_temporaries": self.removed, "files": self.results,
        }


def _size(path):
    try:
        return os.stat(path).st_size
    except OSError:
        return 0


def _count(n, what):
    return "%d %s%s" % (n, what, "" if n == 1 else "s")


def _cell(v, fmt):
    return "-" if v is None else fmt % v


def print_table(doc, out=sys.stdout):
    """The summary table: one row per file, then the failures' error lines and
    the totals."""
    rows = [("input", "status", "exit", "seconds", "ratio", "max error", "bytes")]
    for r in doc["files"]:
        rows.append((os.path.basename(r["input"]), r["status"], _cell(r["exit_status"], "%d"),
                     _cell(r["seconds"], "%.2f"), _cell(r["ratio"], "%.2f"),
                     _cell(r["max_error"], "%.4g"), _cell(r["output_bytes"], "%d")))
    widths = [max(len(row[c]) for row in rows) for c in range(len(rows[0]))]
    for row in rows:
        cells = [row[0].ljust(widths[0]), row[1].ljust(widths[1])]
        cells += [v.rjust(w) for v, w in zip(row[2:], widths[2:])]
        print("  ".join(cells).rstrip(), file=out)
    for r in doc["files"]:
        if r["status"] == "fail":
            print("FAIL %s: %s" % (r["input"], r["error"]), file=out)
    warned = sum(1 for r in doc["files"] if r.get("warnings"))
    if warned:
        print("%s with warnings from the CLI (\"warnings\" in the results)"
              % _count(warned, "file"), file=out)
    rate, cluster = doc["files_per_second"], doc["cluster"]
    where = ("nothing to run" if cluster["scheduler"] is None else "%s, %s"
             % (cluster["scheduler"], _count(cluster["workers"], "worker")))
    print("%s: %d ok, %d failed, %d up to date; %.1f s (%s)%s; results in %s"
          % (_count(len(doc["files"]), "file"), doc["ok"], doc["failed"], doc["up_to_date"], doc["seconds"],
             where, "" if rate is None else ", %.2f files/s" % rate,
             os.path.join(doc["outdir"], RESULTS_NAME)), file=out)


@contextlib.contextmanager
def _locked(outdir):
    """Holds OUTDIR/sinew-batch.lock: one batch writes a folder at a time."""
    with open(os.path.join(outdir, LOCK_NAME), "w") as f:
        try:
            fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as e:
            raise UsageError("%s: another batch is writing this folder" % outdir) from e
        yield


def run(args, cli_args):
    """Runs a parsed batch; returns the results document."""
    started = datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")
    t0 = time.monotonic()
    identity = cli_identity(find_cli(args.sinew))
    inputs = read_inputs(args)
    try:
        os.makedirs(args.out, exist_ok=True)
    except OSError as e:
        raise UsageError("-o %s: %s" % (args.out, e.strerror)) from e
    batch = Batch(args, cli_args, identity, inputs)
    with _locked(batch.outdir):
        todo = batch.plan()
        where, workers, run_seconds = None, 0, 0.0
        if todo:
            batch.removed += remove_temporaries(batch.outdir, batch.names)
            with dask_client(args) as (client, where):
                workers = len(client.scheduler_info()["workers"])
                t1 = time.monotonic()
                try:
                    run_jobs(client, [batch.jobs[i] for i in todo],
                             lambda k, r: batch.record(todo[k], r),
                             sys.stdout.isatty() and not args.json)
                finally:
                    batch.flush()
                run_seconds = time.monotonic() - t1
            batch.removed += remove_temporaries(batch.outdir, batch.names)
        doc = batch.document(started, time.monotonic() - t0, run_seconds, where, workers,
                             len(todo))
        _write_json_atomic(os.path.join(batch.outdir, RESULTS_NAME), doc)
    return doc


def main(argv=None):
    """The command line; returns the exit status: 0 when every file is ok or
    up to date, 1 when one failed, 2 for a bad command line (or when every
    file failed as the CLI fails a bad command line, status 2)."""
    # A second cluster on this machine moves the scheduler's HTTP endpoint
    # (dashboard off) to another port, with a warning that says nothing here.
    warnings.filterwarnings("ignore", message="Port .* is already in use", category=UserWarning)
    try:
        args, cli_args = parse_args(sys.argv[1:] if argv is None else argv)
        doc = run(args, cli_args)
    except UsageError as e:
        print("sinew.batch: %s" % e, file=sys.stderr)
        return 2
    if args.json:
        json.dump(doc, sys.stdout, indent=1)
        sys.stdout.write("\n")
    else:
        print_table(doc)
    if doc["failed"] and all(r["exit_status"] == 2 for r in doc["files"]):
        return 2
    return 1 if doc["failed"] else 0


if __name__ == "__main__":
    sys.exit(main())
