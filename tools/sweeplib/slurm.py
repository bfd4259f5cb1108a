"""The Slurm runner: a sweep's runs as job arrays, one array task per run.

Submitting: the runs to do are split into batches of at most `chunk` runs
(Slurm's MaxArraySize caps an array); each batch is one `sbatch --array
0-(n-1)%limit` of DIR/slurm/task.sh, whose task i runs the batch's i-th run
through `tools/sweep exec` (execute.run_here). DIR/slurm/batch-<k>.json
maps array indices to run ids; DIR/slurm/jobs.json lists every submission.
The sweep directory must be on a file system the compute nodes share.

Waiting: every `poll` seconds, `squeue` says which tasks are still pending
or running, and each run's status.json says how it ended. A task that has
left the queue without a status.json (cancelled, timed out, its node lost)
is lost: its state is read from `sacct` where accounting is enabled (else
`scontrol show job`), and it is submitted again up to `retries` times,
except after a time or memory limit, which another attempt would hit
again. A run given up on gets a status.json with exit code LOST and the
reason, so collect lists it as failed. Ctrl-C stops waiting; the jobs go
on, and `--resume` waits for them again (it never submits a run twice
while Slurm still holds it).
"""

import os
import shlex
import signal
import subprocess
import sys
import time

from . import execute, local, store

LOST = -1  # exit_code of a run Slurm lost more often than it may be retried
ACTIVE_STATES = {"PENDING", "CONFIGURING", "RUNNING", "COMPLETING", "SUSPENDED", "REQUEUED", "RESIZING",
                 "REQUEUE_HOLD", "REQUEUE_FED", "SIGNALING", "STAGE_OUT", "STOPPED", "RESV_DEL_HOLD"}
NO_RETRY_STATES = {"TIMEOUT", "OUT_OF_MEMORY", "DEADLINE"}  # another attempt would hit the same limit


class Options:
    def __init__(self, time_limit=None, mem=None, array_limit=None, chunk=1000, retries=1, poll=10.0,
                 sbatch_args=(), wait=True):
        self.time_limit, self.mem, self.array_limit = time_limit, mem, array_limit
        self.chunk, self.retries, self.poll = chunk, retries, poll
        self.sbatch_args, self.wait = list(sbatch_args), wait


def _call(cmd):
    """Runs a Slurm client command; returns (exit code, stdout, stderr). A missing command is an error."""
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    except FileNotFoundError:
        raise RuntimeError("%s not found: the slurm runner needs Slurm's client commands on PATH "
                           "(Debian: slurm-client)" % cmd[0])
    except subprocess.TimeoutExpired:
        return 1, "", "%s did not answer in 120 s" % cmd[0]
    return p.returncode, p.stdout, p.stderr.strip()


