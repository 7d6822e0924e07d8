package agent

import (
	"context"

	"github.com/agentls/agentls/agent/tools"
)

// TerminalRunner is an Editor with a terminal of its own (ACP's
// terminal/*): the run tool's commands run there, where the user watches
// them.
type TerminalRunner interface {
	RunInTerminal(ctx context.Context, sessionID string, job tools.TerminalJob) (res tools.TerminalResult, handled bool, err error)
}

var _ tools.Terminal = (*env)(nil)

// RunInTerminal hands a command to the editor's terminal, if it has one.
func (e *env) RunInTerminal(ctx context.Context, job tools.TerminalJob) (tools.TerminalResult, bool, error) {
	t, ok := e.s.m.editor.(TerminalRunner)
	if !ok {
		return tools.TerminalResult{}, false, nil
	}
	return t.RunInTerminal(ctx, e.s.faceID(), job)
}
