#!/usr/bin/env bash
# Replaces the vendored decoder with the given versions from npm (README.md says why
# and what): bash update.sh 3.2.5 3.1.8
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$work"
npm pack --silent "barcode-detector@$1" "zxing-wasm@$2" >/dev/null
tar xzf "barcode-detector-$1.tgz" && mv package detector
tar xzf "zxing-wasm-$2.tgz" && mv package zxing
cp detector/dist/es/ponyfill.js "$here/barcode-detector.js"
cp detector/dist/es/zxing-exported.js "$here/zxing-exported.js"
cp zxing/dist/reader/zxing_reader.wasm "$here/zxing_reader.wasm"
cp detector/LICENSE "$here/LICENSE-barcode-detector"
cp zxing/LICENSE "$here/LICENSE-zxing-wasm"
expected="$(grep -o '[0-9a-f]\{64\}' "$here/zxing-exported.js" | head -1)"
actual="$(sha256sum "$here/zxing_reader.wasm" | cut -d' ' -f1)"
if [[ "$expected" != "$actual" ]]; then
    echo "zxing_reader.wasm is $actual, but the glue expects $expected: pick matching versions" >&2
    exit 1
fi
echo "vendored barcode-detector $1 and zxing-wasm $2 (wasm $actual); update README.md"
