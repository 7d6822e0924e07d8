package agent

import (
	"slices"

	"github.com/agentls/agentls/agent/runrules"
	"github.com/agentls/agentls/agent/tools"
)

// runDecision is what the allow rules say about a command before anyone is
// asked (autoAllow).
type runDecision = runrules.Decision

// autoAllow judges a command against run.allow, the plan's
// allowed_commands and this session's "Always allow" answers
// (runrules.Judge); a sub-agent holds no rule of its own: its root's
// answers count.
func (s *Session) autoAllow(req tools.RunRequest) runDecision {
	root := s.rootSession()
	root.mu.Lock()
	session := slices.Clone(root.allowed)
	root.mu.Unlock()
	return runrules.Judge(s.m.ws, req.Command, req.Dir, s.m.runAllow(), session)
}
