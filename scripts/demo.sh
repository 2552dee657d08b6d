#!/usr/bin/env bash
# The main demo (README): builds the CLI jar without running the tests, then runs `secio demo`.
set -euo pipefail
cd "$(dirname "$0")/.."
mvn -B -q -ntp -DskipTests package
exec java -jar examples/target/secio.jar demo "$@"
