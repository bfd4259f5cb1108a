"""One run of a sweep, as both runners do it.

prepare() clears what an earlier attempt left, writes run.json and checks
the pins: the binary and every input file must still have the hashes
sweep.json recorded when the sweep started, or the run is refused (its
numbers would mix two builds). finish() writes status.json, last, so a run
directory without it never finished. run_here() does both around a simtlab
process in the foreground: the Slurm worker's way (`tools/sweep exec`).

An application run (apps.py) is `simtlab exec ... -- PROGRAM ARGS` started
in the app's folder, its `stdin` text on its standard input; it succeeds when
the program exits with the app's `exit` status (0 unless said) and its stdout
(stdout.txt) or stderr (stderr.txt) matches the app's check, which finish() verifies. A run's
standard input is empty otherwise: a program waiting for input must not hang
a sweep.
"""

import os
import signal
import subprocess
import sys
import tempfile
import time

from . import apps, plan, store

PIN_REFUSED = -2  # exit_code of a run refused because a pinned file changed


def prepare(st, r):
    """Readies run r's directory; returns (command, None) or (None, why the run cannot start)."""
    d = st.run_dir(r["id"])
    os.makedirs(d, exist_ok=True)
    for stale in ("status.json", "stats.json"):
        if os.path.exists(os.path.join(d, stale)):
            os.remove(os.path.join(d, stale))
    w = r["values"]["workload"]
    app = st.app_run(w[len("app:"):]) if w.startswith("app:") else None
    if w.startswith("app:") and not app:
        return None, "not run: sweep.json records no application '%s'" % w[len("app:"):]
    cmd = plan.command(r["values"], st.binary, os.path.join(d, "stats.json"), app)
    run = {"id": r["id"], "values": r["values"], "command": cmd}
    if app:
        run.update(cwd=app["cwd"], check=app["check"], stdin=app.get("stdin", ""), exit=app.get("exit", 0))
    store.write_json(os.path.join(d, "run.json"), run)
    changed = st.changed_pins()
    if changed:
        return None, "not run: %s since the sweep started (start a new sweep directory)" % "; ".join(changed)
    return cmd, None


def start(st, r, cmd, err, **popen_args):
    """Starts run r's process: stdout into stdout.txt, stderr into `err`, in the app's folder if any."""
    d = st.run_dir(r["id"])
    run = store.read_json(os.path.join(d, "run.json")) or {}
    with open(os.path.join(d, "stdout.txt"), "w") as out, tempfile.TemporaryFile() as stdin:
        stdin.write(run.get("stdin", "").encode())
        stdin.seek(0)
        return subprocess.Popen(cmd, stdin=stdin, stdout=out, stderr=err, cwd=run.get("cwd"), **popen_args)


def finish(st, rid, code, seconds, error=""):
    """Records how run rid ended and returns its exit code as recorded (0: success). A failed run keeps
    the tail of its stderr as its error. An application run that exited with its `exit` status is a
    success (0) when its stdout matches its check, else fails (CHECK_FAILED), and fails too when
    simtlab refused one of its launches (MODEL_REFUSED)."""
    d = st.run_dir(rid)
    run = store.read_json(os.path.join(d, "run.json")) or {}
    if run.get("exit", 0) != 0 and code in (0, run["exit"]):  # only the app's own status means success
        code = 0 if code == run["exit"] else apps.EXIT_UNEXPECTED
        error = "" if code == 0 else "the program exited 0, not %d as its [apps] exit says" % run["exit"]
    if code == 0:
        check = run.get("check")
        if check is not None:
            why = apps.check_output(check, os.path.join(d, "stdout.txt"), os.path.join(d, "stderr.txt"))
            if why:
                code, error = apps.CHECK_FAILED, why
        why = apps.refused_launches(os.path.join(d, "stats.json"))
        if code == 0 and why:
            code, error = apps.MODEL_REFUSED, why
    if code != 0 and not error:
        try:
            with open(os.path.join(d, "stderr.txt"), errors="replace") as f:
                error = f.read().strip()[-2000:]
        except OSError:
            pass
        error = error or "simtlab exited with status %d" % code
    store.write_json(os.path.join(d, "status.json"),
                     {"exit_code": code, "seconds": round(seconds, 3), "error": error})
    return code


def run_here(st, r, note=None):
    """Runs r in the foreground and records it; returns its exit code.

    SIGTERM or SIGINT (Slurm's scancel and time limit send SIGTERM) is
    passed to simtlab, and the run is left without status.json: the
    submitting runner then sees it as lost and may submit it again. `note`
    is appended to the run's attempts.log first (which job and node)."""
    d = st.run_dir(r["id"])
    cmd, refused = prepare(st, r)
    log = os.path.join(d, "attempts.log")
    stamp = time.strftime("%Y-%m-%d %H:%M:%S")
    with open(log, "a") as f:
        f.write("%s started%s\n" % (stamp, " " + note if note else ""))
    if refused:
        finish(st, r["id"], PIN_REFUSED, 0.0, refused)
        return 1
    got = {}

    def forward(signum, frame):
        got["signal"] = signum
        if got.get("proc") and got["proc"].poll() is None:
            got["proc"].send_signal(signal.SIGINT)  # simtlab stops cleanly on SIGINT

    started = time.monotonic()
    old = {s: signal.signal(s, forward) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        with open(os.path.join(d, "stderr.txt"), "w") as err:
            got["proc"] = start(st, r, cmd, err)
            if "signal" in got:  # stopped while simtlab was starting
                got["proc"].send_signal(signal.SIGINT)
            code = got["proc"].wait()
    finally:
        for s, h in old.items():
            signal.signal(s, h)
    if "signal" in got:
        with open(log, "a") as f:
            f.write("%s stopped by %s after %.1f s (scancel or the time limit); no result\n" % (
                time.strftime("%Y-%m-%d %H:%M:%S"), signal.Signals(got["signal"]).name, time.monotonic() - started))
        return 128 + got["signal"]
    code = finish(st, r["id"], code, time.monotonic() - started)
    return 0 if code == 0 else 1


def main_exec(st, batch, index, note=None):
    """`tools/sweep exec`: the index-th run of a submitted batch (a Slurm array task)."""
    ids = store.read_json(os.path.join(st.root, "slurm", "batch-%d.json" % batch))
    if not isinstance(ids, list) or not 0 <= index < len(ids):
        print("sweep exec: %s has no batch %d task %d" % (st.root, batch, index), file=sys.stderr)
        return 2
    r = store.read_json(os.path.join(st.run_dir(ids[index]), "run.json"))
    if not r:
        print("sweep exec: %s has no run.json" % st.run_dir(ids[index]), file=sys.stderr)
        return 2
    return run_here(st, r, note)
