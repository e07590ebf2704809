#!/usr/bin/env bash
# Builds the engine for WebAssembly into web/dist/yomi.wasm, from nothing on a
# Debian 12 machine: installs the packages it needs if they are missing (as
# root, or with sudo), then builds with Debian's rustc and the standard library
# from source, and optimises with wasm-opt. See docs/web.md.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/apt-install.sh rustc-web cargo-web rust-web-src lld-19 binaryen
# Debian's toolchain first: rustup's has no WebAssembly standard library.
export PATH="/usr/bin:$PATH"
export RUSTC=/usr/bin/rustc CARGO=/usr/bin/cargo
unset RUSTUP_TOOLCHAIN
# The standard library is built from rust-web-src, which needs nightly flags.
export RUSTC_BOOTSTRAP=1
export CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_LINKER=wasm-ld-19
export CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS="-C target-feature=+simd128"
target_dir="${CARGO_TARGET_DIR:-target}/wasm"
/usr/bin/cargo build --profile wasm --target wasm32-unknown-unknown \
    -Zbuild-std=std,panic_abort --target-dir "$target_dir" -p yomi-web
mkdir -p web/dist
wasm-opt -O3 --enable-simd --enable-bulk-memory --enable-nontrapping-float-to-int \
    --enable-sign-ext --enable-mutable-globals \
    "$target_dir/wasm32-unknown-unknown/wasm/yomi_web.wasm" -o web/dist/yomi.wasm
ls -l web/dist/yomi.wasm
