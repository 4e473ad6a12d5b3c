"""What the checks of agent/ share: where the tree is, and how a check ends.

A check takes one optional argument, the repository (this script's by default), and ends with
exit 0 and one summary line, 1 with each problem on stderr and a count, or 2 on a usage error.
"""

import pathlib
import sys


def repository(argv, name, *folders):
    """The repository a check named `name` reads (argv's one argument, or this script's), once
    each of `folders` (relative to it) is a directory; None after printing why not."""
    if len(argv) > 2:
        print(f"usage: scripts/{name}.py [ROOT]", file=sys.stderr)
        return None
    root = pathlib.Path(argv[1]) if len(argv) == 2 else pathlib.Path(__file__).resolve().parent.parent
    for folder in folders:
        if not (root / folder).is_dir():
            print(f"{name}: {root / folder} is not a directory", file=sys.stderr)
            return None
    return root


def finish(name, problems, passed, failed):
    """Exit status of a check: 0 printing `passed`, or 1 printing each problem and `failed`."""
    for problem in problems:
        print(problem, file=sys.stderr)
    if problems:
        print(f"{name}: {failed}", file=sys.stderr)
        return 1
    print(f"{name}: {passed}")
    return 0
