package tooloutcome

import (
	"context"
	"strings"
	"testing"

	"github.com/agentls/agentls/agent/tools"
	"github.com/agentls/agentls/guard"
	"github.com/agentls/agentls/questions"
)

// TestDerivedOutcome: a tool result saved before outcomes were kept gets
// its status (and refusal) from the result JSON; anything unreadable is
// failed, never completed.
func TestDerivedOutcome(t *testing.T) {
	for _, tc := range []struct {
		content, status string
		refusal         bool
	}{
		{`{"success":true,"result":1}`, "completed", false},
		{`{"success":false,"error":"x","refusal":{"tool_name":"edit"}}`, "failed", true},
		{`{"success":false,"error":"x","refusal":null}`, "failed", false},
		{`not json`, "failed", false},
		{``, "failed", false},
	} {
		o := Derived(tc.content)
		if o.Status != tc.status || (len(o.Refusal) > 0) != tc.refusal {
			t.Errorf("Derived(%q) = %s %s, want %s refusal=%v", tc.content, o.Status, o.Refusal, tc.status, tc.refusal)
		}
	}
}

// TestRecord: a question asked within a call's context reaches its
// outcome with the reply; one asked outside any call is noted nowhere; a
// refusal and a failure are kept.
func TestRecord(t *testing.T) {
	t.Parallel()
	set := &questions.Set{Questions: []questions.Question{{Name: "branch", Question: "Which branch?"}}}
	NoteAsked(context.Background(), set, map[string]any{"branch": "x"}, false) // outside a call: nothing, no panic

	rec := &Record{}
	ctx := WithRecord(context.Background(), rec)
	NoteAsked(ctx, set, map[string]any{"branch": "main"}, false)
	out := Of(tools.Result{Success: true}, rec)
	if out.Status != "completed" || !strings.Contains(string(out.Questions), `"branch"`) || string(out.Answers) != `{"branch":"main"}` || out.Dismissed {
		t.Fatalf("outcome %+v", out)
	}
	NoteAsked(ctx, set, nil, true)
	if out := Of(tools.Result{Success: false, Refusal: &guard.Refusal{ToolName: "edit"}}, rec); out.Status != "failed" || len(out.Refusal) == 0 || out.Answers != nil || !out.Dismissed {
		t.Fatalf("dismissed outcome %+v", out)
	}
	if out := Of(tools.Result{Success: true}, nil); out.Questions != nil || out.Status != "completed" {
		t.Fatalf("outcome without a record %+v", out)
	}
}

// TestNotes: a note made within a call's context reaches its record in
// order; one made outside any call, or empty, is kept nowhere.
func TestNotes(t *testing.T) {
	t.Parallel()
	Note(context.Background(), "outside") // nothing, no panic
	rec := &Record{}
	ctx := WithRecord(context.Background(), rec)
	Note(ctx, "first")
	Note(ctx, "")
	Note(ctx, "second")
	if got := strings.Join(rec.Notes(), "|"); got != "first|second" {
		t.Fatalf("notes %q", got)
	}
	if (*Record)(nil).Notes() != nil {
		t.Fatal("a nil record has notes")
	}
}
