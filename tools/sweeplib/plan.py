"""Expanding a checked sweep (spec.Sweep) into its runs.

The runs are the cross product of the axes, where the axes of a [[zip]]
group move together as one, minus the [[exclude]]d combinations. Workload
classes (class:<name>) are resolved through `simtlab list`. Every run gets
an id that depends only on its values, so the same run keeps its directory
when the sweep file is reordered or extended.
"""

import hashlib
import itertools
import json
import os
import subprocess

from . import apps
from .spec import SweepError, is_overlay_axis


class Catalogue:
    """The built-in workloads and their classes, from `simtlab list`."""

    def __init__(self, simtlab):
        self.simtlab = simtlab
        self._rows = None

    def rows(self):
        if self._rows is None:
            try:
                out = subprocess.run([self.simtlab, "list"], capture_output=True, text=True, check=True).stdout
            except (OSError, subprocess.CalledProcessError) as e:
                raise RuntimeError("cannot list the workloads with %s: %s" % (self.simtlab, e))
            self._rows = [line.split(None, 2)[:2] for line in out.splitlines() if line.strip()]
        return self._rows

    def names(self):
        return [n for n, _ in self.rows()]

    def of_class(self, cls):
        return [n for n, c in self.rows() if c == cls]


def run_id(values):
    """A stable, readable id: the workload, then a hash of every value."""
    canon = json.dumps(values, sort_keys=True, separators=(",", ":"))
    w = values["workload"]
    if w.startswith("manifest:"):
        label = os.path.splitext(os.path.basename(w[len("manifest:"):]))[0]
    else:
        label = w[len("app:"):] if w.startswith("app:") else w
    return "%s-%s" % (label, hashlib.sha256(canon.encode()).hexdigest()[:10])


def _resolve_workloads(sweep, catalogue, line_of):
    out = []
    for w in sweep.axes["workload"]:
        if w.startswith("manifest:") or w.startswith("app:"):  # spec.load checked both
            if w not in out:
                out.append(w)
        elif w.startswith("class:"):
            names = catalogue.of_class(w[len("class:"):])
            if not names:
                classes = sorted({c for _, c in catalogue.rows()})
                raise SweepError(sweep.path, line_of("workload"),
                                 "no built-in workload has class '%s' (classes: %s)" % (w[6:], ", ".join(classes)))
            out.extend(n for n in names if n not in out)
        else:
            if w not in catalogue.names():
                raise SweepError(sweep.path, line_of("workload"),
                                 "unknown workload '%s' (see `simtlab list`; manifest:<file> for your own PTX)" % w)
            if w not in out:
                out.append(w)
    return out


def expand(sweep, catalogue, line_of=lambda key: 0):
    """Returns the runs: a list of dicts {id, values}, values mapping axis -> value."""
    axes = dict(sweep.axes)
    axes["workload"] = _resolve_workloads(sweep, catalogue, line_of)
    if "machine" not in axes:
        axes["machine"] = [None]  # the built-in machine
    if not any(is_overlay_axis(a) for a in axes):
        axes["overlays"] = [[]]
    # Each group is one or more axes that move together.
    zipped = {a for z in sweep.zips for a in z}
    groups = [z for z in sweep.zips] + [[a] for a in axes if a not in zipped]
    order = list(axes)  # columns in file order
    runs, seen = [], set()
    for choice in itertools.product(*[range(len(axes[g[0]])) for g in groups]):
        values = {}
        for g, i in zip(groups, choice):
            for a in g:
                values[a] = axes[a][i]
        values = {a: values[a] for a in order}
        if any(all(values[a] in vs for a, vs in rule.items()) for rule in sweep.excludes):
            continue
        rid = run_id(values)
        if rid in seen:  # same values twice (a workload named and in a class): keep one
            continue
        seen.add(rid)
        runs.append({"id": rid, "values": values})
    return runs


def resolve_apps(sweep, roots, line_of=lambda table, key: 0, workloads=None):
    """{name: what a run of it executes} for the applications on the workload axis (of them, those in
    `workloads` when given); SweepError (at the app's `root` or `command` line) for a root not given
    or a program not under it."""
    out = {}
    for name in apps.used(sweep.axes["workload"]):
        if workloads is not None and "app:" + name not in workloads:
            continue
        try:
            out[name] = apps.resolve(name, sweep.apps[name], roots)
        except ValueError as e:
            key = "root" if sweep.apps[name]["root"] not in roots else "command"
            raise SweepError(sweep.path, line_of("apps." + name, key), str(e))
    return out


def is_reference(sweep, values):
    return bool(sweep.reference) and all(values.get(a) == v for a, v in sweep.reference.items())


def command(values, simtlab, stats_path, app=None):
    """The simtlab command line of one run; `app` is what resolve_apps gives an application run."""
    w = values["workload"]
    cmd = [simtlab, "exec" if app else "run", "--quiet", "--mode", values["mode"], "--stats", stats_path]
    if app:
        if app.get("launches") and values["mode"] == "timing":  # a window of timed launches needs timing mode
            cmd += ["--launches", app["launches"]]
    elif w.startswith("manifest:"):
        cmd += ["--manifest", w[len("manifest:"):]]  # a manifest fixes its own sizes
    else:
        cmd += ["--workload", w, "--size", values["size"]]
    if values.get("machine"):
        cmd += ["--config", values["machine"]]
    for a, v in values.items():  # overlays, then the named overlay axes in file order
        if is_overlay_axis(a):
            for o in v or []:
                cmd += ["--config", o]
    for a, v in values.items():
        if a.startswith("set."):
            cmd += ["--set", "%s=%s" % (a[4:], set_text(v))]
    if app:
        cmd += ["--", app["program"]] + app["args"]
    return cmd


def set_text(v):
    """A parameter value as `--set NAME=TEXT` gives it (TOML's true/false for bools)."""
    return str(v).lower() if isinstance(v, bool) else str(v)
