#!/usr/bin/env bash
# Builds the release browser app and the native command line
# (scripts/browser-build.sh), then runs the end-to-end tests in headless
# Chromium (tests/browser/*.test.mjs).
#   scripts/browser-test.sh --built        runs the tests on the builds there
#   LBSIM_SOAK=1 scripts/browser-test.sh   also runs the ten-minute memory soak
#   node tests/browser/bench.mjs           prints the benchmarks (after a build)
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh test
if [[ ${1:-} != --built ]]; then
  scripts/browser-build.sh
fi
export PATH="$PWD/tests/browser/node_modules/.bin:$PATH"
# Most files wait on the wall clock (a run at real speed, a reader's pause),
# not on the processor: three run at once, each in its own Chromium. The files
# that time what a reader sees (a clip's seconds, slow motion, a chapter's
# point within 3 s, frames while hidden, load times) run one at a time after.
alone=(app arrival exports load pace parity soak views)
# Of the others the slowest (each near two minutes or more) start first, so
# that the last to start is a short one and no Chromium stands idle long
# while another ends a long file (`node --test` would sort them by
# name: run-in-order.mjs keeps this order).
slowest=(shape labels screenshots twins steady teaching controls)
together=() one_by_one=()
for name in "${slowest[@]}"; do together+=("tests/browser/$name.test.mjs"); done
for file in tests/browser/*.test.mjs; do
  name=$(basename "$file" .test.mjs)
  if [[ " ${alone[*]} " == *" $name "* ]]; then
    one_by_one+=("$file")
  elif [[ " ${slowest[*]} " != *" $name "* ]]; then
    together+=("$file")
  fi
done
# Every failure is listed again at the end, where a long log's tail shows it.
LBSIM_FAILURES=$(mktemp)
export LBSIM_FAILURES
trap 'rm -f "$LBSIM_FAILURES"' EXIT
status=0
node scripts/run-in-order.mjs 3 "${together[@]}" || status=$?
node scripts/run-in-order.mjs 1 "${one_by_one[@]}" || status=$?
if [[ -s $LBSIM_FAILURES ]]; then
  echo "== the browser tests that failed"
  cat "$LBSIM_FAILURES"
fi
exit "$status"
