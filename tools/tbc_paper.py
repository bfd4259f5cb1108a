#!/usr/bin/env python3
"""Seed 001 (Thread Block Compaction) Figures 12 and 13 from simtlab runs.

Runs every built-in workload (or the ones named) on the TBC baseline machine
under each reconvergence setup, one simtlab process per (workload, setup),
--jobs at a time:

    simtlab run --config configs/tbc-baseline.toml --config configs/<setup>.toml
                --workload W --size S --stats <out>/runs/W.<setup>.json

and writes into the output directory:

  fig12.csv / fig12.md / fig12.png  IPC normalised to the reference setup
      (default pdom) per workload, harmonic mean per workload class and
      overall, SIMD efficiency; grouped bars like the paper's Figure 12.
  fig13.csv / fig13.md / fig13.png  issue-cycle breakdown per workload and
      setup as fractions (W0-idle, W0-mem, stall, W1-4 ... W29-32) and memory
      pipeline stalls normalised to the reference; stacked bars like Figure 13.

A run that fails (non-zero exit) appears in the tables as failed, with the
first line of its error message; it is never dropped. The fig12 table is also
printed on stdout. Without matplotlib (Debian: python3-matplotlib) the tables
are written and the plots skipped, with a note saying so.

Usage:
  tools/tbc_paper.py [--simtlab PATH] [--size small|medium|large] [--jobs N]
                     [--out DIR] [--configs pdom,dwf,dwf-wb,tbc-lcp]
                     [--reference pdom] [--set KEY=VALUE ...] [--reuse]
                     [--timeout SECONDS] [workload ...]

Setups are the overlay files configs/<name>.toml: pdom, pdom-lcp, tbc,
tbc-lcp (the paper's TBC), tbc-rrb, tbc-srr, dwf, dwf-wb (docs/tbc.md). The
reference setup is run too when it is not in --configs. Exit status: 0 when
every run succeeded, 1 when some run failed (the tables are still written),
2 on bad usage or a missing binary.
"""
import argparse
import concurrent.futures
import csv
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_CONFIGS = "pdom,dwf,dwf-wb,tbc-lcp"
# `simtlab list` classes, in the order the tables show them, and the paper's names.
CLASS_ORDER = ["divergent", "convergent", "warp-size-insensitive"]
CLASS_LABEL = {"divergent": "DIVG", "convergent": "COHE", "warp-size-insensitive": "INSENS"}


class Run:
    """One (workload, setup) run and what came out of it."""

    def __init__(self, workload, wclass, config):
        self.workload = workload
        self.wclass = wclass
        self.config = config
        self.ok = False
        self.error = ""   # first line of the error message when the run failed
        self.code = None  # exit code (None: not run or could not start)
        self.doc = None   # the --stats document when ok

    def value(self, key, default=None):
        return self.doc.get(key, default) if self.doc else default


def usage_error(msg):
    print("tbc_paper: " + msg, file=sys.stderr)
    sys.exit(2)


