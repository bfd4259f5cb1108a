"""Figures from a collected sweep, with Debian's python3-matplotlib.

A sweep file's [plot] table (or [[plot]] tables, one per figure) says what
to draw; without one, a grouped bar chart of the speed-ups (or of cycles,
when there is no reference point). Kinds:

  bars       grouped bars (bars.py): one group per workload, one bar per
             configuration (the values of the axes other than workload), a
             panel per workload class; `means` adds a panel of each class's
             mean and the mean over all workloads
  lines      the y value over a numeric axis `x`; one line per workload, or,
             when other axes vary too, one panel per workload with a line
             per configuration
  breakdown  stacked bars of each run's issue_breakdown (timing mode)
  series     a time series of the stats (y = "sm0.ipc", "sm0.active_warps")
             over cycles: one panel per workload, a line per configuration

Keys: kind, title, xlabel, ylabel, y ("speedup" or a statistic key, as
collect's --stat), x (lines), normalise (y over the reference run's y),
means (bars: hmean, gmean, amean), workloads (only these), where (only the
runs with these axis values: {axis = [values]}), name (file name stem). Each figure is written as PNG and SVG.
"""

import math
import os

from . import bars, collect, labels
from .labels import legend as _legend


def _pyplot():
    import matplotlib
    matplotlib.use("Agg")  # files only, no display
    import matplotlib.pyplot as plt
    return plt


def figures(doc):
    """The sweep's figure specs with their defaults filled in."""
    spec = doc.get("plot") or {}
    figs = spec if isinstance(spec, list) else [spec]
    out = []
    for i, f in enumerate(figs):
        f = dict(f)
        f.setdefault("kind", "bars")
        if f["kind"] not in DRAW:
            raise ValueError("[plot] kind '%s' is not one of %s" % (f["kind"], ", ".join(DRAW)))
        f.setdefault("y", "speedup" if doc.get("reference") else "cycles")
        f.setdefault("title", doc.get("title") or doc.get("sweep", "sweep"))
        f.setdefault("name", "%s-%s%s" % (doc.get("sweep", "sweep"), f["kind"], "" if i == 0 else "-%d" % i))
        f.setdefault("means", "none")
        if f["kind"] == "lines" and "x" not in f:
            raise ValueError("[plot] kind 'lines' needs x = the axis to plot over")
        if f.get("normalise") and not doc.get("reference"):
            raise ValueError("[plot] normalise = true needs a [reference] point")
        out.append(f)
    return out


class Context:
    """What every figure of one sweep needs: the successful runs, their reference runs, speed-ups, the
    axes that vary, and how to label a configuration."""

    def __init__(self, doc, rows, classes):
        self.doc = doc
        self.ok = [r for r in rows if r["state"] == "ok"]
        self.sp = collect.speedups(doc, rows)
        self.refs = collect.references(doc, rows)
        self.classes = classes
        self.zips = doc.get("zips") or []
        axes = [a for a in collect.axis_order(rows) if a != "workload"]
        self.varying = [a for a in axes if len({repr(r["values"].get(a)) for r in rows}) > 1]

    def partners(self, axis):
        """The axis and the axes zipped with it."""
        return next((set(z) for z in self.zips if axis in z), {axis})

    def label(self, r, axes):
        """A configuration's legend text: its values of `axes`, without the axes' names (the legend's
        title names them once: labels.legend_title)."""
        return ", ".join(labels.value_name(r["values"].get(a)) for a in axes) or "all"

    def value(self, r, f):
        """The figure's y for run r: a speed-up or statistic, over the reference run's when normalised."""
        if f["y"] == "speedup":
            return self.sp.get(r["id"])
        v = collect.stat(r["stats"], f["y"]) if r["stats"] else None
        if v is None or not f.get("normalise"):
            return v
        base = self.refs.get(r["id"])
        b = collect.stat(base["stats"], f["y"]) if base and base["stats"] else None
        return v / b if b else None

    def rows(self, f):
        keep = f.get("workloads")
        where = f.get("where") or {}
        return [r for r in self.ok if (keep is None or r["values"].get("workload") in keep) and
                all(r["values"].get(a) in vs for a, vs in where.items())]

    def varying_in(self, rows):
        """The non-workload axes whose value differs among `rows` (a figure's own selection)."""
        return [a for a in self.varying if len({repr(r["values"].get(a)) for r in rows}) > 1]


