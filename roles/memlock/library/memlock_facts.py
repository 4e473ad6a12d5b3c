#!/usr/bin/python
# -*- coding: utf-8 -*-
# Read-only probe for the memlock role: memlock lines in other pam_limits files that would
# override the role's own file. Warns about them; never edits them.
from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r"""
module: memlock_facts
short_description: Find memlock limits in other pam_limits files (changes nothing)
options:
  own_file:
    description: The limits.d file the memlock role writes; it is not reported.
    type: path
    required: true
  domains:
    description: The domains the role sets; entries for them in files read later override the role.
    type: list
    elements: str
    default: ["*", "root"]
  root:
    description: Directory that stands for / (tests point it at a fixture tree).
    type: path
    default: /
"""

RETURN = r"""
entries: {description: "memlock lines elsewhere: file, line, domain, type, value.", type: list}
overriding: {description: Entries that take precedence over the role's file for some logins., type: list}
"""

import glob
import os

from ansible.module_utils.basic import AnsibleModule


def limit_files(root):
    """pam_limits order: limits.conf, then limits.d/*.conf in C-locale order."""
    base = os.path.join(root, "etc/security")
    return [os.path.join(base, "limits.conf")] + sorted(glob.glob(os.path.join(base, "limits.d", "*.conf")))


def memlock_entries(path):
    entries = []
    try:
        with open(path) as handle:
            lines = handle.readlines()
    except (IOError, OSError):
        return entries
    for number, text in enumerate(lines, 1):
        fields = text.split("#", 1)[0].split()
        if len(fields) == 4 and fields[2] == "memlock":
            entries.append(dict(file=path, line=number, domain=fields[0], type=fields[1], value=fields[3]))
    return entries


def main():
    module = AnsibleModule(
        argument_spec=dict(
            own_file=dict(type="path", required=True),
            domains=dict(type="list", elements="str", default=["*", "root"]),
            root=dict(type="path", default="/"),
        ),
        supports_check_mode=True,
    )
    root = module.params["root"]
    own = os.path.join(root, module.params["own_file"].lstrip("/"))
    entries, overriding = [], []
    for path in limit_files(root):
        if os.path.abspath(path) == os.path.abspath(own):
            continue
        for entry in memlock_entries(path):
            entries.append(entry)
            read_later = path.startswith(os.path.dirname(own) + os.sep) and os.path.basename(path) > os.path.basename(own)
            # A user or group line beats "*" wherever it is; a line for one of our own domains wins when read later.
            more_specific = entry["domain"] not in module.params["domains"] and entry["domain"] != "*"
            if more_specific or read_later:
                overriding.append(entry)
                module.warn(
                    "%s:%d sets memlock %s %s for %s, which overrides %s for those logins; "
                    "remove the line or raise it" % (entry["file"], entry["line"], entry["type"], entry["value"],
                                                     entry["domain"], module.params["own_file"]))
    module.exit_json(changed=False, entries=entries, overriding=overriding)


if __name__ == "__main__":
    main()
