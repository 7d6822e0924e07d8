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
// It is a leaf of value types: it imports only the standard library, and
// every room may import it (internal/arrows). A value the protocol carries
// that a room also handles (a mode, a plan's status, a tool's reach, a
// permission's kinds and options, an MCP server's status, the updates of a
// turn) is declared once, here, and the room uses it directly or by an
// alias; the faces convert only the values whose shape differs from the
// wire's (internal/protoconv).
package agentproto

//go:generate go run ./internal/protogen -root ..
