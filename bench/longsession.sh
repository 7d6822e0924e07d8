#!/usr/bin/env bash
# Long sessions (issue 8): a 300-turn session through the real server against
# a fake OpenAI-compatible endpoint that enforces a 32k-token window; prints
# the server's time per turn and the request size at turns 1, 100, 200, 300.
set -euo pipefail
cd "$(dirname "$0")/.."
go run ./bench/longsession -turns "${TURNS:-300}" -window "${WINDOW:-32768}" "$@"
