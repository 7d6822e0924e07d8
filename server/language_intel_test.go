package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agentls/agentls/agent/intel"
	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/config"
	"github.com/agentls/agentls/host"
	"github.com/agentls/agentls/langpool"
	"github.com/agentls/agentls/workspace"

	"github.com/agentls/agentls/internal/lspclient"
	"github.com/agentls/agentls/internal/realservers"
	"github.com/agentls/agentls/server/internal/lsptest"
)

// goModule is the workspace of the language-intelligence tests: main.go
// has a problem from the start (an unused variable, line 6) and calls
// Greet, declared in greet.go on line 4.
func goModule() map[string]string {
	return map[string]string{
		"go.mod":   "module example.com/m\n\ngo 1.22\n",
		"main.go":  "package main\n\nimport \"fmt\"\n\nfunc main() {\n\tunused := 1\n\tfmt.Println(Greet(\"x\"))\n}\n",
		"greet.go": "package main\n\n// Greet greets.\nfunc Greet(name string) string { return \"hello \" + name }\n",
	}
}

// poolOpts are initializationOptions serving Go with the real gopls.
func poolOpts(t *testing.T) map[string]any {
	return map[string]any{"lsp": map[string]any{
		"servers":   map[string]any{"go": map[string]any{"command": []string{realservers.Gopls(t)}}},
		"settle_ms": 30000, // a loaded machine: settling ends at 200 ms of quiet anyway
	}}
}

// result is a tool call's result as the model saw it.
func result(t *testing.T, h *lsptest.Env, id string) (string, map[string]any) {
	t.Helper()
	status, out := h.ToolOutput(id)
	r, _ := out["result"].(map[string]any)
	return status, r
}

// TestEditorsTruthThroughThePool: a plain editor (no languageIntel): gopls
// in agentls's pool. The plan is built on gopls's definition (not a grep
// hit), rename is refused in plan mode, the edit's type error comes back in
// the same result (the old problem never does), the tick is refused until
// the fix, then it lands.
func TestEditorsTruthThroughThePool(t *testing.T) {
	h := lsptest.Start(t, lsptest.Setup{
		Script:   loadScript(t, "language_intel.yaml"),
		Files:    goModule(),
		Handlers: lspclient.Handlers{AskUser: approveAll},
		InitOpts: poolOpts(t),
	})
	s := h.NewSession("plan")
	if r := h.Prompt(s.SessionID, "greet someone else"); r.StopReason != "end_turn" {
		t.Fatalf("prompt = %+v (%v)", r, r.Error)
	}
	checkEditorsTruth(t, h)
}

func checkEditorsTruth(t *testing.T, h *lsptest.Env) {
	t.Helper()
	if h.Model.Remaining() != 0 {
		t.Fatalf("script has %d steps left", h.Model.Remaining())
	}
	status, def := result(t, h, "d1")
	locs, _ := def["locations"].([]any)
	if status != "completed" || len(locs) != 1 || fmt.Sprint(locs[0].(map[string]any)["path"]) != "greet.go" || fmt.Sprint(locs[0].(map[string]any)["line"]) != "4" {
		t.Fatalf("definition in plan mode = %s %v, want gopls's one location greet.go:4", status, def)
	}
	if status, out := h.ToolOutput("r1"); status != "failed" || out["refusal"] == nil {
		t.Fatalf("rename in plan mode = %s %v, want the guard's refusal", status, out)
	}
	if !strings.Contains(h.Read("greet.go"), "func Greet") {
		t.Fatal("a plan-mode rename changed greet.go")
	}
	_, edit := result(t, h, "e1")
	diags, _ := edit["diagnostics"].(map[string]any)
	fresh, _ := diags["new"].([]any)
	if len(fresh) != 1 || diags["settled"] != true {
		t.Fatalf("the breaking edit's diagnostics = %v, want one new problem, settled", edit["diagnostics"])
	}
	p := fresh[0].(map[string]any)
	if p["path"] != "main.go" || fmt.Sprint(p["line"]) != "7" || p["severity"] != "error" || p["source"] != "compiler" || !strings.Contains(fmt.Sprint(p["message"]), "42") {
		t.Fatalf("new problem = %v, want main.go:7 error from the compiler about 42", p)
	}
	if status, out := h.ToolOutput("t1"); status != "failed" || !strings.Contains(fmt.Sprint(out["error"]), "main.go:7: error") || strings.Contains(fmt.Sprint(out["error"]), "unused") {
		t.Fatalf("tick with a new error = %s %v, want refused naming main.go:7 only", status, out)
	}
	checkTickRefusedPlanUpdate(t, h)
	_, fix := result(t, h, "e2")
	if b, _ := json.Marshal(fix["diagnostics"]); string(b) != `{"new":[],"settled":true}` {
		t.Fatalf("the fixing edit's diagnostics = %s, want none new, settled", b)
	}
	if status, _ := h.ToolOutput("t2"); status != "completed" || !strings.Contains(h.Read("plans/greet.plan"), "- [x] Change the greeting") {
		t.Fatalf("tick after the fix = %s; plan:\n%s", status, h.Read("plans/greet.plan"))
	}
}

