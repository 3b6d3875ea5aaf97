#!/usr/bin/env bash
# Installs the Debian packages listed in scripts/apt-packages.txt when their command is missing.
# Needs root (CI and the dev machines run as root); otherwise prints what to install and fails.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
missing=()
while read -r pkg cmd; do
  [[ -z "${pkg}" || "${pkg}" == \#* ]] && continue
  command -v "${cmd}" >/dev/null 2>&1 || [[ -e "${cmd}" ]] || missing+=("${pkg}")
done < "${here}/apt-packages.txt"
if ((${#missing[@]} == 0)); then
  echo "system deps: all present"
  exit 0
fi
echo "system deps: installing ${missing[*]}"
if [[ $(id -u) -ne 0 ]]; then
  echo "system deps: not root; install these Debian packages: ${missing[*]}" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >/dev/null
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "system deps: installed ${missing[*]}"
