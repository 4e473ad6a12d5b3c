#!/usr/bin/env python3
"""Check that README.md's Layout section names every folder a reader will find.

The folders are those git tracks at the top of the repository, directly under tests/ and
directly under agent/src/ (hidden ones left out). Each must appear in the Layout section's
code block as NAME/ (tests/NAME/ for the test folders). A folder the section names that the
tree does not have fails too, so a rename cannot leave the old name behind.

Usage: scripts/check-layout.py [ROOT]   (ROOT defaults to the repository this script is in)
Exit status: 0 the section matches (prints a one-line summary), 1 differences (one line each
on stderr), 2 usage error.
"""

import pathlib
import re
import subprocess
import sys


def tracked_folders(root):
    files = subprocess.run(["git", "-C", str(root), "ls-files"], capture_output=True, text=True,
                           check=True).stdout.splitlines()
    folders = set()
    for name in files:
        parts = name.split("/")
        if len(parts) < 2 or parts[0].startswith("."):
            continue
        folders.add(parts[0] + "/")
        if parts[0] == "tests" and len(parts) > 2:
            folders.add("tests/" + parts[1] + "/")
        if parts[:2] == ["agent", "src"] and len(parts) > 3:
            folders.add(parts[2] + "/")
    return folders


def layout_block(readme):
    match = re.search(r"^## Layout\n+```\n(.*?)^```", readme, re.S | re.M)
    return match.group(1) if match else None


def named_in(block, folder):
    # "verbs/, tcp/" and "tests/metrics/" both name their folders; "src/" alone must not
    # count as "agent/src/"'s child, so the name has to start a word.
    return re.search(r"(?<![\w/-])" + re.escape(folder), block) is not None


def main(argv):
    if len(argv) > 2:
        print(__doc__.strip().splitlines()[-3], file=sys.stderr)
        return 2
    root = pathlib.Path(argv[1] if len(argv) == 2 else pathlib.Path(__file__).resolve().parent.parent)
    block = layout_block((root / "README.md").read_text(encoding="utf-8"))
    if block is None:
        print("README.md: no '## Layout' section with a ``` block; add it back", file=sys.stderr)
        return 1
    folders = tracked_folders(root)
    missing = sorted(f for f in folders if not named_in(block, f))
    for folder in missing:
        print(f"README.md: Layout does not name {folder}; add a line saying what it holds", file=sys.stderr)
    named_tests = set(re.findall(r"(?<![\w/-])(tests/[\w-]+/)", block))
    stale = sorted(named_tests - folders)
    for folder in stale:
        print(f"README.md: Layout names {folder}, which git does not track; remove or rename it", file=sys.stderr)
    if missing or stale:
        return 1
    print(f"check-layout: README.md's Layout names all {len(folders)} folders")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
