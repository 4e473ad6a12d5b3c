#!/usr/bin/env python3
"""`ibkit check --format prometheus` on every fixture tree, read back by the Prometheus
project's own text-format parser (python3-prometheus-client): every line must parse, every
family have HELP and TYPE, no series repeat, and the series the docs promise be there with
the values the JSON report of the same tree implies (an InfiniBand port's symbol_error limit is
its data rate x 3.6 an hour, BER 1e-12). `--metrics FILE` must write the same.
    check_prometheus.py IBKIT FIXTURES_DIR"""
import json
import pathlib
import subprocess
import sys
import tempfile

from prometheus_client.parser import text_string_to_metric_families

SERIES = {"ibkit_check_passed", "ibkit_check_timestamp_seconds", "ibkit_check_result",
          "ibkit_port_active", "ibkit_port_data_rate_gbps", "ibkit_port_counter_total",
          "ibkit_agent_info"}


def run(ibkit, *args):
    return subprocess.run([ibkit, "check", *args], capture_output=True, text=True, timeout=60, check=False)


def counters_in(tree):
    return any(tree.glob("sys/class/infiniband/*/ports/*/counters/*"))


def error_limit_problems(tree, families):
    """Each InfiniBand port with a symbol_error counter has the BER 1e-12 limit of its data rate:
    data rate in Gb/s x 3.6 an hour."""
    problems = []
    def by_port(name, counter=None):
        family = families.get(name)
        return {(s.labels["device"], s.labels["port"]): s.value for s in (family.samples if family else [])
                if counter is None or s.labels.get("counter") == counter}

    rates = by_port("ibkit_port_data_rate_gbps")
    limits = by_port("ibkit_port_error_limit_per_hour", "symbol_error")
    for (device, port), gbps in sorted(rates.items()):
        base = tree / "sys/class/infiniband" / device / "ports" / port
        layer = base / "link_layer"
        if not (base / "counters/symbol_error").exists() or (layer.exists() and "Ethernet" in layer.read_text()):
            continue
        limit = limits.get((device, port))
        if limit is None or abs(limit - gbps * 3.6) > 1e-3:
            problems.append(f"{device}/{port}: symbol_error limit {limit}/h, not {gbps} Gb/s x 3.6")
    return problems


def check_tree(ibkit, tree):
    problems = []
    text = run(ibkit, "--root", str(tree), "--format", "prometheus").stdout
    report = json.loads(run(ibkit, "--root", str(tree), "--format", "json").stdout)
    families = {family.name: family for family in text_string_to_metric_families(text)}
    names = {sample.name for family in families.values() for sample in family.samples}
    for name in sorted(SERIES - names):
        # A tree whose ports have no counters (Soft-RoCE) has no error counter series.
        if name != "ibkit_port_counter_total" or counters_in(tree):
            problems.append(f"no {name}")
    for line in text.splitlines():
        if line.startswith("# HELP ") or line.startswith("# TYPE "):
            continue
        name = line.split("{")[0].split(" ")[0]
        if f"# TYPE {name} " not in text or f"# HELP {name} " not in text:
            problems.append(f"{name} has no TYPE or HELP line")
    seen = set()
    for family in families.values():
        for sample in family.samples:
            key = (sample.name, tuple(sorted(sample.labels.items())))
            if key in seen:
                problems.append(f"series {key} repeats")
            seen.add(key)
    passed = families["ibkit_check_passed"].samples[0].value
    if passed != (1.0 if report["verdict"] == "pass" else 0.0):
        problems.append(f"ibkit_check_passed {passed} for verdict {report['verdict']}")
    results = families["ibkit_check_result"].samples
    if sum(sample.value for sample in results) != len(report["results"]):
        problems.append(f"{sum(s.value for s in results)} results in the metrics, {len(report['results'])} in JSON")
    for result in report["results"]:
        labels = {"check": result["id"], "subject": result["subject"], "status": result["status"]}
        if not any(sample.labels == labels for sample in results):
            problems.append(f"no ibkit_check_result for {labels}")
    problems += error_limit_problems(tree, families)
    with tempfile.TemporaryDirectory() as tmp:
        written = pathlib.Path(tmp) / "ibkit.prom"
        run(ibkit, "--root", str(tree), "--format", "json", "--metrics", str(written))
        if not written.exists() or "ibkit_check_passed" not in written.read_text():
            problems.append("--metrics wrote no metrics")
    return problems


def main():
    ibkit, fixtures = sys.argv[1], pathlib.Path(sys.argv[2])
    failed = False
    for tree in sorted(p for p in fixtures.iterdir() if p.is_dir()):
        problems = check_tree(ibkit, tree)
        print(f"{tree.name}: {'; '.join(problems) if problems else 'parses, every result a series'}")
        failed = failed or bool(problems)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
