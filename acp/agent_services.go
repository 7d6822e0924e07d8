package acp

import (
	"context"

	"github.com/agentls/agentls/agent"
	"github.com/agentls/agentls/agent/llm"
	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/host/agentapi"
)

// The ACP face asks the agent through small interfaces, one a concern,
// declared here where they are used (as the LSP face's, server's
// agent_services.go): sessions and turns. *agent.Manager implements them.

// sessions are the agent's sessions: opening, listing, deleting, their
// settings (mode, model, review) and their checks.
type sessions interface {
	NewSession(ctx context.Context, mode, title string) (agentproto.Session, error)
	LoadSession(ctx context.Context, id string) (agentproto.Session, []llm.Message, error)
	ListSessions() ([]agentproto.Session, error)
	SessionInfo(id string) (agentproto.Session, error)
	CloseSession(ctx context.Context, id string) error
	DeleteSession(ctx context.Context, id string) error
	SetMode(ctx context.Context, id, mode string) (agentproto.Session, error)
	SetReview(id, review string) (agent.ReviewInfo, error)
	SetModel(ctx context.Context, sessionID, mode, model string) (agentproto.ModelList, error)
	SessionModels(sessionID string) (agentproto.CurrentModels, error)
	ListCommands(sessionID string) ([]agentproto.CommandInfo, error)
	CheckModel(ctx context.Context) agentproto.ModelCheck
}

// turns are a session's turns: prompting and cancelling, and whether the
// turn waits for a plan approval (ok of ApprovalGrants).
type turns interface {
	Prompt(ctx context.Context, req agent.PromptRequest) (agent.TurnResult, error)
	Cancel(id string) error
	ApprovalGrants(id string) (grants []string, ok bool)
}

// agentServices is the agent as the ACP face uses it: its own calls, and
// those of the face-neutral handlers it carries (host/agentapi, the
// `_agentls/…` extension methods).
type agentServices interface {
	agentapi.Services
	sessions
	turns
}

var _ agentServices = (*agent.Manager)(nil)
