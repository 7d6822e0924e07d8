package acp_test

import (
	"testing"

	sdk "github.com/coder/acp-go-sdk"
	"github.com/google/uuid"
)

// TestTitleFromFirstPromptAndMessageIDs: the first prompt names the
// session (session_info_update, session/list), later prompts do not rename
// it; an agent message's chunks share one UUID messageId, a new message
// (after a tool call) gets another.
func TestTitleFromFirstPromptAndMessageIDs(t *testing.T) {
	t.Parallel()
	r := newRig(t, setup{files: map[string]string{"a.txt": "x\n"}, script: `
steps:
  - text: "Reading"
    tool_calls: [{id: c1, name: read, args: {path: a.txt}}]
  - text: "Done."
  - text: "Again."
`})
	sid := r.newSession().SessionId
	r.mustPrompt(sid, "  Fix the\tlogin bug  \nwith more detail below")
	r.mustPrompt(sid, "second prompt")
	var titles []string
	var ids []string
	r.client.mu.Lock()
	for _, u := range r.client.updates {
		if si := u.Update.SessionInfoUpdate; si != nil && si.Title != nil {
			titles = append(titles, *si.Title)
			if si.UpdatedAt == nil || *si.UpdatedAt == "" {
				t.Error("session_info_update without updatedAt")
			}
		}
		if c := u.Update.AgentMessageChunk; c != nil {
			if c.MessageId == nil {
				t.Errorf("agent chunk without messageId: %+v", c)
				continue
			}
			if _, err := uuid.Parse(*c.MessageId); err != nil {
				t.Errorf("messageId %q: %v", *c.MessageId, err)
			}
			ids = append(ids, *c.MessageId)
		}
	}
	r.client.mu.Unlock()
	if len(titles) != 1 || titles[0] != "Fix the login bug" {
		t.Errorf("titles %q, want one: Fix the login bug", titles)
	}
	if len(ids) < 3 || ids[0] == ids[1] || ids[1] == ids[2] {
		t.Errorf("message ids %q: want a new id per message", ids)
	}
	list, err := r.conn.ListSessions(r.ctx, sdk.ListSessionsRequest{Cwd: &r.dir})
	if err != nil || len(list.Sessions) != 1 || list.Sessions[0].Title == nil || *list.Sessions[0].Title != "Fix the login bug" {
		t.Errorf("session/list: %+v %v", list, err)
	}
}
