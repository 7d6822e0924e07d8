package server

import (
	"testing"

	"github.com/agentls/agentls/agent"
	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/permission"
	"github.com/agentls/agentls/questions"
)

// TestPermissionWithdrawalNamesTheQuestion: a withdrawn command is named
// by its one-line question; any other permission by its question's first
// line (or what it allows, without a question); a question that grants
// nothing tells nothing.
func TestPermissionWithdrawalNamesTheQuestion(t *testing.T) {
	mcp := &questions.Set{Questions: []questions.Question{{Name: "decision", Question: "Allow the MCP call `write_note {}`?\n\nNetwork: none"}}}
	tests := []struct {
		name string
		req  agent.AskRequest
		want withdrawal
	}{
		{"a command", agent.AskRequest{Purpose: "permission", Set: &questions.Set{},
			Permission: &permission.Request{Kind: agentproto.PermissionRun, What: "make"}},
			withdrawal{question: "Run `make`?", outcome: "the command did not run"}},
		{"an MCP call", agent.AskRequest{Purpose: "permission", Set: mcp,
			Permission: &permission.Request{Kind: agentproto.PermissionMCP, What: "write_note"}},
			withdrawal{question: "Allow the MCP call `write_note {}`?", outcome: "nothing was allowed"}},
		{"no question", agent.AskRequest{Purpose: "permission", Set: &questions.Set{},
			Permission: &permission.Request{Kind: agentproto.PermissionMCP, What: "write_note"}},
			withdrawal{question: "write_note", outcome: "nothing was allowed"}},
		{"not a permission", agent.AskRequest{Purpose: "question", Set: mcp}, withdrawal{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := permissionWithdrawal(tc.req); got != tc.want {
				t.Errorf("permissionWithdrawal = %+v, want %+v", got, tc.want)
			}
		})
	}
}
