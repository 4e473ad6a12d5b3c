#!/usr/bin/env bash
# Host tier, the report page: `ibkit report` renders report.html from the committed example
# inputs (tests/fixtures/reports/), headless Chromium takes a screenshot of it, and a stdlib PNG
# reader checks that the page is not blank: many colours, the failed pair's red hatch on the
# failing sweep and none on the passing one. Each case prints its name and PASS/FAIL.
# Needs chromium (scripts/install-deps.sh host) and python3; no root, no network.
#   BUILD_DIR=build   where agent/ibkit was built
#   SHOTS_DIR=DIR     keep the pages and screenshots there, to look at them
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
# shellcheck source-path=SCRIPTDIR source=lib.sh
source tests/host/lib.sh
fixtures=$PWD/tests/fixtures/reports
colours=(python3 "$PWD/tests/host/png_colours.py")
hatch_red=d50000    # the failed-pair hatch in sweep_html.cpp; the FAIL banner is c62828
pass_green=1a7f37   # the PASS banner

host_require_agent "report page"
chromium=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$chromium" ] || ! command -v python3 >/dev/null; then
  echo "report page: needs chromium and python3 (scripts/install-deps.sh host)"
  exit 1
fi

work=$(mktemp -d /tmp/ibkit-report.XXXXXX)
trap 'rm -rf "$work"' EXIT
trap 'exit 130' INT TERM

# Screenshots $1/report.html into $1/shot.png; 0 when Chromium wrote it.
screenshot() {
  local sandbox=()
  # Chromium refuses to run as root with its sandbox.
  [ "$(id -u)" -eq 0 ] && sandbox=(--no-sandbox)
  timeout 60 "$chromium" --headless "${sandbox[@]}" --disable-gpu --no-first-run \
    --user-data-dir="$work/profile" --hide-scrollbars --window-size=1200,1400 \
    --screenshot="$1/shot.png" "file://$1/report.html" >"$1/chromium.log" 2>&1
  [ -s "$1/shot.png" ] || { indent 6 <"$1/chromium.log" | tail -5; return 1; }
}

# Renders the inputs ($3...) into $work/$1 and screenshots the page. Sets $stats to the PNG's
# colour counts, or $problem and returns 1 (also when `ibkit report` does not exit $2).
render_page() {
  local page=$1 want=$2 dir="$work/$1"
  shift 2
  problem=""
  "$ibkit" report "$@" --output "$dir" >"$work/$page.out" 2>&1
  local status=$?
  if [ $status -ne "$want" ]; then
    problem="ibkit report exit $status, wanted $want: $(cat "$work/$page.out")"; return 1
  fi
  if grep -Eiq '<(link|script|img|iframe)[ >]|url\(' "$dir/report.html"; then
    problem="report.html refers to an external asset"; return 1
  fi
  screenshot "$dir" || { problem="chromium wrote no screenshot"; return 1; }
  stats=$("${colours[@]}" "$dir/shot.png" hatch=$hatch_red green=$pass_green) ||
    { problem="cannot read $dir/shot.png"; return 1; }
  echo "      $page: $stats"
  if [ -n "${SHOTS_DIR:-}" ]; then
    mkdir -p "$SHOTS_DIR" && cp "$dir/report.html" "$SHOTS_DIR/$page.html" &&
      cp "$dir/shot.png" "$SHOTS_DIR/$page.png"
  fi
}
stat_of() { echo "$stats" | json_field "$1"; }

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

run_cases case_failing_sweep case_passing_sweep
cases_summary
