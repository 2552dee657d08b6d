#!/usr/bin/env bash
# The main demo (README): builds the CLI jar without running the tests, then runs `secio demo`.
set -euo pipefail
cd "$(dirname "$0")/.."
# Maven 3.8 with jansi 2 (as Debian ships it) writes a colour reset, ESC[0m, to stdout and stderr as it
# exits, even with -B -q and both redirected; jansi.noreset stops it, so the demo prints clean text.
MAVEN_OPTS="${MAVEN_OPTS:-} -Djansi.noreset=true" mvn -B -q -ntp -DskipTests package
exec java -jar examples/target/secio.jar demo "$@"
