package server_test

import (
	"encoding/json"
	"fmt"
	"net/url"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentls/agentls/internal/lspclient"
	"github.com/agentls/agentls/server/internal/lsptest"
	"github.com/agentls/agentls/workspace"
)

// eglotCaps are a plain editor's capabilities as eglot declares them:
// workspace/applyEdit with documentChanges (so edits name the buffer's
// version), no experimental.agent, so no savesEdits.
func eglotCaps() map[string]any {
	c := lsptest.PlainCaps()
	c["workspace"].(map[string]any)["workspaceEdit"].(map[string]any)["documentChanges"] = true
	return c
}

// eglotApply answers workspace/applyEdit as eglot does: an edit naming a
// version other than the buffer's is refused ("Edits on … require version
// 0, you have 1"); an accepted one changes the open buffer, whose version
// moves on, and is reported back (didChange) only later, after the answer,
// as eglot does when idle. typed, when set, is what the user types into
// the buffer before that report (once, after the first accepted edit).
func eglotApply(h **lsptest.Env, typed *workspace.TextEdit) func(json.RawMessage) (bool, string) {
	var once sync.Once
	// eglot's idle time before it reports (eglot-send-changes-idle-time):
	// what the user types is reported with the edit, later than the
	// agent's next edit is made.
	idle := 100 * time.Millisecond
	if typed != nil {
		idle = 1500 * time.Millisecond
	}
	return func(raw json.RawMessage) (bool, string) {
		var edit struct {
			DocumentChanges []struct {
				TextDocument *struct {
					URI     string `json:"uri"`
					Version *int32 `json:"version"`
				} `json:"textDocument"`
			} `json:"documentChanges"`
		}
		if err := json.Unmarshal(raw, &edit); err != nil {
			return false, err.Error()
		}
		var open []string
		for _, dc := range edit.DocumentChanges {
			if dc.TextDocument == nil {
				continue
			}
			u, err := url.Parse(dc.TextDocument.URI)
			if err != nil {
				return false, err.Error()
			}
			rel, err := filepath.Rel((*h).Dir, filepath.FromSlash(u.Path))
			if err != nil {
				return false, err.Error()
			}
			rel = filepath.ToSlash(rel)
			if _, ok := (*h).Editor.Buffer(rel); ok {
				open = append(open, rel)
			}
			if dc.TextDocument.Version == nil {
				continue
			}
			if have := (*h).Editor.Version(rel); *dc.TextDocument.Version != have {
				return false, fmt.Sprintf("Edits on %s require version %d, you have %d", rel, *dc.TextDocument.Version, have)
			}
		}
		ok, reason := (*h).Editor.ApplyToDisk(raw) // the open buffer takes the text edits
		if ok && len(open) > 0 {
			env := *h
			go func() { // reported when idle, after the answer
				time.Sleep(idle) // the editor's idle timer, not a wait for a result
				for _, rel := range open {
					if typed != nil {
						once.Do(func() { _ = env.Editor.Type(rel, *typed) })
					}
					_ = env.Editor.Report(env.Ctx, rel)
				}
			}()
		}
		return ok, reason
	}
}

// TestPlainEditorOpenPlanChangesOnlyInItsBuffer: a plan open in a plain
// editor (eglot) is rewritten twice in a row, the second edit leaving before
// the editor reported the first one back. Both reach the buffer through
// workspace/applyEdit (the second waits for the editor's report and names
// the version it reported: the stale one eglot would refuse), and the file is never written behind the buffer: Emacs then
// asked "lens.plan changed on disk; really edit the buffer?" when the user
// saved it. The user saves the plan as any buffer (docs/editors.md).
func TestPlainEditorOpenPlanChangesOnlyInItsBuffer(t *testing.T) {
	t.Parallel()
	h := twoPlanEdits(t, nil, `'"success":true'`)
	want := strings.Replace(strings.Replace(lensPlan, "Ship it.", "Ship it today.", 1), "- [ ] two", "- [ ] two, twice", 1)
	if buf, _ := h.Editor.Buffer(openPlan); buf != want {
		t.Fatalf("buffer =\n%s\nwant\n%s", buf, want)
	}
	if got := h.Read(openPlan); got != lensPlan {
		t.Fatalf("the plan was written behind its open buffer:\n%s", got)
	}
}

// TestPlainEditorTypingMeanwhileRefusesTheStaleEdit: the user types into
// the open plan before eglot reported the agent's first edit; the agent's
// second edit, made for the text without the typing, is refused with the
// reason (the model reads the file again) instead of landing a few
// characters off, and the buffer keeps the first edit and the typing.
func TestPlainEditorTypingMeanwhileRefusesTheStaleEdit(t *testing.T) {
	t.Parallel()
	typed := workspace.TextEdit{Range: workspace.Range{}, NewText: "<!-- mine -->\n"}
	h := twoPlanEdits(t, &typed, `'changed in the editor while the agent edited it'`)
	want := "<!-- mine -->\n" + strings.Replace(lensPlan, "Ship it.", "Ship it today.", 1)
	if buf, _ := h.Editor.Buffer(openPlan); buf != want {
		t.Fatalf("buffer =\n%s\nwant (the first edit and the typing, nothing misplaced)\n%s", buf, want)
	}
}

// openPlan is the plan the eglot-like editor has open.
const openPlan = "plans/lens.plan"

// twoPlanEdits runs a plan-mode turn of two plan_edits in a row on the plan
// open in an eglot-like editor (eglotApply, typed as there) and returns
// once it ended; wantSecond is what the second edit's result must hold.
func twoPlanEdits(t *testing.T, typed *workspace.TextEdit, wantSecond string) *lsptest.Env {
	t.Helper()
	var h *lsptest.Env
	h = lsptest.Start(t, lsptest.Setup{
		Caps:     eglotCaps(),
		Files:    map[string]string{openPlan: lensPlan},
		Handlers: lspclient.Handlers{ApplyEdit: eglotApply(&h, typed)},
		Script: `
name: open_plan_twice
steps:
  - tool_calls:
      - {id: a, name: plan_edit, args: {path: plans/lens.plan, old_string: "Ship it.", new_string: "Ship it today."}}
  - expect:
      tool_result_contains: {a: ['"success":true']}
    tool_calls:
      - {id: b, name: plan_edit, args: {path: plans/lens.plan, old_string: "- [ ] two", new_string: "- [ ] two, twice"}}
  - expect:
      tool_result_contains: {b: [` + wantSecond + `]}
    text: done
`,
	})
	if err := h.Editor.Open(h.Ctx, openPlan, lensPlan); err != nil {
		t.Fatal(err)
	}
	s := h.NewSession("plan")
	wantStop(t, h.Prompt(s.SessionID, "revise the plan"), "end_turn")
	if h.Model.Remaining() != 0 {
		t.Fatalf("script has %d steps left", h.Model.Remaining())
	}
	return h
}
