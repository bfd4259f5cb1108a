"""Collecting a sweep directory (store.py) into one CSV and one Markdown table.

Every run the sweep lists gets a CSV row, including runs that failed or
never ran (status `failed` / `missing`), so nothing is dropped silently.
Columns: the run id, every swept value, the status, the headline
statistics, any statistic asked for by key, and the speed-up over the run's
reference point: the run with the same values except for the [reference]
axes, which take the reference values (reference cycles / run cycles; in
functional mode, where there are no cycles, reference warp instructions /
run warp instructions).

The Markdown table has one row per configuration (the non-workload values)
and one column per workload, grouped by workload class, with the
harmonic and geometric mean of the speed-ups per class.
"""

import csv
import difflib
import fnmatch
import io
import math
import os

from . import store

HEADLINE = ("cycles", "warp_instructions", "thread_instructions", "ipc", "simd_efficiency", "wall_seconds")


def stat(doc, key):
    """A value from a stats document by key: `cycles`, `derived.ipc`, or `counters/sm0.l1d.hits`
    (a '/' separates levels whose names contain dots). A level with a '*' (fnmatch pattern, e.g.
    `counters/sm*.cycles`) sums the numbers of every name it matches (None when none matches).
    `kernel:PATTERN/FIELD` sums FIELD over the launches (`kernels[]` records) of the kernels whose
    name matches PATTERN, e.g. `kernel:*Fan1*/cycles`: one kernel of an application."""
    if key.startswith("kernel:") and "/" in key:
        pattern, field = key[len("kernel:"):].split("/", 1)
        launches = [k for k in doc.get("kernels") or [] if isinstance(k, dict) and
                    fnmatch.fnmatchcase(str(k.get("kernel", "")), pattern)]
        values = [v for v in (stat(k, field) for k in launches) if v is not None]
        return sum(values) if values else None
    parts = key.split("/") if "/" in key else key.split(".")
    return _stat(doc, parts)


def _number(v):
    return v if isinstance(v, (int, float)) and not isinstance(v, bool) else None


def _stat(cur, parts):
    if not parts:
        return _number(cur)
    if not isinstance(cur, dict):
        return None
    part, rest = parts[0], parts[1:]
    if "*" not in part:
        return _stat(cur[part], rest) if part in cur else None
    values = [v for v in (_stat(cur[k], rest) for k in cur if fnmatch.fnmatchcase(k, part)) if v is not None]
    return sum(values) if values else None


class UnknownStat(Exception):
    """A statistic key that no successful run of the sweep has."""


def stat_keys(doc, prefix=()):
    """Every key of a stats document that `stat` reads a number from: levels joined by '.', or by '/'
    when a level's name holds a dot (`counters/sm0.l1d.hits`)."""
    out = []
    for k, v in doc.items():
        path = prefix + (k,)
        if isinstance(v, dict):
            out += stat_keys(v, path)
        elif _number(v) is not None:
            out.append(("/" if any("." in p for p in path) else ".").join(path))
    return out


def check_keys(rows, keys):
    """Raises UnknownStat for the first key that no successful run has a number for, naming the closest
    keys the runs do have. Without a successful run nothing can be told, so nothing is refused."""
    ok = [r["stats"] for r in rows if r["state"] == "ok" and r["stats"]]
    if not ok:
        return
    for key in keys:
        if any(stat(s, key) is not None for s in ok):
            continue
        known = sorted({k for s in ok for k in stat_keys(s)})
        close = difflib.get_close_matches(key, known, n=5, cutoff=0.6)
        raise UnknownStat("no successful run has the statistic '%s'%s; keys are dotted paths into stats.json "
                          "(docs/stats.md), with '/' between levels whose names hold dots" %
                          (key, " (did you mean %s?)" % ", ".join(close) if close else ""))


def load_rows(st):
    """Each listed run: its id, values, status and stats document (None unless it succeeded)."""
    doc = store.read_json(os.path.join(st.root, "sweep.json"))
    if doc is None:
        raise RuntimeError("%s is not a sweep directory (no readable sweep.json)" % st.root)
    rows = []
    for rid in doc.get("runs", []):
        run = store.read_json(os.path.join(st.run_dir(rid), "run.json")) or {}
        status = st.status(rid)
        stats = store.read_json(os.path.join(st.run_dir(rid), "stats.json"))
        state = "missing" if status is None else ("ok" if status.get("exit_code") == 0 else "failed")
        if state == "ok" and stats is None:
            state = "failed"
        rows.append({"id": rid, "values": run.get("values", {}), "state": state,
                     "exit_code": None if status is None else status.get("exit_code"),
                     "error": (status or {}).get("error", ""), "stats": stats if state == "ok" else None})
    return doc, rows


def _key(values, skip):
    return tuple(sorted((a, repr(v)) for a, v in values.items() if a not in skip))


def references(doc, rows):
    """Run id -> the row of its reference point (the same values with the [reference] ones put in),
    or None where the sweep has no such run."""
    ref = doc.get("reference") or {}
    if not ref:
        return {}
    by_values = {_key(r["values"], ()): r for r in rows}
    out = {}
    for r in rows:
        values = dict(r["values"])
        values.update(ref)
        out[r["id"]] = by_values.get(_key(values, ())) if r["values"] else None
    return out


def speedups(doc, rows):
    """Run id -> speed-up over its reference point (None when either side has no result)."""
    by_id = {r["id"]: r for r in rows}
    out = {}
    for rid, base in references(doc, rows).items():
        r = by_id[rid]
        out[rid] = None
        if not base or not base["stats"] or not r["stats"]:
            continue
        metric = "cycles" if stat(r["stats"], "cycles") else "warp_instructions"
        a, b = stat(base["stats"], metric), stat(r["stats"], metric)
        if a and b:
            out[rid] = a / b
    return out