// checkTickRefusedPlanUpdate: exactly one agent/update plan carries the
// refused tick (the step still open, the step's text and main.go:7's
// error), and the plan updates after it carry none.
func checkTickRefusedPlanUpdate(t *testing.T, h *lsptest.Env) {
	t.Helper()
	var refused []agentproto.PlanUpdate
	after := 0
	for _, raw := range h.Messages("agent/update") {
		var n struct {
			Update json.RawMessage `json:"update"`
		}
		var kind struct {
			SessionUpdate string `json:"sessionUpdate"`
		}
		if json.Unmarshal(raw, &n) != nil || json.Unmarshal(n.Update, &kind) != nil || kind.SessionUpdate != "plan" {
			continue
		}
		var u agentproto.PlanUpdate
		if err := json.Unmarshal(n.Update, &u); err != nil {
			t.Fatalf("plan update %s: %v", n.Update, err)
		}
		switch {
		case u.TickRefused != nil:
			refused = append(refused, u)
		case len(refused) > 0:
			after++
		}
	}
	if len(refused) != 1 || after == 0 {
		t.Fatalf("plan updates with tickRefused: %d (then %d without), want one, then the later ones without", len(refused), after)
	}
	u := refused[0]
	r := u.TickRefused
	if len(r.Steps) != 1 || r.Steps[0] != "Change the greeting" || len(r.Problems) != 1 || r.Problems[0].Path != "main.go" || r.Problems[0].Line != 7 || r.Problems[0].Source != "compiler" || !strings.Contains(r.Message, "step not ticked") {
		t.Fatalf("the refused tick's plan update: %+v, want the step and main.go:7's compiler error", r)
	}
	if len(u.Entries) == 0 || u.Entries[0].Content != "Change the greeting" || u.Entries[0].Status == agentproto.EntryCompleted {
		t.Fatalf("the refused tick's plan update shows the step %+v, want it still open", u.Entries)
	}
}

// editorWithGopls is a fake editor with gopls attached (its own pool over
// the same folder, reading the files it saved): it answers agent/diagnostics
// and agent/navigate as our plugins do.
func editorWithGopls(t *testing.T, dir string, asked *atomic.Int32) map[string]func(json.RawMessage) (any, error) {
	ws, err := workspace.New(dir)
	if err != nil {
		t.Fatal(err)
	}
	cfg := config.Default()
	cfg.LSP.Servers = map[string]config.LSPServer{"go": {Command: []string{realservers.Gopls(t)}}}
	pool := langpool.New(langpool.Options{Workspace: ws, Config: cfg, Getenv: func(string) string { return "" }, CacheDir: t.TempDir()})
	t.Cleanup(pool.Close)
	return map[string]func(json.RawMessage) (any, error){
		"agent/diagnostics": func(raw json.RawMessage) (any, error) {
			asked.Add(1)
			var p struct {
				URIs []string `json:"uris"`
			}
			if err := json.Unmarshal(raw, &p); err != nil {
				return nil, err
			}
			out := map[string]any{}
			for _, u := range p.URIs {
				path, err := host.PathOfURI(u)
				if err != nil {
					return nil, err
				}
				// Fresh diagnostics of the current text, as an editor's pull
				// request to its language server gives them.
				snap, _, err := intel.Settle(context.Background(), pool, []string{path}, 30*time.Second)
				if err != nil {
					return nil, err
				}
				ds := snap.Files[path]
				if ds == nil {
					ds = []intel.Diagnostic{}
				}
				out[u] = ds
			}
			return map[string]any{"diagnostics": out, "versions": map[string]int{}}, nil
		},
		"agent/navigate": func(raw json.RawMessage) (any, error) {
			var p struct {
				Op       string             `json:"op"`
				URI      string             `json:"uri"`
				Position workspace.Position `json:"position"`
			}
			if err := json.Unmarshal(raw, &p); err != nil {
				return nil, err
			}
			path, err := host.PathOfURI(p.URI)
			if err != nil || p.Op != "definition" {
				return nil, fmt.Errorf("this editor answers definition only (%s %v)", p.Op, err)
			}
			locs, err := pool.Definition(context.Background(), path, p.Position)
			if err != nil {
				return nil, err
			}
			var out []map[string]any
			for _, l := range locs {
				out = append(out, map[string]any{"uri": host.URIOfPath(l.Path), "range": l.Range})
			}
			return map[string]any{"locations": out}, nil
		},
	}
}

