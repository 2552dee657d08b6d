#!/usr/bin/env bash
# The one test command (README): builds every module and runs every test.
set -euo pipefail
cd "$(dirname "$0")/.."
mvn -B -ntp install
