package server_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentls/agentls/server/internal/lsptest"
)

// This file proves that a session whose files cannot be written ends its
// turn visibly (stopReason "error", naming the file and the OS error)
// instead of going on with a conversation and a mode that no restart would
// find. The faults are real ones that hold as root too: the `.chat` file
// replaced by a link to /dev/full (the store refuses to open it: not a
// regular file, as a repository could ship it; before internal/statefile,
// every write failed with ENOSPC), the `.meta` file replaced by a folder
// (the atomic rename onto it fails).

// devFull skips a test on a system without /dev/full.
func devFull(t *testing.T) {
	t.Helper()
	if _, err := os.Stat("/dev/full"); err != nil {
		t.Skipf("no /dev/full: %v", err)
	}
}

// chatFiles is the session's .chat and .meta paths.
func chatFiles(dir, sid string) (chat, meta string) {
	base := filepath.Join(dir, ".agentls", "chats", sid)
	return base + ".chat", base + ".meta"
}

func TestPersistenceFailureEndsTheTurn(t *testing.T) {
	t.Parallel()
	devFull(t)
	h := lsptest.Start(t, lsptest.Setup{Script: `
name: persist
steps:
  - text: first answer
  - text: after the disk was fixed
  - text: after the metadata was fixed
`})
	s := h.NewSession("build")
	if r := h.Prompt(s.SessionID, "one"); r.StopReason != "end_turn" {
		t.Fatalf("first prompt = %+v", r)
	}
	chat, meta := chatFiles(h.Dir, s.SessionID)
	saved, err := os.ReadFile(chat)
	if err != nil {
		t.Fatal(err)
	}

	// A full disk under the conversation: the prompt cannot be saved.
	if err := os.Remove(chat); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/dev/full", chat); err != nil {
		t.Fatal(err)
	}
	r := h.Prompt(s.SessionID, "two")
	if r.StopReason != "error" || r.Error == nil {
		t.Fatalf("prompt on a full disk = %+v, want stopReason error", r)
	}
	for _, want := range []string{chat, "not a regular file", s.SessionID} {
		if !strings.Contains(r.Error.Message, want) {
			t.Errorf("error %q does not name %q", r.Error.Message, want)
		}
	}
	if h.Model.Remaining() != 2 {
		t.Fatalf("the model was asked although the prompt was not saved (%d steps left)", h.Model.Remaining())
	}

	// Space again: the next turn runs.
	if err := os.Remove(chat); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(chat, saved, 0o644); err != nil {
		t.Fatal(err)
	}
	if r := h.Prompt(s.SessionID, "three"); r.StopReason != "end_turn" {
		t.Fatalf("prompt after the disk was fixed = %+v", r)
	}

	// The metadata cannot be saved: the user's mode switch would not
	// survive a restart, and the next turn says so.
	savedMeta, err := os.ReadFile(meta)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(meta); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(meta, "blocker"), 0o755); err != nil {
		t.Fatal(err)
	}
	var info struct {
		Mode string `json:"mode"`
	}
	if err := h.Editor.Call(h.Ctx, "agent/setMode", map[string]any{"sessionId": s.SessionID, "mode": "plan"}, &info); err != nil {
		t.Fatalf("setMode: %v", err)
	}
	r = h.Prompt(s.SessionID, "four")
	if r.StopReason != "error" || r.Error == nil || !strings.Contains(r.Error.Message, meta) || !strings.Contains(r.Error.Message, "metadata") {
		t.Fatalf("prompt after a failed metadata save = %+v, want an error naming %s", r, meta)
	}
	if err := os.RemoveAll(meta); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(meta, savedMeta, 0o644); err != nil {
		t.Fatal(err)
	}
	if r := h.Prompt(s.SessionID, "five"); r.StopReason != "end_turn" {
		t.Fatalf("prompt after the metadata was fixed = %+v", r)
	}
	if h.Model.Remaining() != 0 {
		t.Fatalf("script has %d steps left", h.Model.Remaining())
	}
}
