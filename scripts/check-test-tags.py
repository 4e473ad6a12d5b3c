#!/usr/bin/env python3
"""Check that every unit test is found by the tag of the source folder it tests.

agent/tests is one flat folder; a TEST_CASE carries a tag per agent/src folder it tests
("[sweep]", "[rules][fabric]"), so `ibkit_tests '[rules]'` runs a folder's tests. A case without
one of those tags is found by no folder's run. agent/tests/README.md has a row for each folder
(`| \\`rules/\\` | \\`[rules]\\` | ... |`) saying where its tests are.

Usage: scripts/check-test-tags.py [ROOT]   (ROOT defaults to this script's repository)
Exit status: 0 every case tagged and every folder in the table (one summary line), 1 a case
without a folder's tag or a folder without a row (one line each on stderr: file:line: what and
the fix), 2 usage error.
"""

import pathlib
import re
import sys

import source_checks

STRINGS = r'(?:"(?:[^"\\]|\\.)*"\s*)+'
TEST_CASE_START = re.compile(r"\bTEST_CASE\s*\(")
# The arguments after "TEST_CASE(": the name's literals, then the tags' if any, then ")".
ARGUMENTS = re.compile(r"\s*(" + STRINGS + r")(?:,\s*(" + STRINGS + r"))?\)")


def joined(literals):
    """The text of adjacent string literals, as the compiler joins them."""
    return "".join(re.findall(r'"((?:[^"\\]|\\.)*)"', literals or ""))


def test_cases(tests):
    """(file, line, name, tags) of every TEST_CASE; name None where its arguments are not one or
    two runs of string literals (a case this check cannot read is not taken as tagged)."""
    for path in sorted(tests.glob("*.cpp")):
        text = path.read_text()
        for start in TEST_CASE_START.finditer(text):
            line = text.count("\n", 0, start.start()) + 1
            arguments = ARGUMENTS.match(text, start.end())
            if arguments is None:
                yield path, line, None, set()
                continue
            tags = set(re.findall(r"\[([^\]]+)\]", joined(arguments.group(2))))
            yield path, line, joined(arguments.group(1)), tags


def main(argv):
    root = source_checks.repository(argv, "check-test-tags", "agent/src", "agent/tests")
    if root is None:
        return 2
    src, tests = root / "agent" / "src", root / "agent" / "tests"
    folders = {path.name for path in src.iterdir() if path.is_dir()}
    problems = []
    cases = 0
    for path, line, name, tags in test_cases(tests):
        cases += 1
        where = f"{path.relative_to(root)}:{line}"
        if name is None:
            problems.append(f"{where}: a TEST_CASE whose arguments are not a name and tags: write "
                            f"TEST_CASE(\"what it shows\", \"[folder]\")")
        elif ";" in name:
            problems.append(f"{where}: TEST_CASE \"{name[:60]}\" has a ';', where ctest's test "
                            f"discovery splits it into two tests that never run: use ',' or ':'")
        elif not tags & folders:
            problems.append(f"{where}: TEST_CASE \"{name[:60]}\" has no tag of a source folder: "
                            f"add the folder it tests, such as \"[sweep]\"")
    table = (tests / "README.md").read_text()
    for folder in sorted(folders):
        if f"| `{folder}/` | `[{folder}]` |" not in table:
            problems.append(f"agent/tests/README.md: no row for {folder}/: add | `{folder}/` | "
                            f"`[{folder}]` | and its test files")
    return source_checks.finish(
        "check-test-tags", problems,
        f"{cases} test cases, each tagged with a source folder; {len(folders)} folders in "
        "agent/tests/README.md",
        f"{len(problems)} problem(s)")


if __name__ == "__main__":
    sys.exit(main(sys.argv))
