package agent

import "testing"

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
		o := derivedOutcome(tc.content)
		if o.Status != tc.status || (len(o.Refusal) > 0) != tc.refusal {
			t.Errorf("derivedOutcome(%q) = %s %s, want %s refusal=%v", tc.content, o.Status, o.Refusal, tc.status, tc.refusal)
		}
	}
}
