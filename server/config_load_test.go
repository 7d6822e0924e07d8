package server_test

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/internal/lspclient"
	"github.com/agentls/agentls/server/internal/lsptest"
)

// brokenConfigMessage is the turn error while .agentls.yaml's line 3 is
// broken: the file, the line, the problem and the fix.
const brokenConfigMessage = `.agentls.yaml:3: edits: must be one of auto, client, disk — fix the file; agentls sends no request to the model until it loads`

// TestBrokenConfigFailsClosed: a .agentls.yaml with an error stops every
// model request until it is fixed (the defaults and the other layers do
// not stand in for it): the editor is told at start, each prompt ends with
// stopReason "error" naming the file, line and fix, agent/checkModel says
// the same; sessions still start. Once the saved file loads, requests
// resume with every layer (here initializationOptions' plans folder).
func TestBrokenConfigFailsClosed(t *testing.T) {
	t.Parallel()
	const broken = "plan_mode:\n  default_active: false\nedits: sometimes\n"
	h := lsptest.Start(t, lsptest.Setup{
		Files:    map[string]string{".agentls.yaml": broken},
		InitOpts: map[string]any{"plan_mode": map[string]any{"plans_dir": "docs/plans"}},
		Script: `
name: configured
steps:
  - tool_calls:
      - {id: w, name: plan_write, args: {title: T, content: "## Steps\n- [ ] a\n"}}
  - text: ok
`,
	})
	h.Await(lsptest.Received("window/showMessage"))
	shown := h.Shown()
	if len(shown) != 1 || shown[0].Type != 1 || !strings.Contains(shown[0].Message, "edits: must be one of auto, client, disk") ||
		!strings.Contains(shown[0].Message, "sends no request to the model until it loads") {
		t.Fatalf("showMessage = %+v, want one error saying requests stop", shown)
	}
	s := h.NewSession("")
	if s.Mode != "plan" {
		t.Fatalf("new session mode = %q: the broken file's default_active: false was used", s.Mode)
	}
	for range 2 {
		r := h.Prompt(s.SessionID, "plan")
		if string(r.StopReason) != string(agentproto.StopError) || r.Error == nil || !strings.Contains(r.Error.Message, brokenConfigMessage) {
			t.Fatalf("prompt = %+v (%v), want stopReason error with %q", r, r.Error, brokenConfigMessage)
		}
	}
	if n := h.Model.Remaining(); n != 2 {
		t.Fatalf("%d script steps left, want 2: the model was asked while the file was broken", n)
	}
	var check agentproto.ModelCheck
	if err := h.Editor.Call(h.Ctx, "agent/checkModel", map[string]any{}, &check); err != nil {
		t.Fatal(err)
	}
	if check.OK || !strings.Contains(check.Message, brokenConfigMessage) {
		t.Fatalf("checkModel = %+v, want the file, line and fix", check)
	}

	if err := h.Editor.Open(h.Ctx, ".agentls.yaml", "edits: auto\n"); err != nil {
		t.Fatal(err)
	}
	if err := h.Editor.Save(h.Ctx, ".agentls.yaml"); err != nil {
		t.Fatal(err)
	}
	h.Await(lsptest.ShownContaining("the configuration loads again; model requests resume"))
	if r := h.Prompt(s.SessionID, "plan"); string(r.StopReason) != string(agentproto.StopEndTurn) {
		t.Fatalf("prompt after the fix = %+v", r)
	}
	ok, raw, errText := planToolResult(h, "w")
	var w struct {
		Path string `json:"path"`
	}
	if err := json.Unmarshal(raw, &w); !ok || err != nil {
		t.Fatalf("plan_write: %s %v", errText, err)
	}
	if !regexp.MustCompile(`^docs/plans/[a-z]+-[a-z]+-[a-z]+\.plan$`).MatchString(w.Path) {
		t.Fatalf("plan path %q is not a generated name in docs/plans/", w.Path)
	}
}

// TestBrokenInitOptionsFailClosed: invalid initializationOptions stop model
// requests too, and the error says to fix the editor's settings.
func TestBrokenInitOptionsFailClosed(t *testing.T) {
	t.Parallel()
	h := lsptest.Start(t, lsptest.Setup{
		InitOpts: map[string]any{"model": map[string]any{"base_url": 7}},
		Script:   "name: x\nsteps:\n  - text: never\n",
	})
	s := h.NewSession("")
	r := h.Prompt(s.SessionID, "hi")
	if string(r.StopReason) != string(agentproto.StopError) || r.Error == nil ||
		!strings.Contains(r.Error.Message, "initializationOptions: model.base_url:") ||
		!strings.Contains(r.Error.Message, "fix the editor's initializationOptions; agentls sends no request to the model until it loads") {
		t.Fatalf("prompt = %+v (%v)", r, r.Error)
	}
	if n := h.Model.Remaining(); n != 1 {
		t.Fatalf("the model was asked (%d steps left)", n)
	}
}

// TestBrokenConfigPlainEditor: a plain editor (agentls.prompt, no
// agent/prompt result to read) gets the file, line and fix of each prompt
// as an Error showMessage, and the model is never asked.
func TestBrokenConfigPlainEditor(t *testing.T) {
	t.Parallel()
	h := lsptest.Start(t, lsptest.Setup{
		Caps:   lsptest.PlainCaps(),
		Files:  map[string]string{".agentls.yaml": "model:\n  name: m\nedits: sometimes\n"},
		Script: "name: x\nsteps:\n  - text: never\n",
	})
	if _, err := promptCommand(h, []any{map[string]any{"text": "hello"}}); err != nil {
		t.Fatal(err)
	}
	h.Await(lsptest.MessageMatching("an Error showMessage with the file, line and fix", func(m lspclient.Message) bool {
		var sm lsptest.ShownMessage
		return m.Method == "window/showMessage" && json.Unmarshal(m.Params, &sm) == nil && sm.Type == 1 &&
			strings.HasPrefix(sm.Message, "agentls: ") && strings.Contains(sm.Message, brokenConfigMessage)
	}))
	if n := h.Model.Remaining(); n != 1 {
		t.Fatalf("the model was asked (%d steps left)", n)
	}
}
