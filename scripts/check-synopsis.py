#!/usr/bin/env python3
"""README.md's synopsis of the agent against the agent's own --help: every subcommand has a
line, each line names exactly the long options its --help lists (perftest's short options are
described after the block, -h/--help everywhere), and an option both show as a|b|c takes the
same values in both. Fails naming each difference and the fix.
    check-synopsis.py IBKIT [README]"""
import re
import subprocess
import sys

# An option and the word after it: "--format text|json" gives its values.
VALUED = re.compile(r"(--[A-Za-z0-9][A-Za-z0-9-]*)(?:[ =]([^ \]]*))?")


def help_text(ibkit, *words):
    run = subprocess.run([ibkit, *words, "--help"], capture_output=True, text=True, timeout=30)
    if run.returncode != 0:
        sys.exit("check-synopsis: %s %s --help exited %d" % (ibkit, " ".join(words), run.returncode))
    return run.stdout


def subcommands(ibkit):
    names, listing = [], False
    for line in help_text(ibkit).splitlines():
        if line.lower().startswith("subcommands:"):
            listing = True
        elif listing and not line.strip():
            listing = False
        elif listing and re.match(r"^  [a-z]", line):
            names.append(line.split()[0])
    return names


def help_options(ibkit, sub):
    """{long option: the values it takes when --help lists them as a|b|c, else None}."""
    options = {}
    for line in help_text(ibkit, sub).splitlines():
        if not re.match(r"^\s+-", line):
            continue
        words = line.split()
        values = set(words[1].split("|")) if len(words) > 1 and "|" in words[1] else None
        for name in words[0].split(","):
            if name.startswith("--") and name != "--help":
                options[name] = values
    return options


def synopsis(readme):
    """{subcommand: long options} from the code block under '## The agent'."""
    text = open(readme, encoding="utf-8").read()
    section = text.split("\n## The agent\n", 1)
    if len(section) != 2 or "```\n" not in section[1]:
        sys.exit("check-synopsis: %s has no code block under '## The agent'" % readme)
    block = section[1].split("```\n", 2)[1]
    lines, current = {}, None
    for line in block.splitlines():
        match = re.match(r"^ibkit\s+([a-z]+)", line)
        if match:
            current = match.group(1)
            lines.setdefault(current, {})
        if not current:
            continue
        for option, values in VALUED.findall(line):
            if "|" in values:
                lines[current][option] = set(re.split(r"[|,]", values))
            else:
                lines[current].setdefault(option, None)
    return lines


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    ibkit = sys.argv[1]
    readme = sys.argv[2] if len(sys.argv) == 3 else "README.md"
    written = synopsis(readme)
    problems = []
    subs = subcommands(ibkit)
    for sub in subs:
        if sub not in written:
            problems.append("no line for ibkit %s: add one with its options" % sub)
            continue
        listed = help_options(ibkit, sub)
        for option in sorted(set(listed) - set(written[sub])):
            problems.append("ibkit %s lacks %s, which ibkit %s --help lists: add it" % (sub, option, sub))
        for option in sorted(set(written[sub]) - set(listed)):
            problems.append("ibkit %s names %s, which ibkit %s --help does not list: take it out"
                            % (sub, option, sub))
        for option in sorted(set(listed) & set(written[sub])):
            values, shown = listed[option], written[sub][option]
            if values and shown and values != shown:
                problems.append("ibkit %s %s shows %s, --help %s: write %s"
                                % (sub, option, "|".join(sorted(shown)), "|".join(sorted(values)),
                                   "|".join(sorted(values))))
    for sub in sorted(set(written) - set(subs)):
        problems.append("a line for ibkit %s, which ibkit --help does not list: take it out" % sub)
    for problem in problems:
        print("check-synopsis: %s's synopsis: %s" % (readme, problem))
    if problems:
        return 1
    print("check-synopsis: %s's synopsis names every option of the %d subcommands' --help"
          % (readme, len(subs)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
