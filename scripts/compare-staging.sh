#!/usr/bin/env bash
# Are two stagings of one commit (scripts/stage.sh, in two folders) the same build, byte for byte?
#
#   ./scripts/compare-staging.sh REPOSITORY_A REPOSITORY_B
#
# Compares the SHA-256 of every published artifact (jars and poms) in the two repositories; not the
# .asc signatures, which carry their own creation time, nor maven-metadata files, which carry the
# deploy's. For a jar that differs it lists the entries whose content differs.
set -euo pipefail
[ $# = 2 ] || { echo "usage: $0 REPOSITORY_A REPOSITORY_B" >&2; exit 2; }
a=$(cd "$1" && pwd -P)
b=$(cd "$2" && pwd -P)

artifacts() {
  (cd "$1" && find . -type f \( -name '*.jar' -o -name '*.pom' \) | LC_ALL=C sort)
}
if ! diff <(artifacts "$a") <(artifacts "$b") >&2; then
  echo "the two stagings hold different artifacts (above: < only in $a, > only in $b)" >&2
  exit 1
fi

different=0
count=0
while read -r file; do
  count=$((count + 1))
  sum_a=$(sha256sum "$a/$file" | cut -d' ' -f1)
  sum_b=$(sha256sum "$b/$file" | cut -d' ' -f1)
  [ "$sum_a" = "$sum_b" ] && continue
  different=$((different + 1))
  echo "differs: ${file#./}" >&2
  if [[ "$file" == *.jar ]]; then
    # unzip -v lists each entry's CRC: the entries named here differ in content or in metadata.
    diff <(unzip -v "$a/$file" | awk 'NF == 8 { print $7, $8, $5, $6 }') \
         <(unzip -v "$b/$file" | awk 'NF == 8 { print $7, $8, $5, $6 }') | sed 's/^/  /' >&2 || true
  fi
done < <(artifacts "$a")

if [ $different -gt 0 ]; then
  echo "$different of $count artifacts differ between $a and $b" >&2
  exit 1
fi
echo "$count artifacts byte-identical (SHA-256) in $a and $b"
