"""Grouped bar charts of a sweep, readable at normal size.

A group per workload, a bar per configuration (the values of the axes other
than workload). The workloads are split into a panel per workload class
(`simtlab list`), and a panel with more groups than fit is wrapped onto
further rows, so that a figure stays about 1400 px wide at the 110 dpi that
plots.draw saves with, however many workloads and configurations there are.
`means` adds a panel of each class's mean and the mean over all workloads.
The legend sits above the panels, one entry per configuration, naming the
varying axes once in its title. Where a group's bars differ by a few percent
of the panel's height, too little to see, each bar carries its value.
"""

import math

from . import collect, labels

WIDTH_IN = 13.0  # x 110 dpi: 1430 px
SLOTS_PER_ROW = 80  # bars (and the gap after each group) in one row: at least 0.15 in each
ROW_HEIGHT_IN = 2.6
# A group whose bars differ by less than this share of the panel's tallest bar (about 0.25 in at
# ROW_HEIGHT_IN) cannot be read off the axis: its values are printed on the bars.
CLOSE = 0.1
MEAN_NAMES = {"hmean": "harmonic mean", "gmean": "geometric mean", "amean": "arithmetic mean"}


def mean(kind, xs):
    xs = [x for x in xs if x is not None]
    if not xs:
        return None
    if kind == "amean":
        return sum(xs) / len(xs)
    return collect.hmean(xs) if kind == "hmean" else collect.gmean(xs)


def _panels(ctx, f, workloads, configs, cell):
    """[(title, [(group label, [value per configuration])])]: one panel per class, then the means."""
    cls = {w: ctx.classes.get(w, "manifest" if w.startswith("manifest:") else "other") for w in workloads}
    order = list(dict.fromkeys(cls[w] for w in workloads))
    panels = [("%s workloads" % k, [(collect._wname(w), [cell.get((w, c)) for c in configs])
                                    for w in workloads if cls[w] == k]) for k in order]
    if f["means"] != "none":
        groups = []
        for k in order + (["all"] if len(order) > 1 else []):
            members = [w for w in workloads if k == "all" or cls[w] == k]
            groups.append(("%s %s" % (f["means"], k), [mean(f["means"], [cell.get((w, c)) for w in members])
                                                       for c in configs]))
        panels.append(("%s per class" % MEAN_NAMES[f["means"]], groups))
    if len(panels) == 1:
        panels = [("", panels[0][1])]  # one class and no means: the class needs no title
    return panels


def _wrap(panels, per_row):
    """The panels cut into rows of at most per_row groups."""
    rows = []
    for title, groups in panels:
        for i in range(0, len(groups), per_row):
            rows.append((title + (" (continued)" if i and title else ""), groups[i:i + per_row]))
    return rows


def _close(values, top):
    vs = [v for v in values if v is not None]
    return len(vs) > 1 and top > 0 and max(vs) - min(vs) <= CLOSE * top


def _draw_row(ax, groups, n_configs, colors):
    width = 0.8 / n_configs
    top = max((abs(v) for _, vs in groups for v in vs if v is not None), default=0)
    # With one configuration, a group is one bar: the row's bars are what is compared.
    print_all = n_configs == 1 and _close([vs[0] for _, vs in groups], top)
    printed = False
    for i, (_, values) in enumerate(groups):
        show = print_all or _close(values, top)
        for k, v in enumerate(values):
            if v is None:
                continue
            x = i - 0.4 + (k + 0.5) * width
            ax.bar(x, v, width, color=colors[k % len(colors)])
            if show:
                ax.text(x, v, " %s " % labels.value_text(v), rotation=90, ha="center",
                        va="bottom" if v >= 0 else "top", fontsize=6)
                printed = True
    ax.set_xticks(range(len(groups)))
    ax.set_xticklabels([g[0] for g in groups], rotation=20, ha="right", fontsize=8)
    if printed:
        ax.margins(y=0.18)  # room above the bars for the printed values


def draw_bars(plt, ctx, f):
    rows = ctx.rows(f)
    varying = ctx.varying_in(rows)
    workloads = list(dict.fromkeys(r["values"]["workload"] for r in rows))
    configs = list(dict.fromkeys(ctx.label(r, varying) for r in rows))
    cell = {(r["values"]["workload"], ctx.label(r, varying)): ctx.value(r, f) for r in rows}
    grid = _wrap(_panels(ctx, f, workloads, configs, cell), max(1, SLOTS_PER_ROW // (len(configs) + 1)))
    slots = max(len(g) for _, g in grid)
    width = min(WIDTH_IN, max(6.0, 0.16 * slots * (len(configs) + 1) + 2.0))
    colors = plt.get_cmap("tab10" if len(configs) <= 10 else "tab20").colors
    # The legend gets a row of its own above the panels: beside them it would widen the figure.
    longest = max(len(c) for c in configs)
    ncol = max(1, min(len(configs), int(width // (0.065 * longest + 0.5))))
    legend_h = 0.15 + 0.17 * math.ceil(len(configs) / ncol) if len(configs) > 1 else 0.0
    heights = ([legend_h] if legend_h else []) + [ROW_HEIGHT_IN] * len(grid)
    fig, axs = plt.subplots(len(heights), 1, figsize=(width, sum(heights) + 0.6), squeeze=False,
                            gridspec_kw={"height_ratios": heights})
    axs = [a for row in axs for a in row]
    if legend_h:
        lax, axs = axs[0], axs[1:]
        lax.axis("off")
        handles = [plt.Rectangle((0, 0), 1, 1, color=colors[k % len(colors)]) for k in range(len(configs))]
        lax.legend(handles, configs, loc="center", ncol=ncol, frameon=False, fontsize=labels.LEGEND_FONT + 1,
                   title=labels.legend_title(varying), title_fontsize=labels.LEGEND_FONT + 2)
    for ax, (title, groups) in zip(axs, grid):
        _draw_row(ax, groups, len(configs), colors)
        ax.set_xlim(-0.5, slots - 0.5)  # every row at the same scale
        if f["y"] == "speedup" or f.get("normalise"):
            ax.axhline(1.0, color="black", linewidth=0.8)
        ax.set_ylabel(labels.ylabel(f, ctx.doc), fontsize=8)
        if title:
            ax.set_title(title, fontsize=9, loc="left")
    note = labels.y_note(f, ctx.doc)
    axs[-1].set_xlabel((f["xlabel"] + "\n" if "xlabel" in f else "") + note, fontsize=7, color="0.35")
    return fig, axs
