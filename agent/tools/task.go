package tools

import (
	"context"
	"strings"

	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/guard"
)

// TaskParams are the arguments of task.
type TaskParams struct {
	Kind   string   `json:"kind" description:"explore, build (build mode), or a user kind."`
	Prompt string   `json:"prompt" description:"All it needs: it sees nothing else."`
	Steps  []string `json:"steps,omitempty"`
	// MaxTurns may only lower the configured budget.
	MaxTurns int `json:"max_turns,omitempty"`
}

// TaskRequest is one task call as the session runs it.
type TaskRequest struct {
	Kind, Prompt string
	Steps        []string
	MaxTurns     int
}

// TaskResult is what the parent's model reads of a sub-agent: its status
// (completed, budget_exhausted, cancelled, error), its final answer inside
// the data fence, the model requests and tokens it spent, and its session.
type TaskResult struct {
	Status  string `json:"status"`
	Answer  string `json:"answer"`
	Turns   int    `json:"turns"`
	Tokens  int    `json:"tokens"`
	Session string `json:"session"`
}

// TaskRunner is an Env that can start sub-agents (the agent's sessions).
type TaskRunner interface {
	RunTask(ctx context.Context, req TaskRequest) (Result, error)
}

// runTask runs task.
func runTask(ctx context.Context, env Env, p TaskParams) (Result, error) {
	r, ok := env.(TaskRunner)
	if !ok {
		return Failf("sub-agents are not available here"), nil
	}
	if strings.TrimSpace(p.Kind) == "" || strings.TrimSpace(p.Prompt) == "" {
		return Failf("task needs a kind and a prompt"), nil
	}
	if p.MaxTurns < 0 {
		return Failf("max_turns must be positive"), nil
	}
	return r.RunTask(ctx, TaskRequest{Kind: strings.TrimSpace(p.Kind), Prompt: p.Prompt, Steps: p.Steps, MaxTurns: p.MaxTurns})
}

// taskTool starts a sub-agent. It is read-only and unattended itself: it
// changes nothing, and every call its sub-agent makes goes through the
// guard under the root session's mode, read at that call. Several explore
// tasks of one step run in parallel like other read-only calls.
var taskTool = New(Def[TaskParams]{Name: "task", Kind: "think", Run: runTask,
	Title: func(p TaskParams) string { return title("task", p.Kind) },
	Guard: guard.Decl{Class: guard.ClassReadOnly, Kind: guard.KindReadOnly, Interaction: guard.Unattended, Plan: guard.OfferedInPlan, Reach: agentproto.ReachWorkspace,
		Paths: guard.NoPaths()},
})
