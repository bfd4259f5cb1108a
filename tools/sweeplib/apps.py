"""Application workloads: CUDA programs run through `simtlab exec`.

A sweep file defines each application in an [apps.<name>] table and names
it on the workload axis as `app:<name>`:

  [apps.bfs]
  root = "rodinia"                  # a root variable: --root rodinia=/path at run time
  command = "cuda/bfs/bfs {root}/data/bfs/graph4096.txt"   # program relative to the root
  cwd = "cuda/bfs"                  # optional, relative to the root (default: the root)
  check = "Result stored in result.txt"   # a regex the program's stdout must match
  launches = "1-"                   # optional: the launches timed (timing mode only)
  class = "divergent"               # optional: the class in tables and plots (default "app")
  stdin = "10 ./data/\n"            # optional: what the program reads on its standard input
  exit = 1                          # optional: its exit status when it succeeds (default 0)

The definition (without the root's path) is what a run is; the root is
where the programs are on this machine, so the same sweep runs wherever a
suite lives. resolve() turns a definition and the roots into what a run
needs: the program's absolute path, its arguments, its working folder.
"""

import json
import os
import re
import shlex

KEYS = ("root", "command", "cwd", "check", "launches", "class", "stdin", "exit")
NAME = re.compile(r"[A-Za-z0-9_-]+")
LAUNCHES = re.compile(r"\d+(-\d*)?(,\d+(-\d*)?)*")
CHECK_FAILED = -3  # exit_code of a run whose program exited 0 but whose output check did not match
EXIT_UNEXPECTED = -4  # exit_code of a run whose program exited 0 where its [apps] exit says otherwise
MODEL_REFUSED = -5  # exit_code of a run in which simtlab refused a launch (a kernel the machine does not model)
DEFAULT_CLASS = "app"


def parse(doc, fail):
    """{name: definition} from the sweep's [apps] table; fail(message, table, key) raises."""
    if not isinstance(doc, dict):
        fail("[apps] holds one table per application, [apps.<name>]", "apps", None)
    out = {}
    for name, d in doc.items():
        table = "apps." + name
        if not NAME.fullmatch(name):
            fail("application names are letters, digits, '_' or '-', not '%s'" % name, "apps", None)
        if not isinstance(d, dict):
            fail("[apps.%s] must be a table with root, command and check" % name, "apps", name)
        for k in d:
            if k not in KEYS:
                fail("[apps.%s] has no key '%s' (%s)" % (name, k, ", ".join(KEYS)), table, k)
        for k in ("root", "command", "check"):
            if k not in d:
                fail("[apps.%s] needs %s (keys: %s)" % (name, k, ", ".join(KEYS)), table, None)
        for k in d:
            if k == "exit":
                if not isinstance(d[k], int) or isinstance(d[k], bool) or not 0 <= d[k] <= 255:
                    fail("[apps.%s] exit is the program's exit status when it succeeds, 0-255" % name, table, k)
            elif not isinstance(d[k], str):
                fail("[apps.%s] %s must be a string" % (name, k), table, k)
        if not re.fullmatch(r"[A-Za-z0-9_]+", d["root"]):
            fail("[apps.%s] root is a variable name (letters, digits, '_'), given as --root %s=PATH" %
                 (name, d["root"] or "NAME"), table, "root")
        try:
            words = shlex.split(d["command"])
        except ValueError as e:
            fail("[apps.%s] command: %s" % (name, e), table, "command")
        if not words:
            fail("[apps.%s] command is empty: the program, relative to the root, and its arguments" % name,
                 table, "command")
        for k in ("command", "cwd"):
            first = words[0] if k == "command" else d.get(k, "")
            if first.startswith("/"):
                fail("[apps.%s] %s is relative to the root '%s', not an absolute path" % (name, k, d["root"]),
                     table, k)
        try:
            re.compile(d["check"])
        except re.error as e:
            fail("[apps.%s] check is not a regular expression: %s" % (name, e), table, "check")
        if "launches" in d and not LAUNCHES.fullmatch(d["launches"]):
            fail("[apps.%s] launches is numbers and ranges joined by commas (3, 3-5, 7-, 3-5,9), not %r" %
                 (name, d["launches"]), table, "launches")
        if "class" in d and not NAME.fullmatch(d["class"]):
            fail("[apps.%s] class is letters, digits, '_' or '-'" % name, table, "class")
        out[name] = dict(d)
    return out


