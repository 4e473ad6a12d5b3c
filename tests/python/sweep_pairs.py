"""The pairs of a sweep's report.json as dicts, whichever schema wrote it.

ibkit.sweep/3 and /2 write a pair as a row of "pair_columns" with node and reason indices, its
warnings and (for some pairs) its whole report in tables beside the rows; a /3 row leaves out
its last values while they are their column's "pair_defaults". ibkit.sweep/1 wrote each pair as
an object. All come out as the /1 objects, plus "warnings" (the warn results).
"""


def sweep_pairs(report):
    if report.get("schema") == "ibkit.sweep/1":
        pairs = [dict(p) for p in report.get("pairs", [])]
        for pair in pairs:
            results = (pair.get("report") or {}).get("results", [])
            pair["warnings"] = [r for r in results if r.get("status") == "warn"]
        return pairs
    columns = report["pair_columns"]
    defaults = report.get("pair_defaults", {})
    nodes = report["nodes"]
    reasons = report["reasons"]
    pairs = []
    for row in report["pairs"]:
        pair = {column: defaults[column] for column in columns[len(row):]}
        pair.update(zip(columns, row))
        pair["a"], pair["b"] = nodes[pair["a"]], nodes[pair["b"]]
        pair["reason"] = reasons[pair["reason"]]
        pair["warnings"] = []
        pair["report"] = None
        pairs.append(pair)
    for warned in report.get("warnings", []):
        pairs[warned["pair"]]["warnings"] = warned["results"]
    for detail in report.get("details", []):
        pairs[detail["pair"]]["report"] = detail["report"]
    return pairs
