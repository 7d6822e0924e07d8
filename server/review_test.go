package server_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/agentls/agentls/agent"
	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/internal/lspclient"
	"github.com/agentls/agentls/internal/lspwire"
	"github.com/agentls/agentls/server/internal/lsptest"
)

// annotationCaps are FullCaps with changeAnnotationSupport (VS Code's).
func annotationCaps() map[string]any {
	caps := lsptest.FullCaps()
	caps["workspace"].(map[string]any)["workspaceEdit"] = map[string]any{
		"documentChanges": true, "resourceOperations": []string{"create", "rename", "delete"},
		"changeAnnotationSupport": map[string]any{"groupsOnLabel": true},
	}
	return caps
}

// twoEditsScript edits two files, one call each; the next request must
// list b.txt's edit as declined and a.txt's as applied.
const twoEditsScript = `
name: review
steps:
  - tool_calls:
      - {id: a, name: edit, args: {path: a.txt, old_string: "one", new_string: "ONE"}}
      - {id: b, name: edit, args: {path: b.txt, old_string: "two", new_string: "TWO"}}
  - text: done
    expect:
      tool_result_contains:
        a: ["\"success\":true"]
        b: ["\"success\":false", "\"declined\":[{\"path\":\"b.txt\",\"change\":\"edit\"}]", "declined"]
`

func setReview(t *testing.T, h *lsptest.Env, sid, review string) agent.ReviewInfo {
	t.Helper()
	var out agent.ReviewInfo
	if err := h.Editor.Call(h.Ctx, "agent/setReview", map[string]any{"sessionId": sid, "review": review}, &out); err != nil {
		t.Fatalf("agent/setReview: %v", err)
	}
	return out
}

