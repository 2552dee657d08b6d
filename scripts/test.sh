#!/usr/bin/env bash
# The one test command (README): installs the js interop peers' (secio, yamux, CKB's light client) and the molecule cross-checks' npm packages (handshake, protocol-select), then builds every
# module and runs every test (unit, Wycheproof, in-memory and loopback, js interop, fuzz corpus).
# The light client runs in /usr/bin/chromium, which the README's install step provides.
set -euo pipefail
cd "$(dirname "$0")/.."

if command -v npm >/dev/null 2>&1; then
  npm ci --prefix secio-netty/src/test/js --no-audit --no-fund --ignore-scripts --loglevel=error
  npm ci --prefix secio-core/src/test/js --no-audit --no-fund --ignore-scripts --loglevel=error
  npm ci --prefix secio-streams/src/test/js --no-audit --no-fund --ignore-scripts --loglevel=error
  npm ci --prefix secio-tentacle/src/test/js --no-audit --no-fund --ignore-scripts --loglevel=error
  # CKB's light client and puppeteer-core, which drives the Chromium the README installs (no download).
  PUPPETEER_SKIP_DOWNLOAD=1 npm ci --prefix secio-ckb/src/test/js --no-audit --no-fund --ignore-scripts --loglevel=error
else
  echo "npm not found: the js interop and molecule cross-check tests will fail in CI (and are skipped locally)" >&2
fi

exec mvn -B -ntp install "$@"