class Slurm:
    """The sweep directory's Slurm side: submissions, queue state, end states."""

    def __init__(self, st, sweep_name, tools_sweep):
        self.st = st
        self.dir = os.path.join(st.root, "slurm")
        self.name = "sweep-" + sweep_name
        self.tools_sweep = tools_sweep
        self.jobs_path = os.path.join(self.dir, "jobs.json")

    def jobs(self):
        return store.read_json(self.jobs_path) or []

    def _script(self):
        os.makedirs(os.path.join(self.dir, "logs"), exist_ok=True)
        path = os.path.join(self.dir, "task.sh")
        text = ("#!/bin/sh\n"
                "# One run of the sweep in %s: array task $SLURM_ARRAY_TASK_ID of batch $1.\n"
                "exec %s %s exec %s --batch \"$1\" --index \"$SLURM_ARRAY_TASK_ID\"\n" %
                (self.st.root, shlex.quote(sys.executable), shlex.quote(self.tools_sweep), shlex.quote(self.st.root)))
        with open(path + ".tmp", "w") as f:
            f.write(text)
        os.chmod(path + ".tmp", 0o755)
        os.replace(path + ".tmp", path)
        return path

    def submit(self, rids, opts):
        """Submits runs (already prepared) as array jobs; returns [(job id, [run ids])]."""
        script = self._script()
        jobs = self.jobs()
        out = []
        for start in range(0, len(rids), max(1, opts.chunk)):
            ids = rids[start:start + opts.chunk]
            batch = 1 + max([j["batch"] for j in jobs] or [-1])
            store.write_json(os.path.join(self.dir, "batch-%d.json" % batch), ids)
            array = "0-%d" % (len(ids) - 1) + ("%%%d" % opts.array_limit if opts.array_limit else "")
            cmd = ["sbatch", "--parsable", "--job-name", self.name, "--array", array,
                   "--output", os.path.join(self.dir, "logs", "%A_%a.out")]
            if opts.time_limit:
                cmd += ["--time", str(opts.time_limit)]
            if opts.mem:
                cmd += ["--mem", str(opts.mem)]
            cmd += opts.sbatch_args + [script, str(batch)]
            code, stdout, err = _call(cmd)
            job = stdout.strip().split(";")[0]
            if code != 0 or not job.isdigit():
                raise RuntimeError("sbatch refused batch %d (%s): %s" % (batch, " ".join(map(shlex.quote, cmd)),
                                                                          err or stdout.strip() or "exit %d" % code))
            jobs.append({"job": job, "batch": batch, "ids": ids, "submitted": time.strftime("%Y-%m-%d %H:%M:%S")})
            store.write_json(self.jobs_path, jobs)
            out.append((job, ids))
        return out

    def queued(self, job_ids):
        """{(job, task index): state} of the given jobs' tasks that Slurm still holds."""
        jobs = sorted(set(job_ids))
        if not jobs:
            return {}
        code, stdout, err = _call(["squeue", "-h", "-r", "-j", ",".join(jobs), "-o", "%F|%K|%T"])
        if code != 0 and "Invalid job id" in err:
            if len(jobs) == 1:
                return {}  # the job has ended and left the controller
            # One of them has left the controller: ask job by job, so the others still count.
            out = {}
            for j in jobs:
                out.update(self.queued([j]))
            return out
        if code != 0:
            raise RuntimeError("squeue failed: %s" % (err or "exit %d" % code))
        out = {}
        for line in stdout.splitlines():
            parts = line.strip().split("|")
            if len(parts) == 3 and parts[1].isdigit() and parts[2] in ACTIVE_STATES:
                out[(parts[0], int(parts[1]))] = parts[2]
        return out

    def end_state(self, job, task):
        """(state, detail) of an ended array task, from sacct or else scontrol; ("UNKNOWN", why) if neither knows."""
        code, stdout, err = _call(["sacct", "-n", "-P", "-X", "-j", "%s_%d" % (job, task), "-o", "State,ExitCode"])
        lines = [ln for ln in stdout.splitlines() if ln.strip()] if code == 0 else []
        if lines:
            state, _, exit_code = lines[-1].partition("|")
            return state.split()[0], "sacct: %s, exit code %s" % (state, exit_code)
        code, stdout, _ = _call(["scontrol", "-o", "show", "job", "%s_%d" % (job, task)])
        fields = dict(f.split("=", 1) for f in stdout.split() if "=" in f) if code == 0 else {}
        if "JobState" in fields:
            return fields["JobState"], "scontrol: %s, reason %s, exit code %s" % (
                fields["JobState"], fields.get("Reason", "?"), fields.get("ExitCode", "?"))
        return "UNKNOWN", "neither sacct nor scontrol still knows the task"

    def in_flight(self, rids):
        """{run id: (job, task)} of the given runs that an earlier submission still has in the queue."""
        where = {}
        for j in self.jobs():
            for i, rid in enumerate(j["ids"]):
                if rid in rids:
                    where[rid] = (j["job"], i)  # the latest submission wins
        q = self.queued([job for job, _ in where.values()])
        return {rid: jt for rid, jt in where.items() if jt in q}


def _log_tail(st, rid):
    try:
        with open(os.path.join(st.run_dir(rid), "attempts.log")) as f:
            lines = f.read().strip().splitlines()
        return lines[-1] if lines else ""
    except OSError:
        return ""


