#!/usr/bin/env bash
# Host tier, the report page: `ibkit report` renders report.html from the committed example
# inputs (tests/fixtures/reports/) and from bench/report_scale.cpp's synthetic sweeps (n3 10x
# slow, n1-n2 failed), headless Chromium takes a screenshot of it, and a stdlib PNG reader
# checks that the page is not blank: many colours, the failed pair's red mark on the failing
# sweeps and none on the passing one, the slow node's brown row and column on the canvas
# heatmap of the large one. Each case prints its name and PASS/FAIL.
# Needs chromium (scripts/install-deps.sh host) and python3; no root, no network.
#   BUILD_DIR=build     where agent/ibkit was built (ibkit_report_bench is built when missing)
#   SHOTS_DIR=DIR       keep the pages and screenshots there, to look at them
#   LARGE_NODES=1024    the large synthetic fabric's size
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
# shellcheck source-path=SCRIPTDIR source=lib.sh
source tests/host/lib.sh
fixtures=$PWD/tests/fixtures/reports
colours=(python3 "$PWD/tests/host/png_colours.py")
hatch_red=d50000    # the failed-pair hatch in sweep_html.cpp; the FAIL banner is c62828
pass_green=1a7f37   # the PASS banner
slow_brown=8a4b00   # a slow pair on the canvas heatmap (heatmap_codes.cpp)
large_nodes=${LARGE_NODES:-1024}
max_page_bytes=$((5 * 1000 * 1000))

host_require_agent "report page"
chromium=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$chromium" ] || ! command -v python3 >/dev/null; then
  echo "report page: needs chromium and python3 (scripts/install-deps.sh host)"
  exit 1
fi

work=$(mktemp -d /tmp/ibkit-report.XXXXXX)
trap 'rm -rf "$work"' EXIT
trap 'exit 130' INT TERM

# Screenshots $1/report.html into $1/shot.png, $2 pixels tall (1400); 0 when Chromium wrote it.
screenshot() {
  local sandbox=()
  # Chromium refuses to run as root with its sandbox.
  [ "$(id -u)" -eq 0 ] && sandbox=(--no-sandbox)
  timeout 60 "$chromium" --headless "${sandbox[@]}" --disable-gpu --no-first-run \
    --user-data-dir="$work/profile" --hide-scrollbars --window-size="1200,${2:-1400}" \
    --screenshot="$1/shot.png" "file://$1/report.html" >"$1/chromium.log" 2>&1
  [ -s "$1/shot.png" ] || { indent 6 <"$1/chromium.log" | tail -5; return 1; }
}

# Renders the inputs ($3...) into $work/$1 and screenshots the page, $shot_height pixels tall
# (1400). Sets $stats to the PNG's colour counts, or $problem and returns 1 (also when
# `ibkit report` does not exit $2).
render_page() {
  local page=$1 want=$2 dir="$work/$1"
  shift 2
  problem=""
  "$ibkit" report "$@" --output "$dir" >"$work/$page.out" 2>&1
  local status=$?
  if [ $status -ne "$want" ]; then
    problem="ibkit report exit $status, wanted $want: $(cat "$work/$page.out")"; return 1
  fi
  # The canvas heatmap's script is inline; one with a src would load from elsewhere.
  if grep -Eiq '<(link|img|iframe)[ >]|<script[^>]* src=|url\(' "$dir/report.html"; then
    problem="report.html refers to an external asset"; return 1
  fi
  screenshot "$dir" "${shot_height:-1400}" || { problem="chromium wrote no screenshot"; return 1; }
  stats=$("${colours[@]}" "$dir/shot.png" hatch=$hatch_red green=$pass_green slow=$slow_brown) ||
    { problem="cannot read $dir/shot.png"; return 1; }
  echo "      $page: $stats"
  if [ -n "${SHOTS_DIR:-}" ]; then
    mkdir -p "$SHOTS_DIR" && cp "$dir/report.html" "$SHOTS_DIR/$page.html" &&
      cp "$dir/shot.png" "$SHOTS_DIR/$page.png"
  fi
}
stat_of() { echo "$stats" | json_field "$1"; }

# Screenshots page $1 with everything but its heatmaps hidden, so what is counted is the
# heatmaps' and not the pairs list's; sets $stats as render_page does, or $problem.
render_heatmaps_only() {
  local dir="$work/$1-heatmaps"
  mkdir -p "$dir"
  sed 's|</head>|<style>body > :not(figure):not(table.heatmap) { display: none; }</style></head>|' \
    "$work/$1/report.html" >"$dir/report.html"
  screenshot "$dir" "${shot_height:-1400}" || { problem="chromium wrote no screenshot"; return 1; }
  stats=$("${colours[@]}" "$dir/shot.png" hatch=$hatch_red slow=$slow_brown) ||
    { problem="cannot read $dir/shot.png"; return 1; }
  echo "      $1, heatmaps only: $stats"
  [ -z "${SHOTS_DIR:-}" ] || cp "$dir/shot.png" "$SHOTS_DIR/$1-heatmaps.png"
}

case_failing_sweep() {
  local name="the failing sweep's page has heatmaps with the failed pair hatched red"
  if ! render_page fail 1 "$fixtures/sweep.json" "$fixtures"/check-lab{1,2,3,4}.json; then
    fail "$name" "$problem"; return
  fi
  local distinct hatch
  distinct=$(stat_of '["colours"]')
  hatch=$(stat_of '["near"]["hatch"]')
  [ "$distinct" -ge 200 ] || { fail "$name" "only $distinct colours: blank or unstyled"; return; }
  [ "$hatch" -ge 1000 ] || { fail "$name" "$hatch red hatch pixels: the failed pair is not marked"; return; }
  pass "$name"
}

