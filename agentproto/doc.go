// Package agentproto is the typed agent/* protocol (docs/protocol.md): the
// params and results as Go types, one method table (Table) and the
// protocol's version. The LSP face (server), the ACP face (acp) and the
// test harness (server/internal/lsptest) dispatch and call from the table;
// `go generate ./agentproto` derives the VS Code extension's TypeScript
// types (editors/vscode/src/protocol.gen.ts), the Neovim plugin's method
// names and LuaCATS classes (editors/nvim/lua/agentls/protocol.lua), the
// method table of docs/protocol.md (§7) from it, and TestGeneratedFiles
// fails when any of them drifts.
//
// It is a leaf: it imports only the standard library. The types are the
// wire, not the domain: the faces convert the agent's values into them
// (internal/protoconv).
package agentproto

//go:generate go run ./internal/protogen -root ..
