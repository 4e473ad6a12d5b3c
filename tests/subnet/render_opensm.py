#!/usr/bin/python3
"""Renders the opensm role's files for one inventory host, the way the role does, without a node.

The subnet tier starts opensm exactly as roles/opensm would on that host, so nothing about the
command line is written again here: the values come from the role's defaults and vars, the
inventory (inventory/homelab plus an optional overlay adding a host to subnet_manager_standby),
the role's own expressions (validate.yml's declaration, main.yml's "Choose the port GUID and
priority" and its assert), the role's probe module (library/opensm_ports.py, run in-process on a
sysfs tree taken from the simulated fabric) and the role's templates.

Usage: render_opensm.py --host viper --root SYSFS_ROOT --out DIR [--standby HOST]...
Writes DIR/ibkit-opensm.service, DIR/ibkit-partitions.conf and DIR/opensm.argv (the unit's
ExecStart, one argument a line, with the partitions and log files moved into DIR) and prints
"guid priority role". Exits 1 with the role's own fail_msg when the role would fail.

Where this differs from a real run, on purpose: vars/Debian.yml is loaded (first_found on this
Debian machine), ansible_managed is a fixed string, and only plain Jinja filters plus `bool`
are available (the expressions used here need no others).
"""
import argparse
import ast
import contextlib
import importlib.util
import io
import json
import os
import shlex
import sys

import jinja2
import yaml

REPO = os.path.realpath(os.path.join(os.path.dirname(__file__), "..", ".."))
ROLE = os.path.join(REPO, "roles", "opensm")
INVENTORY = os.path.join(REPO, "inventory", "homelab")


def load_yaml(path):
    with open(path) as handle:
        return yaml.safe_load(handle) or {}


def to_bool(value):
    if isinstance(value, str):
        return value.strip().lower() in ("1", "true", "yes", "on")
    return bool(value)


def environments():
    text = jinja2.Environment(undefined=jinja2.StrictUndefined, keep_trailing_newline=True)
    text.filters["bool"] = to_bool
    return Evaluator(text), text


class Evaluator:
    """Ansible's default (not native) templating: text, then lists, dicts and booleans are
    turned back into values (so a GUID such as 0x...01 stays a string, as in Ansible)."""

    def __init__(self, env):
        self.env = env

    def from_string(self, source):
        template = self.env.from_string(source)

        class Rendered:
            @staticmethod
            def render(context):
                out = template.render(context)
                if out.startswith(("[", "{")) or out in ("True", "False"):
                    try:
                        return ast.literal_eval(out)
                    except (ValueError, SyntaxError):
                        return out
                return out

        return Rendered


def has_template(value):
    if isinstance(value, str):
        return "{{" in value or "{%" in value
    if isinstance(value, dict):
        return any(has_template(v) for v in value.values())
    if isinstance(value, list):
        return any(has_template(v) for v in value)
    return False


class Variables:
    """Ansible-like variables: later layers win, strings with Jinja are rendered on first use."""

    def __init__(self, native):
        self.native = native
        self.raw = {}
        self.done = {}

    def layer(self, values):
        for key, value in values.items():
            self.raw[key] = value
            self.done.pop(key, None)

    def render(self, value, extra=None):
        if isinstance(value, str) and ("{{" in value or "{%" in value):
            context = self.resolved()
            context.update(extra or {})
            return self.native.from_string(value).render(context)
        if isinstance(value, dict):
            return {k: self.render(v, extra) for k, v in value.items()}
        if isinstance(value, list):
            return [self.render(v, extra) for v in value]
        return value

    def resolved(self):
        # Resolve in passes: a variable whose template names one not resolved yet waits a pass.
        # Plain values first, so that `default` in a template never hides one not resolved yet.
        pending = [k for k in self.raw if k not in self.done]
        for key in pending:
            if not has_template(self.raw[key]):
                self.done[key] = self.raw[key]
        pending = [k for k in pending if k not in self.done]
        while pending:
            progress = []
            for key in pending:
                try:
                    self.done[key] = self.render_with(self.raw[key])
                    progress.append(key)
                except jinja2.UndefinedError:
                    continue
            if not progress:
                raise SystemExit("render_opensm.py: cannot resolve " + ", ".join(sorted(pending)))
            pending = [k for k in pending if k not in progress]
        return dict(self.done)

    def render_with(self, value):
        if isinstance(value, str) and ("{{" in value or "{%" in value):
            return self.native.from_string(value).render(dict(self.done))
        if isinstance(value, dict):
            return {k: self.render_with(v) for k, v in value.items()}
        if isinstance(value, list):
            return [self.render_with(v) for v in value]
        return value


def find_task(tasks, name):
    for task in tasks:
        if task.get("name") == name:
            return task
        found = find_task(task.get("block", []), name) if "block" in task else None
        if found:
            return found
    raise SystemExit("render_opensm.py: the role has no task named '%s' any more" % name)


def groups_of(host, inventory, overlay_standby):
    groups = []

    def walk(name, node):
        node = node or {}
        if host in (node.get("hosts") or {}):
            groups.append(name)
        for child, sub in (node.get("children") or {}).items():
            walk(child, sub)

    walk("all", inventory.get("all"))
    if host in overlay_standby and "subnet_manager_standby" not in groups:
        groups.append("subnet_manager_standby")
    return [g for g in groups if g != "all"]