case_passing_sweep() {
  local name="the passing sweep's page is green and coloured, with no red hatch"
  if ! render_page pass 0 "$fixtures/sweep-pass.json" "$fixtures"/check-lab{1,2,3}.json; then
    fail "$name" "$problem"; return
  fi
  local distinct hatch green
  distinct=$(stat_of '["colours"]')
  hatch=$(stat_of '["near"]["hatch"]')
  green=$(stat_of '["near"]["green"]')
  [ "$distinct" -ge 200 ] || { fail "$name" "only $distinct colours: blank or unstyled"; return; }
  [ "$hatch" -eq 0 ] || { fail "$name" "$hatch red hatch pixels on a passing sweep"; return; }
  [ "$green" -ge 10000 ] || { fail "$name" "$green pixels of the green PASS banner"; return; }
  pass "$name"
}

# Writes bench/report_scale.cpp's synthetic sweep of $1 nodes and its checks into $work/in$1.
synthetic_inputs() {
  local bench="$build_dir/bench/ibkit_report_bench"
  [ -x "$bench" ] || ninja -C "$build_dir" ibkit_report_bench >/dev/null || return 1
  "$bench" "$1" "$work/in$1"
}

# The first $2 node names of the node table of page $1.
first_nodes() {
  python3 - "$work/$1/report.html" "$2" <<'PY'
import html, re, sys
page = open(sys.argv[1], encoding="utf-8").read()
table = page[page.index('<table class="nodes">'):]
rows = re.findall(r"<tr[^>]*><td>([^<]*)</td>", table)
print(" ".join(html.unescape(name) for name in rows[:int(sys.argv[2])]))
PY
}

case_small_fabric() {
  local name="16 synthetic nodes: table heatmaps with the failed link hatched, n3 atop the nodes"
  synthetic_inputs 16 || { fail "$name" "ibkit_report_bench did not write 16 nodes"; return; }
  if ! render_page small 1 "$work/in16/sweep/report.json" "$work"/in16/checks/*.json; then
    fail "$name" "$problem"; return
  fi
  grep -q '<table class="heatmap">' "$work/small/report.html" ||
    { fail "$name" "no table heatmap"; return; }
  local hatch slow top
  top=$(first_nodes small 4)
  render_heatmaps_only small || { fail "$name" "$problem"; return; }
  hatch=$(stat_of '["near"]["hatch"]')
  slow=$(stat_of '["near"]["slow"]')
  [ "$hatch" -ge 1000 ] || { fail "$name" "$hatch red hatch pixels: the failed link is not marked"; return; }
  [ "$slow" -ge 1000 ] || { fail "$name" "$slow brown pixels: n3's slow pairs are not outlined"; return; }
  [[ " $top " == " n3 "* ]] || { fail "$name" "the node table starts \"$top\", not n3"; return; }
  [[ " $top " == *" n1 "* && " $top " == *" n2 "* ]] ||
    { fail "$name" "n1 and n2 are not among the first nodes: $top"; return; }
  pass "$name"
}

case_large_fabric() {
  local name="$large_nodes synthetic nodes: a page <= 5 MB, canvas heatmaps showing n3 and n1-n2"
  synthetic_inputs "$large_nodes" ||
    { fail "$name" "ibkit_report_bench did not write $large_nodes nodes"; return; }
  local started
  started=$(now)
  if ! shot_height=3600 render_page large 1 "$work/in$large_nodes/sweep/report.json" \
    "$work/in$large_nodes"/checks/*.json --format html; then
    fail "$name" "$problem"; return
  fi
  local bytes hatch slow top
  bytes=$(stat -c %s "$work/large/report.html")
  echo "      large: report.html $bytes bytes; rendered and screenshot in $(elapsed "$started") s"
  [ "$bytes" -le "$max_page_bytes" ] || { fail "$name" "report.html is $bytes bytes"; return; }
  [ "$(grep -c '<figure class="canvasmap">' "$work/large/report.html")" -eq 2 ] ||
    { fail "$name" "no canvas heatmaps"; return; }
  top=$(first_nodes large 4)
  shot_height=2400 render_heatmaps_only large || { fail "$name" "$problem"; return; }
  hatch=$(stat_of '["near"]["hatch"]')
  slow=$(stat_of '["near"]["slow"]')
  # Two heatmaps, each with both cells of n1-n2 under a red square of at least 15x15 pixels.
  [ "$hatch" -ge 300 ] || { fail "$name" "$hatch red pixels: the failed link is not marked"; return; }
  # n3's row and column on both heatmaps, a pixel wide or more each.
  [ "$slow" -ge $((3 * large_nodes)) ] ||
    { fail "$name" "$slow brown pixels: n3's slow row and column are not drawn"; return; }
  [[ " $top " == " n3 "* ]] || { fail "$name" "the node table starts \"$top\", not n3"; return; }
  [[ " $top " == *" n1 "* && " $top " == *" n2 "* ]] ||
    { fail "$name" "n1 and n2 are not among the first nodes: $top"; return; }
  pass "$name"
}

run_cases case_failing_sweep case_passing_sweep case_small_fabric case_large_fabric
cases_summary
