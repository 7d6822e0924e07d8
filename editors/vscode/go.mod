// The VS Code extension is not Go: this file makes editors/vscode a module of
// its own so that `go test ./...` and `go vet ./...` at the repository root do
// not walk into node_modules (some npm packages ship Go sources).
module github.com/agentls/agentls/editors/vscode

go 1.26