// TestReviewDeclineOneOfTwo: in review mode each BUILD edit goes out with
// one change annotation per file (label "agentls: <tool> <path>",
// needsConfirmation); the editor (as the VS Code extension does) declines
// b.txt's by its annotation id: exactly a.txt changes, and the model's next
// request says which change was declined.
func TestReviewDeclineOneOfTwo(t *testing.T) {
	var mu sync.Mutex
	var edits []lspwire.WorkspaceEdit
	var h *lsptest.Env
	h = lsptest.Start(t, lsptest.Setup{
		Script: twoEditsScript, Caps: annotationCaps(),
		Files: map[string]string{"a.txt": "one\n", "b.txt": "two\n"},
		Handlers: lspclientHandlers(func(raw json.RawMessage) any {
			var edit lspwire.WorkspaceEdit
			if err := json.Unmarshal(raw, &edit); err != nil {
				return map[string]any{"applied": false, "failureReason": err.Error()}
			}
			mu.Lock()
			edits = append(edits, edit)
			mu.Unlock()
			var declined []string
			var kept []lspwire.DocumentChange
			for _, dc := range edit.DocumentChanges {
				if dc.TextDocument != nil && strings.HasSuffix(dc.TextDocument.URI, "/b.txt") {
					declined = append(declined, dc.AnnotationID)
					continue
				}
				kept = append(kept, dc)
			}
			if len(kept) > 0 {
				b, _ := json.Marshal(lspwire.WorkspaceEdit{DocumentChanges: kept})
				if ok, reason := h.Editor.ApplyToDisk(b); !ok {
					return map[string]any{"applied": false, "failureReason": reason}
				}
			}
			return map[string]any{"applied": true, "_agentls": map[string]any{"declined": declined}}
		}),
	})
	s := h.NewSession("build")
	if got := setReview(t, h, s.SessionID, "edits"); got.Review != "edits" {
		t.Fatalf("setReview = %+v", got)
	}
	if r := h.Prompt(s.SessionID, "go"); r.StopReason != "end_turn" {
		t.Fatalf("prompt = %+v (%s)", r, r.Error)
	}
	if got := h.Read("a.txt"); got != "ONE\n" {
		t.Errorf("a.txt = %q, want the applied edit", got)
	}
	if got := h.Read("b.txt"); got != "two\n" {
		t.Errorf("b.txt = %q, want it untouched (declined)", got)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(edits) != 2 {
		t.Fatalf("%d applyEdit requests, want 2", len(edits))
	}
	for i, name := range []string{"a.txt", "b.txt"} {
		e := edits[i]
		if len(e.ChangeAnnotations) != 1 {
			t.Fatalf("edit %d has annotations %+v, want one", i, e.ChangeAnnotations)
		}
		for id, a := range e.ChangeAnnotations {
			if a.Label != "agentls: edit "+name || !a.NeedsConfirmation {
				t.Errorf("annotation %s = %+v", id, a)
			}
			for _, dc := range e.DocumentChanges {
				if dc.AnnotationID != id {
					t.Errorf("document change %+v does not name the annotation %s", dc, id)
				}
			}
		}
	}
}

// lspclientHandlers answers applyEdit with whole result objects.
func lspclientHandlers(f func(json.RawMessage) any) lspclient.Handlers {
	return lspclient.Handlers{ApplyEditResult: f}
}

// TestReviewDiscardDeclinesAll: "Discard" (applied false, no reason)
// declines the whole edit; the model reads it as declined, not failed.
func TestReviewDiscardDeclinesAll(t *testing.T) {
	h := lsptest.Start(t, lsptest.Setup{
		Script: `
name: discard
steps:
  - tool_calls:
      - {id: w, name: write, args: {path: new.txt, content: "x\n"}}
  - text: done
    expect:
      tool_result_contains:
        w: ["\"declined\":[{\"path\":\"new.txt\",\"change\":\"create\"}]", "nothing of it was applied"]
`, Caps: annotationCaps(),
		Handlers: lspclientHandlers(func(json.RawMessage) any { return map[string]any{"applied": false} }),
	})
	s := h.NewSession("build")
	setReview(t, h, s.SessionID, "edits")
	if r := h.Prompt(s.SessionID, "go"); r.StopReason != "end_turn" {
		t.Fatalf("prompt = %+v (%s)", r, r.Error)
	}
	if _, err := os.Stat(filepath.Join(h.Dir, "new.txt")); !os.IsNotExist(err) {
		t.Fatalf("new.txt exists after Discard: %v", err)
	}
}

// TestReviewInferredFromTheFiles: an editor that answers applied: true
// without naming what it declined (Eclipse, a plain client) — the server
// compares each file with what the edit would make of it: the hunk left
// out makes the edit "partly" declined.
func TestReviewInferredFromTheFiles(t *testing.T) {
	var h *lsptest.Env
	h = lsptest.Start(t, lsptest.Setup{
		Script: `
name: partly
steps:
  - tool_calls:
      - {id: e, name: edit, args: {path: a.txt, old_string: "x", new_string: "y", replace_all: true}}
  - text: done
    expect:
      tool_result_contains:
        e: ["\"declined\":[{\"path\":\"a.txt\",\"change\":\"edit\",\"partly\":true}]"]
`, Caps: annotationCaps(), Files: map[string]string{"a.txt": "x\nkeep\nx\n"},
		Handlers: lspclientHandlers(func(raw json.RawMessage) any {
			var edit lspwire.WorkspaceEdit
			_ = json.Unmarshal(raw, &edit)
			dc := edit.DocumentChanges[0]
			dc.Edits = dc.Edits[:1] // the user unchecked the second hunk
			b, _ := json.Marshal(lspwire.WorkspaceEdit{DocumentChanges: []lspwire.DocumentChange{dc}})
			ok, _ := h.Editor.ApplyToDisk(b)
			return map[string]any{"applied": ok}
		}),
	})
	s := h.NewSession("build")
	setReview(t, h, s.SessionID, "edits")
	if r := h.Prompt(s.SessionID, "go"); r.StopReason != "end_turn" {
		t.Fatalf("prompt = %+v (%s)", r, r.Error)
	}
	if got := h.Read("a.txt"); got != "y\nkeep\nx\n" {
		t.Fatalf("a.txt = %q", got)
	}
}

// TestReviewWithoutAnnotationsAsks: an editor without
// changeAnnotationSupport (Neovim 0.7's plain client) gets one permission
// question per edit call, with the diff; "Reject" declines it, "Apply"
// applies it as a plain edit.
func TestReviewWithoutAnnotationsAsks(t *testing.T) {
	var mu sync.Mutex
	var asked []string
	h := lsptest.Start(t, lsptest.Setup{
		Script: twoEditsScript, Caps: lsptest.PlainCaps(),
		Files: map[string]string{"a.txt": "one\n", "b.txt": "two\n"},
		Handlers: lspclient.Handlers{ShowMessageRequest: func(raw json.RawMessage) any {
			var p struct {
				Message string `json:"message"`
			}
			_ = json.Unmarshal(raw, &p)
			mu.Lock()
			asked = append(asked, p.Message)
			mu.Unlock()
			want := "Apply"
			if strings.Contains(p.Message, "b.txt") {
				want = "Reject"
			}
			return answerAction(raw, want)
		}},
	})
	s := h.NewSession("build")
	setReview(t, h, s.SessionID, "edits")
	if r := h.Prompt(s.SessionID, "go"); r.StopReason != "end_turn" {
		t.Fatalf("prompt = %+v (%s)", r, r.Error)
	}
	if got := h.Read("a.txt"); got != "ONE\n" {
		t.Errorf("a.txt = %q, want the applied edit", got)
	}
	if got := h.Read("b.txt"); got != "two\n" {
		t.Errorf("b.txt = %q, want it untouched (rejected)", got)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(asked) != 2 {
		t.Fatalf("asked %d times, want once per edit: %q", len(asked), asked)
	}
	if !strings.Contains(asked[0], "edit `a.txt`") || !strings.Contains(asked[0], "-one\n+ONE") {
		t.Errorf("the question does not show the edit's diff:\n%s", asked[0])
	}
	for _, raw := range h.Messages("workspace/applyEdit") {
		if strings.Contains(string(raw), "changeAnnotations") {
			t.Errorf("a client without changeAnnotationSupport got annotations: %s", raw)
		}
	}
}

// TestReviewOffAndPersisted: review is off by default (edits apply
// unasked), agent/setReview refuses other values, and the session's choice
// survives a reload.
func TestReviewOffAndPersisted(t *testing.T) {
	h := lsptest.Start(t, lsptest.Setup{})
	s := h.NewSession("build")
	if s.Review != "off" {
		t.Fatalf("a new session's review = %q, want off", s.Review)
	}
	err := h.Editor.Call(h.Ctx, "agent/setReview", map[string]any{"sessionId": s.SessionID, "review": "hunks"}, nil)
	if lsptest.RPCCode(err) != -32602 {
		t.Fatalf("setReview hunks: %v, want -32602", err)
	}
	setReview(t, h, s.SessionID, "edits")
	h.CloseSession(s.SessionID)
	if got := h.LoadSession(s.SessionID); got.Review != "edits" {
		t.Fatalf("reloaded review = %q, want edits", got.Review)
	}
}

// TestReviewPartlyNamedByTheExtension: the VS Code extension names an
// annotation of which only some hunks were applied in `_agentls.partly`.
func TestReviewPartlyNamedByTheExtension(t *testing.T) {
	var h *lsptest.Env
	h = lsptest.Start(t, lsptest.Setup{
		Script: `
name: partly
steps:
  - tool_calls:
      - {id: e, name: edit, args: {path: a.txt, old_string: "x", new_string: "y", replace_all: true}}
  - text: done
    expect:
      tool_result_contains:
        e: ["\"declined\":[{\"path\":\"a.txt\",\"change\":\"edit\",\"partly\":true}]"]
`, Caps: annotationCaps(), Files: map[string]string{"a.txt": "x\nkeep\nx\n"},
		Handlers: lspclient.Handlers{ApplyEditResult: func(raw json.RawMessage) any {
			var edit lspwire.WorkspaceEdit
			_ = json.Unmarshal(raw, &edit)
			dc := edit.DocumentChanges[0]
			dc.Edits = dc.Edits[1:]
			b, _ := json.Marshal(lspwire.WorkspaceEdit{DocumentChanges: []lspwire.DocumentChange{dc}})
			ok, _ := h.Editor.ApplyToDisk(b)
			return map[string]any{"applied": ok, "_agentls": map[string]any{"declined": []string{}, "partly": []string{dc.AnnotationID}}}
		}},
	})
	s := h.NewSession("build")
	setReview(t, h, s.SessionID, "edits")
	if r := h.Prompt(s.SessionID, "go"); r.StopReason != "end_turn" {
		t.Fatalf("prompt = %+v (%s)", r, r.Error)
	}
}

// TestRewindAfterPartlyDeclined: a file the user partly kept in review is
// agentls's own for a rewind (not someone else's change): the turn's
// rewind restores it.
func TestRewindAfterPartlyDeclined(t *testing.T) {
	var h *lsptest.Env
	h = lsptest.Start(t, lsptest.Setup{
		Script: `
name: partly-rewind
steps:
  - tool_calls:
      - {id: e, name: edit, args: {path: a.txt, old_string: "x", new_string: "y", replace_all: true}}
  - text: done
`, Caps: annotationCaps(), Files: map[string]string{"a.txt": "x\nkeep\nx\n"},
		Handlers: lspclient.Handlers{ApplyEditResult: func(raw json.RawMessage) any {
			var edit lspwire.WorkspaceEdit
			_ = json.Unmarshal(raw, &edit)
			if len(edit.ChangeAnnotations) == 0 { // the rewind
				ok, _ := h.Editor.ApplyToDisk(raw)
				return map[string]any{"applied": ok}
			}
			dc := edit.DocumentChanges[0]
			dc.Edits = dc.Edits[:1]
			b, _ := json.Marshal(lspwire.WorkspaceEdit{DocumentChanges: []lspwire.DocumentChange{dc}})
			ok, _ := h.Editor.ApplyToDisk(b)
			return map[string]any{"applied": ok, "_agentls": map[string]any{"declined": []string{}, "partly": []string{dc.AnnotationID}}}
		}},
	})
	s := h.NewSession("build")
	setReview(t, h, s.SessionID, "edits")
	wantStop(t, h.Prompt(s.SessionID, "go"), "end_turn")
	if got := h.Read("a.txt"); got != "y\nkeep\nx\n" {
		t.Fatalf("a.txt = %q", got)
	}
	turn := firstUserMessage(t, h.LoadSession(s.SessionID).Messages)
	res, err := h.Rewind(agentproto.RewindParams{SessionID: s.SessionID, ToMessageID: turn, What: "code"})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Conflicts) != 0 || h.Read("a.txt") != "x\nkeep\nx\n" {
		t.Fatalf("rewind = %+v, a.txt = %q", res, h.Read("a.txt"))
	}
}

// TestReviewLabelEscaped: a file name with a bidi override cannot
// disguise itself in the editor's preview: the annotation's label escapes it.
func TestReviewLabelEscaped(t *testing.T) {
	name := "evil\u202Etxt.go"
	var mu sync.Mutex
	var labels []string
	var h *lsptest.Env
	h = lsptest.Start(t, lsptest.Setup{
		Script: `
name: label
steps:
  - tool_calls:
      - {id: w, name: write, args: {path: "evil\u202Etxt.go", content: "x\n"}}
  - text: done
`, Caps: annotationCaps(),
		Handlers: lspclient.Handlers{ApplyEditResult: func(raw json.RawMessage) any {
			var edit lspwire.WorkspaceEdit
			_ = json.Unmarshal(raw, &edit)
			mu.Lock()
			for _, a := range edit.ChangeAnnotations {
				labels = append(labels, a.Label, a.Description)
			}
			mu.Unlock()
			ok, _ := h.Editor.ApplyToDisk(raw)
			return map[string]any{"applied": ok}
		}},
	})
	s := h.NewSession("build")
	setReview(t, h, s.SessionID, "edits")
	wantStop(t, h.Prompt(s.SessionID, "go"), "end_turn")
	if got := h.Read(name); got != "x\n" {
		t.Fatalf("%q = %q", name, got)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(labels) != 2 || labels[0] != `agentls: write evil\u202Etxt.go` || strings.ContainsRune(labels[0]+labels[1], '\u202E') {
		t.Fatalf("labels = %q", labels)
	}
}
