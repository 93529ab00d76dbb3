#!/usr/bin/env bash
# One-time, online setup of the Pyodide tier (then it runs offline): npm `pyodide` from
# package-lock.json, and the wheels of wheels.txt from PyPI, sha256-checked (pip --require-hashes).
set -euo pipefail
cd "$(dirname "$0")"
export PATH="$PWD/../../node_modules/.bin:$PATH"  # Node 22 from the root package.json, when installed
npm ci --no-audit --no-fund
"${PYTHON:-python3}" -m pip download --quiet --disable-pip-version-check --no-deps \
  --only-binary=:all: --require-hashes -r wheels.txt -d wheels
