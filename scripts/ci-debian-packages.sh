#!/usr/bin/env bash
# Installs the Debian packages listed in .ci/debian-packages that are not installed yet:
# `apt-get update` once, then `apt-get install -y` for the missing ones. Without apt-get
# or root it says so and returns 0: the tests that need a package then skip, saying why.
set -uo pipefail
list="$(dirname "${BASH_SOURCE[0]}")/../.ci/debian-packages"
missing=()
while IFS= read -r line; do
  package="${line%%#*}"
  package="$(echo "$package" | tr -d '[:space:]')"
  [ -n "$package" ] || continue
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed' || missing+=("$package")
done < "$list"
[ ${#missing[@]} -gt 0 ] || { echo "debian packages: all present"; exit 0; }
if ! command -v apt-get >/dev/null 2>&1 || [ "$(id -u)" != 0 ]; then
  echo "debian packages: cannot install ${missing[*]} (no apt-get or not root); the tests that need them will skip"
  exit 0
fi
echo "debian packages: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
if apt-get update -qq && apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null; then
  echo "debian packages: installed ${missing[*]}"
else
  echo "debian packages: installing ${missing[*]} failed; the tests that need them will skip"
fi
exit 0
