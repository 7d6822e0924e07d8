package agent

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/agentls/agentls/agent/llm"
	"github.com/agentls/agentls/agent/scripted"
	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/config"
	"github.com/agentls/agentls/workspace"
)

// thinkingProvider is a model that lets the test act while it "thinks":
// before its n-th request (1-based) is answered, during(n) runs, as a
// person's editor would save files while the agent waits for its model.
type thinkingProvider struct {
	llm.Provider
	during func(n int)

	mu sync.Mutex
	n  int
}

func (p *thinkingProvider) Complete(ctx context.Context, req llm.Request, onEvent func(llm.Event)) (llm.Response, error) {
	p.mu.Lock()
	p.n++
	n := p.n
	p.mu.Unlock()
	if p.during != nil {
		p.during(n)
	}
	return p.Provider.Complete(ctx, req, onEvent)
}

// newThinkingManager is newTestManager whose model runs during before
// each request.
func newThinkingManager(t *testing.T, script string, ed *memEditor, during func(n int)) *Manager {
	t.Helper()
	ws, err := workspace.New(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	ed.ws = ws
	sc, err := scripted.Parse([]byte(script))
	if err != nil {
		t.Fatal(err)
	}
	cfg := config.Default()
	cfg.Run.Allow = []string{"true"}
	m, err := NewManager(Options{Workspace: ws, Config: cfg, Provider: &thinkingProvider{Provider: scripted.New(sc), during: during}, Editor: ed})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(m.Close)
	return m
}

// personsFiles writes the files the person changes while the agent works
// (x.txt, gone.txt) into root.
func personsFiles(t *testing.T, root string) {
	t.Helper()
	for name, text := range map[string]string{"x.txt": "before\n", "gone.txt": "the user removes this\n"} {
		if err := os.WriteFile(filepath.Join(root, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// personChanges is what the person does in root while the agent works:
// saves x.txt, creates new.txt, deletes gone.txt.
func personChanges(t *testing.T, root string) {
	if err := os.WriteFile(filepath.Join(root, "x.txt"), []byte("the user's save\n"), 0o644); err != nil {
		t.Error(err)
	}
	if err := os.WriteFile(filepath.Join(root, "new.txt"), []byte("the user's new file\n"), 0o644); err != nil {
		t.Error(err)
	}
	if err := os.Remove(filepath.Join(root, "gone.txt")); err != nil {
		t.Error(err)
	}
}

// rewindKeepsPersonChanges runs the turn "run it" in session s, checks
// that its command (call r) ran, rewinds the turn's code and checks that
// the person's changes (personChanges) are kept and listed as conflicts,
// none of them restored. It returns the rewind's result.
func rewindKeepsPersonChanges(t *testing.T, m *Manager, ed *memEditor, s *Session) agentproto.RewindResult {
	t.Helper()
	ctx := context.Background()
	if res, err := m.Prompt(ctx, PromptRequest{SessionID: s.ID(), Text: "run it"}); err != nil || res.StopReason != agentproto.StopEndTurn {
		t.Fatalf("turn: %+v %v", res, err)
	}
	if out := ed.toolResult("r"); !strings.Contains(out, `"exit_code":0`) {
		t.Fatalf("the command did not run: %s", out)
	}
	res, err := m.Rewind(ctx, agentproto.RewindParams{SessionID: s.ID(), ToMessageID: userIDs(s)[0], What: agentproto.RewindCode})
	if err != nil {
		t.Fatal(err)
	}
	root := m.ws.Root()
	if got := readWS(t, m, "x.txt"); got != "the user's save\n" {
		t.Errorf("x.txt after the rewind = %q, want the user's save kept (result %+v)", got, res)
	}
	if got, err := os.ReadFile(filepath.Join(root, "new.txt")); err != nil || string(got) != "the user's new file\n" {
		t.Errorf("new.txt after the rewind: %q %v, want the user's file kept (result %+v)", got, err, res)
	}
	if _, err := os.Stat(filepath.Join(root, "gone.txt")); !os.IsNotExist(err) {
		t.Errorf("gone.txt, which the user deleted, came back: %v (result %+v)", err, res)
	}
	for _, p := range res.Restored {
		if p == "x.txt" || p == "new.txt" || p == "gone.txt" {
			t.Errorf("%s, the user's change, is reported restored as the command's: restored %v", p, res.Restored)
		}
	}
	conflicts := map[string]bool{}
	for _, c := range res.Conflicts {
		conflicts[c.Path] = true
	}
	for _, p := range []string{"x.txt", "new.txt", "gone.txt"} {
		if !conflicts[p] {
			t.Errorf("%s is not listed as a conflict: conflicts %+v, restored %v", p, res.Conflicts, res.Restored)
		}
	}
	return res
}

// TestRewindKeepsWhatTheUserSavedWhileTheAgentThought: the turn's
// checkpoint is taken; while the model thinks, the user saves x.txt,
// creates new.txt and deletes gone.txt; then the agent runs `true`, a
// command that touches none of them. The command did not make those
// changes: a code rewind of the turn must leave them as the user made
// them and list them as conflicts.
func TestRewindKeepsWhatTheUserSavedWhileTheAgentThought(t *testing.T) {
	t.Parallel()
	const script = `
name: thinking
steps:
  - tool_calls:
      - {id: r, name: run, args: {command: "true"}}
  - text: done
`
	ed := &memEditor{}
	var root string
	m := newThinkingManager(t, script, ed, func(n int) {
		if n == 1 { // the user's editor, while the model thinks
			personChanges(t, root)
		}
	})
	root = m.ws.Root()
	personsFiles(t, root)
	rewindKeepsPersonChanges(t, m, ed, newTestSession(t, m, "build"))
}

// TestRewindKeepsWhatTheUserChangedWhileTheRunQuestionWasOpen: while the
// person reads the question about `touch made.txt` (which can take
// minutes), they save x.txt in the editor (didSave), create new.txt on
// disk without the editor knowing (a shell, an ACP client, which reports
// no save) and delete gone.txt; then they allow the command. Only
// made.txt is the command's: a code rewind of the turn removes it and
// leaves the person's changes as they made them, listed as conflicts.
func TestRewindKeepsWhatTheUserChangedWhileTheRunQuestionWasOpen(t *testing.T) {
	t.Parallel()
	const script = `
name: asked
steps:
  - tool_calls:
      - {id: r, name: run, args: {command: "touch made.txt"}}
  - text: done
`
	var m *Manager
	ed := &memEditor{}
	ed.ask = func(_ context.Context, req AskRequest) (AskReply, error) {
		if req.Permission == nil || req.Permission.Kind != agentproto.PermissionRun {
			return AskReply{Dismissed: true}, nil
		}
		// The person, while the question is shown; the editor reports the save.
		personChanges(t, m.ws.Root())
		m.EditorSaved(filepath.Join(m.ws.Root(), "x.txt"))
		return AskReply{Answers: map[string]any{"decision": string(agentproto.AllowOnce)}}, nil
	}
	m, _ = newTestManager(t, script, ed, nil)
	personsFiles(t, m.ws.Root())
	res := rewindKeepsPersonChanges(t, m, ed, newTestSession(t, m, "build"))
	if _, err := os.Stat(filepath.Join(m.ws.Root(), "made.txt")); !os.IsNotExist(err) {
		t.Errorf("made.txt, the command's own file, survived the rewind: %v (result %+v)", err, res)
	}
}

// TestCommandScansOnlyWhenItStarts: a command costs two walks of the
// workspace, one right before it starts (after the permission) and one
// after it, as it did when the first was taken before the question; a
// command the person rejects starts nothing and walks nothing.
func TestCommandScansOnlyWhenItStarts(t *testing.T) {
	t.Parallel()
	walks := func(decision agentproto.OptionKind) int {
		const script = `
name: asked
steps:
  - tool_calls:
      - {id: r, name: run, args: {command: "true"}}
  - text: done
`
		ed := &memEditor{ask: func(context.Context, AskRequest) (AskReply, error) {
			return AskReply{Answers: map[string]any{"decision": string(decision)}}, nil
		}}
		m, _ := newTestManager(t, script, ed, nil)
		s := newTestSession(t, m, "build")
		if res, err := m.Prompt(context.Background(), PromptRequest{SessionID: s.ID(), Text: "run it"}); err != nil || res.StopReason != agentproto.StopEndTurn {
			t.Fatalf("turn: %+v %v", res, err)
		}
		return m.checkpoints.Walks()
	}
	rejected, allowed := walks(agentproto.RejectOnce), walks(agentproto.AllowOnce)
	if allowed-rejected != 2 {
		t.Errorf("walks: %d with the command allowed, %d with it rejected; want 2 more for the one that ran (one before it, one after)", allowed, rejected)
	}
}
