#!/usr/bin/env python3
"""The ibkit_agent role and the agent's config loader know the same names, both ways.

1. Renders ibkit.toml for the homelab nodes with every optional part filled from the role's
   own lists (inventories/every_agent_key.yml on top of inventory/homelab, through
   preflight_and_render.yml: preflight, the role's expected-state loading and its template).
   The agent must call each file valid (`ibkit check --config-only`, exit 0): no name the role
   can emit is unknown to the agent.
2. Asks the agent which names it accepts: a file with one unknown key per table makes the
   loader list its known keys ("unknown key limits.X; known keys are: ..."), and an unknown
   table makes it list its tables. That is the loader's own list at run time, whatever shape
   agent/src takes. Each table the role rendered must hold exactly those keys: no name the
   agent accepts is missing from the role.
3. The role's default [limits] are the defaults documented in docs/ibkit.toml.example.

Needs the built agent: IBKIT_AGENT, else $BUILD_DIR/agent/ibkit (BUILD_DIR defaults to build).
Without it the test fails; it never passes unchecked. Prints one line per problem; exit 1 if any.
"""
import os
import pathlib
import re
import subprocess
import sys
import tempfile

import yaml

ROOT = pathlib.Path(__file__).resolve().parents[2]
PROBE = "ibkit_test_no_such_name"


def agent_path():
    if os.environ.get("IBKIT_AGENT"):
        return pathlib.Path(os.environ["IBKIT_AGENT"])
    return ROOT / os.environ.get("BUILD_DIR", "build") / "agent" / "ibkit"


def toml_keys(text):
    """{table: [keys]} of a flat TOML file (tables of scalars and arrays, as the role writes)."""
    tables, table = {}, None
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        header = re.fullmatch(r"\[([A-Za-z0-9_]+)\]", line)
        key = re.match(r"([A-Za-z0-9_]+)\s*=", line)
        if header:
            table = header.group(1)
            tables.setdefault(table, [])
        elif key and table:
            tables[table].append(key.group(1))
    return tables


def run_agent(agent, config):
    return subprocess.run([str(agent), "check", "--config-only", "--config", str(config)],
                          capture_output=True, text=True, timeout=30, check=False)


def agent_names(agent, work, table=None):
    """The tables the loader accepts (table None) or the keys of one table, from its own
    unknown-key message; None when the message no longer says it."""
    probe = work / f"probe-{table or 'root'}.toml"
    probe.write_text(f"[{table}]\n{PROBE} = 1\n" if table else f"[{PROBE}]\n")
    result = run_agent(agent, probe)
    message = result.stdout + result.stderr
    if table:
        found = re.search(rf"unknown key {table}\.{PROBE}; known keys are: ([A-Za-z0-9_, ]+)", message)
        names = found and found.group(1).split(", ")
    else:
        found = re.search(r"the configuration has (.*)$", message, re.MULTILINE)
        names = found and re.findall(r"\[([A-Za-z0-9_]+)\]", found.group(1))
    if result.returncode != 2 or not names:
        print(f"the agent's answer to {probe.name} ({probe.read_text().strip()!r}) no longer lists the names it knows "
              f"(exit {result.returncode}): {message.strip()}; update agent_names() in {pathlib.Path(__file__).name}")
        return None
    return set(names)


def render(agent, out):
    env = dict(os.environ, ANSIBLE_CONFIG=os.environ.get("ANSIBLE_CONFIG", str(ROOT / "ansible.cfg")))
    command = ["ansible-playbook", "-i", "inventory/homelab", "-i", "tests/ansible/inventories/every_agent_key.yml",
               "tests/ansible/preflight_and_render.yml", "-e", f"ibkit_test_out={out}",
               # Offline: a play that wrongly connected would hit a closed loopback port.
               "-e", "ansible_host=127.0.0.1", "-e", "ansible_port=1", "-e", f"ibkit_agent_binary={agent}"]
    result = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=300, check=False)
    if result.returncode != 0 or "UNREACHABLE" in result.stdout:
        print(result.stdout[-4000:] + result.stderr[-2000:])
        print(f"rendering with every key failed (exit {result.returncode}): {' '.join(command)}")
        return False
    return True


def role_default_limits_match_docs():
    role = yaml.safe_load((ROOT / "roles/ibkit_agent/defaults/main.yml").read_text())
    # [limits] link_flaps has its own role variable beside the counters' dict.
    defaults = dict(role["ibkit_agent_limits"], link_flaps=role["ibkit_agent_link_flaps"])
    docs_text = (ROOT / "docs/ibkit.toml.example").read_text()
    section = re.search(r"^\[limits\]\n(.*?)(?=^\[|\Z)", docs_text, re.MULTILINE | re.DOTALL)
    docs = {k: int(v) for k, v in re.findall(r"^([A-Za-z0-9_]+)\s*=\s*([0-9]+)", section.group(1) if section else "",
                                              re.MULTILINE)}
    if defaults == docs:
        print(f"role default [limits] = docs/ibkit.toml.example [limits] ({len(docs)} keys)")
        return True
    print(f"ibkit_agent_limits in roles/ibkit_agent/defaults/main.yml differs from [limits] in docs/ibkit.toml.example "
          f"(the agent's documented defaults): role only {sorted(set(defaults.items()) - set(docs.items()))}, "
          f"docs only {sorted(set(docs.items()) - set(defaults.items()))}")
    return False


def main():
    agent = agent_path()
    if not (agent.is_file() and os.access(agent, os.X_OK)):
        print(f"no agent binary at {agent}: build it first (make build, or cmake --build build --target ibkit), "
              "or set IBKIT_AGENT / BUILD_DIR")
        return 1
    problems = 0
    with tempfile.TemporaryDirectory(prefix="ibkit-agent-keys.") as tmp:
        work = pathlib.Path(tmp)
        out = work / "toml"
        out.mkdir()
        if not render(agent, out):
            return 1
        files = sorted(out.glob("*.toml"))
        if not files:
            print(f"no ibkit.toml was rendered into {out}")
            return 1

        known = {None: agent_names(agent, work)}
        for table in sorted(known[None] or []):
            known[table] = agent_names(agent, work, table)
        if any(names is None for names in known.values()):
            return 1
        print("the agent knows " + "; ".join(f"[{table}] {len(known[table])} keys" for table in sorted(known[None])))

        for file in files:
            result = run_agent(agent, file)
            if result.returncode != 0 or "configuration is valid" not in result.stdout:
                problems += 1
                said = (result.stdout + result.stderr).strip()
                print(f"{file.name}: the agent rejects what the role rendered (exit {result.returncode}; fix the "
                      f"role's lists in roles/ibkit_agent/vars/main.yml or its template): {said}")
                continue
            rendered = toml_keys(file.read_text())
            gaps = {table: sorted(known[table] - set(rendered.get(table, []))) for table in sorted(known[None])}
            gaps = {table: keys for table, keys in gaps.items() if keys}
            for table, keys in gaps.items():
                print(f"{file.name}: [{table}] {', '.join(keys)}: the agent accepts these keys but the role "
                      "cannot write them; add them to roles/ibkit_agent (vars/main.yml lists, templates/ibkit.toml.j2)")
            problems += len(gaps)
            if not gaps:
                print(f"{file.name}: valid to the agent, and holds every key it knows "
                      f"({sum(len(keys) for keys in rendered.values())})")

    if not role_default_limits_match_docs():
        problems += 1
    print(f"{len(files)} rendered file(s) checked against {agent}, {problems} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
