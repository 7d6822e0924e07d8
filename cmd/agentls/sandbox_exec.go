package main

import "github.com/agentls/agentls/sandbox"

// sandboxExec runs the hidden `agentls sandbox-exec --policy <base64 JSON>
// -- <argv>` subcommand when this process was started as it (the sandbox
// package starts every command that way: it applies Landlock, changes the
// environment and execs argv, or with --reap first starts that as its child
// and kills what the command leaves behind); otherwise it returns at once. It must run
// before anything else in main, so that nothing of agentls starts in the
// command's place.
func sandboxExec() { sandbox.Main() }
