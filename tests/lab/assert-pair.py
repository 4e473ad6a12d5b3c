#!/usr/bin/python3
"""Asserts on an `ibkit pair --format json` report from the lab.

  assert-pair.py REPORT pass SIZES    the verdict is pass, every test ran to the end, each verbs
                                      test measured SIZES sizes with positive figures
  assert-pair.py REPORT cm SIZES      as pass, and every verbs test connected through rdma_cm
  assert-pair.py REPORT loopback SIZES  as pass, peer "loopback", every verbs test naming its ports
  assert-pair.py REPORT events SIZES  as pass, every verbs test waited on completion events
  assert-pair.py REPORT both SIZES    as pass, every verbs test ran both polled and with events
  assert-pair.py REPORT fail TEXT     the verdict is fail and a test stopped with TEXT in its error
  assert-pair.py REPORT duration S    as pass, and every bandwidth size ran at least S seconds
                                      (it ran by duration; how much it moved is the link's business)
  assert-pair.py REPORT ends TEXT     as pass, and a pair.ends warning whose observed has TEXT
                                      (the two ends differ, and the report names both)
Prints one line saying what held, or what did not (exit 1).
"""
import json
import sys


def fail(message):
    print(f"assert-pair: {message}")
    sys.exit(1)


def main():
    if len(sys.argv) != 4:
        fail("usage: assert-pair.py REPORT pass|cm|loopback|events|both SIZES | fail TEXT | duration S | ends TEXT")
    path, mode, argument = sys.argv[1:]
    try:
        with open(path, encoding="utf-8") as handle:
            report = json.load(handle)
    except (OSError, ValueError) as error:
        fail(f"cannot read {path}: {error}")
    if report.get("schema") != "ibkit.pair/1":
        fail(f"schema is {report.get('schema')!r}, not ibkit.pair/1")
    verdict = report.get("verdict")
    tests = report.get("tests", [])
    if not tests:
        fail("the report has no tests")
    if mode == "fail":
        errors = [t.get("error", "") for t in tests if t.get("error")]
        if verdict != "fail" or not any(argument in e for e in errors):
            fail(f"wanted a failure mentioning {argument!r}; verdict {verdict}, errors {errors}")
        print(f"failed as it should: {errors[0]}")
        return
    if verdict != "pass":
        fail(f"verdict {verdict}: {[r for r in report.get('results', []) if r['status'] == 'fail']}")
    ends = [r for r in report.get("results", []) if r.get("id") == "pair.ends"]
    if mode == "ends":
        warned = [r for r in ends if r.get("status") == "warn" and argument in r.get("observed", "")]
        if not warned:
            fail(f"wanted a pair.ends warning with {argument!r}; pair.ends results: {ends}")
        ends_line = f"{warned[0]['status']} {warned[0]['subject']}: {warned[0]['observed']}"
    elif any(r.get("status") == "warn" for r in ends):
        fail(f"the ends differ where they should not: {ends}")
    figures = []
    for test in tests:
        if test.get("error"):
            fail(f"{test['test']} stopped: {test['error']}")
        if "tcp" in test:
            gbps = test["tcp"]["gbps"]
            if not gbps > 0:
                fail(f"tcp measured {gbps} Gb/s")
            figures.append(f"tcp {gbps:.3f} Gb/s")
            continue
        if mode == "cm" and not test["verbs"].get("rdma_cm"):
            fail(f"{test['test']} did not connect through rdma_cm")
        if mode == "loopback" and (report.get("peer") != "loopback" or not test["verbs"].get("loopback")):
            fail(f"{test['test']} is no loopback test: peer {report.get('peer')!r}, "
                 f"loopback {test['verbs'].get('loopback')!r}")
        if mode == "events" and test["verbs"].get("completions") != "events":
            fail(f"{test['test']} waited by {test['verbs'].get('completions')!r}, not events")
        sizes = test["verbs"]["sizes"]
        if mode in ("pass", "cm", "loopback", "events", "both") and len(sizes) != int(argument):
            fail(f"{test['test']} measured {len(sizes)} sizes, wanted {argument}")
        if mode == "duration" and test["test"] == "bw":
            short = [s for s in sizes if s["seconds"] < float(argument) * 0.98]
            if short or not sizes:
                fail(f"bw ran by count, not for {argument} s a size: {short or 'no sizes'}")
            figures.append(f"bw {len(sizes)} size(s), {sizes[-1]['iterations']} messages in "
                           f"{sizes[-1]['seconds']:.2f} s")
        for size in sizes:
            value = size.get("latency", {}).get("t_typical_us") or size.get("bandwidth", {}).get("mib_per_s")
            if not value or value <= 0:
                fail(f"{test['test']} {size['bytes']} B has no positive figure: {size}")
        last = sizes[-1]
        figure = (f"{last['latency']['t_typical_us']:.0f} us typical" if "latency" in last
                  else f"{last['bandwidth']['mib_per_s']:.2f} MiB/s")
        where = f" {test['verbs']['loopback']}" if test["verbs"].get("loopback") else ""
        figures.append(f"{test['test']} {test['verbs']['op']}{where} {test['verbs'].get('completions', 'poll')} "
                       f"{last['bytes']} B {figure}")
    if mode == "ends":
        figures.append(ends_line)
    if mode == "both":
        ran = {(t["test"], t["verbs"].get("completions")) for t in tests if "verbs" in t}
        missing = [(name, way) for name in {t["test"] for t in tests if "verbs" in t}
                   for way in ("poll", "events") if (name, way) not in ran]
        if missing:
            fail(f"not run both ways: {missing}")
    label = {"cm": "pass over rdma_cm: ", "pass": "pass: ", "loopback": "pass in loopback: ",
             "events": "pass with events: ", "both": "pass polled and with events: "}.get(mode, f"pass ({mode}): ")
    print(label + "; ".join(figures))


if __name__ == "__main__":
    main()
