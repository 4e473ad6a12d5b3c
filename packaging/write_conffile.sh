#!/bin/sh
# Writes the package's /etc/ibkit/ibkit.toml: docs/ibkit.toml.example with every setting
# commented out, so installing the package changes nothing a node is judged by; ibkit judges by
# its defaults until the admin uncomments a line.
#   write_conffile.sh EXAMPLE OUT
set -eu
[ $# -eq 2 ] || { echo "usage: $0 EXAMPLE OUT" >&2; exit 2; }
{
  echo "# /etc/ibkit/ibkit.toml: what ibkit check expects of this node."
  echo "# Every setting below is commented out, so ibkit judges by its defaults; uncomment and edit"
  echo "# what your nodes need (man ibkit-check, /usr/share/doc/ibkit/ibkit.toml.example)."
  echo "# The ibkit_agent Ansible role writes this file in full from its inventory instead."
  echo "#"
  sed 's/^\([[:space:]]*[^#[:space:]]\)/# \1/' "$1"
} >"$2.tmp"
mv "$2.tmp" "$2"
