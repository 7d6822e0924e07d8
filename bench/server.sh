#!/usr/bin/env bash
# Server speed: start → initialize result and idle RSS of the real binary, and
# the Go benchmarks of a 20-tool-call scripted turn on $(go env GOROOT)/src.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$(mktemp -d)/agentls
go build -o "$bin" ./cmd/agentls
go run ./bench/lspstart -bin "$bin" -runs "${RUNS:-20}"
echo
echo "scripted turn of 20 tool calls through the server (target: < 50ms/op):"
go test -run '^$' -bench 'BenchmarkScriptedTurn20Calls|BenchmarkInitialize' -benchtime "${BENCHTIME:-20x}" ./server/ 
