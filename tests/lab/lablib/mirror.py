"""Find the Debian mirror the host's apt already uses (never a hard-coded host name)."""

import glob
import re

SUITE = "bookworm"


def _deb822_uris(text):
    """URIs of deb822 stanzas (sources.list.d/*.sources) that carry SUITE."""
    for stanza in re.split(r"\n\s*\n", text):
        fields = {}
        for line in stanza.splitlines():
            if line.startswith("#") or ":" not in line or line[0].isspace():
                continue
            key, _, value = line.partition(":")
            fields[key.strip().lower()] = value.split()
        if "deb" in fields.get("types", []) and SUITE in fields.get("suites", []):
            yield from fields.get("uris", [])


def _one_line_uris(text):
    """URIs of one-line `deb URI SUITE COMPONENTS` entries that carry SUITE."""
    for line in text.splitlines():
        words = re.sub(r"\[[^]]*\]", "", line).split()
        if len(words) >= 3 and words[0] == "deb" and words[2] == SUITE:
            yield words[1]


def host_mirror():
    """The first apt source of the host that serves SUITE; raises if there is none."""
    for path in sorted(glob.glob("/etc/apt/sources.list.d/*.sources")):
        with open(path) as f:
            for uri in _deb822_uris(f.read()):
                return uri
    for path in ["/etc/apt/sources.list"] + sorted(glob.glob("/etc/apt/sources.list.d/*.list")):
        try:
            with open(path) as f:
                for uri in _one_line_uris(f.read()):
                    return uri
        except FileNotFoundError:
            continue
    raise RuntimeError(f"no apt source for '{SUITE}' in /etc/apt: debootstrap needs the host's mirror")
