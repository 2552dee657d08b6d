#!/usr/bin/env bash
# Copies the repository's source tree into DEST (an empty or new folder) and says what it copied: in a
# git checkout the committed tree (HEAD; uncommitted changes are left out, with a note), elsewhere the
# folder as it is, without .git, build output (target/) or npm packages. .ci/run and scripts/stage.sh
# build only such copies.
set -euo pipefail
[ $# = 1 ] || { echo "usage: $0 DEST" >&2; exit 2; }
dest=$1
cd "$(dirname "$0")/.."
mkdir -p "$dest"
if [ -n "$(ls -A "$dest")" ]; then
  echo "$dest is not empty" >&2
  exit 1
fi
# Only this folder's own checkout counts, not one that happens to hold it (a copy under a clone).
if [ "$(git rev-parse --show-toplevel 2>/dev/null)" = "$(pwd -P)" ] && git rev-parse --verify --quiet HEAD >/dev/null; then
  git archive --format=tar HEAD | tar -x -C "$dest"
  echo "copied commit $(git rev-parse --short HEAD) to $dest"
  if [ -n "$(git status --porcelain --untracked-files=no)" ]; then
    echo "note: uncommitted changes in $(pwd) are not in the copy"
  fi
else
  tar -c --exclude=./.git --exclude=target --exclude=node_modules . | tar -x -C "$dest"
  echo "copied $(pwd) (not a git checkout) to $dest"
fi
