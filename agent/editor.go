package agent

import (
	"context"
	"errors"
	"time"

	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/guard"
	"github.com/agentls/agentls/permission"
	"github.com/agentls/agentls/questions"
	"github.com/agentls/agentls/workspace"
)

// The agent talks to the editor on the other end of the connection (a
// face: the LSP server, the ACP agent) through the small interfaces below,
// each code path through the one it needs. Methods may be called from many
// goroutines. Every send honours its context: a turn's sends use the
// turn's, so that a client that stops reading cannot hold a cancelled turn.

// Notifier streams a session's updates and notices to the editor.
type Notifier interface {
	// Update streams a turn (LSP: `agent/update`; ACP: `session/update`).
	Update(ctx context.Context, sessionID string, update Update)
	// ModeChanged tells the editor the session's mode changed (`agent/modeChanged`).
	ModeChanged(ctx context.Context, ev agentproto.ModeChangedParams)
	// Notify sends a plan-mode notify line (`window/logMessage`).
	Notify(ctx context.Context, line string)
}

// Applier applies changes to the workspace.
type Applier interface {
	// Apply sends changes to the editor (`workspace/applyEdit`) or writes them
	// to disk, calling req.Check on the exact operations right before they
	// leave; a failed check or an editor's refusal is an error.
	Apply(ctx context.Context, req ApplyRequest) error
}

// Asker asks the user.
type Asker interface {
	// Ask shows questions to the user and waits for the answers. It returns
	// ErrNoSurface when the editor cannot show them.
	Ask(ctx context.Context, req AskRequest) (AskReply, error)
}

// DocumentShower shows workspace documents.
type DocumentShower interface {
	// ShowDocument opens a workspace file in the editor (`window/showDocument`).
	ShowDocument(ctx context.Context, abs string) error
}

// ProgressStarter shows what a turn is doing.
type ProgressStarter interface {
	// StartProgress returns the progress handle of one turn: what the turn is
	// doing ("PLAN: thinking…"), shown until End. Each turn has its own.
	StartProgress(ctx context.Context, sessionID string) Progress
}

// Editor is the whole of the editor's side, as a Manager takes it: each of
// the small interfaces.
type Editor interface {
	Notifier
	Applier
	Asker
	DocumentShower
	ProgressStarter
}

// Progress shows one turn's activity. Its methods never wait for the editor
// longer than their context allows.
type Progress interface {
	// Report shows what the turn does now.
	Report(ctx context.Context, message string)
	// End removes the progress.
	End(ctx context.Context)
}

// ErrNoSurface is returned by Editor.Ask when the editor cannot show the
// questions: they stay pending until agent/answer.
var ErrNoSurface = errors.New("the editor cannot show these questions")

// ErrAskFailed wraps a face's error when its plan approval question failed
// (the client answered with an error, or with an option it was not offered)
// and no other surface of that face can decide the approval (ACP has no
// lens): the exit_plan_mode call then ends the turn with that error, the
// plan unapproved, instead of waiting for a decision nobody can make.
var ErrAskFailed = errors.New("the plan approval could not be asked")

// ApplyRequest is a set of changes to apply as one undoable edit.
type ApplyRequest struct {
	// SessionID is the session the change is made for; "" for none (the
	// user's archive of a plan).
	SessionID string
	// Actor is who makes the change: the tool's name, or
	// guard.SystemActor for agentls's own plan status changes.
	Actor   string
	Label   string
	Changes []workspace.Change
	// Check is the guard's last check, with the session's mode read when it is
	// called. The applier calls it on the operations it is about to send.
	Check func(ops []guard.Op) error
	// Whole asks for every change in one WorkspaceEdit (one Undo in the
	// editor brings the state before it back): an applier that cannot send
	// them so returns ErrNotWhole having applied nothing.
	Whole bool
	// Review asks the user to review the changes before they apply (review
	// mode, docs/review.md; only sent to an EditReviewer that said it
	// reviews them). The changes the user declines are not applied: the
	// applier returns a *workspace.DeclinedError naming them.
	Review bool
	// Why says, by a change's Path.Rel, why it is asked though review mode
	// may be off (a file the editor runs by itself): the review shows it
	// with the change.
	Why map[string]string
}

// ErrNotWhole is an Applier's answer to a Whole request it cannot send as
// one edit: the caller writes the changes on disk itself.
var ErrNotWhole = errors.New("the editor cannot apply these changes as one edit")

// AskRequest is a batch of questions for the user.
type AskRequest struct {
	SessionID  string
	QuestionID string
	Set        *questions.Set
	Purpose    string // "question", "plan_approval" or "permission"
	// PlanFile is the plan awaiting approval (workspace-relative), for
	// purpose "plan_approval".
	PlanFile  string
	CreatedAt time.Time
	// Actions overrides the message-request actions (plan approval: "Accept &
	// Build" / "Keep Planning"); nil means derive them from the questions.
	Actions []questions.Action
	// Permission is the permission request this question renders (purpose
	// "permission": its one question "decision" takes the option ids), or
	// what a plan approval grants (purpose "plan_approval", kind plan).
	Permission *permission.Request
}

// AskReply is the user's reply to an AskRequest.
type AskReply struct {
	Answers   map[string]any
	Dismissed bool
}
