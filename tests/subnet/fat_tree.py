#!/usr/bin/python3
"""Writes an ibsim netfile for a two-level fat tree to stdout.

Usage: fat_tree.py LEAVES HOSTS_PER_LEAF [FIRST_HOST]
Leaf switches have HOSTS_PER_LEAF ports down and as many up, one to each spine; there are
HOSTS_PER_LEAF spines with LEAVES ports each, so every leaf reaches every spine once (full
bisection). Hosts are one-port HCAs named h0001...; FIRST_HOST renames the first one (the SM
node, so the opensm role can be rendered for an inventory host). Speed QDR, width 4X.
"""
import sys


def main():
    leaves, down = int(sys.argv[1]), int(sys.argv[2])
    first = sys.argv[3] if len(sys.argv) > 3 else None
    spines = down
    width = len(str(leaves * down))

    def host(index):
        return first if index == 0 and first else "h%0*d" % (width, index + 1)

    out = ["# two-level fat tree: %d leaves x %d hosts, %d spines" % (leaves, down, spines), "speed=4", "width=2", ""]
    for leaf in range(leaves):
        out.append('Switch %d "leaf%d"' % (2 * down, leaf + 1))
        for port in range(down):
            out.append('[%d] "%s"[1]' % (port + 1, host(leaf * down + port)))
        for spine in range(spines):
            out.append('[%d] "spine%d"[%d]' % (down + spine + 1, spine + 1, leaf + 1))
        out.append("")
    for spine in range(spines):
        out.append('Switch %d "spine%d"' % (leaves, spine + 1))
        for leaf in range(leaves):
            out.append('[%d] "leaf%d"[%d]' % (leaf + 1, leaf + 1, down + spine + 1))
        out.append("")
    for index in range(leaves * down):
        leaf, port = divmod(index, down)
        out.append('Hca 1 "%s"' % host(index))
        out.append('[1] "leaf%d"[%d]' % (leaf + 1, port + 1))
        out.append("")
    sys.stdout.write("\n".join(out))


if __name__ == "__main__":
    main()
