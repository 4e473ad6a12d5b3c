#!/usr/bin/env python3
"""Writes the seed corpora fuzz/corpus/<target>/ from the repository's own examples and
fixtures, so every seed says where it came from and can be made again:

    python3 fuzz/make_corpus.py [BUILD_FUZZ_DIR]

BUILD_FUZZ_DIR (default build-asan, the instrumented build) holds the built sysfs_tree_fuzz, which turns each fixture
tree under tests/fixtures/sysfs/ into its input format (IBKIT_FUZZ_SEED_FROM). Seeds are kept
small (a few KiB): the fuzzers' inputs grow from them.
"""
import json
import os
import re
import subprocess
import sys
from pathlib import Path

TOP = Path(__file__).resolve().parent.parent
CORPUS = TOP / "fuzz" / "corpus"
REPORTS = TOP / "tests" / "fixtures" / "reports"


def write(target, name, text):
    folder = CORPUS / target
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_text(text)


def compact(document):
    return json.dumps(document, separators=(",", ":")) + "\n"


def config_seeds():
    example = (TOP / "docs" / "ibkit.toml.example").read_text()
    write("config", "example.toml", example)
    # Each table of the example on its own, comments dropped.
    tables = re.split(r"(?m)^(?=\[)", example)
    for table in tables:
        match = re.match(r"\[(\w+)\]", table)
        if match:
            lines = [line for line in table.splitlines() if line.strip() and not line.startswith("#")]
            write("config", match.group(1) + ".toml", "\n".join(lines) + "\n")
    write("config", "inline.toml",
          'expect = { link_layer = "InfiniBand", min_rate_gbps = 54.5, ports = ["mlx5_0/1"] }\n'
          'limits.symbol_error = 10\nthresholds.max_latency_us = 2.5\n')
    write("config", "wrong.toml", '[expect]\nport_count = "two"\nmemlock = -1\n[bogus]\nkey = 1979-05-27T07:32:00Z\n')


def report_seeds():
    for name in ("check-lab1.json", "check-lab4.json"):
        write("report_json", name, compact(json.loads((REPORTS / name).read_text())))
    sweep = json.loads((REPORTS / "sweep-v1.json").read_text())
    check = json.loads((REPORTS / "check-lab4.json").read_text())
    pair = sweep["pairs"][0]["report"]
    # A pair report with one size per test, as a driving node answers a coordinator.
    for test in pair["tests"]:
        if test.get("verbs"):
            test["verbs"]["sizes"] = test["verbs"]["sizes"][:1]
    write("report_json", "pair.json", compact(pair))
    # The 4-node sweep with two of its pairs: the failed lab1 -> lab4 (its report trimmed as
    # above) and one without a report, plus lab4's check report merged in.
    small = dict(sweep)
    small["pairs"] = [dict(sweep["pairs"][0], report=pair), dict(sweep["pairs"][1], report=None)]
    write("report_json", "sweep.json", compact(small))
    small["node_checks"] = [check]
    small["rails"] = 2
    small["pairs"][1]["rail"] = 1
    write("report_json", "sweep-merged.json", compact(small))
    # Reports whose parts disagree (what a hand-edited or truncated file holds): pairs of nodes
    # the list lacks, a node paired with itself, a blame of a stranger, counts below zero.
    odd = json.loads(compact(small))
    odd["nodes"] = ["lab1", "lab1"]
    odd["pairs"][0]["a"] = odd["pairs"][0]["b"]
    odd["pairs"][1].update(a="zz", round=-5, attempts=-1)
    odd["blamed"] = [{"node": "nobody", "reason": ""}]
    odd["rounds"] = -3
    write("report_json", "sweep-inconsistent.json", compact(odd))
    # The passing example as the agent writes it now (ibkit.sweep/3: a row a pair).
    write("report_json", "sweep-pass.json", (REPORTS / "sweep-pass.json").read_text())
    # The failing one too: rows that leave their last values to pair_defaults, and details.
    write("report_json", "sweep-v3.json", compact(json.loads((REPORTS / "sweep.json").read_text())))
    return pair


def peer_seeds(pair):
    write("peer_message", "request.json", compact(
        {"type": "request", "test": "tcp", "op": "send", "sizes": [131072], "qps": 2, "iters": 0,
         "duration_s": 5, "bidir": False, "use_cm": False, "tx_depth": 128}))
    write("peer_message", "request-lat.json", compact(
        {"type": "request", "test": "lat", "op": "write", "sizes": [2, 4096], "iters": 1000,
         "rail": 1}))
    write("peer_message", "drive.json", compact(
        {"type": "drive", "peer": "10.0.0.2", "port": 18515, "tests": ["lat", "bw", "tcp"],
         "sizes": [65536], "qps": 1, "iters": 0, "duration_s": 0.2, "bidir": False, "rail": 0,
         "deadline_s": 30, "connect_timeout_s": 5}))
    write("peer_message", "endpoint.json", compact(
        {"type": "endpoint", "lid": 0, "gid": [254, 128] + [0] * 6 + [2, 72, 138, 255, 254, 172, 84, 20],
         "mtu": 3, "qpns": [17], "psns": [4711], "rkey": 1234, "address": 140000000000,
         "buffer_bytes": 65536, "max_inline": 236, "device": "rxe0 port 1"}))
    write("peer_message", "result.json", compact({"type": "result", "peer_answered": True, "report": pair}))


