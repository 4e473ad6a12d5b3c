#!/usr/bin/env python3
"""Check that every function bench/*.sh calls is defined where the script can see it.

The benches run by hand, against a lab or a simulated subnet, so nothing else runs them: a
helper renamed or never written (bench_fabric_broken, called only in the round where a figure
is missing) stays unseen until that round, and shellcheck does not know bash functions. This
reads each script, the files it sources and the files those source, collects the functions
they define, and lists each call in command position of a name with an underscore (the
project's helpers: bench_lab, lab_pair, sim ...) that is neither defined there nor a command on
PATH nor a bash builtin.

Usage: scripts/check-bench-scripts.py [--plant] [ROOT]   (ROOT defaults to this script's repository)
--plant checks a copy of bench/ with a call to an undefined helper added, and fails unless the
check finds it: the check's own test.
Exit status: 0 every call defined (one summary line), 1 a call to an undefined function (one
line each on stderr: file:line: the name and the fix), 2 usage error.
"""

import pathlib
import re
import shutil
import sys
import tempfile

DEFINITION = re.compile(r"^\s*(?:function\s+)?([A-Za-z_][\w-]*)\s*\(\)")
SOURCE = re.compile(r"^\s*(?:source|\.)\s+(.+?)\s*$")
# A word where bash looks for a command: a line's start, after ; & | ( { ! or a keyword, or
# inside $( ) and <( ). Assignments (name=) and words inside quotes are not commands.
COMMAND = re.compile(
    r"(?:^|[;&|({!]|\$\(|<\(|\b(?:if|then|else|elif|do|while|until|time)\b)\s*"
    r"([a-z][a-z0-9]*_[a-z0-9_]+)\b(?!=|\[)")
BUILTINS = {"shopt", "read_only"}


def strip_comment(line):
    """The line without its comment: a # at the start of a word outside ${#...} and $#."""
    match = re.search(r"(?:^|\s)#", line)
    return line[:match.start()] if match else line


def sourced_path(word, script, root):
    """The file a source line names: relative to the script for $(dirname ...)/, else to ROOT."""
    word = word.strip("\"'")
    for prefix in ('$(dirname "$0")/', '$(dirname "${BASH_SOURCE[0]}")/'):
        if word.startswith(prefix):
            return (script.parent / word[len(prefix):]).resolve()
    return (root / word).resolve()


def sourced_files(script, root, seen):
    """SCRIPT and every file it sources, recursively, in the order read."""
    if script in seen or not script.is_file():
        return []
    seen.add(script)
    files = [script]
    for line in script.read_text().splitlines():
        if match := SOURCE.match(line):
            files += sourced_files(sourced_path(match.group(1), script, root), root, seen)
    return files


def undefined_calls(script, root):
    """(file, line number, name) of each call that SCRIPT, or a file of bench/ it sources, makes
    to a function that neither it nor any file it sources defines."""
    files = sourced_files(script, root, set())
    defined = {match.group(1) for file in files for line in file.read_text().splitlines()
               if (match := DEFINITION.match(line))}
    found = []
    for file in files:
        if file.parent != script.parent:
            continue
        for number, line in enumerate(file.read_text().splitlines(), 1):
            code = re.sub(r"'[^']*'", "''", strip_comment(line))
            # Arithmetic and parameter expansions name variables, not commands.
            code = re.sub(r"\$\(\(.*?\)\)|\$\{[^}]*\}", "", code)
            for name in COMMAND.findall(code):
                if name not in defined and name not in BUILTINS and not shutil.which(name):
                    found.append((file, number, name))
    return found


def check(root):
    # bench/lib.sh is sourced, not run: its calls are checked with each script that sources it.
    scripts = sorted(p for p in (root / "bench").glob("*.sh") if p.name != "lib.sh")
    if not scripts:
        print(f"check-bench-scripts: no scripts in {root / 'bench'}", file=sys.stderr)
        return 2
    problems = sorted({call for script in scripts for call in undefined_calls(script, root)})
    for file, number, name in problems:
        print(f"{file.relative_to(root)}:{number}: calls {name}, which neither the script nor a "
              f"file it sources defines: define it (bench/lib.sh) or call what is there",
              file=sys.stderr)
    if problems:
        return 1
    print(f"check-bench-scripts: {len(scripts)} bench scripts, every function they call defined")
    return 0


def plant(root):
    """Fails unless a call to an undefined helper planted in a copy of bench/ is found."""
    with tempfile.TemporaryDirectory() as work:
        copy = pathlib.Path(work)
        shutil.copytree(root / "bench", copy / "bench")
        shutil.copytree(root / "tests", copy / "tests", ignore=shutil.ignore_patterns("fixtures"))
        target = copy / "bench" / "pair-vs-perftest.sh"
        target.write_text(target.read_text() + "bench_planted_helper \"$SERVER\"\n")
        found = [name for _, _, name in undefined_calls(target, copy)]
        if found != ["bench_planted_helper"]:
            print(f"check-bench-scripts: a planted call was not found alone: {found}", file=sys.stderr)
            return 1
    print("check-bench-scripts: a planted call to an undefined helper is found")
    return 0


def main(argv):
    args = [a for a in argv[1:] if a != "--plant"]
    if len(args) > 1 or any(a.startswith("-") for a in args):
        print("usage: scripts/check-bench-scripts.py [--plant] [ROOT]", file=sys.stderr)
        return 2
    root = pathlib.Path(args[0] if args else pathlib.Path(__file__).resolve().parent.parent).resolve()
    return plant(root) if "--plant" in argv else check(root)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
