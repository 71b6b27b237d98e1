#!/usr/bin/env bash
# Sets up Sanad on a Debian/Ubuntu machine: the system packages it drives (when missing), the npm
# dependencies (npm ci, which also compiles the TypeScript), and, unless --no-demo is given, a tiny
# demo model registered in the default data dir so `npm start` serves something at once.
set -euo pipefail
cd "$(dirname "$0")/.."

demo=1
for arg in "$@"; do
  case "$arg" in
    --no-demo) demo=0 ;;
    *) echo "setup.sh: unknown option $arg (use --no-demo)" >&2; exit 2 ;;
  esac
done

# restic/rclone: backups; gnome-keyring, dbus, libsecret: the OS keychain (keytar); chromium: GUI
# tests; age: checking encrypted offsite copies; g++/make/python3: native modules built from source;
# iproute2 and curl: the network tests' own test hosts (namespaces, a veth pair) and the docs' curl.
packages=(restic rclone gnome-keyring dbus libsecret-1-dev chromium age openssl g++ make python3 ca-certificates iproute2 curl e2fsprogs)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  if ! command -v apt-get >/dev/null; then
    echo "setup.sh: please install these packages with your system's package manager: ${missing[*]}" >&2
    exit 1
  fi
  sudo=""
  [[ $(id -u) -eq 0 ]] || sudo="sudo"
  echo "Installing system packages: ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# Electron's binary cannot be (and need not be) downloaded for the headless appliance.
export ELECTRON_SKIP_BINARY_DOWNLOAD=1
npm ci --no-audit --no-fund

if ((demo)); then
  node scripts/demo-model.mjs
fi
