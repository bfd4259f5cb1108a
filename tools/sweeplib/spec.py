"""Sweep files: load a TOML sweep, check it, and say where it is wrong.

A sweep names axes (machine file, overlay list, workload, size, mode, and
any number of `set.<parameter>` axes), crosses them, and may tie axes
together (`[[zip]]`), drop combinations (`[[exclude]]`) and name the point
results are normalised to (`[reference]`). docs/sweeps.md has the format.

Every error is a SweepError that names the file and line, so `tools/sweep`
can print `FILE:LINE: message` and exit 2.
"""

import math
import os
import re
import tomllib
from dataclasses import dataclass, field

from . import apps as applications

FIXED_AXES = ("machine", "overlays", "workload", "size", "mode")
SIZES = ("small", "medium", "large")
MODES = ("timing", "functional")
TOP_KEYS = ("name", "title", "description", "apps", "apps_files", "app_classes", "quick", "axes", "zip", "exclude", "reference", "collect", "plot")
PLOT_KINDS = ("bars", "lines", "breakdown", "series", "histogram")
PLOT_KEYS = ("kind", "title", "xlabel", "ylabel", "y", "x", "name", "normalise", "means", "workloads", "where")
MEANS = ("none", "hmean", "gmean", "amean")


class SweepError(Exception):
    def __init__(self, path, line, message):
        super().__init__("%s:%s: %s" % (path, line if line else 1, message))
        self.path, self.line, self.message = path, line, message


@dataclass
class Sweep:
    path: str
    name: str
    title: str
    axes: dict  # axis name -> list of values, in file order (fixed axes first)
    zips: list = field(default_factory=list)  # lists of axis names that vary together
    excludes: list = field(default_factory=list)  # dicts axis -> list of values
    reference: dict = field(default_factory=dict)  # axis -> value
    collect: dict = field(default_factory=dict)  # {stats: [keys]}: more columns and tables
    plot: dict = field(default_factory=dict)  # passed through to the plotter
    apps: dict = field(default_factory=dict)  # application name -> its [apps.<name>] definition (apps.py)
    quick: list = field(default_factory=list)  # the workloads of `tools/reproduce --quick`


class Locator:
    """Finds the line of a key in the sweep's text, for error messages.

    tomllib gives no positions, so this scans the text: it tracks the
    current table header ([axes], [axes.set], the n-th [[zip]], ...) and
    returns the first line in that table that assigns `key`; failing that,
    the table's header line; failing that, 0.
    """

    HEADER = re.compile(r"^\s*(\[\[?)\s*([^\]]+?)\s*\]\]?\s*(#.*)?$")

    def __init__(self, text):
        self.lines = text.splitlines()

    @staticmethod
    def _key_re(key):
        k = re.escape(key)
        return re.compile(r'^\s*(%s|"%s"|\'%s\')\s*=' % (k, k, k))

    def line(self, table="", key=None, index=0):
        current, seen = "", {}
        header_line = 0
        pattern = self._key_re(key) if key is not None else None
        for n, text in enumerate(self.lines, 1):
            m = self.HEADER.match(text)
            if m:
                current = m.group(2).replace('"', "").replace("'", "")
                if m.group(1) == "[[":
                    seen[current] = seen.get(current, -1) + 1
                if current == table and seen.get(current, 0) == index and not header_line:
                    header_line = n
                continue
            if current == table and seen.get(current, 0) == index and pattern and pattern.match(text):
                return n
        return header_line


def _expand_range(spec, where):
    """{from, to, step}: from, from+step, ... up to and including `to`."""
    unknown = set(spec) - {"from", "to", "step"}
    if unknown or not {"from", "to", "step"} <= set(spec):
        raise ValueError("%s: a range is a table {from, to, step}" % where)
    lo, hi, step = spec["from"], spec["to"], spec["step"]
    if not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in (lo, hi, step)):
        raise ValueError("%s: range bounds and step must be numbers" % where)
    if step <= 0 or hi < lo:
        raise ValueError("%s: a range needs step > 0 and to >= from" % where)
    count = int(math.floor((hi - lo) / step + 1e-9)) + 1
    if count > 100000:
        raise ValueError("%s: the range has %d values (more than 100000)" % (where, count))
    if all(isinstance(v, int) for v in (lo, hi, step)):
        return [lo + i * step for i in range(count)]
    return [round(lo + i * step, 12) for i in range(count)]


