// Package inheritedfd keeps the descriptors agentls inherited from the
// process that started it (the editor, a plugin, a shell) away from the
// processes agentls starts.
//
// Go opens every descriptor of its own close-on-exec, but one agentls
// inherits open on exec stays so, and each command, MCP server and
// language server would get it: an editor's leaked terminal (read what
// the user types), its IPC socket or a file it has open for writing,
// reaching past the sandbox.
package inheritedfd

// CloseOnExec marks every open descriptor above standard error
// close-on-exec. Call it once, early in main, before any process starts
// (not in the sandbox's launcher, which hands its descriptors on). It
// returns the first error met; the descriptors it could mark stay marked.
func CloseOnExec() error { return closeOnExec() }
