#!/usr/bin/env bash
# Which of the parent pom's modules are published, read from the poms alone: one line per module,
# "FOLDER ARTIFACT_ID yes|no|test". A module that is not for users (examples, benchmarks, test beds)
# sets both maven.install.skip and maven.deploy.skip to true ("no"). The tests' shared kit
# (test-support) is "test": maven.deploy.skip true and maven.install.skip explicitly false, because a
# build of one module (mvn -pl MODULE) resolves it from the local repository; it is never deployed,
# and scripts/stage.sh builds it beside the published modules whose tests name it. Any other mix is
# an error.
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
  install_skip=$(sed -n 's:.*<maven.install.skip>\(.*\)</maven.install.skip>.*:\1:p' "$module/pom.xml" | head -n 1)
  deploy_skip=$(sed -n 's:.*<maven.deploy.skip>\(.*\)</maven.deploy.skip>.*:\1:p' "$module/pom.xml" | head -n 1)
  case "$install_skip/$deploy_skip" in
    /) echo "$module $artifact yes" ;;
    true/true) echo "$module $artifact no" ;;
    false/true) echo "$module $artifact test" ;;
    *)
      echo "$module ($artifact) sets maven.install.skip '$install_skip' and maven.deploy.skip '$deploy_skip':" \
          "neither (published), both true (not for users), or false and true (the tests' kit)" >&2
      exit 1
      ;;
  esac
done
