#!/usr/bin/env bash
# The README's "Add it to your build", followed as a new user would, against a release as Maven
# Central would serve it: a staging repository (scripts/stage.sh VERSION DIR makes DIR/repository)
# that holds the version the README names, and an empty local Maven repository, so that the library,
# its parent pom and its BOM can come from the staging repository alone (third-party libraries and
# Maven's plugins come from Maven Central), with the Maven found on the PATH (3.8 and later) and
# nothing of the script's own in the build. For each block of dependencies of that section
# (`<!-- build: maven... -->`: Netty 4.2, Netty 4.1, then the stream modules), a new project in an
# empty folder:
#   * its pom is an empty project's coordinates with the README's lines pasted in, nothing else: the
#     block every project needs (`<!-- build: maven, every project -->`: Java 17, the compiler
#     plugin), then the block of dependencies;
#   * its sources are the README's Java: each block that is a whole program (it starts with its
#     imports: QuickStart, TentacleQuickStart) as it stands, in package `hello`, where the block's
#     artifacts cover its imports; the example files the other Java blocks come from (and what they
#     use from their package) likewise; and a module-info that requires what the README says to
#     require (`io.secio.netty`, and `io.secio.libp2p` / `io.secio.tentacle` where the block adds them);
#   * `mvn compile` compiles it as a module; each whole program then runs on the class path and on
#     the module path (with the README's --add-modules for epoll) and must print its echo.
#
#   ./scripts/readme-consumer.sh STAGING_REPOSITORY [mvn options]
#
# Options are passed to every mvn run. SECIO_KEEP=1 keeps the projects (and their local repository).
set -euo pipefail
[ $# -ge 1 ] || { echo "usage: $0 STAGING_REPOSITORY [mvn options]" >&2; exit 2; }
staging=$(cd "$1" && pwd -P)
shift
cd "$(dirname "$0")/.."
repo=$(pwd)
readme="$repo/README.md"
java_bin="${JAVA_HOME:+$JAVA_HOME/bin/}java"

# The fenced block after the line "$2" of file $1, without its fences.
block_after() {
  awk -v marker="$2" '
    $0 == marker { found = 1; next }
    found && !inside && /^```/ { inside = 1; next }
    inside && /^```/ { exit }
    inside { print }' "$1"
}

# $1 with the other files of its folder that it names, and theirs, until nothing new is named.
with_what_it_uses() {
  local dir names=() changed=1 name file
  dir=$(dirname "$1")
  names=("$(basename "$1" .java)")
  while [ $changed = 1 ]; do
    changed=0
    for file in "$dir"/*.java; do
      name=$(basename "$file" .java)
      [[ " ${names[*]} " == *" $name "* ]] && continue
      for known in "${names[@]}"; do
        if grep -qw "$name" "$dir/$known.java"; then
          names+=("$name")
          changed=1
          break
        fi
      done
    done
  done
  for name in "${names[@]}"; do echo "$dir/$name.java"; done
}

# The version the README names (its BOM import), which the staging repository must hold.
version=$(block_after "$readme" '<!-- build: maven -->' \
  | sed -n '/<artifactId>secio-bom<\/artifactId>/,/<version>/s:.*<version>\(.*\)</version>.*:\1:p' | head -n 1)
[ -n "$version" ] || { echo "the README's Maven block imports no secio-bom version" >&2; exit 1; }
if [ ! -f "$staging/io/secio/secio-bom/$version/secio-bom-$version.pom" ]; then
  echo "the README names secio $version; $staging does not hold it (./scripts/stage.sh $version DIR)" >&2
  exit 1
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/secio-readme.XXXXXX")
trap 'status=$?; if [ $status -eq 0 ] && [ -z "${SECIO_KEEP:-}" ]; then rm -rf "$work"; else echo "kept $work" >&2; fi' EXIT
# A user's Maven with the staging repository added, as Central will be, and nothing of ours installed.
settings="$work/settings.xml"
cat >"$settings" <<EOF
<settings>
  <profiles>
    <profile>
      <id>secio-staging</id>
      <repositories>
        <repository>
          <id>secio-staging</id>
          <url>file://$staging</url>
          <snapshots><enabled>false</enabled></snapshots>
        </repository>
      </repositories>
    </profile>
  </profiles>
  <activeProfiles><activeProfile>secio-staging</activeProfile></activeProfiles>
</settings>
EOF
mvn_user=(mvn -B -q -ntp -s "$settings" -Dmaven.repo.local="$work/m2")
echo "secio $version from $staging, into the empty local repository $work/m2"

# The stream modules an example file (and what it uses from its package) imports.
needs_modules() {
  sed -n 's/^import io\.secio\.\(libp2p\|tentacle\)\..*/\1/p' $(with_what_it_uses "$1") | sort -u
}

basics=$(block_after "$readme" '<!-- build: maven, every project -->')
[ -n "$basics" ] || { echo "the README no longer shows what every project needs" >&2; exit 1; }
for marker in '<!-- build: maven -->' '<!-- build: maven, netty 4.1 -->' '<!-- build: maven, streams -->'; do
  project="$work/$(echo "$marker" | tr -c 'a-z0-9\n' '-' | sed 's/-\+/-/g; s/^-//; s/-$//')"
  mkdir -p "$project/src/main/java/hello"
  echo
  echo "--- $marker: a new project in $project"
  {
    cat <<'EOF'
<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0"
         xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
         xsi:schemaLocation="http://maven.apache.org/POM/4.0.0 https://maven.apache.org/xsd/maven-4.0.0.xsd">
  <modelVersion>4.0.0</modelVersion>
  <groupId>hello</groupId>
  <artifactId>hello</artifactId>
  <version>1</version>
EOF
    echo "$basics"
    block_after "$readme" "$marker"
    echo '</project>'
  } >"$project/pom.xml"

  # The modules the README says to require: io.secio.netty always, a stream module where the block
  # adds its artifact. An example that needs a stream module the block leaves out is not copied.
  modules=(netty)
  for module in libp2p tentacle; do
    if block_after "$readme" "$marker" | grep -q "<artifactId>secio-$module</artifactId>"; then
      modules+=("$module")
    fi
  done
  {
    echo 'module hello {'
    for module in "${modules[@]}"; do
      requires=$(grep -o "requires io\.secio\.$module;" "$readme" | head -n 1)
      [ -n "$requires" ] || { echo "the README no longer says to require io.secio.$module" >&2; exit 1; }
      echo "  $requires"
    done
    echo '}'
  } >"$project/src/main/java/module-info.java"
  programs=()
  for source in $(sed -n 's:^<!-- from \(examples/src/main/java/.*\.java\) -->$:\1:p' "$readme" | sort -u); do
    missing=""
    for module in $(needs_modules "$source"); do
      [[ " ${modules[*]} " == *" $module "* ]] || missing="$missing secio-$module"
    done
    if [ -n "$missing" ]; then
      echo "not in this block's build: $source (needs$missing)"
      continue
    fi
    shown=$(block_after "$readme" "<!-- from $source -->")
    if [ "$(echo "$shown" | head -n 1 | cut -c1-7)" = "import " ]; then
      # A whole program: the README's block as it stands, in package hello.
      name=$(basename "$source" .java)
      { echo 'package hello;'; echo; echo "$shown"; } >"$project/src/main/java/hello/$name.java"
      programs+=("$name")
      continue
    fi
    for file in $(with_what_it_uses "$source"); do
      mkdir -p "$project/$(dirname "${file#examples/}")"
      cp "$file" "$project/${file#examples/}"
    done
  done
  [[ " ${programs[*]} " == *" QuickStart "* ]] || { echo "the README no longer shows QuickStart whole" >&2; exit 1; }
  echo "sources: $(cd "$project/src/main/java" && find . -name '*.java' | sort | tr '\n' ' ')"

  (cd "$project" && "${mvn_user[@]}" "$@" compile dependency:build-classpath -Dmdep.outputFile=cp.txt </dev/null)
  classpath="$project/target/classes:$(cat "$project/cp.txt")"
  echo "netty on it: $(tr ':' '\n' <"$project/cp.txt" | sed -n 's:.*/netty-transport-\([0-9][^/]*\)\.jar$:\1:p')"

  epoll_modules=$(grep -o -- '--add-modules io\.netty\.transport\.classes\.epoll[^ `]*' "$readme" | head -n 1 || true)
  for program in "${programs[@]}"; do
    for path in class module; do
      if [ $path = class ]; then
        run=("$java_bin" -cp "$classpath" "hello.$program")
      else
        run=("$java_bin" -p "$classpath")
        if [ -n "$epoll_modules" ] && grep -q 'netty-transport-native-epoll' "$project/cp.txt"; then
          run+=($epoll_modules)
        fi
        run+=(-m "hello/hello.$program")
      fi
      output=$("${run[@]}" </dev/null 2>&1) || { echo "$output" >&2; echo "$program failed on the $path path" >&2; exit 1; }
      echoed=$(echo "$output" | grep '^hello over ' || true)
      if [ -z "$echoed" ]; then
        echo "$output" >&2
        echo "$program printed no echo on the $path path" >&2
        exit 1
      fi
      echo "$program, $path path: $echoed"
      echo "$output" | grep -v '^hello over ' | sed 's/^/  | /' || true
    done
  done
done
echo
echo "the README's build section works as written"
