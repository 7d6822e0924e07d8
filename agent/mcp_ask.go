package agent

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/google/uuid"

	"github.com/agentls/agentls/agent/tools"
	"github.com/agentls/agentls/questions"
)

// maxShownArgs is the most bytes of a call's arguments a question shows.
const maxShownArgs = 4000

// AskMCPCall asks the user whether a mutating MCP tool may run (build mode;
// the guard refuses it in plan mode before this): Allow, Always allow this
// tool (for the session) or Reject, with the arguments shown escaped. A
// tool the user allowed for the session runs unasked. (The permission
// service will take this question over: this is the one place to switch.)
func (e *env) AskMCPCall(ctx context.Context, req tools.MCPCallRequest) (bool, error) {
	s := e.s
	s.mu.Lock()
	always := s.mcpAlways[req.Tool]
	s.mu.Unlock()
	if always {
		return true, nil
	}
	args := string(req.Args)
	if len(args) > maxShownArgs {
		args = args[:maxShownArgs] + "…"
	}
	// A fence longer than any backtick run in the arguments keeps them
	// shown as they are.
	fence := "```"
	for strings.Contains(args, fence) {
		fence += "`"
	}
	text := fmt.Sprintf("Allow the MCP tool `%s` of server `%s` (`%s`)?\n\nArguments:\n%s json\n%s\n%s\n\nThe server's own hints (not trusted): %s.",
		req.ServerTool, req.Server, req.Command, fence, args, fence, req.Hints)
	set, err := questions.New([]questions.Question{{
		Name: "decision", Question: text, Schema: []byte(`{"type":"string","enum":["allow","always","reject"]}`),
		Buttons: []questions.Button{
			{Label: "Allow", Value: "allow", Variant: "primary"},
			{Label: fmt.Sprintf("Always allow %s (this session)", req.Tool), Value: "always", Variant: "secondary"},
			{Label: "Reject", Value: "reject", Variant: "danger"},
		},
		Severity: "major",
	}})
	if err != nil {
		return false, fmt.Errorf("permission question: %w", err)
	}
	id, err := uuid.NewV7()
	if err != nil {
		return false, err
	}
	reply, err := s.m.askUser(ctx, AskRequest{SessionID: s.meta.ID, QuestionID: id.String(), Set: set, Purpose: "question", CreatedAt: s.m.now()})
	if errors.Is(err, ErrNoSurface) {
		return false, fmt.Errorf("the editor cannot ask for permission to run MCP tools; list the tool in mcp.read_only only if it changes nothing")
	}
	if err != nil || reply.Dismissed {
		return false, err
	}
	switch reply.Answers["decision"] {
	case "allow":
		return true, nil
	case "always":
		s.mu.Lock()
		if s.mcpAlways == nil {
			s.mcpAlways = map[string]bool{}
		}
		s.mcpAlways[req.Tool] = true
		s.mu.Unlock()
		return true, nil
	}
	return false, nil
}