def host_vars(host, inventory):
    found = {}

    def walk(node):
        node = node or {}
        if host in (node.get("hosts") or {}):
            found.update((node["hosts"] or {}).get(host) or {})
        for sub in (node.get("children") or {}).values():
            walk(sub)

    walk(inventory.get("all"))
    return found


def probe_ports(root):
    """The role's opensm_ports module, run in-process on ROOT; its `ports` result."""
    import ansible.module_utils.basic as basic

    spec = importlib.util.spec_from_file_location(
        "ansible.module_utils.ibkit_sysfs", os.path.join(REPO, "module_utils", "ibkit_sysfs.py"))
    sysfs = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(sysfs)
    sys.modules["ansible.module_utils.ibkit_sysfs"] = sysfs
    spec = importlib.util.spec_from_file_location("opensm_ports", os.path.join(ROLE, "library", "opensm_ports.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    basic._ANSIBLE_ARGS = json.dumps({"ANSIBLE_MODULE_ARGS": {"root": root}}).encode()
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        try:
            module.main()
        except SystemExit:
            pass
    result = json.loads(out.getvalue())
    if result.get("failed"):
        raise SystemExit("render_opensm.py: opensm_ports failed: %s" % result.get("msg"))
    return result["ports"]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--host", required=True)
    parser.add_argument("--root", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--standby", action="append", default=[],
                        help="put HOST in subnet_manager_standby as well (the inventory's group is empty)")
    args = parser.parse_args()

    native, text = environments()
    inventory = load_yaml(os.path.join(INVENTORY, "hosts.yml"))
    group_names = groups_of(args.host, inventory, args.standby)
    if "ibkit_nodes" not in group_names:
        raise SystemExit("render_opensm.py: %s is not a host of inventory/homelab" % args.host)

    variables = Variables(native)
    variables.layer(load_yaml(os.path.join(ROLE, "defaults", "main.yml")))
    variables.layer(load_yaml(os.path.join(INVENTORY, "group_vars", "all.yml")))
    variables.layer(host_vars(args.host, inventory))
    variables.layer(load_yaml(os.path.join(ROLE, "vars", "main.yml")))
    variables.layer(load_yaml(os.path.join(ROLE, "vars", "Debian.yml")))
    variables.layer({
        "inventory_hostname": args.host,
        "group_names": group_names,
        "ansible_managed": "Ansible managed",
        "ibkit_test_sysfs_root": args.root,
    })

    validate = load_yaml(os.path.join(ROLE, "tasks", "validate.yml"))
    declared = find_task(validate, "Record this host's subnet manager declaration")["ansible.builtin.set_fact"]
    variables.layer({key: variables.render(value) for key, value in declared.items()})
    role = variables.resolved()["_opensm_declared"]["role"]
    if role == "none" or not to_bool(variables.resolved()["opensm_enabled"]):
        raise SystemExit("render_opensm.py: the role runs no opensm on %s (role %s)" % (args.host, role))

    tasks = load_yaml(os.path.join(ROLE, "tasks", "main.yml"))
    variables.layer({"_opensm_probe": {"ports": probe_ports(variables.resolved()["_opensm_root"])}})
    choose = find_task(tasks, "Choose the port GUID and priority")
    # The task's vars may name each other (the candidates use the InfiniBand ports): in passes.
    task_vars = {}
    pending = dict(choose.get("vars") or {})
    while pending:
        for key, value in list(pending.items()):
            try:
                task_vars[key] = variables.render(value, task_vars)
                del pending[key]
            except jinja2.UndefinedError:
                continue
        if pending and not any(key in task_vars for key in choose.get("vars") or {}):
            raise SystemExit("render_opensm.py: cannot resolve " + ", ".join(pending))
    facts = {key: variables.render(value, task_vars) for key, value in choose["ansible.builtin.set_fact"].items()}
    variables.layer(facts)

    check = find_task(tasks, "Fail without an InfiniBand port to bind to")["ansible.builtin.assert"]
    for condition in check["that"]:
        if not variables.render("{{ (%s) | bool }}" % condition):
            message = text.from_string(check["fail_msg"]).render(variables.resolved())
            print("render_opensm.py: the role would fail on %s: %s" % (args.host, " ".join(message.split())))
            return 1

    context = variables.resolved()
    os.makedirs(args.out, exist_ok=True)
    rendered = {}
    for template, name in (("ibkit-opensm.service.j2", "ibkit-opensm.service"),
                           ("partitions.conf.j2", "ibkit-partitions.conf")):
        with open(os.path.join(ROLE, "templates", template)) as handle:
            rendered[name] = text.from_string(handle.read()).render(context)
        with open(os.path.join(args.out, name), "w") as handle:
            handle.write(rendered[name])

    exec_lines = [line for line in rendered["ibkit-opensm.service"].splitlines() if line.startswith("ExecStart=")]
    if len(exec_lines) != 1:
        raise SystemExit("render_opensm.py: the unit has %d ExecStart lines" % len(exec_lines))
    moved = {
        os.path.join(context["_opensm_config_dir"], "ibkit-partitions.conf"): os.path.join(args.out, "ibkit-partitions.conf"),
        context["opensm_log_file"]: os.path.join(args.out, "opensm.log"),
    }
    argv = [moved.get(word, word) for word in shlex.split(exec_lines[0][len("ExecStart="):])]
    with open(os.path.join(args.out, "opensm.argv"), "w") as handle:
        handle.write("\n".join(argv) + "\n")
    print(context["_opensm_guid"], context["_opensm_priority"], role)
    return 0


if __name__ == "__main__":
    sys.exit(main())
