#!/usr/bin/env bash
# Installs the real llama.cpp engine the test suite runs (tests/engine): node-llama-cpp with its
# prebuilt linux-x64 binary from the npm registry, pinned, OUTSIDE the project's lockfile, so
# `npm ci` never depends on it. Where it cannot be had (another platform, no registry), the
# engine test skips with a clear message; this script then exits 0 after saying why.
set -uo pipefail
version=3.22.1
dir="${AUTOHEDGE_TEST_ENGINE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/autohedge-test-engine}"
if [ "$(uname -s)-$(uname -m)" != "Linux-x86_64" ]; then
  echo "test engine: linux-x64 only (this is $(uname -s)-$(uname -m)); the engine test will skip"
  exit 0
fi
if [ -f "$dir/node_modules/node-llama-cpp/package.json" ] &&
  grep -q "\"version\": \"$version\"" "$dir/node_modules/node-llama-cpp/package.json" &&
  [ -f "$dir/node_modules/@node-llama-cpp/linux-x64/package.json" ]; then
  echo "test engine: node-llama-cpp $version already in $dir"
  exit 0
fi
mkdir -p "$dir"
[ -f "$dir/package.json" ] || echo '{"name":"autohedge-test-engine","private":true}' >"$dir/package.json"
# --omit=optional: not the CUDA/Vulkan/other-platform binaries; --ignore-scripts: its postinstall
# would try to download or build llama.cpp, which the prebuilt binary makes unnecessary.
if npm install --prefix "$dir" --no-save --no-package-lock --no-audit --no-fund --ignore-scripts --omit=optional \
  "node-llama-cpp@$version" "@node-llama-cpp/linux-x64@$version"; then
  echo "test engine: node-llama-cpp $version installed in $dir"
else
  echo "test engine: could not install node-llama-cpp $version; the engine test will skip"
fi
exit 0