def _panels(plt, n, width_each=4.0, height_each=3.0):
    cols = min(3, n)
    rows = math.ceil(n / cols)
    fig, axs = plt.subplots(rows, cols, figsize=(width_each * cols + 1.5, height_each * rows + 0.6), squeeze=False)
    flat = [a for row in axs for a in row]
    for a in flat[n:]:
        a.set_visible(False)
    return fig, flat[:n]


def draw_lines(plt, ctx, f):
    x = f["x"]
    rows = [r for r in ctx.rows(f) if isinstance(r["values"].get(x), (int, float))]
    others = [a for a in ctx.varying_in(rows) if a not in ctx.partners(x)]
    if not rows:
        raise ValueError("[plot] lines: no successful run has a numeric %s" % x)
    workloads = list(dict.fromkeys(r["values"]["workload"] for r in rows))
    per_workload = bool(others) and len(workloads) > 1
    fig, axes = _panels(plt, len(workloads)) if per_workload else plt.subplots(figsize=(7.5, 4.5))
    axes = axes if per_workload else [axes]
    series = {}
    for r in rows:
        w = r["values"]["workload"]
        panel = workloads.index(w) if per_workload else 0
        name = ctx.label(r, others) if per_workload else collect._wname(w) + (
            "" if not others else " (%s)" % ctx.label(r, others))
        v = ctx.value(r, f)
        if v is not None:
            series.setdefault((panel, name), []).append((r["values"][x], v))
    for (panel, name), pts in series.items():
        pts.sort()
        axes[panel].plot([p[0] for p in pts], [p[1] for p in pts], marker="o", label=name)
    for i, ax in enumerate(axes):
        ax.set_xlabel(f.get("xlabel", labels.axis_name(x)))
        ax.set_ylabel(labels.ylabel(f, ctx.doc))
        if per_workload:
            ax.set_title(collect._wname(workloads[i]), fontsize=9)
    _legend(axes[-1] if per_workload else axes[0], len({n for _, n in series}),
            labels.legend_title(others) if per_workload else None)
    return fig, axes


def draw_breakdown(plt, ctx, f):
    order = list(dict.fromkeys(r["values"].get("workload") for r in ctx.rows(f)))
    rows = sorted(ctx.rows(f), key=lambda r: order.index(r["values"].get("workload")))  # a workload's bars side by side
    varying = ctx.varying_in(rows)
    labels, stacks, bins = [], [], []
    for r in rows:
        bd = (r["stats"] or {}).get("issue_breakdown") or []
        total = sum(b.get("cycles", 0) for b in bd) or 1
        stacks.append({b["bin"]: b.get("cycles", 0) / total for b in bd})
        labels.append(collect._wname(r["values"].get("workload", "?")) +
                      ("" if not varying else "\n" + ctx.label(r, varying)))
        for b in bd:
            if b["bin"] not in bins:
                bins.append(b["bin"])
    if not bins:
        raise ValueError("[plot] breakdown: no successful run has an issue_breakdown (timing mode only)")
    fig, ax = plt.subplots(figsize=(min(40.0, max(6.0, 0.32 * len(stacks) + 3)), 5.0))
    bottom = [0.0] * len(stacks)
    colors = plt.get_cmap("tab20").colors  # more bins than the default cycle's 10 colours
    for k, b in enumerate(bins):
        h = [s.get(b, 0.0) for s in stacks]
        ax.bar(range(len(stacks)), h, 0.8, bottom=bottom, label=b, color=colors[k % len(colors)])
        bottom = [x + y for x, y in zip(bottom, h)]
    ax.set_xticks(range(len(labels)))
    ax.set_xticklabels(labels, rotation=90, fontsize=6)
    ax.set_ylim(0, 1)
    ax.set_ylabel(f.get("ylabel", "fraction of issue cycles"))
    _legend(ax, len(bins))
    return fig, [ax]


def draw_series(plt, ctx, f):
    if isinstance(f["y"], list):
        return draw_stacked_series(plt, ctx, f)
    name = f["y"]
    rows = [r for r in ctx.rows(f) if ((r["stats"] or {}).get("series") or {}).get(name)]
    if not rows:
        raise ValueError("[plot] series: no successful run has the time series '%s' (timing mode, "
                         "stats.interval > 0; names as in stats.json's \"series\")" % name)
    workloads = list(dict.fromkeys(r["values"]["workload"] for r in rows))
    varying = ctx.varying_in(rows)
    fig, axes = _panels(plt, len(workloads))
    for r in rows:
        s = r["stats"]["series"][name]
        step = s.get("interval") or 1
        vals = s.get("values") or []
        ax = axes[workloads.index(r["values"]["workload"])]
        ax.plot([(i + 1) * step for i in range(len(vals))], vals, label=ctx.label(r, varying), linewidth=1)
    for i, ax in enumerate(axes):
        ax.set_title(collect._wname(workloads[i]), fontsize=9)
        ax.set_xlabel(f.get("xlabel", "cycle"))
        ax.set_ylabel(f.get("ylabel", name))
    _legend(axes[-1], len(rows) if varying else 0, labels.legend_title(varying))
    return fig, axes


