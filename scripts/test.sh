#!/usr/bin/env bash
# The whole test suite, as CI runs it: system deps, type check, layer check, build, tests.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-system-deps.sh
echo "== typecheck"; npx tsc -p tsconfig.json --noEmit
echo "== typecheck (engine without DOM)"; npx tsc -p tsconfig.core.json --noEmit
echo "== typecheck (renderer)"; npx tsc -p tsconfig.web.json --noEmit
echo "== layers"; node scripts/check-layers.mjs
echo "== build"; node scripts/build-cli.mjs --quiet
echo "== build (electron-vite: main, preload, renderer → out/)"; npx electron-vite build --logLevel warn
echo "== tests"; npx vitest run "$@"