// TestEditorsTruthFromTheEditor: an editor that declared
// experimental.agent.languageIntel answers agent/diagnostics and
// agent/navigate; agentls starts no language server of its own and the
// same promises hold.
func TestEditorsTruthFromTheEditor(t *testing.T) {
	dir := t.TempDir()
	var asked atomic.Int32
	caps := lsptest.FullCaps()
	caps["experimental"].(map[string]any)["agent"].(map[string]any)["languageIntel"] = true
	h := lsptest.Start(t, lsptest.Setup{
		Dir:      dir,
		Script:   loadScript(t, "language_intel.yaml"),
		Files:    goModule(),
		Caps:     caps,
		Handlers: lspclient.Handlers{AskUser: approveAll, Requests: editorWithGopls(t, dir, &asked)},
		InitOpts: map[string]any{"lsp": map[string]any{"settle_ms": 30000}},
	})
	s := h.NewSession("plan")
	if r := h.Prompt(s.SessionID, "greet someone else"); r.StopReason != "end_turn" {
		t.Fatalf("prompt = %+v (%v)", r, r.Error)
	}
	checkEditorsTruth(t, h)
	if asked.Load() == 0 {
		t.Fatal("the editor was never asked agent/diagnostics")
	}
}

// TestEditorsTruthPlainEditorLogLines: an editor without the agent
// capability (Neovim without the plugin) sees each new problem as one log
// line.
func TestEditorsTruthPlainEditorLogLines(t *testing.T) {
	accept := func(raw json.RawMessage) any {
		var p struct {
			Actions []map[string]any `json:"actions"`
		}
		_ = json.Unmarshal(raw, &p)
		for _, a := range p.Actions {
			if a["title"] == "Accept & Build" {
				return a
			}
		}
		return nil
	}
	h := lsptest.Start(t, lsptest.Setup{
		Script:   loadScript(t, "language_intel.yaml"),
		Files:    goModule(),
		Caps:     lsptest.PlainCaps(),
		Handlers: lspclient.Handlers{ShowMessageRequest: accept},
		InitOpts: poolOpts(t),
	})
	var res map[string]any
	if err := h.Editor.Call(h.Ctx, "workspace/executeCommand", map[string]any{"command": "agentls.prompt", "arguments": []any{map[string]any{"text": "greet someone else"}}}, &res); err != nil {
		t.Fatal(err)
	}
	h.AwaitMessage("window/logMessage", "[diagnostics] main.go:7: error: cannot use 42")
	h.AwaitShown("Done.") // the turn's final text
	var lines []string
	for _, raw := range h.Messages("window/logMessage") {
		var p struct{ Message string }
		_ = json.Unmarshal(raw, &p)
		if strings.Contains(p.Message, "[diagnostics]") {
			lines = append(lines, p.Message)
		}
	}
	if len(lines) != 1 || strings.Contains(lines[0], "unused") {
		t.Fatalf("diagnostic log lines %q, want the one new problem", lines)
	}
	// The refused tick: a line naming the step, then one a problem.
	var plan []string
	for _, raw := range h.Messages("window/logMessage") {
		var p struct{ Message string }
		_ = json.Unmarshal(raw, &p)
		if strings.Contains(p.Message, "[plan]") {
			plan = append(plan, p.Message)
		}
	}
	if len(plan) != 2 || !strings.Contains(plan[0], "[plan] step “Change the greeting” not ticked") || !strings.Contains(plan[1], "[plan]   main.go:7: error: cannot use 42") {
		t.Fatalf("the refused tick's log lines %q, want the step, then main.go:7's error", plan)
	}
}

