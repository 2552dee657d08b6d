#!/usr/bin/env bash
# Stages a release as Maven Central would receive it (RELEASING.md):
#
#   ./scripts/stage.sh VERSION DIR
#
# builds, in a copy of the source tree (scripts/copy-tree.sh) set to VERSION, the parent pom, the BOM
# and every published module (scripts/published-modules.sh), and deploys them to DIR/repository, a
# Maven repository: each module's jar, -sources and -javadoc jars and pom, the parent's and the BOM's
# poms, each signed (.asc, by maven-gpg-plugin) and with .md5, .sha1, .sha256 and .sha512 checksums.
# Then scripts/check-staging.sh checks every file and signature, and DIR/central-bundle.zip is the
# upload for the Central Portal (the repository without maven-metadata files).
#
# Signing uses gpg's keyring (GNUPGHOME, or ~/.gnupg): the key SECIO_GPG_KEY names (a fingerprint or
# key id), or gpg's default key. A key with a passphrase reads it from MAVEN_GPG_PASSPHRASE.
# Tests do not run here: stage a commit that passed .ci/run. MAVEN_OPTS passes through to Maven, and
# options after DIR go to the build's mvn run (e.g. -o). SECIO_KEEP=1 keeps the build copy.
set -euo pipefail
[ $# -ge 2 ] || { echo "usage: $0 VERSION DIR [mvn options]" >&2; exit 2; }
version=$1
dir=$2
shift 2
if ! [[ "$version" =~ ^[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.]+)?$ ]] || [[ "$version" == *SNAPSHOT* ]]; then
  echo "$version is not a release version (MAJOR.MINOR.PATCH, no -SNAPSHOT)" >&2
  exit 2
fi
case "$dir" in
  /*) ;;
  *) dir="$PWD/$dir" ;;
esac
cd "$(dirname "$0")/.."
repo=$(pwd)
if [ -e "$dir" ] && [ -n "$(ls -A "$dir")" ]; then
  echo "$dir exists and is not empty; stage into a new folder" >&2
  exit 1
fi
command -v gpg >/dev/null || { echo "gpg not found: it signs the artifacts" >&2; exit 1; }
if ! gpg --batch --list-secret-keys --with-colons ${SECIO_GPG_KEY:+"$SECIO_GPG_KEY"} 2>/dev/null | grep -q '^sec:'; then
  echo "no secret key ${SECIO_GPG_KEY:-at all} in gpg's keyring (GNUPGHOME=${GNUPGHOME:-~/.gnupg})" >&2
  exit 1
fi
mkdir -p "$dir"
dir=$(cd "$dir" && pwd -P)

# Maven plugins run by their full names, so the BOM (which has no parent) gets the same versions.
versions_plugin=org.codehaus.mojo:versions-maven-plugin:2.19.1
gpg_plugin=org.apache.maven.plugins:maven-gpg-plugin:3.2.8
deploy_plugin=org.apache.maven.plugins:maven-deploy-plugin:3.1.4

work=$(mktemp -d "${TMPDIR:-/tmp}/secio-stage.XXXXXX")
trap 'status=$?; if [ $status -eq 0 ] && [ -z "${SECIO_KEEP:-}" ]; then rm -rf "$work"; else echo "kept $work" >&2; fi' EXIT
copy="$work/secio-java"
./scripts/copy-tree.sh "$copy"

# The parent pom and the published modules, as Maven project selectors.
projects=.
while read -r module _ published; do
  [ "$published" = yes ] && projects="$projects,$module"
done < <(./scripts/published-modules.sh)
echo "staging secio $version: $projects"

cd "$copy"
# The jars' timestamps stay the committed project.build.outputTimestamp, not this run's time: so a
# staging of one commit is byte for byte the same, whoever runs it and when.
mvn -B -ntp -q "$versions_plugin:set" -DnewVersion="$version" -DprocessAllModules=true \
    -DgenerateBackupPoms=false -DupdateBuildOutputTimestampPolicy=never "$@" </dev/null
if grep -rl --include=pom.xml -e '-SNAPSHOT<' . >&2; then
  echo "a pom above still names a SNAPSHOT version after versions:set" >&2
  exit 1
fi
# maven.test.skip: no test classes and no test jars, which are not published.
mvn -B -ntp -pl "$projects" package "$gpg_plugin:sign" "$deploy_plugin:deploy" \
    -Dmaven.test.skip=true \
    ${SECIO_GPG_KEY:+-Dgpg.keyname="$SECIO_GPG_KEY"} \
    -DaltDeploymentRepository="secio-staging::file://$dir/repository" "$@" </dev/null

# The (empty) test jars that secio-core and secio-streams attach for other modules' tests are not
# for users: no deploy option leaves an attached artifact out, so they leave the staging here.
find "$dir/repository" -type f -name '*-tests.jar*' -delete

# Central takes .md5 and .sha1 (written by the deploy) and also .sha256 and .sha512.
find "$dir/repository" -type f -name '*.sha1' | while read -r sha1; do
  file=${sha1%.sha1}
  sha256sum "$file" | cut -d' ' -f1 | tr -d '\n' >"$file.sha256"
  sha512sum "$file" | cut -d' ' -f1 | tr -d '\n' >"$file.sha512"
done

cd "$repo"
./scripts/check-staging.sh "$dir/repository" "$version"

# The Central Portal's bundle: the repository's layout, without the maven-metadata files that only a
# repository of many versions needs.
(cd "$dir/repository" && find io -type f ! -name 'maven-metadata*' | LC_ALL=C sort >"$work/bundle-files")
(cd "$dir/repository" && jar --create --no-manifest --file "$dir/central-bundle.zip" @"$work/bundle-files")
echo "staged secio $version in $dir/repository; the Central Portal bundle is $dir/central-bundle.zip"
echo "($(wc -l <"$work/bundle-files") files)"
