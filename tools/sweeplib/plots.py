"""Figures from a collected sweep, with Debian's python3-matplotlib.

A sweep file's [plot] table (or [[plot]] tables, one per figure) says what
to draw; without one, a grouped bar chart of the speed-ups (or of cycles,
when there is no reference point). Kinds:

  bars       grouped bars: one group per workload, one bar per configuration
  lines      one line per workload (and configuration) over a numeric axis `x`
  breakdown  stacked bars of each run's issue_breakdown (timing mode)

Keys: kind, title, ylabel, y ("speedup" or a statistic key, as collect's
--stat), x (lines: the axis), name (file name stem). Each figure is written
as PNG and SVG.
"""

import os

from . import collect

KINDS = ("bars", "lines", "breakdown")


def _pyplot():
    import matplotlib
    matplotlib.use("Agg")  # files only, no display
    import matplotlib.pyplot as plt
    return plt


def _label(values, axes):
    return ", ".join("%s=%s" % (a[4:] if a.startswith("set.") else a, collect._cell(values.get(a))) for a in axes) \
        or "all"


def _y(row, y, sp):
    if y == "speedup":
        return sp.get(row["id"])
    return collect.stat(row["stats"], y) if row["stats"] else None


def figures(doc):
    spec = doc.get("plot") or {}
    figs = spec if isinstance(spec, list) else [spec]
    out = []
    for i, f in enumerate(figs):
        f = dict(f)
        f.setdefault("kind", "bars")
        if f["kind"] not in KINDS:
            raise ValueError("[plot] kind '%s' is not one of %s" % (f["kind"], ", ".join(KINDS)))
        f.setdefault("y", "speedup" if doc.get("reference") else "cycles")
        f.setdefault("title", doc.get("title") or doc.get("sweep", "sweep"))
        f.setdefault("name", "%s-%s%s" % (doc.get("sweep", "sweep"), f["kind"], "" if i == 0 else "-%d" % i))
        if f["kind"] == "lines" and "x" not in f:
            raise ValueError("[plot] kind 'lines' needs x = the axis to plot over")
        out.append(f)
    return out


def draw(doc, rows, outdir, formats=("png", "svg")):
    """Writes every figure; returns the paths written."""
    plt = _pyplot()
    os.makedirs(outdir, exist_ok=True)
    sp = collect.speedups(doc, rows)
    ok = [r for r in rows if r["state"] == "ok"]
    axes = [a for a in collect.axis_order(rows) if a != "workload"]
    varying = [a for a in axes if len({repr(r["values"].get(a)) for r in rows}) > 1]
    written = []
    for f in figures(doc):
        fig, ax = plt.subplots(figsize=(max(6.0, 0.6 * len(ok) ** 0.5 * 3), 4.2))
        if f["kind"] == "bars":
            workloads = list(dict.fromkeys(r["values"].get("workload") for r in ok))
            configs = list(dict.fromkeys(_label(r["values"], varying) for r in ok))
            width = 0.8 / max(1, len(configs))
            for k, c in enumerate(configs):
                ys = []
                for w in workloads:
                    r = next((r for r in ok if r["values"].get("workload") == w and
                              _label(r["values"], varying) == c), None)
                    v = _y(r, f["y"], sp) if r else None
                    ys.append(v if v is not None else 0.0)
                ax.bar([i + k * width for i in range(len(workloads))], ys, width, label=c)
            ax.set_xticks([i + width * (len(configs) - 1) / 2 for i in range(len(workloads))])
            ax.set_xticklabels([collect._wname(w) for w in workloads], rotation=30, ha="right")
            if f["y"] == "speedup":
                ax.axhline(1.0, color="black", linewidth=0.8)
        elif f["kind"] == "lines":
            x = f["x"]
            others = [a for a in varying if a != x]
            series = {}
            for r in ok:
                key = (r["values"].get("workload"), _label(r["values"], others))
                v = _y(r, f["y"], sp)
                if v is not None and isinstance(r["values"].get(x), (int, float)):
                    series.setdefault(key, []).append((r["values"][x], v))
            for (w, c), pts in series.items():
                pts.sort()
                ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o",
                        label=collect._wname(w) + ("" if c == "all" else " (%s)" % c))
            ax.set_xlabel(x[4:] if x.startswith("set.") else x)
        else:  # breakdown
            labels, stacks, bins = [], [], []
            for r in ok:
                bd = (r["stats"] or {}).get("issue_breakdown") or []
                total = sum(b.get("cycles", 0) for b in bd) or 1
                stacks.append({b["bin"]: b.get("cycles", 0) / total for b in bd})
                labels.append(collect._wname(r["values"].get("workload", "?")) + "\n" + _label(r["values"], varying))
                for b in bd:
                    if b["bin"] not in bins:
                        bins.append(b["bin"])
            bottom = [0.0] * len(stacks)
            colors = plt.get_cmap("tab20").colors  # more bins than the default cycle's 10 colours
            for k, b in enumerate(bins):
                h = [s.get(b, 0.0) for s in stacks]
                ax.bar(range(len(stacks)), h, 0.8, bottom=bottom, label=b, color=colors[k % len(colors)])
                bottom = [x + y for x, y in zip(bottom, h)]
            ax.set_xticks(range(len(labels)))
            ax.set_xticklabels(labels, rotation=60, ha="right", fontsize=7)
            f.setdefault("ylabel", "fraction of issue cycles")
        ax.set_title(f["title"])
        ax.set_ylabel(f.get("ylabel", "speed-up over the reference" if f["y"] == "speedup" else f["y"]))
        if ax.get_legend_handles_labels()[0]:
            ax.legend(fontsize=7, loc="center left", bbox_to_anchor=(1.0, 0.5))
        fig.tight_layout()
        for fmt in formats:
            path = os.path.join(outdir, "%s.%s" % (f["name"], fmt))
            fig.savefig(path + ".tmp", format=fmt)
            os.replace(path + ".tmp", path)
            written.append(path)
        plt.close(fig)
    return written
