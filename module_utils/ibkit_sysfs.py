# Shared by the roles' read-only probe modules (roles/*/library): reading sysfs/procfs files.
from __future__ import absolute_import, division, print_function

__metaclass__ = type


def read(path):
    """The file's text without surrounding whitespace; "" when it is absent or unreadable."""
    try:
        with open(path) as handle:
            return handle.read().strip()
    except (IOError, OSError):
        return ""