def run(todo, st, slurm, opts, progress=True):
    """Submits `todo` (plan dicts) and, with opts.wait, waits for them; returns (done, failed, pending)."""
    by_id = {r["id"]: r for r in todo}
    outstanding = slurm.in_flight(set(by_id))  # run id -> (job, task)
    if outstanding:
        print("sweep: %d runs are still queued from an earlier submission: waiting for them" % len(outstanding),
              flush=True)  # a log read while the runner waits shows it
    done, failed = [], []
    to_submit = []
    for r in todo:
        if r["id"] in outstanding:
            continue
        _, refused = execute.prepare(st, r)  # clears an earlier attempt's status, checks the pins
        if refused:
            execute.finish(st, r["id"], execute.PIN_REFUSED, 0.0, refused)
            failed.append(r["id"])
        else:
            to_submit.append(r["id"])
    attempts = {}

    def submit(rids):
        for job, ids in slurm.submit(rids, opts):
            print("sweep: submitted %d runs as Slurm array job %s" % (len(ids), job))
            for i, rid in enumerate(ids):
                outstanding[rid] = (job, i)
                attempts[rid] = attempts.get(rid, 0) + 1

    if to_submit:
        submit(to_submit)
    if not opts.wait:
        return done, failed, sorted(outstanding)

    stop = {"flag": False}

    def on_signal(signum, frame):
        stop["flag"] = True

    old = {s: signal.signal(s, on_signal) for s in (signal.SIGINT, signal.SIGTERM)}
    t0 = time.monotonic()
    total = len(todo)
    absent = {}  # run id -> polls in a row it was neither queued nor finished
    try:
        squeue_failures = 0
        while outstanding and not stop["flag"]:
            try:
                queue = slurm.queued([job for job, _ in outstanding.values()])
                squeue_failures = 0
            except RuntimeError as e:
                # A busy or restarting controller: ask again rather than take the runs for lost.
                squeue_failures += 1
                if squeue_failures >= 5:
                    raise RuntimeError("%s, 5 times in a row; the jobs go on, --resume waits for them" % e)
                print("\nsweep: %s; asking again" % e, file=sys.stderr)
                time.sleep(opts.poll)
                continue
            resubmit = []
            for rid, (job, task) in list(outstanding.items()):
                status = st.status(rid)
                if status is not None:
                    del outstanding[rid]
                    (done if status.get("exit_code") == 0 else failed).append(rid)
                    continue
                if (job, task) in queue:
                    absent.pop(rid, None)
                    continue
                # Gone from the queue without a result. Twice in a row: status.json may lag on a shared
                # file system.
                absent[rid] = absent.get(rid, 0) + 1
                if absent[rid] < 2:
                    continue
                del outstanding[rid]
                absent.pop(rid)
                state, detail = slurm.end_state(job, task)
                if state in NO_RETRY_STATES or attempts.get(rid, 0) > opts.retries:
                    why = ("Slurm %s task %s_%d ended without a result (%s) after %d attempt%s" %
                           (slurm.name, job, task, detail, attempts.get(rid, 1), "" if attempts.get(rid, 1) == 1 else "s"))
                    tail = _log_tail(st, rid)
                    execute.finish(st, rid, LOST, 0.0, why + ("; last: " + tail if tail else "") +
                                   "; log %s" % os.path.join(slurm.dir, "logs", "%s_%d.out" % (job, task)))
                    failed.append(rid)
                else:
                    print("\nsweep: %s lost (%s): submitting it again" % (rid, detail), file=sys.stderr)
                    resubmit.append(rid)
            if resubmit:
                for rid in resubmit:
                    execute.prepare(st, by_id[rid])
                submit(resubmit)
            if progress:
                counts = {}
                for s in queue.values():
                    counts[s.lower()] = counts.get(s.lower(), 0) + 1
                doing = ", ".join("%d %s" % (n, s) for s, n in sorted(counts.items())) or "none queued"
                local.show_progress(t0, total, len(done), len(failed), doing)
            if outstanding:
                for _ in range(int(opts.poll * 10)):
                    if stop["flag"]:
                        break
                    time.sleep(0.1)
    finally:
        for s, h in old.items():
            signal.signal(s, h)
        if progress:
            sys.stderr.write("\n")
    if stop["flag"]:
        raise local.Interrupted("stopped waiting with %d runs in Slurm's hands; they go on (scancel %s stops "
                                "them), --resume waits for them again" %
                                (len(outstanding), " ".join(sorted({j for j, _ in outstanding.values()}))))
    return done, failed, []
