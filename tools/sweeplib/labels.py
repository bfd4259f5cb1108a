"""The words on a sweep's figures: axis names, axis labels, legends, printed values.

A figure is read at normal size by someone who has not read the sweep file:
so a legend entry is the value alone (`pg-conventional`), with the axes that
vary named once in the legend's title, and an axis label says in words what
is drawn ("speed-up over pg-none"), while a small note under the figure keeps
the exact statistic key and how it was computed.
"""

from . import collect

LEGEND_FONT = 7
# Statistics-file levels that say where a number lives rather than what it is.
_PLUMBING = ("counters", "derived")


def axis_name(a):
    """An axis as a reader calls it: `l1d.size` for set.l1d.size, `scheme` for overlays.scheme."""
    for prefix in ("set.", "overlays."):
        if a.startswith(prefix):
            return a[len(prefix):]
    return a


def value_name(v):
    """An axis value as a legend shows it: a file's name without folder or .toml."""
    return collect._cell(v).replace(".toml", "")


def legend_title(axes):
    return ", ".join(axis_name(a) for a in axes) or None


def legend(ax, n, title=None):
    """The legend beside the axes (figures whose layout leaves no room above)."""
    if n:
        ax.legend(fontsize=LEGEND_FONT, title=title, title_fontsize=LEGEND_FONT + 1, loc="upper left",
                  bbox_to_anchor=(1.0, 1.0), ncol=1 + n // 30)


def words(key):
    """A statistic key in words: counters/sm0.l1d.misses -> sm0 l1d misses."""
    parts = [p for level in key.split("/") for p in level.split(".")]
    while len(parts) > 1 and parts[0] in _PLUMBING:
        parts = parts[1:]
    return " ".join(p.replace("_", " ") for p in parts)


def reference_text(doc):
    """The reference point in a few words: its value when one axis fixes it (`pg-none`); with several,
    values alone (`4, 16384, gto`) would say little, so `the reference point` (y_note spells it out)."""
    ref = doc.get("reference") or {}
    return value_name(next(iter(ref.values()))) if len(ref) == 1 else "the reference point"


def ylabel(f, doc):
    if "ylabel" in f:
        return f["ylabel"]
    if f["y"] == "speedup":
        return "speed-up over %s" % reference_text(doc)
    return words(f["y"]) + (" over the reference's" if f.get("normalise") else "")


def y_note(f, doc):
    """What y is, exactly: the statistic key and the reference point, for a note under the figure."""
    ref = ", ".join("%s = %s" % (axis_name(a), value_name(v)) for a, v in (doc.get("reference") or {}).items())
    if f["y"] == "speedup":
        return "speed-up: reference cycles / cycles (functional runs: warp instructions)\nreference: %s" % ref
    if f.get("normalise"):
        return "y: %s / reference run's %s\nreference: %s" % (f["y"], f["y"], ref)
    return "y: %s" % f["y"]


def value_text(v):
    """A bar's value, short: three decimals near 1, fewer figures for large numbers."""
    a = abs(v)
    if a == 0:
        return "0"
    if a < 0.01:
        return "%.2g" % v
    if a < 10:
        return "%.3f" % v
    if a < 1000:
        return "%.1f" % v
    return "%.0f" % v
