package acp

import (
	"context"

	"github.com/agentls/agentls/agent"
	"github.com/agentls/agentls/agent/llm"
)

// The ACP face asks the agent through small interfaces, one a concern,
// declared here where they are used (as the LSP face's, server's
// agent_services.go): sessions and turns. *agent.Manager implements them.

// sessions are the agent's sessions: opening, listing, deleting, their
// settings (mode, model, review) and their checks.
type sessions interface {
	NewSession(ctx context.Context, mode, title string) (agent.Info, error)
	LoadSession(ctx context.Context, id string) (agent.Info, []llm.Message, error)
	ListSessions() ([]agent.Info, error)
	SessionInfo(id string) (agent.Info, error)
	CloseSession(ctx context.Context, id string) error
	DeleteSession(ctx context.Context, id string) error
	SetMode(ctx context.Context, id, mode string) (agent.Info, error)
	SetReview(id, review string) (agent.ReviewInfo, error)
	SetModel(ctx context.Context, sessionID, mode, model string) (agent.ModelList, error)
	SessionModels(sessionID string) (agent.CurrentModels, error)
	ListCommands(sessionID string) ([]agent.CommandInfo, error)
	CheckModel(ctx context.Context) agent.ModelCheck
}

// turns are a session's turns: prompting, cancelling, compacting and
// rewinding.
type turns interface {
	Prompt(ctx context.Context, req agent.PromptRequest) (agent.TurnResult, error)
	Cancel(id string) error
	Compact(ctx context.Context, id string) (agent.CompactResult, error)
	Rewind(ctx context.Context, req agent.RewindRequest) (agent.RewindResult, error)
}

// agentServices is the agent as the ACP face uses it.
type agentServices interface {
	sessions
	turns
}

var _ agentServices = (*agent.Manager)(nil)
