"""The machine parameters simtlab knows, and checking a sweep's values against them.

`simtlab params --markdown` prints a table row per parameter: its name, its
default, and its range `[min, max]` or choices `{a, b}` (model/config/
param_registry.cpp, markdown_table). simtlab prints no type, so it follows
from those: choices; a `true`/`false` default (bool); a number with a '.' or
an exponent (double); a whole number (unsigned integer); anything else a free
string. A sweep hands each value to `simtlab run --set NAME=TEXT`, so a value
is checked the way simtlab reads that text (store_text there): integers in
decimal or 0x hex without a sign, doubles finite, bools `true` or `false`,
choices exactly as listed. Rules between parameters (a cache size that is a
multiple of line x ways) are the machine's own and still show at run time.
"""

import difflib
import json
import math
import re
import subprocess
from dataclasses import dataclass

from .plan import set_text
from .spec import SweepError

U64_MAX = 2 ** 64 - 1
_ROW = re.compile(r"^\|\s*`([^`]+)`\s*\|\s*`([^`]*)`\s*\|([^|]*)\|")
_FLOAT = re.compile(r"[-+]?(\d+\.\d*|\.\d+|\d+)([eE][-+]?\d+)?")


@dataclass
class Param:
    name: str
    kind: str  # bool, uint, double, choice, string
    default: str
    lo: object = None
    hi: object = None
    choices: tuple = ()


def _kind(default, limits):
    if limits.startswith("{"):
        return "choice"
    if default in ("true", "false") and not limits:
        return "bool"
    numbers = [default] + ([x.strip() for x in limits[1:-1].split(",")] if limits.startswith("[") else [])
    if not all(_FLOAT.fullmatch(x) for x in numbers):
        return "string"
    return "uint" if all(re.fullmatch(r"\d+", x) for x in numbers) else "double"


def parse(markdown):
    """{name: Param} from the text of `simtlab params --markdown`."""
    out = {}
    for line in markdown.splitlines():
        m = _ROW.match(line)
        if not m:
            continue
        name, default, limits = m.group(1), m.group(2), m.group(3).strip()
        kind = _kind(default, limits)
        p = Param(name, kind, default)
        if kind == "choice":
            p.choices = tuple(c.strip() for c in limits[1:-1].split(","))
        elif kind in ("uint", "double"):
            num = int if kind == "uint" else float
            if limits:
                lo, hi = (x.strip() for x in limits[1:-1].split(","))
                p.lo, p.hi = num(lo), num(hi)
            else:
                p.lo, p.hi = (0, U64_MAX) if kind == "uint" else (-math.inf, math.inf)
        out[name] = p
    return out


def load(simtlab):
    """{name: Param} from the binary; RuntimeError when it cannot be run or prints no table."""
    try:
        out = subprocess.run([simtlab, "params", "--markdown"], capture_output=True, text=True,
                             check=True).stdout
    except (OSError, subprocess.CalledProcessError) as e:
        raise RuntimeError("cannot list the machine parameters with %s: %s" % (simtlab, e))
    known = parse(out)
    if not known:
        raise RuntimeError("`%s params --markdown` printed no parameter table" % simtlab)
    return known


def _range_text(p):
    return "[%s, %s]" % (p.lo, p.hi)


def check(p, text):
    """None when simtlab takes `--set NAME=text` for parameter p, else why not (as simtlab says it)."""
    if p.kind == "bool":
        return None if text in ("true", "false") else "expected true or false, got '%s'" % text
    if p.kind == "choice":
        return None if text in p.choices else "'%s' is not one of: %s" % (text, ", ".join(p.choices))
    if p.kind == "uint":
        hexa = re.fullmatch(r"0[xX]([0-9a-fA-F]+)", text)
        if hexa:
            v = int(hexa.group(1), 16)
        elif re.fullmatch(r"\d+", text):
            v = int(text)
        elif re.fullmatch(r"-\d+", text):
            return "value %s out of range %s" % (text, _range_text(p))
        else:
            return "expected an integer, got '%s'" % text
        return None if p.lo <= v <= p.hi else "value %s out of range %s" % (text, _range_text(p))
    if p.kind == "double":
        # strtod's syntax: no surrounding spaces or '_' (Python's float() takes both); nan and inf refused.
        if not text or text != text.strip() or "_" in text:
            return "expected a number, got '%s'" % text
        try:
            v = float.fromhex(text) if re.fullmatch(r"[-+]?0[xX].*", text) else float(text)
        except ValueError:
            return "expected a number, got '%s'" % text
        if not math.isfinite(v):
            return "expected a finite number, got '%s'" % text
        return None if p.lo <= v <= p.hi else "value %s out of range %s" % (text, _range_text(p))
    return None  # a free string takes any text


def check_sweep(sweep, known, line_of):
    """Raises SweepError at the first `set.<name>` axis that simtlab does not know, or one of whose values
    it would refuse; line_of(name) is the line of `name` under [axes.set]."""
    for axis, values in sweep.axes.items():
        if not axis.startswith("set."):
            continue
        name = axis[4:]
        p = known.get(name)
        if p is None:
            close = difflib.get_close_matches(name, list(known), n=3)
            raise SweepError(sweep.path, line_of(name), "unknown machine parameter '%s'%s (see `simtlab params`)" %
                             (name, " (did you mean %s?)" % ", ".join(close) if close else ""))
        for v in values:
            why = check(p, set_text(v))
            if why:
                raise SweepError(sweep.path, line_of(name), "%s = %s: %s (see `simtlab params`)" %
                                 (axis, json.dumps(v), why))
