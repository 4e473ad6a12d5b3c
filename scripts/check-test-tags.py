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
    if len(argv) > 2:
        print("usage: scripts/check-test-tags.py [ROOT]", file=sys.stderr)
        return 2
    root = pathlib.Path(argv[1] if len(argv) == 2 else pathlib.Path(__file__).resolve().parent.parent)
    src, tests = root / "agent" / "src", root / "agent" / "tests"
    if not src.is_dir() or not tests.is_dir():
        print(f"check-test-tags: {src} or {tests} is not a directory", file=sys.stderr)
        return 2
    folders = {path.name for path in src.iterdir() if path.is_dir()}
    problems = 0
    cases = 0
    for path, line, name, tags in test_cases(tests):
        cases += 1
        if name is None:
            print(f"{path.relative_to(root)}:{line}: a TEST_CASE whose arguments are not a name "
                  f"and tags: write TEST_CASE(\"what it shows\", \"[folder]\")", file=sys.stderr)
            problems += 1
        elif ";" in name:
            print(f"{path.relative_to(root)}:{line}: TEST_CASE \"{name[:60]}\" has a ';', where "
                  f"ctest's test discovery splits it into two tests that never run: use ',' or ':'",
                  file=sys.stderr)
            problems += 1
        elif not tags & folders:
            print(f"{path.relative_to(root)}:{line}: TEST_CASE \"{name[:60]}\" has no tag of a "
                  f"source folder: add the folder it tests, such as \"[sweep]\"", file=sys.stderr)
            problems += 1
    table = (tests / "README.md").read_text()
    for folder in sorted(folders):
        if f"| `{folder}/` | `[{folder}]` |" not in table:
            print(f"agent/tests/README.md: no row for {folder}/: add | `{folder}/` | `[{folder}]` | "
                  f"and its test files", file=sys.stderr)
            problems += 1
    if problems:
        return 1
    print(f"check-test-tags: {cases} test cases, each tagged with a source folder; "
          f"{len(folders)} folders in agent/tests/README.md")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
