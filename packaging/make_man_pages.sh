#!/usr/bin/env bash
# Writes ibkit.1.gz and one ibkit-SUB.1.gz per subcommand `ibkit --help` lists into DIR, each
# by help2man from the binary's own --help with man/*.h2m's sections, and ibkit.toml.5.gz from
# docs/ibkit.toml.example (make_toml_page.py); gzip -9n (no name or time in the header).
# Dated by the commit (SOURCE_DATE_EPOCH), so two builds of one commit give the same pages.
#   make_man_pages.sh IBKIT DIR
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: $0 IBKIT DIR" >&2; exit 2; }
ibkit=$1
dir=$2
here=$(dirname "$0")
if [ -z "${SOURCE_DATE_EPOCH:-}" ]; then
  SOURCE_DATE_EPOCH=$(git -C "$here" log -1 --format=%ct 2>/dev/null || date +%s)
  export SOURCE_DATE_EPOCH
fi

# "ibkit 0.1.0+a5e85cb": the version is the second word.
version=$("$ibkit" --version | awk '{ print $2; exit }')
[ -n "$version" ] || { echo "make_man_pages.sh: $ibkit --version printed no version" >&2; exit 1; }
mapfile -t subcommands < <("$here/help_words.sh" "$ibkit" subcommands)
[ ${#subcommands[@]} -gt 0 ] || { echo "make_man_pages.sh: $ibkit --help lists no subcommand" >&2; exit 1; }

# page NAME SUMMARY HELP-OPTION SEE-ALSO: one page, help2man running `ibkit HELP-OPTION`, with
# the EXIT STATUS every command shares and the page's own FILES and EXAMPLES (man/NAME.h2m).
page() {
  local own=()
  [ -f "$here/man/$1.h2m" ] && own=(--include="$here/man/$1.h2m")
  printf '[SEE ALSO]\n%s\n' "$4" >"$dir/see-also"
  help2man --no-info --no-discard-stderr --section=1 --name="$2" --help-option="$3" \
    --version-string="$1 (ibkit) $version" --include="$here/man/exit-status.h2m" "${own[@]}" \
    --include="$dir/see-also" --output="$dir/$1.1" "$ibkit"
  gzip -9nf "$dir/$1.1"
}

rm -rf "$dir"
mkdir -p "$dir"
pages=$(printf '.BR ibkit-%s (1),\n' "${subcommands[@]}")
pages+=$'\n.BR ibkit.toml (5),'
page ibkit "InfiniBand/RDMA node readiness checks and fabric tests" --help "${pages%,}"
for sub in "${subcommands[@]}"; do
  # CLI11 prints the subcommand's description as the first line of its --help.
  summary=$("$ibkit" "$sub" --help | head -n 1)
  see=".BR ibkit (1)"
  case $sub in check | health) see+=$',\n.BR ibkit.toml (5)' ;; esac
  page "ibkit-$sub" "${summary:-ibkit $sub}" "$sub --help" "$see"
done
rm -f "$dir/see-also"
/usr/bin/python3 "$here/make_toml_page.py" "$here/../docs/ibkit.toml.example" "$version" "$dir/ibkit.toml.5"
gzip -9nf "$dir/ibkit.toml.5"
