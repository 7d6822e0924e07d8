//go:build unix

package server_test

import (
	"os"
	"path/filepath"
	"slices"
	"syscall"
	"testing"
	"time"

	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/internal/lspclient"
	"github.com/agentls/agentls/server/internal/lsptest"
	"github.com/agentls/agentls/workspace"
)

// TestRewindKeepsWhatTheUserSavedDuringACommand: the agent runs a command
// that takes a while (it waits on a FIFO); meanwhile the user edits x.txt
// in the editor and saves it (textDocument/didSave). The command never
// touched x.txt: a code rewind of the turn must leave the user's save
// alone and list x.txt as a conflict.
func TestRewindKeepsWhatTheUserSavedDuringACommand(t *testing.T) {
	t.Parallel()
	const script = `
name: save-during-command
steps:
  - tool_calls:
      - {id: hold, name: run, args: {command: "echo > ready.fifo; read x < release.fifo"}}
  - text: done
`
	h := lsptest.Start(t, lsptest.Setup{
		Script:   script,
		Files:    map[string]string{"x.txt": "before\n"},
		Handlers: lspclient.Handlers{AskUser: decide("run")},
	})
	ready, release := filepath.Join(h.Dir, "ready.fifo"), filepath.Join(h.Dir, "release.fifo")
	for _, p := range []string{ready, release} {
		if err := syscall.Mkfifo(p, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	s := h.NewSession("build")
	turn := h.PromptAsync(s.SessionID, "run it")
	fifoLine(t, ready, os.O_RDONLY) // the command runs
	if err := h.Editor.OpenFile(h.Ctx, "x.txt"); err != nil {
		t.Fatal(err)
	}
	whole := workspace.Range{Start: workspace.Position{}, End: workspace.Position{Line: 1}}
	if err := h.Editor.Change(h.Ctx, "x.txt", workspace.TextEdit{Range: whole, NewText: "the user's save\n"}); err != nil {
		t.Fatal(err)
	}
	if err := h.Editor.Save(h.Ctx, "x.txt"); err != nil {
		t.Fatal(err)
	}
	h.ListCommands(s.SessionID) // a round trip: the server has read the didSave
	fifoLine(t, release, os.O_WRONLY)
	wantStop(t, <-turn, "end_turn")
	if got := h.Read("x.txt"); got != "the user's save\n" {
		t.Fatalf("x.txt after the turn = %q", got)
	}
	turn1 := firstUserMessage(t, h.LoadSession(s.SessionID).Messages)
	res, err := h.Rewind(agentproto.RewindParams{SessionID: s.SessionID, ToMessageID: turn1, What: "code"})
	if err != nil {
		t.Fatal(err)
	}
	if got := h.Read("x.txt"); got != "the user's save\n" {
		t.Errorf("x.txt after the rewind = %q, want the user's save kept (result %+v)", got, res)
	}
	if buf, _ := h.Editor.Buffer("x.txt"); buf != "the user's save\n" {
		t.Errorf("the x.txt buffer after the rewind = %q, want the user's save kept", buf)
	}
	if !slices.ContainsFunc(res.Conflicts, func(c agentproto.RewindConflict) bool { return c.Path == "x.txt" }) {
		t.Errorf("x.txt is not a conflict: conflicts %+v, restored %v", res.Conflicts, res.Restored)
	}
}

// fifoLine opens the FIFO at p (blocking until the command opens its other
// end) and reads or writes a line, within a bound.
func fifoLine(t *testing.T, p string, flag int) {
	t.Helper()
	done := make(chan error, 1)
	go func() {
		f, err := os.OpenFile(p, flag, 0)
		if err != nil {
			done <- err
			return
		}
		defer f.Close()
		if flag == os.O_WRONLY {
			_, err = f.Write([]byte("go\n"))
		} else {
			_, err = f.Read(make([]byte, 8))
		}
		done <- err
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(30 * time.Second):
		t.Fatalf("the command never opened %s", p)
	}
}
