#!/usr/bin/env bash
# Does this tree keep the API of the last release? (RELEASING.md)
#
#   ./scripts/api-check.sh [BASELINE_REPOSITORY|central [MODULE...]]
#
# Builds the published modules (scripts/published-modules.sh; or the MODULE folders named, with what
# they need) without tests and compares each jar with the same module of the release that pom.xml's
# secio.api.baseline names, by japicmp (-Papi-compat). The API is what the module descriptors export
# to everyone (`exports P;`, not `exports P to ...`): a change there that breaks a user's source or
# binaries fails, a change in any other package does not count. The baseline comes from Maven Central,
# or from BASELINE_REPOSITORY, a folder such as a staging (scripts/stage.sh makes DIR/repository).
# Each module's report: MODULE/target/japicmp/api-compat.diff (and .md, .xml).
set -euo pipefail
repository=""
if [ $# -ge 1 ] && [ "$1" != central ]; then
  repository=$(cd "$1" && pwd -P)
fi
[ $# -ge 1 ] && shift
cd "$(dirname "$0")/.."
baseline=$(sed -n 's:.*<secio.api.baseline>\(.*\)</secio.api.baseline>.*:\1:p' pom.xml)

# Published modules with a jar, and the packages their descriptors export to everyone.
modules=()
packages=()
while read -r module _ published; do
  [ "$published" = yes ] && [ -f "$module/src/main/java/module-info.java" ] || continue
  modules+=("$module")
  packages+=($(sed -n 's/^ *exports \([a-z0-9_.]*\) *; *$/\1/p' "$module/src/main/java/module-info.java"))
done < <(./scripts/published-modules.sh)
[ $# -gt 0 ] && modules=("$@")
[ ${#packages[@]} -gt 0 ] || { echo "no module descriptor exports a package to everyone" >&2; exit 1; }
selection=$(IFS=,; echo "${modules[*]}")
included=$(IFS=,; echo "${packages[*]}")
echo "the API of $selection (packages $included) against secio $baseline from ${repository:-Maven Central}"

for module in "${modules[@]}"; do
  rm -f "$module"/target/japicmp/api-compat.*
done
if [ -n "$repository" ]; then
  # A release version, once in the local Maven repository, is never fetched again: a copy cached from
  # an earlier staging (another tree) would stand in for this one. The staging named is the baseline.
  local_repository=$(mvn -q -B help:evaluate -Dexpression=settings.localRepository -DforceStdout </dev/null \
      | sed 's/\x1b\[[0-9;]*m//g')
  if [ -d "$local_repository/io/secio" ]; then
    for cached in "$local_repository"/io/secio/*/"$baseline"; do
      if [ -d "$cached" ]; then
        rm -rf "$cached"
        echo "dropped the cached $cached"
      fi
    done
  fi
fi
status=0
mvn -B -ntp -Papi-compat -pl "$selection" -am verify \
    -Dmaven.test.skip=true -Dmaven.javadoc.skip=true -Dmaven.source.skip=true \
    -Dsecio.api.packages="$included" \
    ${repository:+-Dsecio.api.baseline.repository="file://$repository"} </dev/null || status=$?
# Each module's changes, compatible or not (a class line starts with ***, --- or +++).
for module in "${modules[@]}"; do
  report="$module/target/japicmp/api-compat.diff"
  if [ ! -f "$report" ]; then
    echo "$module: not compared (no $report)"
  elif grep -q '^\(\*\*\*\|---\|+++\)' "$report"; then
    echo "$module: the API changed ($report):"
    grep -v '^Comparing ' "$report" | sed 's/^/  /'
  else
    echo "$module: the API is unchanged"
  fi
done
if [ $status != 0 ]; then
  echo "the API of secio $baseline is not kept (above); a release that breaks it on purpose: RELEASING.md" >&2
fi
exit $status
