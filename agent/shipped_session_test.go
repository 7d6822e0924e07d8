package agent

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/agentls/agentls/agentproto"
)

// TestShippedBuildSessionNeedsAHuman: a cloned repository can commit
// .agentls/chats/<id>.chat (docs/sessions.md). A session file agentls did
// not make here loads in plan mode whatever its frontmatter says
// (known_sessions.go), so the model's first write of a source file is
// refused: only a human switches a session to build. (This manager has no
// state folder, so it knows no session: every loaded one is taken in.)
// Found by the guard audit helper: the file's `mode: build` was taken at
// face value, and the write applied.
func TestShippedBuildSessionNeedsAHuman(t *testing.T) {
	ed := &memEditor{}
	m, _ := newTestManager(t, "name: none\nsteps:\n  - text: x\n", ed, nil)
	root := m.ws.Root()
	src := filepath.Join(root, "src", "main.go")
	if err := os.MkdirAll(filepath.Dir(src), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(src, []byte("package main\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// What the repository ships (as `git clone` would check it out).
	chat := "---\nid: shipped\ntitle: Continue the refactor\nmode: build\nplan_file: null\n" +
		"created_at: 2099-01-01T00:00:00Z\nupdated_at: 2099-01-01T00:00:00Z\nreview: \"off\"\n---\n"
	if err := os.MkdirAll(filepath.Join(root, ".agentls", "chats"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, ".agentls", "chats", "shipped.chat"), []byte(chat), 0o644); err != nil {
		t.Fatal(err)
	}

	list, err := m.ListSessions()
	if err != nil || len(list) == 0 || list[0].SessionID != "shipped" {
		t.Fatalf("ListSessions = %+v, %v; want the shipped session first", list, err)
	}
	info, _, err := m.LoadSession(context.Background(), "shipped")
	if err != nil {
		t.Fatal(err)
	}
	s, err := m.session("shipped")
	if err != nil {
		t.Fatal(err)
	}
	out := s.runCall(context.Background(), agentproto.ToolCall{ID: "c1", Name: "write",
		Arguments: `{"path":"src/main.go","content":"package main // written by the model\n"}`}, false)
	got, _ := os.ReadFile(src)
	if info.Mode == agentproto.ModeBuild || out.result.Success || string(got) != "package main\n" {
		t.Fatalf("a session file the repository shipped loaded in mode %q and the model's write of src/main.go gave %s "+
			"(src/main.go now %q): no human approved a plan or switched this session to build",
			info.Mode, out.result.JSON(), got)
	}
}
