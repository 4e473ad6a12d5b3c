#!/usr/bin/env python3
"""Renders the ibkit_agent role's systemd unit templates with the role's defaults, so the
package ships the units the role would write for a node with ibkit_agent_package set: one
source, roles/ibkit_agent/templates/.
  render_units.py ROLE_DIR OUTPUT_DIR   writes ibkit-check.service and ibkit-check.timer"""
import pathlib
import sys

try:
    import jinja2
    import yaml
except ImportError as missing:
    sys.exit(f"render_units.py: needs {missing.name} (scripts/install-deps.sh build: python3-jinja2, python3-yaml)")

UNITS = ("ibkit-check.service", "ibkit-check.timer")
# What Ansible would supply: the header names the package instead of the role's run, and a
# package is set, so ibkit_agent_path is the package's /usr/bin/ibkit.
FIXED = {
    "ansible_managed": "ibkit package: rendered at build time with the defaults",
    "ibkit_agent_package": "ibkit.deb",
}


def load_role_variables(role: pathlib.Path) -> dict:
    variables = {}
    for name in ("defaults/main.yml", "vars/main.yml", "vars/sandbox.yml"):
        path = role / name
        try:
            variables.update(yaml.safe_load(path.read_text()) or {})
        except (OSError, yaml.YAMLError) as error:
            sys.exit(f"render_units.py: cannot read {path}: {error}")
    variables.update(FIXED)
    return variables


def resolve(environment: jinja2.Environment, variables: dict) -> dict:
    """Renders the templated string values ("{{ ... }}") against the others until none
    changes. A value that needs what only a playbook has (playbook_dir) is dropped: a unit
    that uses it then fails on StrictUndefined, naming it."""
    resolved = dict(variables)
    for _ in range(10):
        changed = False
        for key, value in list(resolved.items()):
            if not (isinstance(value, str) and "{{" in value):
                continue
            try:
                rendered = environment.from_string(value).render(resolved)
            except jinja2.UndefinedError:
                del resolved[key]
                changed = True
                continue
            if rendered != value:
                resolved[key] = rendered
                changed = True
        if not changed:
            return resolved
    sys.exit("render_units.py: the role's variables refer to each other in a loop")


def main() -> None:
    if len(sys.argv) != 3:
        sys.exit("usage: render_units.py ROLE_DIR OUTPUT_DIR")
    role, output = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
    # The settings Ansible's template module uses: keep the final newline, trim block lines.
    environment = jinja2.Environment(
        loader=jinja2.FileSystemLoader(role / "templates"),
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        trim_blocks=True,
    )
    variables = resolve(environment, load_role_variables(role))
    output.mkdir(parents=True, exist_ok=True)
    for unit in UNITS:
        try:
            text = environment.get_template(f"{unit}.j2").render(variables)
        except jinja2.TemplateError as error:
            sys.exit(f"render_units.py: {role}/templates/{unit}.j2: {error}")
        (output / unit).write_text(text)


if __name__ == "__main__":
    main()
