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
	model := &auditModel{turn: func(n int, req llm.Request) (llm.Response, error) {
		if lastIsTool(req) {
			return textStep("done"), nil
		}
		if u := lastUserText(req); strings.HasPrefix(u, "write ") {
			return callStep(fmt.Sprintf("w%d", n), "write", fmt.Sprintf(`{"path":"app.txt","content":%q}`, strings.TrimPrefix(u, "write ")+"\n")), nil
		}
		return textStep("ok"), nil
	}}
	open := func() *Manager {
		m, err := NewManager(Options{Workspace: ed.ws, Config: cfg, Provider: model, Editor: ed, StateDir: state})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(m.Close)
		return m
	}
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