def parse_roots(items):
    """{name: absolute path} from --root NAME=PATH options; ValueError says what is wrong."""
    roots = {}
    for item in items or []:
        name, eq, path = item.partition("=")
        if not eq or not re.fullmatch(r"[A-Za-z0-9_]+", name) or not path:
            raise ValueError("--root takes NAME=PATH, not %r" % item)
        if name in roots:
            raise ValueError("--root %s is given twice" % name)
        if not os.path.isdir(path):
            raise ValueError("--root %s=%s: no such folder" % (name, path))
        roots[name] = os.path.abspath(path)
    return roots


def resolve(name, d, roots):
    """What a run of app `name` executes: {program, args, cwd, check, launches}. ValueError names the
    missing root variable or program."""
    if d["root"] not in roots:
        raise ValueError("application '%s' needs the root '%s': give --root %s=PATH" % (name, d["root"], d["root"]))
    root = roots[d["root"]]
    words = [w.replace("{root}", root) for w in shlex.split(d["command"])]
    program = os.path.normpath(os.path.join(root, words[0]))
    if not os.path.isfile(program):
        raise ValueError("application '%s': program not found: %s (root %s=%s)" % (name, program, d["root"], root))
    if not os.access(program, os.X_OK):
        raise ValueError("application '%s': %s is not executable" % (name, program))
    cwd = os.path.normpath(os.path.join(root, d.get("cwd", "").replace("{root}", root)))
    if not os.path.isdir(cwd):
        raise ValueError("application '%s': cwd not found: %s (root %s=%s)" % (name, cwd, d["root"], root))
    return {"program": program, "args": words[1:], "cwd": cwd, "check": d["check"], "launches": d.get("launches"),
            "stdin": d.get("stdin", ""), "exit": d.get("exit", 0)}


def used(workloads):
    """The application names on a workload axis."""
    return [w[len("app:"):] for w in workloads if w.startswith("app:")]


def check_output(check, stdout_path, stderr_path=None):
    """None when the program's stdout (or, failing that, its stderr: Fortran and some C programs
    report there) matches the check, else why not."""
    texts = []
    for path in [stdout_path] + ([stderr_path] if stderr_path else []):
        try:
            with open(path, errors="replace") as f:
                texts.append(f.read())
        except OSError as e:
            if path == stdout_path:
                return "cannot read the program's stdout %s: %s" % (path, e.strerror)
    if any(re.search(check, text, re.MULTILINE) for text in texts):
        return None
    return "the program exited 0 but its output check failed: no match for /%s/ in %s%s" % (
        check, stdout_path, " or its stderr" if stderr_path else "")


def cudart_dir(simtlab):
    """Where `simtlab exec` finds its runtime library (docs/cli.md), or None."""
    if os.environ.get("SIMTLAB_CUDART_DIR"):
        return os.environ["SIMTLAB_CUDART_DIR"]
    here = os.path.dirname(os.path.abspath(simtlab))
    for d in (os.path.join(here, "lib", "simtlab"), os.path.join(here, "..", "lib", "simtlab")):
        if os.path.isfile(os.path.join(d, "libcudart.so.13")):
            return os.path.normpath(d)
    return None


def refused_launches(stats_path):
    """None when the run's report lists no launch that simtlab refused (a kernel using what the machine
    does not model: the program may go on and exit 0 without that kernel's work), else why the run
    failed."""
    try:
        with open(stats_path) as f:
            refused = json.load(f).get("refused_launches") or []
    except (OSError, ValueError, AttributeError):
        return None
    if not refused:
        return None
    first = refused[0]
    return "simtlab refused %d launch(es) of a kernel this machine does not model; the first, launch %s of %s: %s" % (
        len(refused), first.get("launch"), first.get("kernel"), first.get("reason"))