// TestCheckModelSaysWhichSourceServes: agent/checkModel lists each file
// type with the source that serves it (the pool's gopls here; none for a
// type whose server is not found) — what :checkhealth and the VS Code
// tooltip show.
func TestCheckModelSaysWhichSourceServes(t *testing.T) {
	h := lsptest.Start(t, lsptest.Setup{Script: "name: idle\nsteps:\n  - text: hi\n", Files: goModule(), InitOpts: poolOpts(t)})
	var res struct {
		LanguageIntel []agentproto.LanguageServing `json:"languageIntel"`
	}
	if err := h.Editor.Call(h.Ctx, "agent/checkModel", map[string]any{}, &res); err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, s := range res.LanguageIntel {
		got[s.FileType] = s.Source + ": " + s.Detail
	}
	if !strings.HasPrefix(got["go"], "pool: "+realservers.Gopls(t)) || !strings.HasPrefix(got["rust"], "none: rust-analyzer not found") {
		t.Fatalf("checkModel languageIntel = %v, want go served by the pool's gopls and rust by none", got)
	}
}

// TestEditSaysWhyNoDiagnostics: a language server that cannot start does
// not fail the edit; its result says why it has no diagnostics.
func TestEditSaysWhyNoDiagnostics(t *testing.T) {
	h := lsptest.Start(t, lsptest.Setup{
		Script: "name: broken-server\nsteps:\n  - tool_calls:\n      - {id: e1, name: edit, args: {path: main.go, old_string: \"Greet(\\\"x\\\")\", new_string: \"Greet(1)\"}}\n  - text: done\n",
		Files:  goModule(),
		InitOpts: map[string]any{"lsp": map[string]any{
			"servers": map[string]any{"go": map[string]any{"command": []string{"/bin/false"}}},
		}},
	})
	s := h.NewSession("build")
	if r := h.Prompt(s.SessionID, "edit"); r.StopReason != "end_turn" {
		t.Fatalf("prompt = %+v (%v)", r, r.Error)
	}
	status, edit := result(t, h, "e1")
	diags, _ := edit["diagnostics"].(map[string]any)
	if status != "completed" || !strings.Contains(h.Read("main.go"), "Greet(1)") || !strings.Contains(fmt.Sprint(diags["error"]), "/bin/false") {
		t.Fatalf("edit = %s %v, want applied, with the diagnostics' error naming the server", status, edit)
	}
}

// TestEditorsTruthEditorWithoutTheMethods: an editor that declared
// languageIntel but answers agent/diagnostics "method not found" (an old
// plugin) is replaced by agentls's pool for the rest of the session: the
// same promises hold.
func TestEditorsTruthEditorWithoutTheMethods(t *testing.T) {
	caps := lsptest.FullCaps()
	caps["experimental"].(map[string]any)["agent"].(map[string]any)["languageIntel"] = true
	h := lsptest.Start(t, lsptest.Setup{
		Script:   loadScript(t, "language_intel.yaml"),
		Files:    goModule(),
		Caps:     caps,
		Handlers: lspclient.Handlers{AskUser: approveAll},
		InitOpts: poolOpts(t),
	})
	s := h.NewSession("plan")
	if r := h.Prompt(s.SessionID, "greet someone else"); r.StopReason != "end_turn" {
		t.Fatalf("prompt = %+v (%v)", r, r.Error)
	}
	checkEditorsTruth(t, h)
	if len(h.Messages("agent/navigate")) == 0 {
		t.Fatal("the editor was never asked: the test proves nothing")
	}
}