def list_workloads(simtlab):
    """[(name, class)] from `simtlab list` (name, class, description per line)."""
    p = subprocess.run([simtlab, "list"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if p.returncode != 0:
        usage_error("`%s list` failed: %s" % (simtlab, first_line(p.stderr) or "exit %d" % p.returncode))
    out = []
    for line in p.stdout.splitlines():
        parts = line.split()
        if len(parts) >= 2:
            out.append((parts[0], parts[1]))
    if not out:
        usage_error("`%s list` printed no workloads" % simtlab)
    return out


def first_line(text):
    for line in text.splitlines():
        if line.strip():
            return line.strip()
    return ""


def run_one(args, run):
    """Runs simtlab for `run` (or reuses its stats file with --reuse)."""
    stem = os.path.join(args.out, "runs", "%s.%s" % (run.workload, run.config))
    stats_path, log_path = stem + ".json", stem + ".log"
    if args.reuse and os.path.exists(stats_path):
        return load_stats(run, stats_path)
    if os.path.exists(stats_path):
        os.remove(stats_path)  # never read a previous run's numbers as this one's
    cmd = [args.simtlab, "run", "--quiet", "--workload", run.workload, "--size", args.size,
           "--config", os.path.join(args.configs_dir, "tbc-baseline.toml"),
           "--config", os.path.join(args.configs_dir, run.config + ".toml"),
           "--stats.interval", "0", "--stats", stats_path]
    for kv in args.set:
        cmd += ["--set", kv]
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                           timeout=args.timeout)
    except subprocess.TimeoutExpired:
        run.error = "timed out after %g s" % args.timeout
        return run
    with open(log_path, "w") as f:
        f.write("$ " + " ".join(cmd) + "\n" + p.stdout + p.stderr)
    run.code = p.returncode
    if p.returncode != 0:
        # simtlab prints its error on stderr; a failed verification says why on stdout.
        run.error = first_line(p.stderr) or first_line(p.stdout) or "exit code %d" % p.returncode
        run.error = "exit %d: %s" % (p.returncode, run.error)
        return run
    return load_stats(run, stats_path)


def load_stats(run, path):
    try:
        with open(path) as f:
            run.doc = json.load(f)
    except (OSError, ValueError) as e:
        run.error = "unreadable stats file %s: %s" % (path, e)
        return run
    if run.doc.get("verified") is False:
        run.error = "failed verification (stats file %s)" % path
        return run
    if "ipc" not in run.doc:
        run.error = "stats file %s has no ipc (not a timing run?)" % path
        return run
    run.ok = True
    return run


def harmonic_mean(xs):
    xs = [x for x in xs if x is not None and x > 0]
    return len(xs) / sum(1.0 / x for x in xs) if xs else None


def fmt(x, digits=3):
    return "-" if x is None else ("%.*f" % (digits, x))


# ---- Figure 12: normalised IPC and SIMD efficiency ------------------------

def fig12_rows(workloads, configs, runs, reference):
    """Per workload: {config: (norm_ipc, simd_eff, run)}."""
    rows = []
    for w, wc in workloads:
        ref = runs[(w, reference)]
        cells = {}
        for c in configs:
            r = runs[(w, c)]
            norm = None
            if r.ok and ref.ok and ref.value("ipc", 0) > 0:
                norm = r.value("ipc") / ref.value("ipc")
            cells[c] = (norm, r.value("simd_efficiency") if r.ok else None, r)
        rows.append((w, wc, cells))
    return rows


def fig12_means(rows, configs):
    """[(label, {config: (hm_norm_ipc, mean_simd, n_used, n_all)})] per class and overall."""
    groups = [(CLASS_LABEL.get(k, k), [r for r in rows if r[1] == k]) for k in CLASS_ORDER]
    others = sorted({r[1] for r in rows} - set(CLASS_ORDER))
    groups += [(k, [r for r in rows if r[1] == k]) for k in others]
    groups = [(label, g) for label, g in groups if g]
    groups.append(("ALL", rows))
    out = []
    for label, g in groups:
        cells = {}
        for c in configs:
            norms = [r[2][c][0] for r in g if r[2][c][0] is not None]
            simds = [r[2][c][1] for r in g if r[2][c][1] is not None]
            cells[c] = (harmonic_mean(norms), sum(simds) / len(simds) if simds else None, len(norms), len(g))
        out.append((label, cells))
    return out


def write_fig12(args, workloads, configs, runs):
    rows = fig12_rows(workloads, configs, runs, args.reference)
    means = fig12_means(rows, configs)
    with open(os.path.join(args.out, "fig12.csv"), "w", newline="") as f:
        wr = csv.writer(f)
        wr.writerow(["workload", "class", "config", "status", "cycles", "ipc", "ipc_norm_" + args.reference,
                     "simd_efficiency", "error"])
        for w, wc, cells in rows:
            for c in configs:
                norm, simd, r = cells[c]
                wr.writerow([w, wc, c, "ok" if r.ok else "failed", r.value("cycles", ""), r.value("ipc", ""),
                             "" if norm is None else norm, "" if simd is None else simd, r.error])
        for label, cells in means:
            for c in configs:
                hm, simd, n, m = cells[c]
                wr.writerow(["HM " + label, "", c, "%d of %d" % (n, m), "", "", "" if hm is None else hm,
                             "" if simd is None else simd, ""])
    lines = ["# Seed 001 Figure 12: IPC relative to %s (size %s)" % (args.reference, args.size), "",
             "IPC of each setup divided by the %s IPC of the same workload; HM rows are harmonic means over the "
             "workloads where both runs succeeded (n of m). SIMD efficiency: active lanes over issued warp "
             "slots (HM rows: arithmetic mean)." % args.reference, ""]
    head = ["workload", "class"] + ["%s IPC" % c for c in configs] + ["%s SIMD" % c for c in configs]
    lines.append("| " + " | ".join(head) + " |")
    lines.append("|" + "---|" * len(head))
    for w, wc, cells in rows:
        ipcs = [fmt(cells[c][0]) if cells[c][2].ok else "FAILED" for c in configs]
        simds = [fmt(cells[c][1]) if cells[c][2].ok else "FAILED" for c in configs]
        lines.append("| " + " | ".join([w, CLASS_LABEL.get(wc, wc)] + ipcs + simds) + " |")
    for label, cells in means:
        ipcs = ["%s (%d of %d)" % (fmt(cells[c][0]), cells[c][2], cells[c][3]) if cells[c][2] < cells[c][3]
                else fmt(cells[c][0]) for c in configs]
        simds = [fmt(cells[c][1]) for c in configs]
        lines.append("| " + " | ".join(["**HM " + label + "**", ""] + ipcs + simds) + " |")
    lines += failed_section(runs)
    text = "\n".join(lines) + "\n"
    with open(os.path.join(args.out, "fig12.md"), "w") as f:
        f.write(text)
    return rows, means, text


def failed_section(runs):
    failed = [r for r in runs.values() if not r.ok]
    if not failed:
        return []
    lines = ["", "## Failed runs", "", "| workload | config | error (first line) |", "|---|---|---|"]
    for r in sorted(failed, key=lambda r: (r.workload, r.config)):
        lines.append("| %s | %s | %s |" % (r.workload, r.config, r.error.replace("|", "\\|")))
    return lines


# ---- Figure 13: issue-cycle breakdown --------------------------------------

def breakdown(run):
    """{bin label: fraction of scheduler cycles}, in the report's bin order."""
    bins = run.value("issue_breakdown") or []
    total = sum(b["cycles"] for b in bins)
    return [(b["bin"], b["cycles"] / total if total else 0.0) for b in bins]


def bin_labels(runs):
    labels = []
    for r in runs.values():
        if r.ok:
            for label, _ in breakdown(r):
                if label not in labels:
                    labels.append(label)
    return labels


def write_fig13(args, workloads, configs, runs):
    labels = bin_labels(runs)
    table = []  # (workload, class, config, run, {label: fraction}, mem_stalls_norm)
    for w, wc in workloads:
        ref = runs[(w, args.reference)]
        for c in configs:
            r = runs[(w, c)]
            fr = dict(breakdown(r)) if r.ok else {}
            norm = None
            if r.ok and ref.ok and ref.value("memory_pipeline_stalls"):
                norm = r.value("memory_pipeline_stalls", 0) / ref.value("memory_pipeline_stalls")
            table.append((w, wc, c, r, fr, norm))
    with open(os.path.join(args.out, "fig13.csv"), "w", newline="") as f:
        wr = csv.writer(f)
        wr.writerow(["workload", "class", "config", "status"] + labels +
                    ["memory_pipeline_stalls", "mem_stalls_norm_" + args.reference, "error"])
        for w, wc, c, r, fr, norm in table:
            wr.writerow([w, wc, c, "ok" if r.ok else "failed"] + [fr.get(l, "") if r.ok else "" for l in labels] +
                        [r.value("memory_pipeline_stalls", ""), "" if norm is None else norm, r.error])
    lines = ["# Seed 001 Figure 13: issue-cycle breakdown (size %s)" % args.size, "",
             "Share of scheduler cycles (%%): W0-idle = no warp ready, W0-mem = warps wait on memory, stall = "
             "held by the pipeline below, Wn-m = issued with n..m active threads. Last column: memory pipeline "
             "stall cycles relative to %s (Figure 13b)." % args.reference, ""]
    head = ["workload", "config"] + labels + ["mem stalls"]
    lines.append("| " + " | ".join(head) + " |")
    lines.append("|" + "---|" * len(head))
    for w, wc, c, r, fr, norm in table:
        cells = [("%.1f" % (100 * fr.get(l, 0.0))) for l in labels] if r.ok else ["FAILED"] * len(labels)
        lines.append("| " + " | ".join([w, c] + cells + [fmt(norm, 2) if r.ok else "FAILED"]) + " |")
    lines += failed_section(runs)
    with open(os.path.join(args.out, "fig13.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    return table, labels


# ---- plots -----------------------------------------------------------------

def plot_fig12(args, configs, rows, means, plt):
    names = [w for w, _, _ in rows] + ["HM " + label for label, _ in means]
    norm = {c: [cells[c][0] for _, _, cells in rows] + [m[c][0] for _, m in means] for c in configs}
    simd = {c: [cells[c][1] for _, _, cells in rows] + [m[c][1] for _, m in means] for c in configs}
    fig, (ax1, ax2) = plt.subplots(2, 1, figsize=(max(8, 0.9 * len(names)), 7), sharex=True,
                                   gridspec_kw={"height_ratios": [2, 1]})
    width = 0.8 / len(configs)
    for i, c in enumerate(configs):
        xs = [k + (i - (len(configs) - 1) / 2) * width for k in range(len(names))]
        ax1.bar(xs, [v or 0 for v in norm[c]], width, label=c)
        ax2.bar(xs, [v or 0 for v in simd[c]], width, label=c)
    ax1.axhline(1.0, color="black", linewidth=0.8)
    ax1.set_ylabel("IPC relative to " + args.reference)
    ax2.set_ylabel("SIMD efficiency")
    ax2.set_ylim(0, 1)
    ax2.set_xticks(range(len(names)))
    ax2.set_xticklabels(names, rotation=60, ha="right")
    ax1.legend(ncol=len(configs), fontsize="small")
    ax1.set_title("Seed 001 Fig. 12 (size %s); missing bars = failed runs" % args.size)
    fig.tight_layout()
    fig.savefig(os.path.join(args.out, "fig12.png"), dpi=120)
    plt.close(fig)


def plot_fig13(args, configs, table, labels, plt):
    cmap = plt.get_cmap("viridis")
    lane_bins = [l for l in labels if l not in ("W0-idle", "W0-mem", "stall")]
    colour = {"W0-idle": "#bbbbbb", "W0-mem": "#555555", "stall": "#d62728"}
    for i, l in enumerate(lane_bins):
        colour[l] = cmap(i / max(1, len(lane_bins) - 1))
    xs, ticks, x = [], [], 0.0
    last_w = None
    for w, _, c, _, _, _ in table:
        if last_w is not None and w != last_w:
            x += 0.6  # a gap between workloads
        xs.append(x)
        ticks.append("%s %s" % (w, c))
        last_w = w
        x += 1.0
    fig, ax = plt.subplots(figsize=(max(8, 0.3 * len(table)), 6))
    bottom = [0.0] * len(table)
    for l in labels:
        h = [fr.get(l, 0.0) for _, _, _, _, fr, _ in table]
        ax.bar(xs, h, 0.9, bottom=bottom, color=colour.get(l), label=l)
        bottom = [b + v for b, v in zip(bottom, h)]
    ax.set_xticks(xs)
    ax.set_xticklabels(ticks, rotation=90, fontsize="x-small")
    ax.set_ylabel("share of scheduler cycles")
    ax.set_ylim(0, 1)
    ax.legend(ncol=min(6, len(labels)), fontsize="x-small", loc="upper center", bbox_to_anchor=(0.5, 1.12))
    fig.tight_layout()
    fig.savefig(os.path.join(args.out, "fig13.png"), dpi=120)
    plt.close(fig)


def plot_all(args, configs, fig12, fig13):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("tbc_paper: %s cannot import matplotlib (Debian: python3-matplotlib, used by /usr/bin/python3): "
              "tables written, plots skipped" % sys.executable, file=sys.stderr)
        return
    if not fig13[1]:  # no run succeeded: nothing to draw
        print("tbc_paper: no successful run: plots skipped", file=sys.stderr)
        return
    plot_fig12(args, configs, fig12[0], fig12[1], plt)
    plot_fig13(args, configs, fig13[0], fig13[1], plt)


# ---- main ------------------------------------------------------------------

def parse_args(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("workloads", nargs="*", help="workloads to run (default: every one `simtlab list` shows)")
    ap.add_argument("--simtlab", default=os.path.join(ROOT, "build", "simtlab"), help="the simtlab binary")
    ap.add_argument("--size", default="small", choices=["small", "medium", "large"])
    ap.add_argument("--jobs", type=int, default=2, help="simtlab processes at a time")
    ap.add_argument("--out", default=os.path.join("results", "tbc"), help="output directory")
    ap.add_argument("--configs", default=DEFAULT_CONFIGS,
                    help="comma-separated overlays of configs/ (pdom, pdom-lcp, tbc, tbc-lcp, tbc-rrb, tbc-srr, "
                         "dwf, dwf-wb)")
    ap.add_argument("--reference", default="pdom", help="setup the IPC is normalised to")
    ap.add_argument("--configs-dir", default=os.path.join(ROOT, "configs"), help="where the TOML files are")
    ap.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                    help="passed to every run (e.g. l2.size=131072 for the paper's Fig. 17)")
    ap.add_argument("--reuse", action="store_true", help="reuse stats files already in <out>/runs (re-plot)")
    ap.add_argument("--timeout", type=float, default=None, help="seconds before a run counts as failed")
    args = ap.parse_args(argv)
    if args.jobs < 1:
        usage_error("--jobs must be at least 1")
    if not os.access(args.simtlab, os.X_OK):
        usage_error("no simtlab binary at %s (build first, or pass --simtlab)" % args.simtlab)
    args.config_list = [c.strip() for c in args.configs.split(",") if c.strip()]
    if not args.config_list:
        usage_error("--configs is empty")
    for c in set(args.config_list + [args.reference, "tbc-baseline"]):
        if not os.path.exists(os.path.join(args.configs_dir, c + ".toml")):
            usage_error("no configuration file %s" % os.path.join(args.configs_dir, c + ".toml"))
    return args


def main(argv):
    args = parse_args(argv)
    known = list_workloads(args.simtlab)
    if args.workloads:
        by_name = dict(known)
        unknown = [w for w in args.workloads if w not in by_name]
        if unknown:
            usage_error("unknown workload(s) %s; `simtlab list` has %s" %
                        (", ".join(unknown), ", ".join(n for n, _ in known)))
        workloads = [(w, by_name[w]) for w in args.workloads]
    else:
        workloads = known
    # Class order first (as the paper groups them), `simtlab list` order inside a class.
    rank = {k: i for i, k in enumerate(CLASS_ORDER)}
    workloads.sort(key=lambda wc: rank.get(wc[1], len(rank)))
    configs = args.config_list
    to_run = configs + ([args.reference] if args.reference not in configs else [])
    os.makedirs(os.path.join(args.out, "runs"), exist_ok=True)

    runs = {(w, c): Run(w, wc, c) for w, wc in workloads for c in to_run}
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        futures = [pool.submit(run_one, args, r) for r in runs.values()]
        for done, fut in enumerate(concurrent.futures.as_completed(futures), 1):
            r = fut.result()
            status = "ok" if r.ok else "FAILED: " + r.error
            print("[%d/%d] %s %s: %s" % (done, len(futures), r.workload, r.config, status), file=sys.stderr)

    fig12 = write_fig12(args, workloads, configs, runs)
    fig13 = write_fig13(args, workloads, configs, runs)
    print(fig12[2])
    sys.stdout.flush()
    plot_all(args, configs, fig12[:2], fig13)
    print("tables in %s (fig12.*, fig13.*), per-run stats and logs in %s" %
          (args.out, os.path.join(args.out, "runs")), file=sys.stderr)
    return 0 if all(r.ok for r in runs.values()) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
