#!/usr/bin/env bash
# The whole test suite, as CI runs it: system deps, type check, layer check, build, tests.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-system-deps.sh
echo "== typecheck"; npx tsc -p tsconfig.json --noEmit
echo "== typecheck (engine without DOM)"; npx tsc -p tsconfig.core.json --noEmit
echo "== layers"; node scripts/check-layers.mjs
echo "== build"; node scripts/build-cli.mjs --quiet
echo "== tests"; npx vitest run "$@"
