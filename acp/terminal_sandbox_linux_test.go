package acp_test

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/agentls/agentls/sandbox"
)

// A command in the client's terminal runs inside the sandbox: terminal/create
// starts the agentls launcher (behind bwrap when usable) around /bin/sh -c,
// and a write outside the workspace fails; the result says the sandbox
// may have refused it.
func TestClientTerminalRunsInSandbox(t *testing.T) {
	if st := sandbox.Detect().Status(sandbox.ModeAuto); !st.Confines() {
		t.Skipf("no sandbox layer here: %s", st.Summary)
	}
	target := filepath.Join(t.TempDir(), "escaped")
	client := &testClient{permit: choose("allow_once")}
	r := newRig(t, setup{userConfig: buildByDefault, client: client, caps: terminalCaps, script: `
steps:
  - tool_calls: [{id: r1, name: run, args: {command: "echo x > ` + target + `"}}]
  - expect: {tool_result_contains: {r1: ['"exit_code":', "the sandbox may have refused this", '"sandbox":"landlock']}}
    text: "Refused."
`})
	sid := r.newSession().SessionId
	if stop := r.mustPrompt(sid, "run it"); stop != sdk.StopReasonEndTurn {
		t.Fatalf("stop %s", stop)
	}
	client.terms.mu.Lock()
	terms := append([]*clientTerminal(nil), client.terms.list...)
	client.terms.mu.Unlock()
	if len(terms) != 1 || !slices.Contains(terms[0].req.Args, sandbox.Subcommand) {
		t.Fatalf("terminal/create does not go through the launcher: %+v", terms)
	}
	if _, err := os.Stat(target); err == nil {
		t.Errorf("the command wrote %s outside the workspace", target)
	}
}
