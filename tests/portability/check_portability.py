#!/usr/bin/env python3
"""Whether a built agent can run on the HPC images Azure documents, by what it asks of them.

An ELF binary names every shared library it needs (NEEDED) and, per library, the symbol
versions it needs (.gnu.version_r: GLIBC_2.34 from libc.so.6, GLIBCXX_3.4.29 from
libstdc++.so.6, OPENSSL_3.0.0 from libcrypto.so.3, ...). The dynamic loader refuses to start
it on a system whose library is missing or older. This reads both with readelf and holds
them to tests/portability/hpc_images.json, the newest version each image's libraries give.

Usage: check_portability.py BINARY [--images FILE] [--require IMAGE,...]
Prints what the binary needs, then one line per image: runs, or why not. Exit 0 when every
--require image runs it (default: every image in the file), 1 when one does not, 2 when
the binary cannot be read (no readelf, not an ELF file).
"""
import argparse
import json
import pathlib
import re
import subprocess
import sys

HERE = pathlib.Path(__file__).resolve().parent
FILE = re.compile(r"^\s*0x?[0-9a-f]+: Version: \d+\s+File: (\S+)\s+Cnt: \d+")
NAME = re.compile(r"^\s*0x[0-9a-f]+:\s+Name: (\S+)\s+Flags:")
NEEDED = re.compile(r"\(NEEDED\)\s+Shared library: \[(\S+)\]")
VERSION = re.compile(r"^([A-Z]+(?:_[A-Z]+)*)_([0-9][0-9.]*)$")


def version_key(text):
    return tuple(int(part) for part in text.split("."))


def requirements(binary):
    """{library: [version names]} for every NEEDED library (an empty list: no versioned symbols)."""
    try:
        dynamic = subprocess.run(["readelf", "--dynamic", "-W", str(binary)], capture_output=True, text=True,
                                 check=True, timeout=60).stdout
        versions = subprocess.run(["readelf", "--version-info", "-W", str(binary)], capture_output=True, text=True,
                                  check=True, timeout=60).stdout
    except (OSError, subprocess.CalledProcessError) as error:
        raise SystemExit("check_portability.py: cannot read %s with readelf: %s" % (binary, error))
    needs = {library: [] for library in NEEDED.findall(dynamic)}
    if not needs:
        raise SystemExit("check_portability.py: %s names no shared library; not a dynamic ELF binary?" % binary)
    current = None
    in_needs = False
    for line in versions.splitlines():
        if line.startswith("Version needs section"):
            in_needs = True
            continue
        if line.startswith("Version ") and not line.startswith("Version needs"):
            in_needs = False
        if not in_needs:
            continue
        match = FILE.match(line)
        if match:
            current = match.group(1)
            needs.setdefault(current, [])
            continue
        match = NAME.match(line)
        if match and current:
            needs[current].append(match.group(1))
    return needs


def problems_on(image, needs):
    """Why the image cannot run a binary with these needs (an empty list: it can)."""
    libraries = image["libraries"]
    problems = []
    for library, names in sorted(needs.items()):
        if library not in libraries:
            problems.append("no %s" % library)
            continue
        for name in names:
            match = VERSION.match(name)
            newest = libraries[library].get(match.group(1)) if match else None
            if newest is None:
                problems.append("%s has no %s" % (library, name))
            elif version_key(match.group(2)) > version_key(newest):
                problems.append("%s needs %s (the image has %s_%s)" % (library, name, match.group(1), newest))
    return problems


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("binary", type=pathlib.Path)
    parser.add_argument("--images", type=pathlib.Path, default=HERE / "hpc_images.json")
    parser.add_argument("--require", default="", help="comma-separated images that must run it (default: all)")
    args = parser.parse_args()
    images = {name: body for name, body in json.loads(args.images.read_text()).items() if not name.startswith("_")}
    required = [name for name in args.require.split(",") if name] or list(images)
    unknown = [name for name in required if name not in images]
    if unknown:
        print("check_portability.py: unknown image(s) %s; %s knows %s" % (unknown, args.images, list(images)))
        return 2
    needs = requirements(args.binary)
    print("%s needs:" % args.binary)
    for library, names in sorted(needs.items()):
        newest = {}
        for name in names:
            match = VERSION.match(name)
            if match and (match.group(1) not in newest or version_key(match.group(2)) > version_key(newest[match.group(1)])):
                newest[match.group(1)] = match.group(2)
        print("  %-18s %s" % (library, ", ".join("%s_%s" % item for item in sorted(newest.items())) or "(no versions)"))
    failed = 0
    for name, image in images.items():
        problems = problems_on(image, needs)
        verdict = "runs" if not problems else "does not run: " + "; ".join(problems)
        must = name in required
        print("%s %-17s %s (%s)" % ("FAIL" if must and problems else ("ok  " if not problems else "note"),
                                    name, verdict, image["distribution"]))
        failed += 1 if must and problems else 0
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
