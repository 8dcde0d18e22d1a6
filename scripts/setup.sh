#!/usr/bin/env bash
# Installs what lbsim needs, skipping whatever is already present.
#   scripts/setup.sh build   - wasm target, Trunk, wasm-bindgen-cli, wasm-opt
#   scripts/setup.sh test    - the above plus Chromium and the browser-test packages
set -euo pipefail
cd "$(dirname "$0")/.."

TRUNK_VERSION=0.21.14
WASM_BINDGEN_VERSION=0.2.130

say() { printf '[setup] %s\n' "$*"; }

has_version() { # command, expected version substring
  command -v "$1" >/dev/null 2>&1 && "$1" --version 2>/dev/null | grep -q "$2"
}

install_build_tools() {
  if ! rustup target list --installed | grep -q '^wasm32-unknown-unknown$'; then
    say "adding the wasm32-unknown-unknown target"
    rustup target add wasm32-unknown-unknown
  fi
  if ! has_version trunk "$TRUNK_VERSION"; then
    say "installing trunk $TRUNK_VERSION (compiles for about ten minutes)"
    cargo install --locked trunk --version "$TRUNK_VERSION"
  fi
  if ! has_version wasm-bindgen "$WASM_BINDGEN_VERSION"; then
    say "installing wasm-bindgen-cli $WASM_BINDGEN_VERSION"
    cargo install wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION"
  fi
  install_node_packages
}

install_node_packages() {
  # binaryen's npm build gives a wasm-opt that handles today's modules
  # (Debian's older binaryen corrupts them); playwright-core drives Chromium;
  # axe-core checks the pages' accessibility in it.
  local modules=tests/browser/node_modules
  if [ ! -x $modules/.bin/wasm-opt ] || [ ! -d $modules/playwright-core ] || [ ! -d $modules/axe-core ]; then
    say "installing node packages in tests/browser"
    (cd tests/browser && npm ci --no-audit --no-fund)
  fi
}

install_browser() {
  if [ ! -x /usr/bin/chromium ]; then
    say "installing Debian's chromium"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-dejavu-core >/dev/null
  fi
}

case "${1:-}" in
  build) install_build_tools ;;
  test) install_build_tools; install_browser ;;
  *) echo "usage: scripts/setup.sh build|test" >&2; exit 2 ;;
esac
