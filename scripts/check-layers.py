#!/usr/bin/env python3
"""Check that the agent's folders only include folders below them.

Reads every #include "..." in agent/src, maps the including file and the included header to
their folders (the first path component under agent/src), and fails when a folder includes a
folder that is not in a lower layer of LAYERS below, or when a file lives in (or includes from)
a folder LAYERS does not name. Folders in the same layer are siblings: neither may include the
other. Within a folder, two files may not include each other's headers either.

Usage: scripts/check-layers.py [ROOT]   (ROOT defaults to the repository this script is in)
Exit status: 0 no violation (prints a one-line summary), 1 violations (one line each on
stderr: file:line: FOLDER (layer N) includes FOLDER (layer M)), 2 usage error.
"""

import pathlib
import re
import sys

import source_checks

# Lowest first. A folder may include its own headers and those of any folder in a lower layer.
LAYERS = [
    ["util"],  # no ibkit dependencies: errors, deadlines, files, text, JSON field reading
    ["config", "sysfs"],  # the expected state (TOML) and the machine as /sys shows it
    ["measure"],  # figures and the measurement types: what a test measured
    ["model"],  # plain result types: check results, pair, sweep and fleet reports
    ["schema"],  # each document's JSON writer and reader, side by side
    ["checks", "fabric"],  # one small function per check of this node; the subnet and its checks
    ["control"],  # the control channel between agents
    ["verbs", "tcp"],  # the measurement engines
    ["pair"],  # all tests against one peer, and their verdict
    ["rules", "schedule"],  # a sweep's verdict rules (no network code); who pairs with whom
    ["sweep"],  # all pairs: the coordinator and the drive transport
    ["report"],  # renderers only
    ["slurm"],  # the Slurm integration (health check drain and resume)
    ["launch"],  # starting the agents on other nodes (ssh, srun) for a run
    ["cli"],  # the subcommands
    [""],  # main.cpp, directly in agent/src
]

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')
SOURCE_SUFFIXES = {".cpp", ".hpp", ".h", ".cc", ".ipp"}


def folder_of(relative: pathlib.PurePosixPath) -> str:
    """The first path component of a path relative to agent/src ("" for a file at the top)."""
    return relative.parts[0] if len(relative.parts) > 1 else ""


def main(argv: list[str]) -> int:
    root = source_checks.repository(argv, "check-layers", "agent/src")
    if root is None:
        return 2
    src = root / "agent" / "src"

    layer_of = {folder: index for index, layer in enumerate(LAYERS) for folder in layer}
    problems = []
    files = 0
    includes = 0
    # By file stem ("cli/check_command"): the stems of its own folder it includes, and where.
    unit_includes = {}
    for path in sorted(src.rglob("*")):
        if path.suffix not in SOURCE_SUFFIXES or not path.is_file():
            continue
        files += 1
        relative = pathlib.PurePosixPath(path.relative_to(src).as_posix())
        shown = (pathlib.PurePosixPath("agent/src") / relative).as_posix()
        mine = folder_of(relative)
        if mine not in layer_of:
            problems.append(f"{shown}: folder {mine!r} is not in the layer list of {argv[0]}")
            continue
        with path.open(encoding="utf-8", errors="replace") as source:
            for number, line in enumerate(source, start=1):
                match = INCLUDE.match(line)
                if not match:
                    continue
                included = pathlib.PurePosixPath(match.group(1))
                if len(included.parts) < 2:
                    continue  # a header next to the file, or a generated one: not a folder edge
                includes += 1
                theirs = included.parts[0]
                if theirs == mine:
                    stem = relative.with_suffix("").as_posix()
                    unit_includes.setdefault(stem, {})[included.with_suffix("").as_posix()] = (
                        f"{shown}:{number}")
                    continue
                if theirs not in layer_of:
                    problems.append(
                        f"{shown}:{number}: {mine} includes {included}, from folder {theirs!r} "
                        f"that is not in the layer list"
                    )
                elif layer_of[theirs] >= layer_of[mine]:
                    relation = "a sibling" if layer_of[theirs] == layer_of[mine] else "above it"
                    problems.append(
                        f"{shown}:{number}: {mine or 'agent/src'} (layer {layer_of[mine]}) "
                        f"includes {included} from {theirs} (layer {layer_of[theirs]}), {relation}"
                    )

    # Two files of one folder that include each other's headers: usually an options struct in its
    # caller's header, which belongs in a header of its own that both include.
    for stem, included in sorted(unit_includes.items()):
        for other, where in sorted(included.items()):
            if stem < other and stem in unit_includes.get(other, {}):
                problems.append(
                    f"{where}: {stem} and {other} include each other's headers "
                    f"({unit_includes[other][stem]}): move what both need into a header of its own"
                )

    return source_checks.finish(
        "check-layers", problems,
        f"{files} files, {includes} folder includes, {len(LAYERS)} layers: no include points up "
        "or sideways",
        f"{len(problems)} violation(s)")


if __name__ == "__main__":
    sys.exit(main(sys.argv))
