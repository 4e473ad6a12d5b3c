#!/usr/bin/env python3
"""Every role default has a one-line comment, an argument_specs entry (main and validate), a
role-prefixed name and a row in docs/variables.md; every argument_specs option is a default
or a platform variable. A variable a role publishes for others (a name without a leading
underscore in vars/*.yml) is role-prefixed and in docs/variables.md too, and no role reads
another role's internal (_role_...) variables, nor another role's files by path (role_path/..:
include_role with tasks_from is the way in). Prints one line per problem; exit 1 if any."""
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
        for vars_file in sorted((base / "vars").glob("*.yml")):
            for name in yaml.safe_load(vars_file.read_text()) or {}:
                if name.startswith("_"):
                    continue
                if not name.startswith(role + "_"):
                    problems.append(f"{role}: published variable {name} (vars/{vars_file.name}) "
                                    f"does not start with '{role}_'")
                if f"`{name}`" not in docs:
                    problems.append(f"{role}: published variable {name} (vars/{vars_file.name}) "
                                    "is missing from docs/variables.md")
        others = "|".join(re.escape(other) for other in roles if other != role)
        for path in sorted(p for p in base.rglob("*") if p.is_file() and p.suffix in (".yml", ".j2", ".py")):
            if re.search(r"role_path\s*}}/\.\.", path.read_text()):
                problems.append(f"{role}: {path.relative_to(base)} reads another role's file through role_path/..;"
                                " load it through that role's entry point (include_role tasks_from)")
            for name in sorted(set(re.findall(rf"(?<![A-Za-z0-9_])_(?:{others})_[a-z0-9_]+", path.read_text()))):
                problems.append(f"{role}: {path.relative_to(base)} reads {name}, another role's internal variable;"
                                " publish what it needs under that role's prefix (docs/variables.md)")
    for problem in problems:
        print(problem)
    print(f"{len(roles)} roles checked, {len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
