#!/usr/bin/env bash
# The one test command (README): installs the js interop peer's npm packages, then builds every
# module and runs every test (unit, Wycheproof, in-memory and loopback, js interop, fuzz corpus).
set -euo pipefail
cd "$(dirname "$0")/.."

if command -v npm >/dev/null 2>&1; then
  npm ci --prefix secio-netty/src/test/js --no-audit --no-fund --ignore-scripts --loglevel=error
else
  echo "npm not found: the js-libp2p-secio interop test will fail in CI (and is skipped locally)" >&2
fi

exec mvn -B -ntp install "$@"
