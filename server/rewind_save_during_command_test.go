//go:build unix

package server_test

import (
	"encoding/json"
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
	userSavesX(t, h)
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

// userSavesX is the person opening x.txt (one line) in the editor,
// replacing its line with "the user's save" and saving it.
func userSavesX(t *testing.T, h *lsptest.Env) {
	t.Helper()
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

// TestRewindKeepsWhatTheUserSavedWhileTheRunQuestionWasOpen: while the
// person reads the question about `touch made.txt`, they edit x.txt in the
// editor and save it (didSave) and create new.txt outside it (a shell: no
// event reaches agentls); then they allow the command. Only made.txt is
// the command's: a code rewind of the turn removes it, keeps the person's
// files as they made them and lists them as conflicts, not as restored.
func TestRewindKeepsWhatTheUserSavedWhileTheRunQuestionWasOpen(t *testing.T) {
	t.Parallel()
	const script = `
name: save-during-question
steps:
  - tool_calls:
      - {id: r, name: run, args: {command: "touch made.txt"}}
  - text: done
`
	asked, saved := make(chan struct{}), make(chan struct{})
	allow := decide("run")
	h := lsptest.Start(t, lsptest.Setup{
		Script: script,
		Files:  map[string]string{"x.txt": "before\n"},
		Handlers: lspclient.Handlers{AskUser: func(raw json.RawMessage) any {
			close(asked)
			<-saved // the person works while the question is shown
			return allow(raw)
		}},
	})
	s := h.NewSession("build")
	turn := h.PromptAsync(s.SessionID, "run it")
	select {
	case <-asked:
	case <-time.After(30 * time.Second):
		t.Fatal("the run question never came")
	}
	userSavesX(t, h)
	if err := os.WriteFile(filepath.Join(h.Dir, "new.txt"), []byte("the user's new file\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	h.ListCommands(s.SessionID) // a round trip: the server has read the didSave
	close(saved)
	wantStop(t, <-turn, "end_turn")
	if !exists(t, h, "made.txt") {
		t.Fatal("the command did not run")
	}
	turn1 := firstUserMessage(t, h.LoadSession(s.SessionID).Messages)
	res, err := h.Rewind(agentproto.RewindParams{SessionID: s.SessionID, ToMessageID: turn1, What: "code"})
	if err != nil {
		t.Fatal(err)
	}
	if exists(t, h, "made.txt") {
		t.Errorf("made.txt, the command's own file, survived the rewind (result %+v)", res)
	}
	if got := h.Read("x.txt"); got != "the user's save\n" {
		t.Errorf("x.txt after the rewind = %q, want the user's save kept (result %+v)", got, res)
	}
	if buf, _ := h.Editor.Buffer("x.txt"); buf != "the user's save\n" {
		t.Errorf("the x.txt buffer after the rewind = %q, want the user's save kept", buf)
	}
	if !exists(t, h, "new.txt") || h.Read("new.txt") != "the user's new file\n" {
		t.Errorf("new.txt, the user's file, did not survive the rewind (result %+v)", res)
	}
	for _, p := range []string{"x.txt", "new.txt"} {
		if slices.Contains(res.Restored, p) {
			t.Errorf("%s, the user's change, is reported restored as the command's: restored %v", p, res.Restored)
		}
		if !slices.ContainsFunc(res.Conflicts, func(c agentproto.RewindConflict) bool { return c.Path == p }) {
			t.Errorf("%s is not a conflict: conflicts %+v, restored %v", p, res.Conflicts, res.Restored)
		}
	}
}
