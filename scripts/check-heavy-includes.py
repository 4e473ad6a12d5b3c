#!/usr/bin/env python3
"""Check that agent/src's headers keep the heavy third-party headers out of other files.

A header is included by every file that includes it, and by every file that includes those:
nlohmann/json.hpp (about 25,000 lines) reached 59 of 191 library sources through 21 headers,
18 of which never use JSON. So a header names JSON types through <nlohmann/json_fwd.hpp> and the
.cpp that uses JSON includes the full header; CLI11 stays in the command layer (cli/), toml++
in the config loader's .cpp. HEAVY below lists, per heavy header, the only headers allowed to
include it and why.

Usage: scripts/check-heavy-includes.py [ROOT]   (ROOT defaults to this script's repository)
Exit status: 0 nothing out of place (one summary line), 1 a header includes a heavy header it
may not (one line each on stderr: file:line: what and the fix), 2 usage error.
"""

import pathlib
import re
import sys

import source_checks

# heavy header -> (headers under agent/src allowed to include it, as globs; the fix to name)
HEAVY = {
    "nlohmann/json.hpp": (
        # Function templates that read JSON values, instantiated by their callers.
        ["control/message_fields.hpp"],
        "include <nlohmann/json_fwd.hpp> in the header and <nlohmann/json.hpp> in the .cpp",
    ),
    "CLI/CLI.hpp": (
        ["cli/*.hpp"],
        "parse options in cli/ and pass plain option structs down",
    ),
    "toml++/toml.hpp": ([], "include toml++ only in the config loader's .cpp"),
    "toml++/toml.h": ([], "include toml++ only in the config loader's .cpp"),
}

INCLUDE = re.compile(r'^\s*#\s*include\s*[<"]([^>"]+)[>"]')


def problems(src):
    found = []
    for header in sorted(src.rglob("*.hpp")):
        relative = header.relative_to(src)
        for number, line in enumerate(header.read_text(errors="replace").splitlines(), 1):
            match = INCLUDE.match(line)
            if not match or match.group(1) not in HEAVY:
                continue
            allowed, fix = HEAVY[match.group(1)]
            if not any(relative.match(pattern) for pattern in allowed):
                found.append(f"{header}:{number}: includes <{match.group(1)}>: {fix}")
    return found


def main(argv):
    root = source_checks.repository(argv, "check-heavy-includes", "agent/src")
    if root is None:
        return 2
    src = root / "agent" / "src"
    found = problems(src)
    headers = len(list(src.rglob("*.hpp")))
    return source_checks.finish(
        "check-heavy-includes", found,
        f"{headers} headers, heavy headers only where allowed ({', '.join(HEAVY)})",
        f"{len(found)} header(s) of {headers} include a heavy header they may not")


if __name__ == "__main__":
    sys.exit(main(sys.argv))
