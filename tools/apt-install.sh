#!/usr/bin/env bash
# Installs those of the Debian packages named that are missing, as root or
# through sudo: how web/build.sh and the suite's tests (tests/clients.rs,
# tests/web.rs, tools/tests/slurm.rs under CI) set themselves up. When it
# cannot, it exits 1 and says which packages to install.
set -uo pipefail
missing=()
for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
((${#missing[@]})) || exit 0
cannot() {
    echo "cannot install the Debian packages ${missing[*]} ($1): install them with \`apt-get install ${missing[*]}\` as root" >&2
    exit 1
}
command -v apt-get >/dev/null || cannot "no apt-get here"
sudo=()
if [ "$(id -u)" != 0 ]; then
    command -v sudo >/dev/null || cannot "not root, and no sudo"
    # A password prompt only where someone can answer it.
    if [ -t 0 ]; then sudo=(sudo); else sudo=(sudo -n); fi
fi
echo "installing the Debian packages ${missing[*]}" >&2
"${sudo[@]}" apt-get update -qq || cannot "apt-get update failed"
# Another apt-get at work (a second test run) is waited for, not failed.
DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq \
    -o DPkg::Lock::Timeout=600 "${missing[@]}" >&2 || cannot "apt-get install failed"
