#!/usr/bin/env bash
# Runs the rooms load benchmark (bench/README.md). 10,000 players need ~10k descriptors in the generator and as
# many in the server: raise the soft limit to the hard one (20,000 here) for this shell and its children.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/.tools/bun-1.4.5/node_modules/.bin:$PATH"
ulimit -n "$(ulimit -Hn)"
if [ "$(ulimit -n)" != "unlimited" ] && [ "$(ulimit -n)" -lt 20000 ]; then
  echo "warning: only $(ulimit -n) file descriptors; 10,000 players need about 20,000" >&2
fi
exec bun bench/rooms-load.ts "$@"
