#!/usr/bin/env bash
# Checks a staged release (scripts/stage.sh) as Maven Central's validation would, and a little more:
#
#   ./scripts/check-staging.sh REPOSITORY VERSION
#
#   * exactly the published artifacts are there: secio-parent's and the BOM's poms; for every other
#     published module (scripts/published-modules.sh) its pom, jar (with a module descriptor),
#     -sources jar and -javadoc jar; nothing else under io/secio (no test jars, no unpublished module);
#   * every one of those files has a .asc signature that `gpg --verify` accepts (made by SECIO_GPG_KEY
#     when that is set) and .md5, .sha1, .sha256 and .sha512 checksums that match it;
#   * every pom has a name and a description; the parent's and the BOM's have the url, licence,
#     developers and scm Central requires, the same in both; every module's names secio-parent VERSION.
set -euo pipefail
[ $# = 2 ] || { echo "usage: $0 REPOSITORY VERSION" >&2; exit 2; }
repository=$(cd "$1" && pwd -P)
version=$2
cd "$(dirname "$0")/.."
failures=0
fail() {
  echo "FAIL: $*" >&2
  failures=$((failures + 1))
}

# artifactId and packaging of everything that must be staged.
expected=("secio-parent pom")
while read -r module artifact published; do
  [ "$published" = yes ] || continue
  if grep -q '<packaging>pom</packaging>' "$module/pom.xml"; then
    expected+=("$artifact pom")
  else
    expected+=("$artifact jar")
  fi
done < <(./scripts/published-modules.sh)

for present in "$repository"/io/secio/*/; do
  name=$(basename "$present")
  [[ " ${expected[*]} " == *" $name "* ]] || fail "io/secio/$name is staged but not a published module"
done

signed=0
for entry in "${expected[@]}"; do
  read -r artifact packaging <<<"$entry"
  folder="$repository/io/secio/$artifact/$version"
  files=("$artifact-$version.pom")
  if [ "$packaging" = jar ]; then
    files+=("$artifact-$version.jar" "$artifact-$version-sources.jar" "$artifact-$version-javadoc.jar")
  fi
  if [ ! -d "$folder" ]; then
    fail "$artifact $version is not staged ($folder)"
    continue
  fi
  # Every file in the folder is one of the artifacts, or its signature, or a checksum of either.
  for file in "$folder"/*; do
    name=$(basename "$file")
    base=${name%.md5}; base=${base%.sha1}; base=${base%.sha256}; base=${base%.sha512}; base=${base%.asc}
    [[ " ${files[*]} " == *" $base "* ]] || fail "unexpected file $artifact/$version/$name"
  done
  for name in "${files[@]}"; do
    file="$folder/$name"
    [ -f "$file" ] || { fail "missing $artifact/$version/$name"; continue; }
    [ -f "$file.asc" ] || { fail "missing $artifact/$version/$name.asc"; continue; }
    for algorithm in md5 sha1 sha256 sha512; do
      if [ ! -f "$file.$algorithm" ]; then
        fail "missing $artifact/$version/$name.$algorithm"
      elif [ "$("${algorithm}sum" "$file" | cut -d' ' -f1)" != "$(tr -d ' \n' <"$file.$algorithm")" ]; then
        fail "$artifact/$version/$name.$algorithm does not match the file"
      fi
    done
    status=$(gpg --batch --status-fd 1 --verify "$file.asc" "$file" 2>/dev/null || true)
    if ! grep -q '^\[GNUPG:\] VALIDSIG ' <<<"$status"; then
      fail "gpg --verify rejects $artifact/$version/$name.asc"
    elif [ -n "${SECIO_GPG_KEY:-}" ] && ! grep '^\[GNUPG:\] VALIDSIG ' <<<"$status" | grep -qi "$SECIO_GPG_KEY"; then
      fail "$artifact/$version/$name.asc is valid but not made by $SECIO_GPG_KEY"
    else
      signed=$((signed + 1))
    fi
  done

  pom="$folder/$artifact-$version.pom"
  [ -f "$pom" ] || continue
  for element in name description; do
    grep -q "^  <$element>.\+" "$pom" || fail "$artifact's pom has no <$element>"
  done
  if [ "$artifact" = secio-parent ] || [ "$artifact" = secio-bom ]; then
    for element in '<url>https://' '<licenses>' '<developers>' '<scm' '<connection>scm:' '<developerConnection>scm:'; do
      grep -q "$element" "$pom" || fail "$artifact's pom has no $element"
    done
  else
    parent=$(sed -n '/<parent>/,/<\/parent>/p' "$pom" | tr -d ' \n')
    [ "$parent" = "<parent><groupId>io.secio</groupId><artifactId>secio-parent</artifactId><version>$version</version></parent>" ] \
      || fail "$artifact's pom does not name secio-parent $version as its parent"
  fi
  if [ "$packaging" = jar ] && [ -f "$folder/$artifact-$version.jar" ]; then
    jar tf "$folder/$artifact-$version.jar" | grep -qx 'module-info\.class' \
      || fail "$artifact-$version.jar has no module-info.class"
    jar tf "$folder/$artifact-$version-javadoc.jar" 2>/dev/null | grep -qx 'index\.html' \
      || fail "$artifact-$version-javadoc.jar has no index.html"
  fi
done

# The parent's and the BOM's Central metadata must not drift apart.
metadata() {
  sed -n '/^  <url>/p; /^  <licenses>/,/^  <\/licenses>/p; /^  <developers>/,/^  <\/developers>/p; /^    <connection>/,/^    <tag>/p' "$1"
}
parent_pom="$repository/io/secio/secio-parent/$version/secio-parent-$version.pom"
bom_pom="$repository/io/secio/secio-bom/$version/secio-bom-$version.pom"
if [ -f "$parent_pom" ] && [ -f "$bom_pom" ] && ! diff <(metadata "$parent_pom") <(metadata "$bom_pom") >&2; then
  fail "the BOM's url, licences, developers or scm differ from the parent's (above)"
fi

if [ $failures -gt 0 ]; then
  echo "$repository: $failures problems" >&2
  exit 1
fi
echo "$repository: ${#expected[@]} artifacts of secio $version, $signed files, every one signed (gpg --verify) and checksummed"
