package agent

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentls/agentls/agent/llm"
	"github.com/agentls/agentls/agentproto"
)

// TestResumedSessionIsToldOfACodeRewind: the user rewinds the files (code
// only, the conversation kept) to before the agent's last edit, then closes
// the editor; the next day the session is resumed. The live session would
// have told the model, in its next request, which files the rewind changed
// ("# Rewind … read them again before editing them"). The resumed session
// builds its request from the .chat, which holds the rewind record, but the
// note lived only in memory: the model is not told, and goes on believing
// the files hold its edits.
func TestResumedSessionIsToldOfACodeRewind(t *testing.T) {
	t.Parallel()
	ed := &memEditor{}
	state := t.TempDir()
	m0, _ := newTestManager(t, noTurns, ed, nil)
	cfg := m0.config()
	m0.Close()
	model := &stepModel{turn: func(n int, req llm.Request) (llm.Response, error) {
		if lastIsTool(req) {
			return textStep("done"), nil
		}
		if u := lastUserText(req); strings.HasPrefix(u, "write ") {
			return callStep(fmt.Sprintf("w%d", n), "write", fmt.Sprintf(`{"path":"app.txt","content":%q}`, strings.TrimPrefix(u, "write ")+"\n")), nil
		}
		return textStep("ok"), nil
	}}
	open := managerOpener(t, Options{Workspace: ed.ws, Config: cfg, Provider: model, Editor: ed, StateDir: state})
	m := open()
	s := newTestSession(t, m, "build")
	ctx := context.Background()
	for _, text := range []string{"write alpha", "write beta"} {
		if res, err := m.Prompt(ctx, PromptRequest{SessionID: s.ID(), Text: text}); err != nil || res.StopReason != agentproto.StopEndTurn {
			t.Fatalf("prompt %q = %+v, %v", text, res, err)
		}
	}
	var second string
	for _, msg := range s.Messages() {
		if msg.Role == llm.RoleUser && msg.Content == "write beta" {
			second = msg.ID
		}
	}
	if _, err := m.Rewind(ctx, agentproto.RewindParams{SessionID: s.ID(), ToMessageID: second, What: agentproto.RewindCode}); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(filepath.Join(ed.ws.Root(), "app.txt")); string(got) != "alpha\n" {
		t.Fatalf("the rig is wrong: app.txt = %q after the rewind", got)
	}
	if sys := s.modelRequest().System; !strings.Contains(sys, "# Rewind") {
		t.Fatal("the rig is wrong: the live session does not tell the model either")
	}
	m.Close()

	m2 := open()
	if res, err := m2.Prompt(ctx, PromptRequest{SessionID: s.ID(), Text: "what is in app.txt now?"}); err != nil || res.StopReason != agentproto.StopEndTurn {
		t.Fatalf("resumed prompt = %+v, %v", res, err)
	}
	reqs := model.requests()
	last := reqs[len(reqs)-1]
	if !strings.Contains(last.System, "# Rewind") {
		var lastWrite string
		for _, msg := range last.Messages {
			for _, c := range msg.ToolCalls {
				lastWrite = c.Arguments
			}
		}
		t.Fatalf("after a restart the model is not told that a code rewind changed app.txt under it (now \"alpha\"); the last write its history shows: %s", lastWrite)
	}
}

// TestResumeAfterAFailedSaveShowsTheModelTheSameTurns: a prompt could not be
// saved (the disk was full; here the .chat is briefly not a file): the turn
// ends with the error, as docs/sessions.md says, and the user fixes the
// cause and goes on — "the conversation in memory is complete; the file
// lacks what could not be written". Later the history is compacted. The
// compaction record names messages by their index in memory, which counts
// the message the file lacks, so in the file it points one message too far.
// After a restart the resumed session's view is not the live one: the
// first message the live session kept verbatim (a prompt of the user's) is
// gone from what the model is sent.
func TestResumeAfterAFailedSaveShowsTheModelTheSameTurns(t *testing.T) {
	t.Parallel()
	ed := &memEditor{}
	state := t.TempDir()
	m0, _ := newTestManager(t, noTurns, ed, nil)
	cfg := m0.config()
	cfg.Model.ContextWindow = 16384
	m0.Close()
	root := writeBulkyFiles(t, ed)
	model := &stepModel{turn: func(n int, req llm.Request) (llm.Response, error) {
		if lastIsTool(req) {
			return textStep("read it"), nil
		}
		if u := lastUserText(req); strings.HasPrefix(u, "read f") {
			return callStep(fmt.Sprintf("r%d", n), "read", fmt.Sprintf(`{"path":%q}`, strings.TrimPrefix(u, "read ")+".go")), nil
		}
		return textStep("ok"), nil
	}}
	open := managerOpener(t, Options{Workspace: ed.ws, Config: cfg, Provider: model, Editor: ed, StateDir: state})
	m := open()
	s := newTestSession(t, m, "build")
	ctx := context.Background()
	prompt := func(text string) TurnResult {
		t.Helper()
		res, err := m.Prompt(ctx, PromptRequest{SessionID: s.ID(), Text: text})
		if err != nil {
			t.Fatalf("prompt %q: %v", text, err)
		}
		return res
	}
	prompt("read f0")
	// The .chat cannot be written for one prompt.
	chat := filepath.Join(root, ".agentls", "chats", s.ID()+".chat")
	if err := os.Rename(chat, chat+".away"); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(chat, 0o755); err != nil {
		t.Fatal(err)
	}
	if res := prompt("this prompt cannot be saved"); res.StopReason != agentproto.StopError {
		t.Fatalf("the rig is wrong: a prompt that could not be saved ended %+v", res)
	}
	if err := os.Remove(chat); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(chat+".away", chat); err != nil {
		t.Fatal(err)
	}
	for i := 1; i < 12; i++ {
		if res := prompt(fmt.Sprintf("read f%d", i)); res.StopReason != agentproto.StopEndTurn {
			t.Fatalf("prompt %d after the cause was fixed: %+v", i, res)
		}
	}
	if res, err := m.Compact(ctx, s.ID()); err != nil || !res.Compacted {
		t.Fatalf("Compact = %+v, %v", res, err)
	}
	live := s.modelRequest()
	m.Close()
	s2, err := open().session(s.ID())
	if err != nil {
		t.Fatal(err)
	}
	resumed := s2.modelRequest()
	first := func(req llm.Request) string {
		for _, msg := range req.Messages {
			if msg.Role == llm.RoleUser {
				return msg.Content
			}
		}
		return ""
	}
	if len(live.Messages) != len(resumed.Messages) || first(live) != first(resumed) {
		t.Fatalf("the live session sends %d messages from the prompt %q on; after a restart, %d from %q",
			len(live.Messages), first(live), len(resumed.Messages), first(resumed))
	}
}

// managerOpener returns a function that opens a new manager with opts, as
// agentls does when it starts again; each is closed when the test ends.
func managerOpener(t *testing.T, opts Options) func() *Manager {
	return func() *Manager {
		t.Helper()
		m, err := NewManager(opts)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(m.Close)
		return m
	}
}