def counter_state_seeds():
    """State files as ibkit check --state writes them: two ports, and one saturated counter."""
    ports = {"mlx5_0/1": {"link_downed": 2, "symbol_error": 0, "port_xmit_data": 123456789},
             "mlx5_1/1": {"link_downed": 255, "VL15_dropped": 18446744073709551615}}
    state = {"schema": "ibkit.counters/1", "host": "node1",
             "boot_id": "6a1f3c2e-5b7d-4e0a-9c1b-2d3e4f5a6b7c", "taken_at": 1795474508, "ports": ports}
    write("counter_state", "two-ports.json", compact(state))
    write("counter_state", "no-ports.json", compact(dict(state, ports={})))


def hosts_seeds():
    write("hosts", "names.txt",
          "# the lab\nlab1 10.0.0.1\nlab2 10.0.0.2:18516\nlab3 [fe80::1%ib0]:18515\n----\n"
          "lab1 lab2\nlab2 lab3  # comment\n----\nlab1=10.0.0.1,lab2=10.0.0.2:18516\n----\nrandom:2\n")
    write("hosts", "addresses.txt",
          "10.0.0.1\n10.0.0.2:18600\nfe80::2\n\n----\n10.0.0.1 10.0.0.2:18600\n----\n"
          "10.0.0.1,10.0.0.2\n----\nall-pairs\n")
    write("hosts", "pairs.txt", "a 127.0.0.1:1\nb 127.0.0.1:2\nc 127.0.0.1:3\n----\na b\nc a\n----\n----\npairs:\n")
    write("hosts", "ring.txt", "n1 n1.example\nn2 n2.example\nn3 n3.example\n----\n----\n----\nring\n")


def launch_hosts_seeds():
    """ssh destinations (a hosts file), an allocation's node list and a --hosts list."""
    write("launch_hosts", "rack.txt",
          "# the rack\ncn01\nadmin@cn02  # spare\n\ncn03.example\n----\ncn[01-16]\n----\n"
          "cn[01-02],admin@cn03\n")
    write("launch_hosts", "slurm.txt",
          "gpu1\ngpu2\n----\nr[1-2]n[08-10],login1\n----\nr1n[09-10]\n")
    write("launch_hosts", "refused.txt",
          "cn01\ncn02 10.0.0.2\n----\nvm[1-\n----\nadmin@cn01,cn01,-oProxyCommand=x\n")


def scontrol_reply_seeds():
    """Replies of `scontrol -o show node c01` as Slurm 22 prints them, and check summaries."""
    line = ("NodeName=c01 Arch=x86_64 CoresPerSocket=8 CPUAlloc=0 CPUTot=16 State={state} "
            "ThreadsPerCore=1 Partitions=hpc{reason}\n")
    write("scontrol_reply", "idle.txt", line.format(state="IDLE", reason="") +
          "----\nport.state mthca0/2 DOWN/Polling (+1 more)\n")
    write("scontrol_reply", "drained-by-ibkit.txt",
          line.format(state="IDLE+DRAIN", reason=" Reason=ibkit: port.rate mlx5_0/1 [root@2026-11-26T07:00:00]") +
          "----\nmemlock 64 KiB\n")
    write("scontrol_reply", "drained-by-admin.txt",
          line.format(state="DOWN*+DRAIN", reason=" Reason=maintenance = cable swap [slurm@2026-11-26T07:00:00]"))
    write("scontrol_reply", "two-nodes.txt", line.format(state="MIXED", reason="") +
          line.format(state="IDLE", reason="").replace("c01", "c02"))


def sysfs_text_seeds():
    fixtures = TOP / "tests" / "fixtures" / "sysfs"
    rates = sorted({p.read_text().strip() for p in fixtures.glob("*/sys/devices/**/ports/*/rate")})
    speeds = sorted({p.read_text().strip() for p in fixtures.glob("*/sys/devices/**/*_link_speed")})
    write("sysfs_text", "rates.txt", "\n".join(rates + ["10 Gb/sec (4X)", "56 Gb/sec (4X FDR)"]) + "\n")
    write("sysfs_text", "pcie.txt", "\n".join(speeds + ["0x10de", "0x030200", "-1", "1.5e3"]) + "\n")
    for path in sorted(fixtures.glob("*/ip-addr.txt")):
        write("sysfs_text", "ip-addr-" + path.parent.name + ".txt", path.read_text())


def sysfs_tree_seeds(build):
    program = build / "fuzz" / "sysfs_tree_fuzz"
    if not program.exists():
        sys.exit(f"{program} is not built: cmake -S . -B {build} -DIBKIT_FUZZ=ON ... first")
    for tree in sorted((TOP / "tests" / "fixtures" / "sysfs").iterdir()):
        seed = subprocess.run([str(program)], env=dict(os.environ, IBKIT_FUZZ_SEED_FROM=str(tree)),
                              check=True, capture_output=True, text=True).stdout
        write("sysfs_tree", tree.name + ".txt", seed)


