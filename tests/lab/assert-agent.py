#!/usr/bin/python3
"""Assert what ibkit reports inside a lab VM: an rxe device whose port is ACTIVE with link
layer Ethernet. Usage: assert-agent.py devices|check FILE. Prints one line saying what it
found; exits 0 when the facts hold, 1 when not (or the JSON is not ibkit's)."""

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


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in ("devices", "check"):
        print(__doc__, file=sys.stderr)
        return 2
    try:
        with open(sys.argv[2]) as f:
            doc = json.load(f)
    except (OSError, ValueError) as e:
        print(f"not ibkit JSON: {e}")
        return 1
    ok, message = (check_devices if sys.argv[1] == "devices" else check_check)(doc)
    print(message)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
