#!/usr/bin/env bash
# Which of the parent pom's modules are published, read from the poms alone: one line per module,
# "FOLDER ARTIFACT_ID yes|no". A module that is not for users (examples, benchmarks, test beds) sets
# both maven.install.skip and maven.deploy.skip to true; one that sets only one of them is an error.
# The parent pom itself (secio-parent, folder ".") is published too but is not listed: it is no module.
# .ci/run checks the BOM against this list; scripts/stage.sh stages what it says.
set -euo pipefail
cd "$(dirname "$0")/.."

for module in $(sed -n 's:.*<module>\(.*\)</module>.*:\1:p' pom.xml); do
  artifact=$(sed -n '/<\/parent>/,$s:^  <artifactId>\(.*\)</artifactId>.*:\1:p' "$module/pom.xml" | head -n 1)
  if [ -z "$artifact" ]; then
    # No parent (the BOM): the first artifactId at the project's own indentation.
    artifact=$(sed -n 's:^  <artifactId>\(.*\)</artifactId>.*:\1:p' "$module/pom.xml" | head -n 1)
  fi
  skips=$(grep -c '<maven.\(install\|deploy\).skip>true</maven.\(install\|deploy\).skip>' "$module/pom.xml" || true)
  case "$skips" in
    0) echo "$module $artifact yes" ;;
    2) echo "$module $artifact no" ;;
    *)
      echo "$module ($artifact) skips only one of install and deploy: both or neither" >&2
      exit 1
      ;;
  esac
done
