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
# A whole run also proves it left the checkout as it found it (test/helpers/real-home-guard.ts).
if [ $# -eq 0 ]; then export MISH_CHECK_CLEAN_TREE=1; fi
echo "== tests"; npx vitest run "$@"
# The session, yield and process-ownership suites again through the portable platform port
# (ps/stty/process groups, what macOS offers; issue 25). Only on a whole run, not a chosen file.
if [ $# -eq 0 ]; then
  echo "== tests (MISH_PLATFORM=portable: session, yield, process ownership)"
  MISH_PLATFORM=portable npx vitest run src/main/core/session/session.test.ts src/main/core/session/long-command.test.ts src/main/core/process/process.test.ts src/main/core/yield/yield-watcher.test.ts test/mcp-lifecycle.test.ts
fi