def hmean(xs):
    return len(xs) / sum(1 / x for x in xs) if xs and all(x > 0 for x in xs) else None


def gmean(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs and all(x > 0 for x in xs) else None


def axis_order(rows):
    """Workload, machine, overlays (plain, then named), size, mode, then the parameter axes by name."""
    names = {a for r in rows for a in r["values"]}
    named = sorted(a for a in names if a.startswith("overlays."))
    fixed = [a for a in ["workload", "machine", "overlays"] + named + ["size", "mode"] if a in names]
    return fixed + sorted(names - set(fixed))


def to_csv(doc, rows, extra_keys):
    axes = axis_order(rows)
    sp = speedups(doc, rows)
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(["id"] + axes + ["status", "exit_code"] + list(HEADLINE) + list(extra_keys) +
               (["speedup_vs_reference"] if doc.get("reference") else []) + ["error"])
    for r in rows:
        vals = [_cell(r["values"].get(a)) for a in axes]
        stats = [_cell(stat(r["stats"], k)) if r["stats"] else "" for k in list(HEADLINE) + list(extra_keys)]
        ref = [_cell(sp.get(r["id"]))] if doc.get("reference") else []
        err = r["error"].strip().splitlines()[-1] if r["error"].strip() else ""
        w.writerow([r["id"]] + vals + [r["state"], _cell(r["exit_code"])] + stats + ref + [err])
    return out.getvalue()


def _cell(v):
    if v is None:
        return ""
    if isinstance(v, list):
        return "+".join(os.path.basename(x) for x in v) or "-"
    if isinstance(v, float):
        return "%.6g" % v
    if isinstance(v, str) and os.path.isabs(v):
        return os.path.basename(v)
    return str(v)


def _grid(rows, classes, value_of, means):
    """Markdown lines: one row per configuration (the non-workload values), one column per workload,
    grouped by class, and per class the means named in `means` (name -> function of a list)."""
    workloads = list(dict.fromkeys(r["values"].get("workload") for r in rows if r["values"].get("workload")))
    cls = {w: classes.get(w, "manifest" if w.startswith("manifest:") else "other") for w in workloads}
    class_order = list(dict.fromkeys(cls[w] for w in workloads))
    configs, cells = [], {}
    for r in rows:
        c = _key(r["values"], ("workload",))
        if c not in cells:
            configs.append((c, r["values"]))
            cells[c] = {}
        cells[c][r["values"].get("workload")] = r
    axes = [a for a in axis_order(rows) if a != "workload"]
    varying = [a for a in axes if len({repr(v.get(a)) for _, v in configs}) > 1] or axes[:1]
    head = varying[:]
    for k in class_order:
        head += [_wname(w) for w in workloads if cls[w] == k] + ["%s %s" % (k, m) for m in means]
    if len(class_order) > 1:
        head += ["all %s" % m for m in means]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for c, values in configs:
        row = [_cell(values.get(a)) for a in varying]
        every = []
        for k in class_order:
            xs = []
            for w in (w for w in workloads if cls[w] == k):
                r = cells[c].get(w)
                v = value_of(r) if r is not None and r["state"] == "ok" else None
                if v is not None:
                    xs.append(v)
                    row.append("%.3f" % v if isinstance(v, float) else str(v))
                else:
                    row.append("missing" if r is None or r["state"] == "missing" else
                               "failed" if r["state"] == "failed" else "no reference")
            every += xs
            row += [_fmt_mean(fn(xs)) for fn in means.values()]
        if len(class_order) > 1:
            row += [_fmt_mean(fn(every)) for fn in means.values()]
        lines.append("| " + " | ".join(row) + " |")
    return lines


def _fmt_mean(m):
    return "%.3f" % m if m else "-"


def amean(xs):
    return sum(xs) / len(xs) if xs else None


def to_markdown(doc, rows, classes, extra_keys=()):
    """Speed-ups per configuration and workload with per-class harmonic and geometric means, then a
    table per extra statistic with per-class arithmetic means."""
    title = doc.get("title") or doc.get("sweep", "sweep")
    lines = ["# %s" % title, ""]
    if doc.get("reference"):
        sp = speedups(doc, rows)
        ref = ", ".join("%s = %s" % (a, _cell(v)) for a, v in doc["reference"].items())
        lines += ["Speed-up over the reference point (%s): reference cycles / cycles (functional runs: warp "
                  "instructions). `failed` or `missing` where a run or its reference has no result." % ref, ""]
        lines += _grid(rows, classes, lambda r: sp.get(r["id"]), {"hmean": hmean, "gmean": gmean})
    else:
        lines.append("No [reference] point: no speed-ups. The CSV has every run's statistics.")
    for key in extra_keys:
        lines += ["", "## %s" % key, "", "Per-class column: arithmetic mean.", ""]
        lines += _grid(rows, classes, lambda r, key=key: stat(r["stats"], key) if r["stats"] else None,
                       {"mean": amean})
    failed = [r for r in rows if r["state"] != "ok"]
    if failed:
        lines += ["", "%d of %d runs have no result:" % (len(failed), len(rows))]
        for r in failed:
            err = r["error"].strip().splitlines()[-1] if r["error"].strip() else r["state"]
            lines.append("- `%s` (%s): %s" % (r["id"], r["state"], err))
    return "\n".join(lines) + "\n"


def _wname(w):
    return "manifest:" + os.path.basename(w[len("manifest:"):]) if w.startswith("manifest:") else w
