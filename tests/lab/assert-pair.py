#!/usr/bin/python3
"""Asserts on an `ibkit pair --format json` report from the lab.

  assert-pair.py REPORT pass SIZES    the verdict is pass, every test ran to the end, each verbs
                                      test measured SIZES sizes with positive figures
  assert-pair.py REPORT cm SIZES      as pass, and every verbs test connected through rdma_cm
  assert-pair.py REPORT fail TEXT     the verdict is fail and a test stopped with TEXT in its error
Prints one line saying what held, or what did not (exit 1).
"""
import json
import sys


def fail(message):
    print(f"assert-pair: {message}")
    sys.exit(1)


def main():
    if len(sys.argv) != 4:
        fail("usage: assert-pair.py REPORT pass SIZES | cm SIZES | fail TEXT")
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
        sizes = test["verbs"]["sizes"]
        if len(sizes) != int(argument):
            fail(f"{test['test']} measured {len(sizes)} sizes, wanted {argument}")
        for size in sizes:
            value = size.get("latency", {}).get("t_typical_us") or size.get("bandwidth", {}).get("mib_per_s")
            if not value or value <= 0:
                fail(f"{test['test']} {size['bytes']} B has no positive figure: {size}")
        last = sizes[-1]
        figure = (f"{last['latency']['t_typical_us']:.0f} us typical" if "latency" in last
                  else f"{last['bandwidth']['mib_per_s']:.2f} MiB/s")
        figures.append(f"{test['test']} {test['verbs']['op']} {last['bytes']} B {figure}")
    print(("pass over rdma_cm: " if mode == "cm" else "pass: ") + "; ".join(figures))


if __name__ == "__main__":
    main()
