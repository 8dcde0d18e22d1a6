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

stage "browser app (headless Chromium)"
scripts/browser-test.sh
stage "done"