def is_overlay_axis(a):
    """`overlays`, or a named overlay axis `overlays.<name>` from [axes.overlays]."""
    return a == "overlays" or a.startswith("overlays.")


def _scalar(v):
    return isinstance(v, (str, int, float, bool))


def _read_toml(path):
    """(document, text) of a TOML file, or SweepError at the line of its syntax error."""
    try:
        with open(path, "rb") as f:
            raw = f.read()
    except OSError as e:
        raise SweepError(path, 0, "cannot read the file: %s" % e.strerror)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise SweepError(path, raw[: e.start].count(b"\n") + 1, "not UTF-8 text")
    try:
        return tomllib.loads(text), text
    except tomllib.TOMLDecodeError as e:
        m = re.search(r"\(at line (\d+), column (\d+)\)", str(e))
        line = int(m.group(1)) if m else (max(1, len(text.splitlines())) if "end of document" in str(e) else 0)
        msg = re.sub(r"\s*\(at (line \d+, column \d+|end of document)\)", "", str(e))
        raise SweepError(path, line, "TOML: " + msg)


def _apps_file(path):
    """The [apps.<name>] tables of a file that a sweep's apps_files names (a suite's programs, shared by
    the sweep files that run them); errors name that file's line."""
    doc, text = _read_toml(path)
    loc = Locator(text)

    def fail(message, table="", key=None, index=0):
        raise SweepError(path, loc.line(table, key, index), message)

    for k in doc:
        if k != "apps":
            fail("an apps file holds only [apps.<name>] tables, not '%s'" % k, "", k)
    return applications.parse(doc.get("apps", {}), fail)


