#!/usr/bin/env bash
# The project's test command: installs what is missing, then runs every check
# and every test (formatting, lints for native and wasm32, the engine's tests,
# and the end-to-end tests in headless Chromium).
set -euo pipefail
cd "$(dirname "$0")/.."
# Each stage says when it starts, in seconds since the run began, so a slow
# run shows where its time went.
stage() { printf '== %s (at %d s)\n' "$1" "$SECONDS"; }
scripts/setup.sh test

# The browser's builds (scripts/browser-build.sh: two Trunk builds and the
# release command line) run in the background beside the lints and the
# native tests, on what those leave of the two cores (the tests run a binary
# at a time, each ending on its slowest test; each build ends in a one-core
# link-time optimisation). Their log is shown if they fail.
stage "the browser's builds start in the background"
build_log=$(mktemp)
setsid scripts/browser-build.sh >"$build_log" 2>&1 &
builds=$!
trap 'kill -- -"$builds" 2>/dev/null || true; rm -f "$build_log"' EXIT

stage "formatting and lints"
cargo fmt --all -- --check
cargo clippy --all-targets -- -D warnings
cargo clippy -p lbsim-web --target wasm32-unknown-unknown -- -D warnings
cargo clippy -p lbsim-web --target wasm32-unknown-unknown --features test-hooks -- -D warnings
# The lab's module: the same sources with the feature `lab` (src/web-lab).
cargo clippy -p lbsim-lab --target wasm32-unknown-unknown -- -D warnings
cargo clippy -p lbsim-lab --target wasm32-unknown-unknown --features test-hooks -- -D warnings
cargo clippy --bin lbsim-trace --target wasm32-unknown-unknown --no-default-features --features trace-worker -- -D warnings

stage "the engine alone builds for wasm32 with no web dependency"
cargo clippy -p lbsim --lib --target wasm32-unknown-unknown --no-default-features -- -D warnings
engine_tree=$(cargo tree -p lbsim --target wasm32-unknown-unknown --no-default-features -e normal --prefix none)
if grep -E '^(wasm-bindgen|web-sys|js-sys|plotters|getrandom) ' <<<"$engine_tree"; then
  echo "the engine depends on a web crate" >&2
  exit 1
fi

stage "engine (native)"
cargo test

stage "the browser's builds (waiting for them)"
if ! wait "$builds"; then
  cat "$build_log" >&2
  echo "the browser's builds failed (their log above)" >&2
  exit 1
fi
trap - EXIT
rm -f "$build_log"

stage "browser app (headless Chromium)"
scripts/browser-test.sh --built
stage "done"
