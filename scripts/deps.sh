#!/usr/bin/env bash
# Installs what kestrel needs on Debian 12, if anything is missing.
# Usage: scripts/deps.sh [build|test]
set -euo pipefail

pkgs=(build-essential cmake pkg-config python3
      libssl-dev zlib1g-dev liblmdb-dev libpcre2-dev libcmocka-dev)
if [ "${1:-build}" = test ]; then
	pkgs+=(clang libclang-rt-14-dev valgrind iproute2)
fi

missing=()
for p in "${pkgs[@]}"; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null |
		grep -q "install ok installed"; then
		missing+=("$p")
	fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "Installing: ${missing[*]}" >&2
sudo=""
if [ "$(id -u)" -ne 0 ]; then
	if command -v sudo >/dev/null; then
		sudo=sudo
	else
		echo "error: missing packages (${missing[*]}) and not root;" \
		     "install them with apt-get as root" >&2
		exit 1
	fi
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq "${missing[@]}" >/dev/null
