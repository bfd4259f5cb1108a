"""A sweep's result directory.

  DIR/sweep.json          what was swept, and the content hashes of the
                          simtlab binary and every input file
  DIR/bin/simtlab         the binary the runs use (a copy: later rebuilds
                          cannot mix into a sweep)
  DIR/bin/lib/simtlab/libcudart.so.13
                          sweeps with applications: the runtime library
                          `bin/simtlab exec` gives them (a copy, pinned too)
  DIR/runs/<id>/run.json  the run's values (from the start) and command line
                          (once it runs)
  DIR/runs/<id>/stats.json, stdout.txt, stderr.txt
  DIR/runs/<id>/status.json  exit code, seconds, error text; written last,
                          so a run without it did not finish
  DIR/runs/<id>/attempts.log  Slurm runs: each attempt's job, node and end
  DIR/slurm/              Slurm runs: the task script, each submitted batch
                          (batch-<k>.json: its run ids by array index),
                          jobs.json and the job logs (slurm.py)

Files are written to a temporary name and renamed, so an interrupted sweep
never leaves a half-written file that looks complete.
"""

import hashlib
import json
import os
import shutil

from . import apps


def sha256_of(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def write_json(path, doc):
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(doc, f, indent=1, sort_keys=True)
        f.write("\n")
    os.replace(tmp, path)


def read_json(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def input_files(sweep, resolved=None):
    """Every file the runs read besides the binary: machines, overlays, manifests, and the programs of
    the applications (`resolved`: plan.resolve_apps). (The sweep file itself may grow: a resumed sweep
    runs what was added, the runs done stay valid.)"""
    files = list(sweep.axes.get("machine", []))
    for a, lists in sweep.axes.items():
        if a == "overlays" or a.startswith("overlays."):
            for o in lists:
                files += o
    files += [w[len("manifest:"):] for w in sweep.axes["workload"] if w.startswith("manifest:")]
    files += [a["program"] for a in (resolved or {}).values()]
    return sorted(set(files))


class Store:
    def __init__(self, root):
        self.root = os.path.abspath(root)

    @property
    def binary(self):
        return os.path.join(self.root, "bin", "simtlab")

    def run_dir(self, rid):
        return os.path.join(self.root, "runs", rid)

    def status(self, rid):
        return read_json(os.path.join(self.run_dir(rid), "status.json"))

    def exists(self):
        return os.path.exists(os.path.join(self.root, "sweep.json"))

    @property
    def cudart(self):
        return os.path.join(self.root, "bin", "lib", "simtlab", "libcudart.so.13")

    def create(self, sweep, simtlab, runs, resolved=None):
        """A new sweep directory with the binary pinned (and, for applications, its runtime library:
        `exec` looks for it beside the binary it runs as)."""
        os.makedirs(os.path.join(self.root, "bin"), exist_ok=True)
        os.makedirs(os.path.join(self.root, "runs"), exist_ok=True)
        lib = None
        if resolved:
            found = apps.cudart_dir(simtlab)
            if not found:
                raise RuntimeError("the sweep runs applications, but simtlab's runtime library libcudart.so.13 is "
                                   "not beside %s (lib/simtlab/; build the cudart target)" % simtlab)
            lib = os.path.join(found, "libcudart.so.13")
        shutil.copy2(simtlab, self.binary + ".tmp")
        os.replace(self.binary + ".tmp", self.binary)
        if lib:
            os.makedirs(os.path.dirname(self.cudart), exist_ok=True)
            shutil.copy2(lib, self.cudart + ".tmp")
            os.replace(self.cudart + ".tmp", self.cudart)
        write_json(os.path.join(self.root, "sweep.json"), {
            "sweep": sweep.name, "title": sweep.title, "file": sweep.path,
            "sweep_file_sha256": sha256_of(sweep.path),
            "simtlab": os.path.abspath(simtlab), "simtlab_sha256": sha256_of(self.binary),
            "inputs": {p: sha256_of(p) for p in input_files(sweep, resolved)},
            "reference": sweep.reference, "plot": sweep.plot, "zips": sweep.zips, "collect": sweep.collect,
            "runs": [r["id"] for r in runs], **self._apps_doc(sweep, resolved, lib)})
        self.record_values(runs)

    def _apps_doc(self, sweep, resolved, lib=None):
        """sweep.json's record of the applications: their definitions as the sweep file has them (pinned:
        a changed one is refused), what each run executes (roots resolved), and the library's hash."""
        if not resolved:
            return {}
        doc = {"apps": {n: sweep.apps[n] for n in resolved}, "app_runs": resolved}
        if lib:
            doc["cudart_sha256"] = sha256_of(self.cudart)
        return doc

    def app_run(self, name):
        """What a run of application `name` executes, as recorded in sweep.json (None if unknown)."""
        doc = read_json(os.path.join(self.root, "sweep.json")) or {}
        return (doc.get("app_runs") or {}).get(name)

    def changed_pins(self, files=None):
        """What differs from the hashes pinned in sweep.json: the binary and the input files
        (`files`, default every pinned one; a file not pinned yet is skipped). Empty: safe to run."""
        doc = read_json(os.path.join(self.root, "sweep.json")) or {}
        problems = []
        if not os.path.isfile(self.binary) or sha256_of(self.binary) != doc.get("simtlab_sha256"):
            problems.append("the pinned binary %s is missing or changed" % self.binary)
        if doc.get("cudart_sha256") and (not os.path.isfile(self.cudart) or
                                         sha256_of(self.cudart) != doc["cudart_sha256"]):
            problems.append("the pinned runtime library %s is missing or changed" % self.cudart)
        pinned = doc.get("inputs", {})
        for p in (pinned if files is None else files):
            if p not in pinned:
                continue  # a file the extended sweep file added: pinned by add_runs
            if not os.path.isfile(p) or sha256_of(p) != pinned[p]:
                problems.append("%s changed" % p)
        return problems

    def check_pins(self, sweep, resolved=None):
        """Differences between the pinned hashes and the files the sweep reads now, and applications
        whose definition changed in the sweep file (their runs would no longer be what they were)."""
        problems = self.changed_pins(input_files(sweep, resolved))
        doc = read_json(os.path.join(self.root, "sweep.json")) or {}
        if resolved and not doc.get("cudart_sha256"):
            problems.append("the sweep started without applications (no runtime library pinned)")
        for name, was in (doc.get("apps") or {}).items():
            if name in sweep.apps and sweep.apps[name] != was:
                problems.append("[apps.%s] changed" % name)
        return problems

    def record_values(self, runs):
        """Gives each run without one a run.json with its values, so a run that has not started yet
        still shows what it is (collect's `missing` rows); starting it adds the command."""
        for r in runs:
            path = os.path.join(self.run_dir(r["id"]), "run.json")
            if not os.path.exists(path):
                os.makedirs(self.run_dir(r["id"]), exist_ok=True)
                write_json(path, {"id": r["id"], "values": r["values"]})

    def add_runs(self, sweep, runs, resolved=None):
        """Records runs, applications and input files added to the sweep file since it started. The
        roots given now replace those given before (a suite may sit elsewhere on a cluster's nodes)."""
        self.record_values(runs)
        path = os.path.join(self.root, "sweep.json")
        doc = read_json(path) or {}
        ids = doc.get("runs", [])
        doc["runs"] = ids + [r["id"] for r in runs if r["id"] not in ids]
        doc["plot"] = sweep.plot  # figures and tables may be changed between runs
        doc["collect"] = sweep.collect
        doc["zips"] = sweep.zips
        inputs = doc.setdefault("inputs", {})
        for p in input_files(sweep, resolved):
            inputs.setdefault(p, sha256_of(p))
        if resolved:
            doc.setdefault("apps", {}).update({n: sweep.apps[n] for n in resolved})
            doc.setdefault("app_runs", {}).update(resolved)
        write_json(path, doc)
