"""One file of a batch run (sinew.batch): the work a Dask worker does.

The work runs in its own process, the `sinew` command line tool with
``--json``: a reader that crashes or hangs takes that process down, never the
worker, and the output is the CLI's output for the same file by construction.
The CLI writes under a temporary name and renames into place
(docs/cli.md, "Outputs"), so a task that is killed leaves no partial output.

This module uses the standard library only: ``sinew.batch`` ships it to the
workers by value, so a Dask cluster's workers need the CLI binary, not the
Python package.
"""

import ctypes
import json
import os
import signal
import socket
import subprocess
import time

_PR_SET_PDEATHSIG = 1


def _prctl():
    """libc's prctl, looked up in the worker (never in a forked child), or None."""
    try:
        return ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None


def _die_with_parent(parent_pid):
    """A preexec function: the child gets SIGKILL when the worker dies.

    Linux delivers the signal when the thread that started the child ends;
    that thread waits for the child for as long as the child runs, so it ends
    before the child only when the whole worker process dies. Elsewhere (no
    prctl) the child outlives a killed worker but still writes atomically.
    """
    prctl = _prctl()

    def preexec():
        if prctl is None:
            return
        prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        if os.getppid() != parent_pid:  # the worker died before prctl
            os._exit(1)

    return preexec


def output_files(output):
    """The files one output consists of: a .gltf has its .bin beside it."""
    root, ext = os.path.splitext(output)
    return [output, root + ".bin"] if ext.lower() == ".gltf" else [output]


def _output_bytes(output):
    try:
        return sum(os.stat(p).st_size for p in output_files(output))
    except OSError:
        return None


def figures(verb, report):
    """The ratio and maximum error a verb's JSON report states, else None.

    compress: its "total" (raw bytes over compressed bytes, metres or file
    units as the CLI measures). convert --codec frames: the frames clips'
    raw and frames bytes summed, and their largest max_error. The other verbs
    report neither.
    """
    if not isinstance(report, dict):
        return None, None
    if verb == "compress" and isinstance(report.get("total"), dict):
        total = report["total"]
        return total.get("ratio"), total.get("max_error")
    frames = report.get("frames") if verb == "convert" else None
    if frames:
        raw = sum(f.get("raw_bytes", 0) for f in frames)
        packed = sum(f.get("frames_bytes", 0) for f in frames)
        errors = [f["max_error"] for f in frames if f.get("max_error") is not None]
        return (raw / packed if packed else None), (max(errors) if errors else None)
    return None, None


def _messages(stderr):
    """(error line, other lines) of the CLI's stderr: the error is the last
    "sinew: ..." line that is not a note or a warning (a usage error's first
    line), else the last line; the others are its warnings and notes."""
    lines = [ln for ln in stderr.splitlines() if ln.strip()]
    errors = [ln for ln in lines
              if ln.startswith("sinew: ") and ": note: " not in ln and ": warning: " not in ln]
    error = errors[-1] if errors else (lines[-1] if lines else "")
    return error, [ln for ln in lines if ln != error]


def _run_cli(cmd, timeout):
    """Runs cmd; returns (exit status, stdout, stderr, timed out)."""
    proc = subprocess.Popen(
        cmd,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        preexec_fn=_die_with_parent(os.getpid()),
    )
    try:
        out, err = proc.communicate(timeout=timeout)
        return proc.returncode, out, err, False
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)  # the CLI and its reader child
        out, err = proc.communicate()
        return proc.returncode, out, err, True


def run_file(job):
    """Runs `CLI VERB INPUT -o OUTPUT --json ARGS...` for one job.

    job: a dict with "cli", "verb", "input", "output", "args" (list) and
    "timeout" (seconds). Returns the file's result as a dict: "input",
    "output", "status" ("ok" or "fail"), "exit_status" (the CLI's; -N for a
    signal, None when it could not start), "seconds", "ratio", "max_error",
    "error" (the CLI's error line, empty on success), "warnings" (its other
    stderr lines: warnings and notes), "output_bytes",
    "worker" (host:pid) and "report" (the CLI's --json object). Never
    raises for a failing file.
    """
    cmd = [job["cli"], job["verb"], job["input"], "-o", job["output"], "--json"]
    cmd += list(job["args"])
    result = {
        "input": job["input"],
        "output": job["output"],
        "status": "fail",
        "exit_status": None,
        "seconds": 0.0,
        "ratio": None,
        "max_error": None,
        "error": "",
        "warnings": [],
        "output_bytes": None,
        "worker": "%s:%d" % (socket.gethostname(), os.getpid()),
        "report": None,
    }
    start = time.monotonic()
    try:
        code, out, err, timed_out = _run_cli(cmd, job["timeout"])
    except OSError as e:
        result["error"] = "cannot run %s: %s" % (job["cli"], e)
        return result
    result["seconds"] = time.monotonic() - start
    result["exit_status"] = code
    error, result["warnings"] = _messages(err)
    result["error"] = error
    if code == 0:
        result["warnings"] = [ln for ln in err.splitlines() if ln.strip()]
    if timed_out:
        result["error"] = "timed out after %g s (--timeout)" % job["timeout"]
    if code == 0 and not timed_out:
        try:
            result["report"] = json.loads(out)
        except ValueError:
            result["error"] = "the CLI printed no JSON report: %r" % out[:200]
            return result
        result["ratio"], result["max_error"] = figures(job["verb"], result["report"])
        result["output_bytes"] = _output_bytes(job["output"])
        if result["output_bytes"] is None:
            result["error"] = "the CLI reported success but %s is missing" % job["output"]
            return result
        result["status"] = "ok"
        result["error"] = ""
    return result
