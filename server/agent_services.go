package server

import (
	"context"

	"github.com/agentls/agentls/agent"
	"github.com/agentls/agentls/agent/llm"
)

// The LSP face asks the agent through small interfaces, one a concern,
// declared here where they are used: sessions, turns, plans and
// permissions. *agent.Manager implements them all; a handler names the
// concern it needs, and a new agent call shows in the one interface of its
// concern.

// sessions are the agent's sessions: opening, listing, naming, their
// settings (mode, model, review) and their checks.
type sessions interface {
	NewSession(ctx context.Context, mode, title string) (agent.Info, error)
	LoadSession(ctx context.Context, id string) (agent.Info, []llm.Message, error)
	ListSessionsOf(includeChildren bool) ([]agent.Info, error)
	CloseSession(ctx context.Context, id string) error
	SetTitle(ctx context.Context, id, title string) (agent.Info, error)
	SetMode(ctx context.Context, id, mode string) (agent.Info, error)
	SetReview(id, review string) (agent.ReviewInfo, error)
	SetModel(ctx context.Context, sessionID, mode, model string) (agent.ModelList, error)
	ListModels(ctx context.Context, sessionID string) (agent.ModelList, error)
	ListCommands(sessionID string) ([]agent.CommandInfo, error)
	CheckModel(ctx context.Context) agent.ModelCheck
	Status() agent.Status
}

// turns are a session's turns: prompting, cancelling, answering, compacting
// and rewinding, and the checkpoints a rewind goes back to.
type turns interface {
	Prompt(ctx context.Context, req agent.PromptRequest) (agent.TurnResult, error)
	Cancel(id string) error
	CancelAll()
	Answer(id, questionID string, answers map[string]any) error
	PendingQuestionID(id string) (string, error)
	Compact(ctx context.Context, id string) (agent.CompactResult, error)
	Rewind(ctx context.Context, req agent.RewindRequest) (agent.RewindResult, error)
	ChangedFiles(ctx context.Context, sessionID, messageID string) ([]agent.ChangedFile, error)
	CheckpointFile(sessionID, messageID, path string) (agent.CheckpointFileText, error)
}

// plans are the workspace's plans and their approval.
type plans interface {
	ListPlans(status string, limit int) ([]agent.PlanInfo, int, error)
	ResolvePlan(ctx context.Context, id, decisionName, reason string) (agent.Info, error)
	RequestChanges(ctx context.Context, id string) (agent.Info, error)
	BuildPlan(ctx context.Context, p string) (agent.Info, error)
	ArchivePlan(ctx context.Context, p string) (string, error)
	PlanChanged(p string)
	AwaitingApproval(rel string) (string, bool)
}

// permissions are what a plan's approval grants (the commands it lets run).
type permissions interface {
	ApprovalGrants(id string) (grants []string, ok bool)
	AskApprovalAgain(id string) bool
}

// agentServices is the agent as the LSP face uses it.
type agentServices interface {
	sessions
	turns
	plans
	permissions
}

var _ agentServices = (*agent.Manager)(nil)
