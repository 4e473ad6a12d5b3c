"""Filters the preflight play uses to check an inventory before anything changes."""

import difflib
import pathlib

import yaml


def _top_level_names(path):
    if not path.is_file():
        return set()
    data = yaml.safe_load(path.read_text()) or {}
    return set(data) if isinstance(data, dict) else set()


def ibkit_role_variables(roles_dir):
    """Each role's variables, a sorted list by role name: its argument specs' options (every
    entry point), defaults and vars. Read once per run (run_once), not once per host."""
    known = {}
    for role in sorted(p for p in pathlib.Path(roles_dir).iterdir() if (p / "tasks").is_dir()):
        names = _top_level_names(role / "defaults" / "main.yml")
        for vars_file in sorted((role / "vars").glob("*.yml")):
            names |= _top_level_names(vars_file)
        specs_file = role / "meta" / "argument_specs.yml"
        specs = yaml.safe_load(specs_file.read_text()) if specs_file.is_file() else {}
        for entry in ((specs or {}).get("argument_specs") or {}).values():
            names |= set((entry or {}).get("options") or {})
        known[role.name] = sorted(names)
    return known


def ibkit_unknown_role_variables(variables, known):
    """One line for each variable named with a role's prefix that the role does not know.

    A misspelt name is otherwise silently ignored and the role's default applies. The longest
    role name that prefixes a variable owns it (ibkit_agent_x is ibkit_agent's).
    """
    problems = []
    for name in sorted(str(v) for v in variables):
        owners = [role for role in known if name.startswith(role + "_")]
        if not owners:
            continue
        role = max(owners, key=len)
        if name in known[role]:
            continue
        near = difflib.get_close_matches(name, known[role], n=1, cutoff=0.75)
        hint = f"did you mean {near[0]}?" if near else "its variables are listed in docs/variables.md"
        problems.append(f"{name} is no variable of the {role} role; {hint}")
    return problems


class FilterModule:
    def filters(self):
        return {
            "ibkit_role_variables": ibkit_role_variables,
            "ibkit_unknown_role_variables": ibkit_unknown_role_variables,
        }
