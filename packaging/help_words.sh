#!/usr/bin/env bash
# Prints, one a line, what the agent's own --help lists, so the man pages and the bash
# completion's test follow the binary instead of a hand-kept list:
#   help_words.sh IBKIT subcommands   the subcommands of `ibkit --help`
#   help_words.sh IBKIT options [SUB] the options (-h and --help both) of `ibkit [SUB] --help`
set -euo pipefail
[ $# -ge 2 ] || { echo "usage: $0 IBKIT subcommands|options [SUBCOMMAND]" >&2; exit 2; }
ibkit=$1
what=$2
shift 2
help=$("$ibkit" "$@" --help) || { echo "help_words.sh: $ibkit $* --help failed" >&2; exit 1; }

case $what in
  # CLI11: a "Subcommands:" heading, then one "  name   description" line each, then a blank line.
  subcommands) awk 'tolower($0) ~ /^subcommands:/ { on = 1; next }
                    on && /^[[:space:]]*$/ { on = 0 }
                    on && /^  [a-z]/ { print $1 }' <<<"$help" ;;
  # An option line starts with its names, "-c,--config TEXT:FILE", before the type and text.
  options) awk '/^[[:space:]]+-/ { split($1, names, ","); for (i in names)
                  if (names[i] ~ /^--?[A-Za-z0-9][A-Za-z0-9_-]*$/) print names[i] }' <<<"$help" | sort -u ;;
  *) echo "help_words.sh: '$what' is neither subcommands nor options" >&2; exit 2 ;;
esac