def fabric_record_seeds():
    """Records of the fabric discovery child: a switch with two hosts, its SM and the ports' error
    counters (one port's not read), one host alone."""
    header = "ibkit-fabric 1\n"
    port = "port {n} {guid} {lid} 4 5 11 3 2 7 5 4 0 0 0 {sm} {remote}\n"
    leaf = ("node 2097152 switch 6c65616631\n" + port.format(n=0, guid=2097152, lid=1, sm=1, remote="-") +
            port.format(n=1, guid=2097152, lid=1, sm=0, remote="1:1") +
            "counters symbol_error=1200 link_error_recovery=0 link_downed=255 port_rcv_errors=0 "
            "port_rcv_remote_physical_errors=0 port_rcv_switch_relay_errors=0 port_xmit_discards=7 "
            "port_xmit_constraint_errors=0 port_rcv_constraint_errors=0 local_link_integrity_errors=15 "
            "excessive_buffer_overrun_errors=0 VL15_dropped=0\n" +
            port.format(n=2, guid=2097152, lid=1, sm=0, remote="2:1") +
            "uncounted 6e6f20616e73776572\n")
    hosts = ("node 1048576 ca 7669706572\n" + port.format(n=1, guid=1048577, lid=2, sm=1, remote="0:1") +
             "node 1048578 ca -\n" + port.format(n=1, guid=1048579, lid=3, sm=0, remote="0:2"))
    write("fabric_record", "leaf-two-hosts.txt",
          header + leaf + hosts + "sm 1:1 1048577 15 3\nsm 0:0 2097152 1 2\nfrom 2:1\n")
    write("fabric_record", "no-sm.txt",
          header + "node 1 ca -\n" + port.format(n=1, guid=2, lid=0, sm=0, remote="-"))


def topology_seeds():
    """Topology files as ibkit fabric --save-topology writes them, each with the hosts to schedule
    after a ---- line: a line of three switches (one host each, routed), two switches of 3 and 1
    hosts, the line with tables that send every LID back and forth (a loop), and a cable listed
    from one end."""
    port = "port {n} {guid} {lid} 4 5 2 2 2 4 4 4 0 0 0 0 {remote}\n"

    def line(under, route, one_ended=False):
        switches = len(under)
        hosts = [(s, k) for s in range(switches) for k in range(under[s])]
        ports = [{k + 1: f"{switches + i}:1" for i, (t, k) in enumerate(hosts) if t == s}
                 for s in range(switches)]
        for s in range(switches - 1):
            back, ahead = under[s + 1] + 1, under[s] + 2
            ports[s][ahead] = "-" if one_ended else f"{s + 1}:{back}"
            ports[s + 1][back] = f"{s}:{ahead}"
        lids = len(hosts) + switches + 1
        text = "ibkit-fabric 1\n"
        for s in range(switches):
            table = [255] * lids
            table[len(hosts) + s + 1] = 0
            for i, (t, k) in enumerate(hosts):
                table[i + 1] = k + 1 if t == s else (under[s] + (1 if route(s, t) < s else 2))
            text += f"node {0x200000 + s} switch {f'sw{s}'.encode().hex()}\n"
            text += "forwarding " + bytes(table).hex() + "\n"
            text += port.format(n=0, guid=0x200000 + s, lid=len(hosts) + s + 1, remote="-")
            for n in sorted(ports[s]):
                text += port.format(n=n, guid=0x200000 + s, lid=len(hosts) + s + 1, remote=ports[s][n])
        for i, (t, k) in enumerate(hosts):
            text += f"node {0x100000 + i} ca {f'h{i + 1} HCA-1'.encode().hex()}\n"
            text += port.format(n=1, guid=0x100000 + i, lid=i + 1, remote=f"{t}:{k + 1}")
        return text + "----\n" + "".join(f"h{i + 1}\n" for i in range(len(hosts)))

    along = lambda s, t: s + 1 if t > s else s - 1
    write("topology", "line.txt", line([1, 1, 1], along))
    write("topology", "unequal.txt", line([3, 1], along))
    write("topology", "loop.txt", line([1, 1, 1], lambda s, t: (s - 1 if s > 0 else s + 1) if t > s
                                       else (s + 1 if s < 2 else s - 1)))
    write("topology", "one-ended.txt", line([1, 1], along, one_ended=True))


def main():
    build = Path(sys.argv[1]) if len(sys.argv) > 1 else TOP / "build-asan"
    config_seeds()
    pair = report_seeds()
    peer_seeds(pair)
    hosts_seeds()
    launch_hosts_seeds()
    counter_state_seeds()
    scontrol_reply_seeds()
    fabric_record_seeds()
    topology_seeds()
    sysfs_text_seeds()
    sysfs_tree_seeds(build)


if __name__ == "__main__":
    main()
