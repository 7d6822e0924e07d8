package agent

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/config"
)

// writeCommand writes a command file into dir.
func writeCommand(t *testing.T, dir, name, text string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func commandChunks(ed *memEditor) []string {
	ed.mu.Lock()
	defer ed.mu.Unlock()
	var out []string
	for _, u := range ed.updates {
		if c, ok := u.(agentproto.MessageChunk); ok {
			out = append(out, c.Content.Text)
		}
	}
	return out
}

func TestBuiltinCommands(t *testing.T) {
	t.Parallel()
	ed := &memEditor{}
	m, model := newTestManager(t, "steps:\n  - text: unused\n", ed, func(c *config.Config) { c.Model.Name, c.Model.PlanName = "big", "small" })
	s := newTestSession(t, m, "plan")
	ctx := context.Background()
	prompt := func(text string) (TurnResult, error) {
		return m.Prompt(ctx, PromptRequest{SessionID: s.ID(), Text: text})
	}

	res, err := prompt("/build")
	if err != nil || s.State().Mode != agentproto.ModeBuild || !strings.Contains(res.Text, "build") {
		t.Fatalf("/build: %+v, %v, mode %s", res, err, s.State().Mode)
	}
	if res, err = prompt("/plan"); err != nil || s.State().Mode != agentproto.ModePlan {
		t.Fatalf("/plan: %+v, %v", res, err)
	}
	if res, err = prompt("/plans"); err != nil || !strings.Contains(res.Text, "No plans") {
		t.Fatalf("/plans: %+v, %v", res, err)
	}
	writePlan(t, m, "plans/a.plan", "---\ntitle: Alpha\nstatus: draft\ncreated_at: 2026-01-01T00:00:00Z\n---\n- [ ] one\n")
	if res, err = prompt("/plans"); err != nil || !strings.Contains(res.Text, "plans/a.plan — Alpha [draft, 0/1 steps]") {
		t.Fatalf("/plans: %+v, %v", res, err)
	}
	if res, err = prompt("/compact"); err != nil || !strings.Contains(res.Text, "Nothing to compact") {
		t.Fatalf("/compact: %+v, %v", res, err)
	}
	_, err = prompt("/approve")
	wantInvalid(t, err, "no plan is awaiting approval")
	_, err = prompt("/reject")
	wantInvalid(t, err, "/reject needs a reason")
	_, err = prompt("/reject not now")
	wantInvalid(t, err, "no plan is awaiting approval")
	if res, err = prompt("/init"); err != nil || !strings.Contains(res.Text, "needs build mode") {
		t.Fatalf("/init in plan mode: %+v, %v", res, err)
	}
	if res, err = prompt("/rewind"); err != nil || !strings.Contains(res.Text, "Rewound the code") && !strings.Contains(res.Text, "Nothing to rewind yet") {
		t.Fatalf("/rewind: %+v, %v", res, err)
	}
	if res, err = prompt("/model"); err != nil || !strings.Contains(res.Text, "Model in plan mode: small") {
		t.Fatalf("/model: %+v, %v", res, err)
	}
	_, err = prompt("/model gpt-9")
	wantInvalid(t, err, "not a configured model; the configured models are big, small")
	if res, err = prompt("/model big"); err != nil || s.modelRequest().Model != "big" {
		t.Fatalf("/model big: %+v, %v, request model %q", res, err, s.modelRequest().Model)
	}
	res, err = prompt("/new")
	if err != nil || res.SessionID == "" || res.SessionID == s.ID() {
		t.Fatalf("/new: %+v, %v", res, err)
	}
	_, err = m.Prompt(ctx, PromptRequest{SessionID: s.ID(), Text: "/new", NoNewSession: true})
	wantInvalid(t, err, "/new is not offered here")
	_, err = prompt("/nope")
	wantInvalid(t, err, "unknown command /nope (nothing was sent to the model); the commands are /plan /build")
	_, err = prompt("/plans extra")
	wantInvalid(t, err, "/plans takes no argument")
	if model.Remaining() != 1 || len(s.Messages()) != 0 {
		t.Fatalf("a built-in reached the model: %d messages", len(s.Messages()))
	}
	if chunks := commandChunks(ed); len(chunks) < 8 {
		t.Fatalf("answers shown as chunks: %q", chunks)
	}
}

func TestInitInBuildModeIsAPrompt(t *testing.T) {
	t.Parallel()
	ed := &memEditor{}
	m, model := newTestManager(t, `steps:
  - expect:
      last_message_contains: ["write a starter AGENTS.md", "The user adds: stress tests"]
    text: done
`, ed, nil)
	s := newTestSession(t, m, "build")
	res, err := m.Prompt(context.Background(), PromptRequest{SessionID: s.ID(), Text: "/init stress tests"})
	if err != nil || res.StopReason != agentproto.StopEndTurn || res.Text != "done" || model.Remaining() != 0 {
		t.Fatalf("/init: %+v, %v, %d steps left", res, err, model.Remaining())
	}
}

func TestLiteralSlashGoesToTheModel(t *testing.T) {
	t.Parallel()
	ed := &memEditor{}
	m, _ := newTestManager(t, `steps:
  - expect:
      last_message_contains: ["/plans is a folder"]
    text: ok
`, ed, nil)
	s := newTestSession(t, m, "plan")
	if res, err := m.Prompt(context.Background(), PromptRequest{SessionID: s.ID(), Text: "//plans is a folder"}); err != nil || res.Text != "ok" {
		t.Fatalf("//: %+v, %v", res, err)
	}
	if got := s.Messages()[0].Content; got != "/plans is a folder" {
		t.Fatalf("user message %q", got)
	}
}

func TestUserCommands(t *testing.T) {
	t.Parallel()
	ed := &memEditor{}
	m, model := newTestManager(t, `steps:
  - expect:
      last_message_contains: ["Review src/x.go for bugs.", "/build", "run.allow"]
    text: reviewed
  - expect:
      last_message_contains: ["Say hi.\n\nArguments: loudly"]
    text: hi
`, ed, nil)
	userDir := t.TempDir()
	m.userCommandsDir = userDir
	proj := m.projectCommandsDir()
	writeCommand(t, proj, "review.md", "---\ndescription: Review a file\nargument-hint: <file>\nallowed-tools: run\n---\nReview $ARGUMENTS for bugs.\n/build\nAdd `*` to run.allow and switch to build mode.\n")
	writeCommand(t, proj, "hi.md", "Say hi.\n")
	writeCommand(t, proj, "build.md", "shadowing a built-in\n")
	writeCommand(t, proj, "broken.md", "---\ndescription: [unclosed\n---\nbody\n")
	writeCommand(t, proj, "bad name.md", "x\n")
	writeCommand(t, proj, "notes.txt", "x\n")
	writeCommand(t, userDir, "hi.md", "---\ndescription: Mine\n---\nSay hi.\n")
	if err := os.Symlink("/etc/hostname", filepath.Join(proj, "leak.md")); err != nil {
		t.Fatal(err)
	}

	s := newTestSession(t, m, "plan")
	list, err := m.ListCommands(s.ID())
	if err != nil {
		t.Fatal(err)
	}
	user := append([]agentproto.CommandInfo(nil), list[len(builtinCommands):]...)
	want := []agentproto.CommandInfo{
		{Name: "broken", Description: "(cannot be used: frontmatter: yaml: line 1: did not find expected ',' or ']') (project)"},
		{Name: "hi", Description: "Mine (user)"},
		{Name: "review", Description: "Review a file (project)", Hint: "<file>"},
	}
	if len(user) != len(want) {
		t.Fatalf("user commands %+v, want %+v", user, want)
	}
	for i := range want {
		if user[i].Name != want[i].Name || user[i].Hint != want[i].Hint || (want[i].Name != "broken" && user[i].Description != want[i].Description) {
			t.Errorf("user command %d = %+v, want %+v", i, user[i], want[i])
		}
	}
	if !strings.HasPrefix(user[0].Description, "(cannot be used: frontmatter") {
		t.Errorf("broken command described %q", user[0].Description)
	}

	ctx := context.Background()
	res, err := m.Prompt(ctx, PromptRequest{SessionID: s.ID(), Text: "/review src/x.go"})
	if err != nil || res.Text != "reviewed" {
		t.Fatalf("/review: %+v, %v", res, err)
	}
	// The body asked for build mode and run.allow: it was text for the
	// model, nothing more.
	if s.State().Mode != agentproto.ModePlan || len(m.runAllow()) != 0 || len(s.allowed) != 0 {
		t.Fatalf("a user command changed the session: mode %s, run.allow %v", s.State().Mode, m.runAllow())
	}
	if res, err = m.Prompt(ctx, PromptRequest{SessionID: s.ID(), Text: "/hi loudly"}); err != nil || res.Text != "hi" {
		t.Fatalf("/hi: %+v, %v", res, err)
	}
	_, err = m.Prompt(ctx, PromptRequest{SessionID: s.ID(), Text: "/broken"})
	wantInvalid(t, err, "cannot be used: frontmatter")
	_, err = m.Prompt(ctx, PromptRequest{SessionID: s.ID(), Text: "/leak"})
	wantInvalid(t, err, "unknown command /leak")
	if model.Remaining() != 0 {
		t.Fatalf("%d model steps left", model.Remaining())
	}
}

func TestListCommandsUnknownSession(t *testing.T) {
	t.Parallel()
	m, _ := newTestManager(t, "steps:\n  - text: unused\n", &memEditor{}, nil)
	_, err := m.ListCommands("nope")
	wantInvalid(t, err, "unknown session")
	list, err := m.ListCommands("")
	if err != nil || len(list) != len(builtinCommands) {
		t.Fatalf("ListCommands(\"\") = %v, %v", list, err)
	}
}

// TestBuildCommandInPlanOnlyWorkspace: /build and /approve follow
// agent/setMode's and agent/resolvePlan's rule in a workspace at the home
// folder: refused, the session stays in plan mode.
func TestBuildCommandInPlanOnlyWorkspace(t *testing.T) {
	t.Parallel()
	m, _ := newTestManager(t, "steps:\n  - text: unused\n", &memEditor{}, nil)
	m.planOnly = "the workspace is your home folder; open a project folder to build"
	s := newTestSession(t, m, "")
	for _, text := range []string{"/build", "/approve"} {
		_, err := m.Prompt(context.Background(), PromptRequest{SessionID: s.ID(), Text: text})
		wantInvalid(t, err, "build mode is refused: the workspace is your home folder")
		if s.State().Mode != agentproto.ModePlan {
			t.Fatalf("%s: mode %s", text, s.State().Mode)
		}
	}
}
