#!/usr/bin/env bash
# Builds the browser app and serves it at http://127.0.0.1:8080 (release
# build; Trunk rebuilds on changes).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh build
cargo fetch # Trunk serves offline; this fetches the wasm32 dependencies first
# wasm-opt from the npm package binaryen (Debian's corrupts today's modules).
export PATH="$PWD/tests/browser/node_modules/.bin:$PATH"
exec trunk serve --release --offline --address 127.0.0.1 --port 8080
