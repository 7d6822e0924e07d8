package acp_test

import (
	"slices"
	"strings"
	"testing"

	sdk "github.com/coder/acp-go-sdk"
)

var terminalCaps = sdk.ClientCapabilities{Terminal: true}

// runInClientTerminal runs a turn for client, which has terminals, in
// build mode (config adds to the user's configuration) whose model runs
// script; the turn must end end_turn. It returns the rig and the session.
func runInClientTerminal(t *testing.T, client *testClient, config, script string) (*rig, sdk.SessionId) {
	t.Helper()
	r := newRig(t, setup{userConfig: buildByDefault + config, client: client, caps: terminalCaps, script: script})
	sid := r.newSession().SessionId
	if stop := r.mustPrompt(sid, "run it"); stop != sdk.StopReasonEndTurn {
		t.Fatalf("stop %s", stop)
	}
	return r, sid
}

// With terminal: true, a permitted command runs in the client's terminal,
// shown in the tool call; its output reaches the model.
func TestRunThroughClientTerminal(t *testing.T) {
	client := &testClient{permit: choose("allow_once")}
	r, sid := runInClientTerminal(t, client, "", runScript("echo hello-from-terminal; exit 3", "Ran.", `"exit_code":3`, "hello-from-terminal"))
	terms := client.startedTerminals()
	if len(terms) != 1 {
		t.Fatalf("%d terminals, want 1", len(terms))
	}
	term := terms[0]
	if term.req.SessionId != sid || !slices.Contains(term.req.Args, "echo hello-from-terminal; exit 3") || term.req.Cwd == nil || *term.req.Cwd != r.dir {
		t.Errorf("terminal/create %+v", term.req)
	}
	term.mu.Lock()
	released := term.released
	term.mu.Unlock()
	if !released {
		t.Error("the terminal was not released")
	}
	if st := client.finalStatus("r1"); st != sdk.ToolCallStatusCompleted {
		t.Errorf("status %s", st)
	}
	ups := client.toolUpdates("r1")
	hasTerm := false
	for _, c := range ups[len(ups)-1].Content {
		hasTerm = hasTerm || c.Terminal != nil && c.Terminal.TerminalId == "term-1"
	}
	if !hasTerm {
		t.Errorf("the tool call's last content lacks the terminal: %+v", ups[len(ups)-1].Content)
	}
}

// A command in the client's terminal does not get the model's key variable
// or what run.env_deny names, as in agentls's own shell: the client's
// environment has them, so the terminal unsets them.
func TestClientTerminalLeavesOutDeniedVariables(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "sk-leak-1")
	t.Setenv("AGENTLS_TEST_TOKEN", "leak-2")
	t.Setenv("AGENTLS_TEST_KEEP", "kept")
	client := &testClient{permit: choose("allow_once")}
	runInClientTerminal(t, client, "run: {env_deny: ['*_TOKEN']}\n", runScript("env", "Ran.", "AGENTLS_TEST_KEEP=kept"))
	term := client.firstTerminalEnded()
	term.mu.Lock()
	out := term.out.String()
	term.mu.Unlock()
	if !strings.Contains(out, "AGENTLS_TEST_KEEP=kept") {
		t.Fatalf("the terminal's output lacks the kept variable:\n%s", out)
	}
	for _, leak := range []string{"sk-leak-1", "leak-2"} {
		if strings.Contains(out, leak) {
			t.Errorf("the command in the client's terminal saw %s", leak)
		}
	}
}

// session/cancel while the command runs in the client's terminal kills it
// and ends the turn `cancelled`.
func TestCancelKillsTheClientTerminal(t *testing.T) {
	started := make(chan struct{})
	client := &testClient{permit: choose("allow_once"), onTerminal: func(*clientTerminal) { close(started) }}
	r, sid, done := sleepInClientTerminal(t, client)
	<-started
	r.cancel(sid)
	if res := <-done; res.stop != sdk.StopReasonCancelled {
		t.Errorf("stop %s (%v)", res.stop, res.err)
	}
	term := client.firstTerminalEnded() // killed: sleep 60 does not end on its own within the test
	term.mu.Lock()
	killed := term.killed || term.released
	term.mu.Unlock()
	if !killed {
		t.Error("the terminal was neither killed nor released")
	}
}

// sleepInClientTerminal starts a turn for client, which has terminals, in
// build mode whose model runs `sleep 60` (r1); it returns the rig, the
// session and the turn's result.
func sleepInClientTerminal(t *testing.T, client *testClient) (*rig, sdk.SessionId, <-chan promptResult) {
	t.Helper()
	r := newRig(t, setup{userConfig: buildByDefault, client: client, caps: terminalCaps, script: `
steps:
  - tool_calls: [{id: r1, name: run, args: {command: "sleep 60"}}]
`})
	sid := r.newSession().SessionId
	return r, sid, r.promptAsync(sid, "run it")
}

// Without the terminal capability agentls runs the command itself.
func TestRunWithoutClientTerminalUsesOwnShell(t *testing.T) {
	client := &testClient{permit: choose("allow_once")}
	r := newRig(t, setup{userConfig: buildByDefault, client: client, script: runScript("echo own-shell", "Ran.", "own-shell")})
	r.mustPrompt(r.newSession().SessionId, "run it")
	if n := len(r.wire.requests("terminal/create")); n != 0 {
		t.Errorf("%d terminal/create without the capability", n)
	}
}

// A session/cancel that arrives while terminal/create is still unanswered
// does not strand the terminal: it is killed and released.
func TestCancelDuringTerminalCreateReleasesIt(t *testing.T) {
	creating := make(chan struct{})
	cancelSent := make(chan struct{})
	client := &testClient{permit: choose("allow_once"), onTerminal: func(*clientTerminal) {
		close(creating)
		<-cancelSent // answer terminal/create only after the cancel
	}}
	r, sid, done := sleepInClientTerminal(t, client)
	<-creating
	r.cancel(sid)
	close(cancelSent)
	if res := <-done; res.stop != sdk.StopReasonCancelled {
		t.Errorf("stop %s (%v)", res.stop, res.err)
	}
	term := client.firstTerminalEnded() // sleep 60 ends only if it was killed
	term.mu.Lock()
	defer term.mu.Unlock()
	if !term.released {
		t.Error("the terminal was not released")
	}
}
