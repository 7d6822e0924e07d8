package sessionstore

import (
	"testing"
	"time"
)

// TestChatFrontBytes pins the frontmatter's bytes: plan_file null when no
// plan is attached, entered_at left out when unknown, times in UTC, the
// keys in this order. A session file written by an older agentls and one
// written now read the same.
func TestChatFrontBytes(t *testing.T) {
	east := time.FixedZone("east", 3600)
	at := time.Date(2026, 11, 26, 14, 0, 0, 0, east)
	tests := []struct {
		name string
		meta Meta
		want string
	}{
		{"bare", Meta{ID: "s1", Title: "New chat", Mode: "plan", CreatedAt: at, UpdatedAt: at},
			"---\nid: s1\ntitle: New chat\nmode: plan\nplan_file: null\ncreated_at: 2026-11-26T13:00:00Z\nupdated_at: 2026-11-26T13:00:00Z\n---\n"},
		{"full", Meta{ID: "s2", Title: "t: x", Mode: "build", PlanFile: "plans/a.plan", CreatedAt: at, UpdatedAt: at.Add(time.Hour),
			EnteredAt: at, EnteredReason: "approved", ParentID: "p", ParentToolCallID: "c", Kind: "explore", Review: "edits", PlanModel: "pm", BuildModel: "bm"},
			"---\nid: s2\ntitle: 't: x'\nmode: build\nplan_file: plans/a.plan\ncreated_at: 2026-11-26T13:00:00Z\nupdated_at: 2026-11-26T14:00:00Z\nentered_at: 2026-11-26T13:00:00Z\nentered_reason: approved\nparent_id: p\nparent_tool_call_id: c\nkind: explore\nreview: edits\nplan_model: pm\nbuild_model: bm\n---\n"},
		{"empty plan file string", Meta{ID: "s3", Title: "", Mode: "build", CreatedAt: at, UpdatedAt: at},
			"---\nid: s3\ntitle: \"\"\nmode: build\nplan_file: null\ncreated_at: 2026-11-26T13:00:00Z\nupdated_at: 2026-11-26T13:00:00Z\n---\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := encodeChatFront(tc.meta)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tc.want {
				t.Fatalf("frontmatter\n%s\nwant\n%s", got, tc.want)
			}
			back, _, err := splitChat(append(got, "{}\n"...))
			if err != nil {
				t.Fatal(err)
			}
			want := tc.meta
			want.CreatedAt, want.UpdatedAt = want.CreatedAt.UTC(), want.UpdatedAt.UTC()
			if !want.EnteredAt.IsZero() {
				want.EnteredAt = want.EnteredAt.UTC()
			}
			if back != want {
				t.Fatalf("read back %+v, want %+v", back, want)
			}
		})
	}
}
