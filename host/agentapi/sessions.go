package agentapi

import (
	"context"

	"github.com/agentls/agentls/agent"
	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/internal/protoconv"
)

// Sessions are the agent's sessions as the face-neutral handlers call
// them: listing, closing, naming and their settings (review, model).
type Sessions interface {
	ListSessionsOf(includeChildren bool) ([]agentproto.Session, error)
	CloseSession(ctx context.Context, id string) error
	SetTitle(ctx context.Context, id, title string) (agentproto.Session, error)
	SetReview(id, review string) (agent.ReviewInfo, error)
	ListModels(ctx context.Context, sessionID string) (agentproto.ModelList, error)
	SetModel(ctx context.Context, sessionID, mode, model string) (agentproto.ModelList, error)
	ListCommands(sessionID string) ([]agentproto.CommandInfo, error)
	ListPlans(status string, limit int) ([]agentproto.PlanInfo, int, error)
}

var sessionHandlers = []Handler{
	handle(agentproto.ListSessions, listSessions),
	handle(agentproto.CloseSession, closeSession),
	handle(agentproto.SetTitle, setTitle),
	handle(agentproto.SetReview, setReview),
	handle(agentproto.ListModels, listModels),
	handle(agentproto.SetModel, setModel),
	handle(agentproto.ListCommands, listCommands),
	handle(agentproto.ListPlans, listPlans),
}

// listSessions is agent/listSessions: the workspace's sessions, newest
// first.
func listSessions(_ context.Context, a Services, p agentproto.ListSessionsParams) (agentproto.ListSessionsResult, error) {
	list, err := a.ListSessionsOf(p.IncludeChildren)
	return agentproto.ListSessionsResult{Sessions: protoconv.Sessions(list)}, err
}

// closeSession is agent/closeSession: the session's turn ends, this
// process forgets it and releases its lock (another window may load it).
func closeSession(ctx context.Context, a Services, p agentproto.SessionParams) (agentproto.Null, error) {
	return agentproto.Null{}, a.CloseSession(ctx, p.SessionID)
}

// setTitle is agent/setTitle: the session's new title.
func setTitle(ctx context.Context, a Services, p agentproto.SetTitleParams) (agentproto.Session, error) {
	info, err := a.SetTitle(ctx, p.SessionID, p.Title)
	return info, err
}

// setReview is agent/setReview: the session's review mode.
func setReview(_ context.Context, a Services, p agentproto.SetReviewParams) (agentproto.ReviewInfo, error) {
	info, err := a.SetReview(p.SessionID, p.Review)
	return agentproto.ReviewInfo{SessionID: info.SessionID, Review: info.Review}, err
}

// listModels is agent/listModels: the models to choose from and the
// current ones.
func listModels(ctx context.Context, a Services, p agentproto.ListModelsParams) (agentproto.ModelList, error) {
	list, err := a.ListModels(ctx, p.SessionID)
	return protoconv.ModelList(list), err
}

// setModel is agent/setModel: the session's model for a mode.
func setModel(ctx context.Context, a Services, p agentproto.SetModelParams) (agentproto.ModelList, error) {
	list, err := a.SetModel(ctx, p.SessionID, string(p.Mode), p.Model)
	return protoconv.ModelList(list), err
}

// listCommands is agent/listCommands: the slash commands a prompt may
// start with, for the composer's completion.
func listCommands(_ context.Context, a Services, p agentproto.ListCommandsParams) (agentproto.ListCommandsResult, error) {
	list, err := a.ListCommands(p.SessionID)
	return agentproto.ListCommandsResult{Commands: protoconv.Commands(list)}, err
}

// listPlans is agent/listPlans: the workspace's plans, newest first (as the
// plan_list tool).
func listPlans(_ context.Context, a Services, p agentproto.ListPlansParams) (agentproto.ListPlansResult, error) {
	plans, total, err := a.ListPlans(string(p.Status), p.Limit)
	return agentproto.ListPlansResult{Plans: protoconv.Plans(plans), Total: total}, err
}