def draw_stacked_series(plt, ctx, f):
    """y = a list of series: a panel per run, the series stacked over cycles (e.g. warps by gang size)."""
    names = f["y"]
    rows = [r for r in ctx.rows(f) if all(((r["stats"] or {}).get("series") or {}).get(n) for n in names)]
    if not rows:
        raise ValueError("[plot] series: no successful run has all of the time series %s (timing mode, "
                         "stats.interval > 0; names as in stats.json's \"series\")" % ", ".join(names))
    varying = ctx.varying_in(rows)
    fig, axes = _panels(plt, len(rows))
    for ax, r in zip(axes, rows):
        series = [r["stats"]["series"][n] for n in names]
        step = series[0].get("interval") or 1
        n = min(len(s.get("values") or []) for s in series)
        xs = [(i + 1) * step for i in range(n)]
        ax.stackplot(xs, *[(s.get("values") or [])[:n] for s in series], labels=names, linewidth=0)
        label = ctx.label(r, varying)
        w = collect._wname(r["values"]["workload"])
        ax.set_title(w + (", " + label if label and label != w else ""), fontsize=9)
        ax.set_xlabel(f.get("xlabel", "cycle"))
        ax.set_ylabel(f.get("ylabel", "stacked"))
    _legend(axes[-1], len(names))
    return fig, axes


def draw_histogram(plt, ctx, f):
    """y = a histogram of the stats (or a list of them, summed bin by bin): a
    panel per workload, a bar per bin and run, each bin over the run's cycles
    (e.g. each lane's gated share)."""
    names = f["y"] if isinstance(f["y"], list) else [f["y"]]

    def shares(r):
        stats = r["stats"] or {}
        hs = stats.get("histograms") or {}
        cycles = stats.get("cycles") or 0
        if not cycles or not all(n in hs for n in names):
            return None
        return [sum(b) / cycles for b in zip(*[hs[n]["bins"] for n in names])]

    rows = [r for r in ctx.rows(f) if shares(r) is not None]
    if not rows:
        raise ValueError("[plot] histogram: no successful timing run has the histogram(s) %s (names as in "
                         "stats.json's \"histograms\")" % ", ".join(names))
    workloads = list(dict.fromkeys(r["values"]["workload"] for r in rows))
    varying = ctx.varying_in(rows)
    fig, axes = _panels(plt, len(workloads))
    for ax, w in zip(axes, workloads):
        runs = [r for r in rows if r["values"]["workload"] == w]
        width = 0.8 / len(runs)
        for k, r in enumerate(runs):
            b = shares(r)
            ax.bar([j + k * width for j in range(len(b))], b, width, label=ctx.label(r, varying))
        ax.set_title(collect._wname(w), fontsize=9)
        ax.set_xlabel(f.get("xlabel", "bin"))
        ax.set_ylabel(f.get("ylabel", "share of cycles"))
    _legend(axes[-1], len([r for r in rows if r["values"]["workload"] == workloads[-1]]) if varying else 0,
            labels.legend_title(varying))
    return fig, axes


DRAW = {"bars": bars.draw_bars, "lines": draw_lines, "breakdown": draw_breakdown, "series": draw_series,
        "histogram": draw_histogram}


def draw(doc, rows, outdir, formats=("png", "svg"), classes=None):
    """Writes every figure; returns the paths written."""
    plt = _pyplot()
    ctx = Context(doc, rows, classes or {})
    if not ctx.ok:
        raise ValueError("no run of the sweep has succeeded: nothing to plot")
    os.makedirs(outdir, exist_ok=True)
    written = []
    for f in figures(doc):
        fig, _ = DRAW[f["kind"]](plt, ctx, f)
        fig.suptitle(f["title"])
        fig.tight_layout()
        for fmt in formats:
            path = os.path.join(outdir, "%s.%s" % (f["name"], fmt))
            fig.savefig(path + ".tmp", format=fmt, dpi=110, bbox_inches="tight")
            os.replace(path + ".tmp", path)
            written.append(path)
        plt.close(fig)
    return written
