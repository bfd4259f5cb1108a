"""The local runner: up to N simtlab processes at once on this machine.

Each run writes into its own directory (store.py). A progress line on
stderr shows finished, failed, running and the ETA. Ctrl-C (or SIGTERM)
stops the runs in flight, which leave no status.json, and keeps every
finished one, so `--resume` picks up where it stopped.
"""

import os
import signal
import subprocess
import sys
import time

from . import execute


def _fmt_eta(seconds):
    if seconds is None:
        return "?"
    seconds = int(seconds + 0.5)
    if seconds < 60:
        return "%d s" % seconds
    if seconds < 3600:
        return "%d min %d s" % divmod(seconds, 60)
    return "%d h %d min" % (seconds // 3600, seconds % 3600 // 60)


def show_progress(t0, total, ok, failed, doing):
    """The progress line: finished of total, failed, what is under way, ETA from the pace so far."""
    finished = ok + failed
    eta = (time.monotonic() - t0) / finished * (total - finished) if finished else None
    sys.stderr.write("\rsweep: %d/%d finished, %d failed, %s, ETA %s   " %
                     (finished, total, failed, doing, _fmt_eta(eta)))
    sys.stderr.flush()


class Interrupted(Exception):
    pass


def run(runs, st, jobs, progress=True):
    """Runs `runs` (plan dicts) into store `st`; returns (done, failed) id lists."""
    pending = list(runs)
    active = {}  # Popen -> (run, start time, stderr file)
    done, failed = [], []
    total = len(runs)
    t0 = time.monotonic()
    stop = {"flag": False}

    def on_signal(signum, frame):
        stop["flag"] = True

    old = {s: signal.signal(s, on_signal) for s in (signal.SIGINT, signal.SIGTERM)}
    last_print = 0.0
    try:
        while (pending or active) and not stop["flag"]:
            while pending and len(active) < jobs:
                r = pending.pop(0)
                cmd, refused = execute.prepare(st, r)
                if refused:
                    execute.finish(st, r["id"], execute.PIN_REFUSED, 0.0, refused)
                    failed.append(r["id"])
                    continue
                err = open(os.path.join(st.run_dir(r["id"]), "stderr.txt"), "w")
                # Own process group: the terminal's Ctrl-C reaches only us, and we stop the runs.
                p = execute.start(st, r, cmd, err, start_new_session=True)
                active[p] = (r, time.monotonic(), err)
            for p in [p for p in active if p.poll() is not None]:
                r, started, err = active.pop(p)
                err.close()
                code = execute.finish(st, r["id"], p.returncode, time.monotonic() - started)
                (done if code == 0 else failed).append(r["id"])
            now = time.monotonic()
            if progress and (now - last_print >= 0.5 or not (pending or active)):
                last_print = now
                show_progress(t0, total, len(done), len(failed), "%d running" % len(active))
            time.sleep(0.05)
    finally:
        for p, (r, _, err) in active.items():
            try:
                os.killpg(p.pid, signal.SIGINT)  # simtlab stops cleanly on SIGINT (exit 130)
            except ProcessLookupError:
                pass
        for p, (r, _, err) in active.items():
            try:
                p.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(p.pid, signal.SIGKILL)
                p.wait()
            err.close()
        for s, h in old.items():
            signal.signal(s, h)
        if progress:
            sys.stderr.write("\n")
    if stop["flag"]:
        raise Interrupted("%d finished, %d failed, %d stopped before the end" %
                          (len(done), len(failed), total - len(done) - len(failed)))
    return done, failed