def load(path):
    """Reads and checks a sweep file; returns a Sweep or raises SweepError."""
    doc, text = _read_toml(path)
    loc = Locator(text)
    here = os.path.dirname(os.path.abspath(path))

    def fail(message, table="", key=None, index=0):
        raise SweepError(path, loc.line(table, key, index), message)

    def as_axis_value(a, v):
        """A value as written in the file, as the axis holds it: file paths resolved against the
        sweep file's folder (a machine file, or each file of an overlay list)."""
        if a == "machine" and isinstance(v, str):
            return os.path.normpath(os.path.join(here, v))
        if is_overlay_axis(a) and isinstance(v, list):
            return [os.path.normpath(os.path.join(here, p)) for p in v]
        return v

    for k in doc:
        if k not in TOP_KEYS:
            fail("unknown key '%s' (expected one of: %s)" % (k, ", ".join(TOP_KEYS)), "", k)
    name = doc.get("name", os.path.splitext(os.path.basename(path))[0])
    if not isinstance(name, str) or not re.fullmatch(r"[A-Za-z0-9_.-]+", name):
        fail("name must be letters, digits, '_', '.' or '-'", "", "name")
    title = doc.get("title", name)
    if not isinstance(title, str):
        fail("title must be a string", "", "title")

    # ---- axes
    axes_doc = doc.get("axes")
    if not isinstance(axes_doc, dict):
        fail("a sweep needs an [axes] table with at least `workload`", "axes")
    axes = {}
    for k, v in axes_doc.items():
        if k == "set":
            continue
        if k == "overlays" and isinstance(v, dict):
            # Named overlay axes, crossed like any other: [axes.overlays] scheme = [...], pipeline = [...].
            # A run applies them in this order, after the machine file.
            if not v:
                fail("[axes.overlays] needs at least one named list of overlay lists", "axes.overlays")
            for group, lists in v.items():
                if not re.fullmatch(r"[A-Za-z0-9_-]+", group):
                    fail("overlay axis names are letters, digits, '_' or '-'", "axes.overlays", group)
                if not isinstance(lists, list) or not lists:
                    fail("overlays.%s must be a non-empty list of overlay lists" % group, "axes.overlays", group)
                axes["overlays." + group] = lists
            continue
        if k not in FIXED_AXES:
            fail("unknown axis '%s' (axes: %s, and set.<parameter> under [axes.set])" % (k, ", ".join(FIXED_AXES)),
                 "axes", k)
        if not isinstance(v, list) or not v:
            fail("axis '%s' must be a non-empty list" % k, "axes", k)
        axes[k] = v
    if "workload" not in axes:
        fail("[axes] needs `workload` (names, class:<class>, manifest:<file> or app:<name>)", "axes")
    for v in axes.get("machine", []):
        if not isinstance(v, str):
            fail("machine entries are machine-file paths (strings)", "axes", "machine")
    overlay_axes = [a for a in axes if is_overlay_axis(a)]
    for a in overlay_axes:
        for v in axes[a]:
            if not isinstance(v, list) or not all(isinstance(x, str) for x in v):
                fail("%s entries are lists of overlay-file paths, e.g. [[], [\"../configs/tbc.toml\"]]" % a,
                     "axes" if a == "overlays" else "axes.overlays", a.split(".")[-1])
    for v in axes.get("workload", []):
        if not isinstance(v, str) or not v:
            fail("workload entries are names, class:<class>, manifest:<file> or app:<name>", "axes", "workload")
    apps = applications.parse(doc.get("apps", {}), fail)
    files = doc.get("apps_files", [])
    if not isinstance(files, list) or not all(isinstance(f, str) and f for f in files):
        fail("apps_files is a list of files of [apps.<name>] tables, relative to the sweep file", "", "apps_files")
    for f in files:
        for app, d in _apps_file(os.path.normpath(os.path.join(here, f))).items():
            if app in apps:
                fail("application '%s' is defined twice (here or in %s)" % (app, f), "", "apps_files")
            apps[app] = d
    # A paper's own grouping of shared programs (seed 001's DIVG/COHE sets, seed 000's classes by
    # warp-size sensitivity) differs between sweeps: each may set the classes it reports.
    classes = doc.get("app_classes", {})
    if not isinstance(classes, dict):
        fail("app_classes is a table, application = \"class\"", "", "app_classes")
    for app, cls in classes.items():
        if app not in apps:
            fail("app_classes names no application '%s'" % app, "app_classes", app)
        if not isinstance(cls, str) or not applications.NAME.fullmatch(cls):
            fail("app_classes: a class is letters, digits, '_' or '-'", "app_classes", app)
        apps[app] = dict(apps[app], **{"class": cls})
    for app in applications.used(axes.get("workload", [])):
        if app not in apps:
            fail("unknown application 'app:%s' (define it in an [apps.%s] table%s)" % (
                app, app, "; defined: " + ", ".join(sorted(apps)) if apps else ""), "axes", "workload")
    for v in axes.get("size", []):
        if v not in SIZES:
            fail("size '%s' is not one of %s" % (v, ", ".join(SIZES)), "axes", "size")
    for v in axes.get("mode", []):
        if v not in MODES:
            fail("mode '%s' is not one of %s" % (v, ", ".join(MODES)), "axes", "mode")
    # Files are relative to the sweep file's folder.
    def resolve(p, key):
        full = os.path.normpath(os.path.join(here, p))
        if not os.path.isfile(full):
            fail("%s file not found: %s (paths are relative to the sweep file)" % (key, p), "axes", key)
        return full
    if "machine" in axes:
        axes["machine"] = [resolve(p, "machine") for p in axes["machine"]]
    for a in overlay_axes:
        axes[a] = [[resolve(p, a) for p in v] for v in axes[a]]
    wl = []
    for v in axes["workload"]:
        if v.startswith("manifest:"):
            wl.append("manifest:" + resolve(v[len("manifest:"):], "workload"))
        else:
            wl.append(v)
    axes["workload"] = wl
    axes.setdefault("size", ["small"])
    axes.setdefault("mode", ["timing"])

    set_doc = axes_doc.get("set", {})
    if not isinstance(set_doc, dict):
        fail("[axes.set] must be a table of parameter = [values]", "axes", "set")
    for k, v in set_doc.items():
        if isinstance(v, dict):
            try:
                v = _expand_range(v, "set.%s" % k)
            except ValueError as e:
                fail(str(e), "axes.set", k)
        if not isinstance(v, list) or not v or not all(_scalar(x) for x in v):
            fail("set.%s must be a non-empty list of values or a range {from, to, step}" % k, "axes.set", k)
        axes["set." + k] = v
    # ---- zips: axes that vary together
    zips = []
    zip_doc = doc.get("zip", [])
    if not isinstance(zip_doc, list):
        fail("zip must be written [[zip]] with axes = [...]", "", "zip")
    used = set()
    for i, z in enumerate(zip_doc):
        names = z.get("axes") if isinstance(z, dict) else None
        if not isinstance(names, list) or len(names) < 2 or not all(isinstance(a, str) for a in names):
            fail("[[zip]] needs axes = [two or more axis names]", "zip", "axes", i)
        for a in names:
            if a not in axes:
                fail("[[zip]] names '%s', which is not an axis" % a, "zip", "axes", i)
            if a in used:
                fail("axis '%s' is in two [[zip]] groups" % a, "zip", "axes", i)
            used.add(a)
        lengths = {len(axes[a]) for a in names}
        if len(lengths) != 1:
            fail("[[zip]] axes must have the same number of values (%s)" %
                 ", ".join("%s: %d" % (a, len(axes[a])) for a in names), "zip", "axes", i)
        zips.append(list(names))
        tuples = list(zip(*[map(repr, axes[a]) for a in names]))
        if len(set(tuples)) != len(tuples):
            fail("[[zip]] axes list the same combination twice", "zip", "axes", i)
    for k, v in axes.items():
        if k not in used and len(set(map(repr, v))) != len(v):
            fail("axis '%s' lists a value twice" % k, "axes.set" if k.startswith("set.") else "axes",
                 k[4:] if k.startswith("set.") else k)

    # ---- excludes: drop runs that match every listed axis
    excludes = []
    excl_doc = doc.get("exclude", [])
    if not isinstance(excl_doc, list):
        fail("exclude must be written [[exclude]]", "", "exclude")
    for i, e in enumerate(excl_doc):
        if not isinstance(e, dict) or not e:
            fail("[[exclude]] needs at least one axis = value", "exclude", None, i)
        rule = {}
        for a, v in e.items():
            if a not in axes:
                fail("[[exclude]] names '%s', which is not an axis" % a, "exclude", a, i)
            if is_overlay_axis(a):
                # One overlay value (a list of files) or a list of them.
                vs = v if isinstance(v, list) and v and isinstance(v[0], list) else [v]
                if not all(isinstance(x, list) and all(isinstance(p, str) for p in x) for x in vs):
                    fail("[[exclude]] %s takes an overlay value (a list of files) or a list of them" % a,
                         "exclude", a, i)
            else:
                vs = v if isinstance(v, list) else [v]
            rule[a] = [as_axis_value(a, x) for x in vs]  # file paths as the axis holds them
            for x, held in zip(vs, rule[a]):
                # A value the axis does not have (a misspelt file or number) would exclude nothing.
                if a != "workload" and held not in axes[a]:
                    files = [held] if a == "machine" else held if is_overlay_axis(a) else []
                    gone = [w for f, w in zip(files, [x] if a == "machine" else x if is_overlay_axis(a) else [])
                            if isinstance(f, str) and not os.path.isfile(f)]
                    fail("[[exclude]] %s: %s" % (a, "file not found: %s (paths are relative to the sweep file)" %
                                                 gone[0] if gone else "%r is not one of the axis' values" % (x,)),
                         "exclude", a, i)
        excludes.append(rule)

    # ---- reference point
    ref = doc.get("reference", {})
    if not isinstance(ref, dict):
        fail("[reference] must be a table of axis = value", "reference")
    for a, v in ref.items():
        if a not in axes:
            fail("[reference] names '%s', which is not an axis" % a, "reference", a)
        if a == "workload":
            fail("[reference] cannot fix the workload: results are normalised per workload", "reference", a)
        values = axes[a]
        v = as_axis_value(a, v)
        if v not in values:
            fail("[reference] %s = %r is not one of the axis' values" % (a, v), "reference", a)
        ref[a] = v

    coll = doc.get("collect", {})
    if not isinstance(coll, dict):
        fail("[collect] must be a table", "collect")
    for k, v in coll.items():
        if k != "stats":
            fail("[collect] has no key '%s' (stats)" % k, "collect", k)
        if not isinstance(v, list) or not all(isinstance(x, str) and x for x in v):
            fail("[collect] stats is a list of statistic keys, e.g. [\"simd_efficiency\"]", "collect", k)

    plot = doc.get("plot", {})
    figs = plot if isinstance(plot, list) else [plot]
    for i, f in enumerate(figs):
        table = "plot"
        if not isinstance(f, dict):
            fail("[plot] must be a table, or [[plot]] tables for several figures", table)
        for k in f:
            if k not in PLOT_KEYS:
                fail("[plot] has no key '%s' (%s)" % (k, ", ".join(PLOT_KEYS)), table, k, i)
        kind = f.get("kind", "bars")
        for k in ("title", "xlabel", "ylabel", "y", "x", "name"):
            if k == "y" and kind in ("series", "histogram") and isinstance(f.get(k), list):
                if not f[k] or not all(isinstance(x, str) and x for x in f[k]):
                    fail("[plot] y of a %s is a name, or a list of names" % kind, table, k, i)
                continue
            if k in f and not isinstance(f[k], str):
                fail("[plot] %s must be a string" % k, table, k, i)
        if kind not in PLOT_KINDS:
            fail("[plot] kind must be one of %s" % ", ".join(PLOT_KINDS), table, "kind", i)
        if kind == "lines" and f.get("x") not in axes:
            fail("[plot] kind 'lines' needs x = one of the axes", table, "x" if "x" in f else "kind", i)
        if kind == "series" and not f.get("y"):
            fail("[plot] kind 'series' needs y = a time series of the stats, e.g. \"sm0.ipc\"", table, "kind", i)
        if kind == "histogram" and not f.get("y"):
            fail("[plot] kind 'histogram' needs y = a histogram of the stats, or a list summed bin by bin",
                 table, "kind", i)
        if "name" in f and not re.fullmatch(r"[A-Za-z0-9_.-]+", f["name"]):
            fail("[plot] name must be letters, digits, '_', '.' or '-'", table, "name", i)
        if "normalise" in f and not isinstance(f["normalise"], bool):
            fail("[plot] normalise is true or false", table, "normalise", i)
        if f.get("normalise") and not ref:
            fail("[plot] normalise = true needs a [reference] point", table, "normalise", i)
        if f.get("means", "none") not in MEANS or ("means" in f and kind != "bars"):
            fail("[plot] means is one of %s, for kind 'bars'" % ", ".join(MEANS), table, "means", i)
        if "workloads" in f and (not isinstance(f["workloads"], list) or
                                 not all(isinstance(w, str) for w in f["workloads"])):
            fail("[plot] workloads is a list of workload names", table, "workloads", i)
        if "where" in f:
            if not isinstance(f["where"], dict) or not f["where"]:
                fail("[plot] where is a table axis = [values]: only the runs with one of those values",
                     table, "where", i)
            for a, vs in f["where"].items():
                if a not in axes:
                    fail("[plot] where names '%s', which is not an axis" % a, table, "where", i)
                vs = vs if isinstance(vs, list) and not (is_overlay_axis(a) and vs and isinstance(vs[0], str)) \
                    else [vs]
                vs = [as_axis_value(a, v) for v in vs]
                for v in vs:
                    if v not in axes[a]:
                        fail("[plot] where %s = %r is not one of the axis' values" % (a, v), table, "where", i)
                f["where"][a] = vs
    # A subset of the workloads that keeps every class (tools/reproduce --quick), for a sweep whose
    # full run takes hours.
    quick = doc.get("quick", [])
    if not isinstance(quick, list) or not all(isinstance(w, str) for w in quick):
        fail("quick is a list of workloads of the workload axis", "", "quick")
    for w in quick:
        if w not in axes["workload"]:
            fail("quick names '%s', which is not on the workload axis" % w, "", "quick")
    return Sweep(path=os.path.abspath(path), name=name, title=title, axes=axes, zips=zips, excludes=excludes,
                 reference=ref, collect=coll, plot=plot, apps=apps, quick=quick)
