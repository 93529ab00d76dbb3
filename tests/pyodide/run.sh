#!/usr/bin/env bash
# The Pyodide tier, offline after setup.sh: every *.test.mjs under node:test, JSPI on (production
# mode), TZ=UTC (workerd's time zone). Extra arguments go to node (e.g. --test-name-pattern=...).
set -euo pipefail
cd "$(dirname "$0")"
export PATH="$PWD/../../node_modules/.bin:$PATH"  # Node 22 from the root package.json, when installed
export TZ=UTC
node -e 'const [a, b] = process.versions.node.split(".").map(Number); process.exit(a > 22 || (a === 22 && b >= 5) ? 0 : 3)' \
  || { echo "the Pyodide tier needs Node >= 22.5 (node:sqlite); found $(node --version)" >&2; exit 3; }
exec node --experimental-wasm-jspi --disable-warning=ExperimentalWarning --test \
  --test-concurrency="${PYODIDE_TIER_CONCURRENCY:-3}" "$@" ./*.test.mjs
