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

from . import plan, store


def _fmt_eta(seconds):
    if seconds is None:
        return "?"
    seconds = int(seconds + 0.5)
    if seconds < 60:
        return "%d s" % seconds
    if seconds < 3600:
        return "%d min %d s" % divmod(seconds, 60)
    return "%d h %d min" % (seconds // 3600, seconds % 3600 // 60)


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
                d = st.run_dir(r["id"])
                os.makedirs(d, exist_ok=True)
                for stale in ("status.json", "stats.json"):
                    if os.path.exists(os.path.join(d, stale)):
                        os.remove(os.path.join(d, stale))
                cmd = plan.command(r["values"], st.binary, os.path.join(d, "stats.json"))
                store.write_json(os.path.join(d, "run.json"), {"id": r["id"], "values": r["values"], "command": cmd})
                err = open(os.path.join(d, "stderr.txt"), "w")
                # Own process group: the terminal's Ctrl-C reaches only us, and we stop the runs.
                p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=err, start_new_session=True)
                active[p] = (r, time.monotonic(), err)
            for p in [p for p in active if p.poll() is not None]:
                r, started, err = active.pop(p)
                err.close()
                code = p.returncode
                text = ""
                if code != 0:
                    with open(os.path.join(st.run_dir(r["id"]), "stderr.txt"), errors="replace") as f:
                        text = f.read().strip()[-2000:] or "simtlab exited with status %d" % code
                store.write_json(os.path.join(st.run_dir(r["id"]), "status.json"),
                                 {"exit_code": code, "seconds": round(time.monotonic() - started, 3), "error": text})
                (done if code == 0 else failed).append(r["id"])
            now = time.monotonic()
            if progress and (now - last_print >= 0.5 or not (pending or active)):
                last_print = now
                finished = len(done) + len(failed)
                eta = (now - t0) / finished * (total - finished) if finished else None
                sys.stderr.write("\rsweep: %d/%d finished, %d failed, %d running, ETA %s   " %
                                 (finished, total, len(failed), len(active), _fmt_eta(eta)))
                sys.stderr.flush()
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
