package server_test

import (
	"encoding/json"
	"net/url"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/internal/lspclient"
	"github.com/agentls/agentls/server/internal/lsptest"
	"github.com/agentls/agentls/workspace"
)

// This file proves that plan writes never corrupt the plan (issue 24): the
// builder ticks the last step and sets `implemented` in one response, as
// plan_edit's description tells it, while agentls itself marks a plan whose
// steps are all ticked implemented and the editor saves in between. Before
// the plan had one owner, two diffs computed on the same `approved` text
// reached the editor and the frontmatter read `status: implementented`.

// savingEditor answers workspace/applyEdit as an editor that applies the
// edit to its open buffer (one didChange per text edit, as VS Code reports
// it) and saves (didSave), then answers. The n-th edit (from 1) waits for
// first(n) before it is applied and for saved(n) between the save and the
// answer, when they are set.
type savingEditor struct {
	h            *lsptest.Env
	mu           sync.Mutex
	n            int
	first, saved func(n int)
}

// apply is the lspclient ApplyEdit handler.
func (e *savingEditor) apply(raw json.RawMessage) (bool, string) {
	e.mu.Lock()
	e.n++
	n := e.n
	e.mu.Unlock()
	if e.first != nil {
		e.first(n)
	}
	var edit struct {
		Changes         map[string][]workspace.TextEdit `json:"changes"`
		DocumentChanges []struct {
			TextDocument *struct {
				URI string `json:"uri"`
			} `json:"textDocument"`
			Edits []workspace.TextEdit `json:"edits"`
		} `json:"documentChanges"`
	}
	if err := json.Unmarshal(raw, &edit); err != nil {
		return false, err.Error()
	}
	byURI := edit.Changes
	if byURI == nil {
		byURI = map[string][]workspace.TextEdit{}
	}
	for _, dc := range edit.DocumentChanges {
		if dc.TextDocument == nil {
			return false, "this editor applies text edits only"
		}
		byURI[dc.TextDocument.URI] = append(byURI[dc.TextDocument.URI], dc.Edits...)
	}
	for uri, edits := range byURI {
		u, err := url.Parse(uri)
		if err != nil {
			return false, err.Error()
		}
		rel, err := filepath.Rel(e.h.Dir, filepath.FromSlash(u.Path))
		if err != nil {
			return false, err.Error()
		}
		rel = filepath.ToSlash(rel)
		// Last edit first: each stays valid against the text it was made on.
		sort.SliceStable(edits, func(i, j int) bool { return after(edits[i].Range.Start, edits[j].Range.Start) })
		for _, te := range edits {
			if err := e.h.Editor.Change(e.h.Ctx, rel, te); err != nil {
				return false, err.Error()
			}
		}
		if err := e.h.Editor.Save(e.h.Ctx, rel); err != nil {
			return false, err.Error()
		}
	}
	if e.saved != nil {
		e.saved(n)
	}
	return true, ""
}

// after reports whether a is after b.
func after(a, b workspace.Position) bool {
	return a.Line > b.Line || a.Line == b.Line && a.Character > b.Character
}

// TestBuilderTickAndStatusNeverCorruptThePlan: the builder ticks the last
// step and sets implemented in one response; the editor applies and saves
// each edit, so the user's save reaches agentls while its tick is still
// being applied (the plan's `plan` update of that save is out before the
// editor answers). The plan ends `status: implemented`, with both steps
// ticked, in the buffer and on disk, and the model's status is a no-op.
func TestBuilderTickAndStatusNeverCorruptThePlan(t *testing.T) {
	t.Parallel()
	const rel = "plans/race.plan"
	approved := withStatus(lensPlan, "approved")
	want := strings.Replace(withStatus(lensPlan, "implemented"), "- [ ] two", "- [x] two", 1)

	ed := &savingEditor{}
	saveReported := make(chan struct{}) // the plan update of the editor's save
	var reportOnce sync.Once
	third := make(chan struct{}) // a third plan edit reached the editor
	var thirdOnce sync.Once
	ed.saved = func(n int) {
		if n == 1 {
			// The tick: answer once agentls has heard of the save (its plan
			// update with every step ticked), as a slower editor would.
			select {
			case <-saveReported:
			case <-ed.h.Ctx.Done():
			}
		}
	}
	ed.first = func(n int) {
		switch n {
		case 2:
			// A second edit while a writer may still compute on the old
			// text: let that one arrive first, if it comes at all (the
			// bound is for an agentls that sends none).
			select {
			case <-third:
			case <-time.After(10 * time.Second):
			case <-ed.h.Ctx.Done():
			}
		case 3:
			thirdOnce.Do(func() { close(third) })
		}
	}
	h := lsptest.Start(t, lsptest.Setup{
		Files: map[string]string{rel: approved},
		Handlers: lspclient.Handlers{
			ApplyEdit: ed.apply,
			OnMessage: func(m lspclient.Message) {
				if m.Method != "agent/update" {
					return
				}
				var p struct {
					Update agentproto.PlanUpdate `json:"update"`
				}
				if json.Unmarshal(m.Params, &p) != nil || p.Update.SessionUpdate != "plan" || len(p.Update.Entries) != 2 {
					return
				}
				for _, e := range p.Update.Entries {
					if e.Status != "completed" {
						return
					}
				}
				reportOnce.Do(func() { close(saveReported) })
			},
		},
		Script: `
name: tick-and-status
steps:
  - tool_calls:
      - {id: tick, name: plan_edit, args: {path: plans/race.plan, old_string: "- [ ] two", new_string: "- [x] two"}}
      - {id: status, name: plan_edit, args: {path: plans/race.plan, status: implemented}}
  - text: done
    expect:
      tool_result_contains: {tick: ['"success":true', '"status":"implemented"'], status: ['"success":true']}
`,
	})
	ed.h = h
	var s agentproto.Session
	if err := command(h, "agentls.buildPlan", map[string]any{"path": rel}, &s); err != nil {
		t.Fatalf("buildPlan: %v", err)
	}
	if err := h.Editor.Open(h.Ctx, rel, approved); err != nil {
		t.Fatal(err)
	}
	if r := h.Prompt(s.SessionID, "build it"); r.StopReason != "end_turn" {
		t.Fatalf("prompt = %+v", r)
	}
	if h.Model.Remaining() != 0 {
		t.Fatalf("script has %d steps left", h.Model.Remaining())
	}
	if b, _ := h.Editor.Buffer(rel); b != want {
		t.Fatalf("buffer =\n%s\nwant\n%s", b, want)
	}
	if got := h.Read(rel); got != want {
		t.Fatalf("saved plan =\n%s\nwant\n%s", got, want)
	}
}
