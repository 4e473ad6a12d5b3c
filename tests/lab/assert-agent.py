#!/usr/bin/python3
"""Assert what ibkit reports inside a lab VM. Usage: assert-agent.py MODE FILE
  devices     ibkit devices --format json shows an rxe port ACTIVE, link layer Ethernet
  check       ibkit check --format json passes port.state and port.link_layer=Ethernet on rxe
  check-down  ibkit check --format json fails port.state on rxe, verdict fail (link down)
  loopback    ibkit check --format json with [expect] loopback passes loopback.latency and
              loopback.bandwidth on an rxe port, and no loopback result fails
  loopback-memlock    a loopback test failed naming memlock (run without CAP_IPC_LOCK, low limit)
  loopback-nodevice   a loopback test failed naming the missing device (module unloaded)
Prints one line saying what it found; exits 0 when the facts hold, 1 when not (or the JSON
is not ibkit's), 2 on usage errors."""

import json
import sys


def rxe_ports(devices):
    """(device, port) pairs of rxe devices in an ibkit.devices/1 document."""
    return [(d, p) for d in devices.get("devices", []) if d.get("name", "").startswith("rxe")
            for p in d.get("ports", [])]


def check_devices(doc):
    if doc.get("schema") != "ibkit.devices/1":
        return False, f"schema is {doc.get('schema')!r}, not 'ibkit.devices/1'"
    ports = rxe_ports(doc)
    if not ports:
        names = [d.get("name") for d in doc.get("devices", [])]
        return False, f"no rxe device (devices: {names})"
    for dev, port in ports:
        if port.get("state") == "ACTIVE" and port.get("link_layer") == "Ethernet":
            return True, (f"{dev['name']}/{port.get('port')} ACTIVE Ethernet "
                          f"on {port.get('netdev', '?')}, rate {port.get('rate', '?')}")
    seen = [(d["name"], p.get("state"), p.get("link_layer")) for d, p in ports]
    return False, f"no rxe port ACTIVE with link layer Ethernet: {seen}"


def check_check(doc):
    if doc.get("schema") != "ibkit.check/1":
        return False, f"schema is {doc.get('schema')!r}, not 'ibkit.check/1'"
    rxe = [r for r in doc.get("results", []) if r.get("subject", "").startswith("rxe")]
    state = [r for r in rxe if r.get("id") == "port.state" and r.get("status") == "pass"]
    layer = [r for r in rxe if r.get("id") == "port.link_layer" and r.get("status") == "pass"
             and r.get("observed") == "Ethernet"]
    if state and layer:
        failed = [r["id"] for r in doc["results"] if r.get("status") == "fail"]
        return True, (f"{state[0]['subject']}: port.state {state[0].get('observed')}, "
                      f"port.link_layer Ethernet; verdict {doc.get('verdict')} "
                      f"(failed: {', '.join(failed) or 'none'})")
    found = [(r.get("id"), r.get("subject"), r.get("status"), r.get("observed")) for r in rxe]
    return False, f"no passing port.state and port.link_layer=Ethernet for rxe: {found}"


def check_down(doc):
    if doc.get("schema") != "ibkit.check/1":
        return False, f"schema is {doc.get('schema')!r}, not 'ibkit.check/1'"
    down = [r for r in doc.get("results", []) if r.get("id") == "port.state"
            and r.get("subject", "").startswith("rxe") and r.get("status") == "fail"]
    if down and doc.get("verdict") == "fail":
        return True, f"{down[0]['subject']}: port.state fail ({down[0].get('observed')}), " \
                     f"hint: {down[0].get('hint', '')[:60]}"
    states = [(r.get("subject"), r.get("status"), r.get("observed"))
              for r in doc.get("results", []) if r.get("id") == "port.state"]
    return False, f"expected a failed rxe port.state and verdict fail: {states}, " \
                  f"verdict {doc.get('verdict')}"


def loopback_results(doc):
    return [r for r in doc.get("results", []) if r.get("id", "").startswith("loopback")]


def check_loopback(doc):
    if doc.get("schema") != "ibkit.check/1":
        return False, f"schema is {doc.get('schema')!r}, not 'ibkit.check/1'"
    rows = loopback_results(doc)
    passed = {r["id"]: r for r in rows if r.get("status") == "pass" and "loopback rxe" in r.get("subject", "")}
    failed = [(r["id"], r.get("subject"), r.get("observed")) for r in rows if r.get("status") != "pass"]
    if "loopback.latency" in passed and "loopback.bandwidth" in passed and not failed:
        return True, (f"loopback on {passed['loopback.latency']['subject'].split(' loopback ')[1].split()[0]}: "
                      f"latency {passed['loopback.latency']['observed']}, "
                      f"bandwidth {passed['loopback.bandwidth']['observed']}")
    return False, f"wanted passing loopback.latency and loopback.bandwidth on rxe and no failure: " \
                  f"{[(r['id'], r.get('subject'), r.get('status'), r.get('observed')) for r in rows]}"


def loopback_failure(doc, words):
    if doc.get("schema") != "ibkit.check/1":
        return False, f"schema is {doc.get('schema')!r}, not 'ibkit.check/1'"
    rows = loopback_results(doc)
    named = [r for r in rows if r.get("status") == "fail" and all(w in r.get("observed", "") for w in words)]
    passed_figure = [r for r in rows if r.get("status") == "pass" and r["id"] == "loopback.bandwidth"]
    if named and doc.get("verdict") == "fail" and not passed_figure:
        return True, f"{named[0]['id']} {named[0]['subject']} failed: {named[0]['observed'][:110]}"
    return False, f"wanted a failed loopback result naming {words}, verdict fail: " \
                  f"{[(r['id'], r.get('status'), r.get('observed')) for r in rows]}, verdict {doc.get('verdict')}"


MODES = {"devices": check_devices, "check": check_check, "check-down": check_down,
         "loopback": check_loopback,
         "loopback-memlock": lambda doc: loopback_failure(doc, ["memlock", "KiB"]),
         "loopback-nodevice": lambda doc: loopback_failure(doc, ["no RDMA device"])}


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in MODES:
        print(__doc__, file=sys.stderr)
        return 2
    try:
        with open(sys.argv[2]) as f:
            doc = json.load(f)
    except (OSError, ValueError) as e:
        print(f"not ibkit JSON: {e}")
        return 1
    ok, message = MODES[sys.argv[1]](doc)
    print(message)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
