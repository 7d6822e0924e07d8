package server

import (
	"context"

	"github.com/agentls/agentls/agent"
	"github.com/agentls/agentls/agent/llm"
	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/host/agentapi"
)

// The LSP face asks the agent through small interfaces, one a concern,
// declared here where they are used: sessions, turns, plans and
// permissions, for the calls of the face's own handlers (the current
// session, commands, plain editors). The methods whose logic is the
// agent's alone are served once for both faces by host/agentapi, whose
// interfaces list their calls. *agent.Manager implements them all.

// sessions are the agent's sessions: opening, their mode and their checks.
type sessions interface {
	NewSession(ctx context.Context, mode, title string) (agentproto.Session, error)
	LoadSession(ctx context.Context, id string) (agentproto.Session, []llm.Message, error)
	SetMode(ctx context.Context, id, mode string) (agentproto.Session, error)
	CheckModel(ctx context.Context) agentproto.ModelCheck
	Status() agent.Status
}

// turns are a session's turns: prompting, cancelling them all, answering.
type turns interface {
	Prompt(ctx context.Context, req agent.PromptRequest) (agent.TurnResult, error)
	CancelAll()
	Answer(id, questionID string, answers map[string]any) error
	PendingQuestionID(id string) (string, error)
}

// plans are the workspace's plans and their approval.
type plans interface {
	ResolvePlan(ctx context.Context, id, decisionName, reason string) (agentproto.Session, error)
	RequestChanges(ctx context.Context, id string) (agentproto.Session, error)
	BuildPlan(ctx context.Context, p string) (agentproto.Session, error)
	ArchivePlan(ctx context.Context, p string) (string, error)
	PlanChanged(p string)
	AwaitingApproval(rel string) (string, bool)
}

// permissions are what a plan's approval grants (the commands it lets run),
// and the permission questions a plain editor shows, held pending for
// agentls.answer.
type permissions interface {
	ApprovalGrants(id string) (grants []string, ok bool)
	AskApprovalAgain(id string) bool
	agent.QuestionHolder
}

// saves are the files the editor saved, which the agent tells from a
// command's changes (checkpoint attribution).
type saves interface {
	EditorSaved(abs string)
}

// agentServices is the agent as the LSP face uses it: its own calls, and
// those of the face-neutral handlers it carries (host/agentapi).
type agentServices interface {
	agentapi.Services
	sessions
	turns
	plans
	permissions
	saves
}

var _ agentServices = (*agent.Manager)(nil)
