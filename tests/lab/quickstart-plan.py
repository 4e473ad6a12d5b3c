#!/usr/bin/python3
"""The README's quick start as the lab runs it (quickstart.sh): the ```sh block under
"## Quick start", each command with the lab's names put in for its placeholders, where its
comment says it runs, and what its comment promises.

  quickstart-plan.py README --names A,B[,...]   one line per command, tab-separated:
      LINE PARAGRAPH PLACE KIND ARG COMMAND
  quickstart-plan.py README --check              the rules still match (lab1, lab2); one line

PLACE: every (every node), A (node A, the first name; "one node" too) or B (the second). A
line whose comment names no place runs where the line before it in its paragraph ran; a
paragraph's first line runs on node A. KIND says what quickstart.sh checks (install, devices,
check, key, serve, pair, sweep, ls, other); ARG is the key's path (key), the output folder
(sweep), the words the comment promises (pair) or the files it names (ls); "-" for none.
Exit status: 0 the plan, 1 the README's quick start no longer fits the rules (each problem
named with its README line), 2 usage."""

import argparse
import re
import sys

HEADING = re.compile(r"^## Quick start\b")
# A command, then its comment: "CMD   # COMMENT".
COMMENTED = re.compile(r"^(.*?\S)\s+#\s+(.*)$")
# The placeholders, each in the one line that holds ANCHOR: (anchor, placeholder, what goes in).
RULES = [
    ("ibkit pair ", "nodeA", lambda lab: lab["a"]),
    ("--launch ssh", "cn[01-16]", lambda lab: lab["hostlist"]),
    ("--launch slurm", "salloc -N 16", lambda lab: "salloc -N %d" % len(lab["names"])),
]
# What the quick start must still show; a README without one of them fails the plan.
KINDS_WANTED = ["install", "devices", "check", "key", "serve", "pair", "sweep", "ls"]


def hostlist(names):
    """lab1,lab2,lab3 as lab[1-3] (the form of the README's cn[01-16]); a comma list when the
    names are not one prefix with consecutive numbers."""
    parts = [re.fullmatch(r"(.*?)(\d+)", name) for name in names]
    if all(parts) and len({p.group(1) for p in parts}) == 1:
        numbers = [int(p.group(2)) for p in parts]
        if numbers == list(range(numbers[0], numbers[0] + len(numbers))) and len(numbers) > 1:
            return "%s[%d-%d]" % (parts[0].group(1), numbers[0], numbers[-1])
    return ",".join(names)


def quick_start(lines):
    """(first line number, lines) of the ```sh block below the quick start's heading."""
    start = next((i for i, line in enumerate(lines) if HEADING.match(line)), None)
    if start is None:
        raise SystemExit("README.md: no '## Quick start' heading")
    fence = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("```")), None)
    if fence is None or lines[fence].strip() != "```sh":
        raise SystemExit("README.md:%d: the quick start has no ```sh block below its heading" % (start + 1))
    end = next((i for i in range(fence + 1, len(lines)) if lines[i].startswith("```")), None)
    if end is None:
        raise SystemExit("README.md:%d: the quick start's block never closes" % (fence + 1))
    return fence + 2, lines[fence + 1:end]


def place_of(comment):
    if "every node" in comment:
        return "every"
    if "on node A" in comment:
        return "A"
    if "on node B" in comment:
        return "B"
    return None


def kind_of(command, comment):
    """What the line is, by its command (and its comment, for the key and the server)."""
    if re.match(r"(apt|apt-get|dnf|yum) install ", command):
        return "install"
    if "copy it to the other node" in comment and re.search(r">\s*\S+", command):
        return "key"
    if "stays up" in comment:
        return "serve"
    for word in ("devices", "check", "pair", "sweep"):
        if re.search(r"(^|\s)ibkit %s(\s|$)" % word, command):
            return word
    if command.startswith("ls "):
        return "ls"
    return "other"


def arg_of(kind, command, comment):
    if kind == "key":
        return re.search(r">\s*([^\s)]+)", command).group(1)
    if kind == "sweep":
        match = re.search(r"--output[ =](\S+)", command)
        return match.group(1) if match else "-"
    if kind == "pair":
        return ",".join(w for w in ("latency", "bandwidth", "TCP") if w in comment) or "-"
    if kind == "ls":
        return ",".join(re.findall(r"[\w-]+\.(?:html|json|xml|md|csv)\b", comment)) or "-"
    return "-"


def plan(readme, names):
    lines = open(readme, encoding="utf-8").read().split("\n")
    first, block = quick_start(lines)
    lab = {"names": names, "a": names[0], "hostlist": hostlist(names)}
    problems, steps, paragraph, place = [], [], 1, None
    for number, line in enumerate(block, first):
        text = line.strip()
        if not text:
            continue
        if text.startswith("#"):
            paragraph, place = paragraph + 1, None
            continue
        match = COMMENTED.match(text)
        command, comment = (match.group(1), match.group(2)) if match else (text, "")
        place = place_of(comment) or place or "A"
        kind = kind_of(command, comment)
        steps.append([number, paragraph, place, kind, arg_of(kind, command, comment), command])
    for anchor, placeholder, value in RULES:
        holders = [s for s in steps if anchor in s[5]]
        if len(holders) != 1:
            problems.append("README.md:%d-%d: %d lines of the quick start hold `%s`, not 1: the rule "
                            "`%s` -> %s (tests/lab/quickstart-plan.py) no longer fits it"
                            % (first, first + len(block) - 1, len(holders), anchor, placeholder, value(lab)))
            continue
        step = holders[0]
        if step[5].count(placeholder) != 1:
            problems.append("README.md:%d: `%s` has no `%s` to put %s in (tests/lab/quickstart-plan.py's "
                            "rule for it no longer fits)" % (step[0], step[5], placeholder, value(lab)))
            continue
        step[5] = step[5].replace(placeholder, value(lab))
    kinds = {s[3] for s in steps}
    for kind in KINDS_WANTED:
        if kind not in kinds:
            problems.append("README.md:%d-%d: the quick start has no %s line any more (quickstart-plan.py "
                            "KINDS_WANTED)" % (first, first + len(block) - 1, kind))
    for step in steps:
        if step[3] == "ls" and step[4] == "-":
            problems.append("README.md:%d: `%s` names no report files in its comment" % (step[0], step[5]))
        if step[3] == "sweep" and step[4] == "-":
            problems.append("README.md:%d: `%s` has no --output folder" % (step[0], step[5]))
    return steps, problems


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("readme")
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("--names", help="the lab nodes of the quick start, comma-separated (2 or more)")
    group.add_argument("--check", action="store_true", help="the rules still match, for lab1 and lab2")
    args = parser.parse_args()
    names = ["lab1", "lab2"] if args.check else args.names.split(",")
    if len(names) < 2:
        parser.error("--names: a pair needs two nodes")
    steps, problems = plan(args.readme, names)
    for problem in problems:
        print(problem, file=sys.stderr)
    if problems:
        return 1
    if args.check:
        print("quickstart-plan: README.md's quick start: %d commands, every placeholder rule matched"
              % len(steps))
        return 0
    for step in steps:
        print("\t".join(str(field) for field in step))
    return 0


if __name__ == "__main__":
    sys.exit(main())
