package acp_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agentls/agentls/internal/proctest"
	"github.com/agentls/agentls/sandbox"
)

// A command in the client's terminal runs inside the sandbox: terminal/create
// starts the agentls launcher (behind bwrap when usable) around /bin/sh -c,
// and a write outside the workspace fails; the result says the sandbox
// may have refused it.
func TestClientTerminalRunsInSandbox(t *testing.T) {
	t.Parallel()
	if st := sandbox.Detect().Status(sandbox.ModeAuto); !st.Confines() {
		t.Skipf("no sandbox layer here: %s", st.Summary)
	}
	target := filepath.Join(t.TempDir(), "escaped")
	client := &testClient{permit: choose("allow_once")}
	runInClientTerminal(t, client, "", runScript("echo x > "+target, "Refused.", `"exit_code":`, "the sandbox may have refused this", `"sandbox":"landlock`))
	terms := client.startedTerminals()
	if len(terms) != 1 || !slices.Contains(terms[0].req.Args, sandbox.Subcommand) {
		t.Fatalf("terminal/create does not go through the launcher: %+v", terms)
	}
	if _, err := os.Stat(target); err == nil {
		t.Errorf("the command wrote %s outside the workspace", target)
	}
}

// A client whose terminal cannot start the command (it answers
// terminal/create with an error: nothing started) leaves it to agentls's
// own shell, in the same sandbox.
func TestClientTerminalFailsOwnShellRuns(t *testing.T) {
	t.Parallel()
	client := &testClient{permit: choose("allow_once"), createErr: "cannot execute the agentls launcher"}
	r, _ := runInClientTerminal(t, client, "", runScript("echo ran-in-own-shell > out.txt; cat out.txt", "Ran.", `"exit_code":0`, "ran-in-own-shell"))
	if b, err := os.ReadFile(filepath.Join(r.dir, "out.txt")); err != nil || string(b) != "ran-in-own-shell\n" {
		t.Fatalf("own shell did not run it: %q %v", b, err)
	}
}

// A listening socket outside the workspace that goes away with its
// folder before the client starts the command (an editor's IPC socket, a
// test's temporary folder) stopped bubblewrap before anything ran: the
// model got exit 1 and "bwrap: Can't mkdir parents for …". The command
// is prepared again and runs in a second terminal; its result is its own.
func TestClientTerminalRunsWhenACoveredSocketGoesAway(t *testing.T) {
	t.Parallel()
	if st := sandbox.Detect().Status(sandbox.ModeAuto); st.Mode != "landlock+bwrap" {
		t.Skipf("needs bubblewrap: %s", st.Summary)
	}
	sock := proctest.NewVanishingSocket(t)
	client := &testClient{permit: choose("allow_once"), beforeCreate: sock.Vanish} // after agentls listed the sockets, before the start
	runInClientTerminal(t, client, "", runScript("echo ran-after-cover", "Ran.", `"exit_code":0`, "ran-after-cover"))
	terms := client.startedTerminals()
	if len(terms) != 2 {
		t.Fatalf("%d terminals, want the failed one and the one that ran", len(terms))
	}
	first := client.firstTerminalEnded()
	first.mu.Lock()
	out := first.out.String()
	first.mu.Unlock()
	if !strings.Contains(out, "bwrap: Can't mkdir parents for") {
		t.Errorf("the first terminal's output %q is not bubblewrap's failure: nothing proven", out)
	}
}
