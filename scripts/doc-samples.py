#!/usr/bin/env python3
"""The sample outputs in the docs, from the agent as built: a console block after a line
    <!-- sample: ARGS [| head N] -->
keeps its first line (the command as a reader would type it, "$ ibkit devices") and holds below
it what `ibkit ARGS` prints now, run from the repository's top (fixture trees, not this
machine); `| head N` keeps the first N lines, "...", and the last. $NAME in ARGS is taken from
the environment; a sample whose variable is unset is left to the tier that sets it (the Ansible
tier renders the Azure sizes' ibkit.toml), and `| shows $NAME as TEXT` prints TEXT where the
output names that variable's file. --check fails naming each sample that differs; --write
rewrites them.
    doc-samples.py IBKIT --check|--write FILE..."""
import difflib
import os
import re
import shlex
import subprocess
import sys

MARKER = re.compile(r"^<!-- sample: (.*?)(?: \| head (\d+))?(?: \| shows \$([A-Z_][A-Z0-9_]*) as (\S+))? -->$")
VARIABLE = re.compile(r"\$([A-Z_][A-Z0-9_]*)")


def run(ibkit, args, head):
    argv = [ibkit] + shlex.split(args)
    done = subprocess.run(argv, capture_output=True, text=True, timeout=60,
                          env=dict(os.environ, NO_COLOR="1"))
    if done.returncode > 1:
        sys.exit("doc-samples: ibkit %s exited %d: %s" % (args, done.returncode,
                                                           done.stderr.strip()[:300]))
    lines = done.stdout.rstrip("\n").split("\n")
    if head and len(lines) > head + 1:
        lines = lines[:head] + ["..."] + lines[-1:]
    return lines


def samples(lines):
    """(marker index, fence start, fence end, args, head) of each sample in a file's lines."""
    found = []
    for i, line in enumerate(lines):
        match = MARKER.match(line)
        if not match:
            continue
        if i + 2 >= len(lines) or not lines[i + 1].startswith("```"):
            sys.exit("doc-samples: line %d: a sample marker needs a ``` block right below" % (i + 1))
        end = next((j for j in range(i + 2, len(lines)) if lines[j].startswith("```")), None)
        if end is None:
            sys.exit("doc-samples: line %d: the sample's block never closes" % (i + 1))
        shown = (match.group(3), match.group(4)) if match.group(3) else None
        found.append((i, i + 1, end, match.group(1), int(match.group(2) or 0), shown))
    return found


def main():
    if len(sys.argv) < 4 or sys.argv[2] not in ("--check", "--write"):
        sys.exit(__doc__)
    ibkit, mode, paths = sys.argv[1], sys.argv[2], sys.argv[3:]
    differ, checked, left = 0, 0, []
    for path in paths:
        with open(path, encoding="utf-8") as file:
            lines = file.read().split("\n")
        for _, start, end, args, head, shown in reversed(samples(lines)):
            unset = [name for name in VARIABLE.findall(args) if name not in os.environ]
            if unset:
                left.append("%s:%d (needs %s)" % (path, start, ", ".join(unset)))
                continue
            expanded = VARIABLE.sub(lambda m: os.environ[m.group(1)], args)
            output = run(ibkit, expanded, head)
            if shown:
                output = [line.replace(os.environ[shown[0]], shown[1]) for line in output]
            wanted = [lines[start + 1]] + output
            have = lines[start + 1:end]
            checked += 1
            if have == wanted:
                continue
            differ += 1
            if mode == "--write":
                lines[start + 1:end] = wanted
            else:
                print("doc-samples: %s:%d differs from `ibkit %s`; run scripts/doc-samples.py "
                      "IBKIT --write %s" % (path, start + 2, args, path))
                for line in list(difflib.unified_diff(have, wanted, lineterm="", n=0))[2:12]:
                    print("    " + line)
        if mode == "--write":
            with open(path, "w", encoding="utf-8") as file:
                file.write("\n".join(lines))
    word = "rewritten" if mode == "--write" else "differ"
    print("doc-samples: %d samples checked, %d %s%s" % (
        checked, differ, word, "; left to the tier that sets their variables: " + "; ".join(left)
        if left else ""))
    return 1 if differ and mode == "--check" else 0


if __name__ == "__main__":
    sys.exit(main())
