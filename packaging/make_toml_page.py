#!/usr/bin/env python3
"""Writes ibkit.toml(5) from docs/ibkit.toml.example, the configuration's one description: each
table a subsection, each setting its default and the comment above it, so the page and the
example cannot say different things.
    make_toml_page.py EXAMPLE VERSION OUT"""
import datetime
import os
import re
import sys

SETTING = re.compile(r"^([A-Za-z0-9_]+)\s*=\s*(.*?)\s*(#\s*(.*))?$")
TABLE = re.compile(r"^\[([a-z_]+)\]$")


def roff(text):
    """Text as a roff line: backslashes escaped, no line starting as a request."""
    text = text.replace("\\", "\\e").replace("-", "\\-")
    return "\\&" + text if text[:1] in (".", "'") else text


def prose(lines):
    """Comment lines as roff: text filled, commented-out settings ("port_xmit_wait = 1000000")
    each on a line of their own."""
    out, example = [], False
    for line in lines:
        if bool(SETTING.match(line)) != example:
            example = bool(SETTING.match(line))
            out.append(".nf" if example else ".fi")
        out.append(roff(line))
    return out + ([".fi"] if example else [])


def paragraphs(example):
    """(kind, value, comment lines) for each table, setting, run of settings and comment block."""
    items, comment = [], []
    for raw in example.splitlines():
        line = raw.strip()
        if line.startswith("#"):
            comment.append(line.lstrip("#").strip())
        elif not line:
            if comment:
                items.append(("text", None, comment))
            comment = []
        elif TABLE.match(line):
            items.append(("table", TABLE.match(line).group(1), comment))
            comment = []
        elif SETTING.match(line):
            key, value, _, trailing = SETTING.match(line).groups()
            items.append(("setting", (key, value, trailing), comment))
            comment = []
        else:
            sys.exit("make_toml_page.py: cannot read this line of the example: " + raw)
    if comment:
        items.append(("text", None, comment))
    return items


def page(example, version, date):
    items = paragraphs(example)
    out = ['.TH IBKIT.TOML 5 "%s" "ibkit %s" "File Formats"' % (date, version),
           ".SH NAME", "ibkit.toml \\- what ibkit check expects of a node",
           ".SH SYNOPSIS", ".I /etc/ibkit/ibkit.toml", ".SH DESCRIPTION"]
    # The example's opening comment describes the file.
    if items and items[0][0] == "text":
        out += [roff(line) for line in items.pop(0)[2]]
    out += [".PP", "Each setting below is shown with its default, as docs/ibkit.toml.example and",
            "/usr/share/doc/ibkit/ibkit.toml.example give it."]
    plain = []  # settings without a comment of their own, shown together
    def flush():
        if plain:
            out.extend([".PP", ".nf"] + [roff(line) for line in plain] + [".fi"])
            plain.clear()
    for kind, value, comment in items:
        if kind != "setting" or comment or value[2]:
            flush()
        if kind == "table":
            out.append(".SH \"[%s]\"" % value)
            out += prose(comment)
        elif kind == "text":
            out.append(".PP")
            out += prose(comment)
        elif comment or value[2]:
            key, default, trailing = value
            # A note with commented-out settings ahead of the setting's own description is a
            # paragraph of its own.
            last_example = max((i for i, line in enumerate(comment) if SETTING.match(line)),
                               default=-1)
            if last_example >= 0:
                out.append(".PP")
                out += prose(comment[:last_example + 1])
                comment = comment[last_example + 1:]
            # A macro's argument in quotes, its own quotes as \(dq.
            tag = roff("%s = %s" % (key, default)).replace('"', "\\(dq")
            out += [".TP", '.B "%s"' % tag]
            out += prose(comment)
            if trailing:
                out.append(roff(trailing))
        else:
            plain.append("%s = %s" % value[:2])
    flush()
    out += [".SH FILES", ".TP", ".I /usr/share/doc/ibkit/ibkit.toml.example",
            "this page's source, with every setting at its default",
            ".SH SEE ALSO", ".BR ibkit (1),", ".BR ibkit\\-check (1),", ".BR ibkit\\-health (1)"]
    return "\n".join(out) + "\n"


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    example_path, version, out_path = sys.argv[1:]
    epoch = int(os.environ.get("SOURCE_DATE_EPOCH") or os.path.getmtime(example_path))
    date = datetime.datetime.fromtimestamp(epoch, datetime.timezone.utc).strftime("%B %Y")
    with open(example_path, encoding="utf-8") as example:
        text = page(example.read(), version, date)
    with open(out_path + ".tmp", "w", encoding="utf-8") as out:
        out.write(text)
    os.replace(out_path + ".tmp", out_path)


if __name__ == "__main__":
    main()
