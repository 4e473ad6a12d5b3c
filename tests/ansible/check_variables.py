#!/usr/bin/env python3
"""Every role default has a one-line comment, an argument_specs entry (main and validate), a
role-prefixed name and a row in docs/variables.md; every argument_specs option is a default
or a platform variable. Prints one line per problem; exit 1 if there is any."""
import pathlib
import re
import sys

import yaml

ROOT = pathlib.Path(__file__).resolve().parents[2]
PLATFORM = {"ibkit_platform", "ibkit_link_layer", "ibkit_fabric_address"}


def main():
    problems = []
    docs = (ROOT / "docs" / "variables.md").read_text()
    roles = sorted(p.name for p in (ROOT / "roles").iterdir() if (p / "defaults" / "main.yml").exists())
    for role in roles:
        base = ROOT / "roles" / role
        text = (base / "defaults" / "main.yml").read_text().splitlines()
        defaults = yaml.safe_load("\n".join(text)) or {}
        specs = yaml.safe_load((base / "meta" / "argument_specs.yml").read_text())["argument_specs"]
        for entry in ("main", "validate"):
            if entry not in specs:
                problems.append(f"{role}: meta/argument_specs.yml has no '{entry}' entry point")
        options = specs.get("main", {}).get("options", {})
        for number, line in enumerate(text):
            match = re.match(r"^([a-z_][a-z0-9_]*):", line)
            if match and not (number > 0 and text[number - 1].startswith("# ")):
                problems.append(f"{role}: {match.group(1)} in defaults/main.yml has no comment line above it")
        for name in defaults:
            if not name.startswith(role + "_"):
                problems.append(f"{role}: default {name} does not start with '{role}_'")
            if name not in options:
                problems.append(f"{role}: default {name} is missing from meta/argument_specs.yml")
            if f"`{name}`" not in docs:
                problems.append(f"{role}: {name} is missing from docs/variables.md")
        for name in options:
            if name not in defaults and name not in PLATFORM:
                problems.append(f"{role}: argument_specs option {name} is neither a default nor a platform variable")
    for problem in problems:
        print(problem)
    print(f"{len(roles)} roles checked, {len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
