#!/usr/bin/env bash
# Builds what the browser tests open: dist/ (the explainer, embeds and lab as
# published), dist-test/ (the same with the test hooks) and the release
# command line. scripts/browser-test.sh runs it first; scripts/test.sh runs it
# beside the native tests.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo fetch # Trunk builds offline; this fetches the wasm32 dependencies first
export PATH="$PWD/tests/browser/node_modules/.bin:$PATH"
# The native command line builds beside the modules: each build ends in a
# link-time optimisation that runs on one core, and CI's machine has two.
native_log=$(mktemp)
cargo build --release >"$native_log" 2>&1 &
native=$!
trunk build --release --offline
# The tests open a build of their own, with the hooks they read (window.lbsim,
# summary_json); the build above, as published, has none.
trunk build --release --offline --features test-hooks --dist dist-test
if ! wait "$native"; then
  cat "$native_log" >&2
  exit 1
fi
rm -f "$native_log"
