#!/usr/bin/env bash
# The one test command (README): installs the js interop peers' (secio, yamux) and the molecule cross-checks' npm packages (handshake, protocol-select), then builds every
# module and runs every test (unit, Wycheproof, in-memory and loopback, js interop, fuzz corpus).
set -euo pipefail
cd "$(dirname "$0")/.."

if command -v npm >/dev/null 2>&1; then
  npm ci --prefix secio-netty/src/test/js --no-audit --no-fund --ignore-scripts --loglevel=error
  npm ci --prefix secio-core/src/test/js --no-audit --no-fund --ignore-scripts --loglevel=error
  npm ci --prefix secio-streams/src/test/js --no-audit --no-fund --ignore-scripts --loglevel=error
  npm ci --prefix secio-tentacle/src/test/js --no-audit --no-fund --ignore-scripts --loglevel=error
else
  echo "npm not found: the js interop and molecule cross-check tests will fail in CI (and are skipped locally)" >&2
fi

exec mvn -B -ntp install "$@"
