package agent

import (
	"context"
	"log/slog"
	"os"
	"sync"
	"time"

	"github.com/agentls/agentls/agent/llm"
	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/checkpoint"
	"github.com/agentls/agentls/guard"
	"github.com/agentls/agentls/workspace"
)

// The records of a `.chat` file that rewinds need (history.go's
// chatRecord carries their fields in rewindFields).
const (
	// recordCheckpoint: a checkpoint was taken, named by Message; the
	// session's mode, attached plan and plan status at that moment.
	recordCheckpoint = "checkpoint"
	// recordRewind: the user rewound the session to Message (What:
	// code, conversation or both); for the conversation, messages From..To-1
	// are left out of the model's view from then on.
	recordRewind = "rewind"
)

// rewindFields are the fields of the checkpoint and rewind records.
type rewindFields struct {
	// Message is the message the checkpoint or the rewind is named by.
	Message string `json:"message,omitempty"`
	// ID is a rewind's own id (the checkpoint that undoes it).
	ID   string `json:"id,omitempty"`
	What string `json:"what,omitempty"`
	// The session's state when the checkpoint was taken.
	Mode       agentproto.Mode `json:"mode,omitempty"`
	PlanFile   string          `json:"plan_file,omitempty"`
	PlanStatus string          `json:"plan_status,omitempty"`
	// Note is what a code-only rewind tells the model at its next request
	// (rewindNoteOf): a session loaded before that request tells it still.
	Note string `json:"note,omitempty"`
}

// sessionAt is the session's state as a checkpoint record saw it.
type sessionAt struct {
	mode       agentproto.Mode
	planFile   string
	planStatus string
}

// summaryAt is a compaction's summary and the messages it stands for.
type summaryAt struct {
	upto    int
	summary string
}

// rewindSummary returns the view's summary to the last one that stands
// only for messages before from: a summary of later messages would tell
// the model what the rewind took away.
func (v *viewState) rewindSummary(from int) {
	if v.summaryUpto <= from {
		return
	}
	v.summaryUpto, v.summary = 0, ""
	for _, s := range v.summaries {
		if s.upto <= from {
			v.summaryUpto, v.summary = s.upto, s.summary
		}
	}
}

// noteCheckpoint folds a checkpoint record into the view (the states a
// conversation rewind returns to).
func (v *viewState) noteCheckpoint(r chatRecord) {
	if r.Message == "" {
		return
	}
	if v.states == nil {
		v.states = map[string]sessionAt{}
	}
	if _, seen := v.states[r.Message]; !seen { // the turn's first checkpoint is its state before it
		v.states[r.Message] = sessionAt{mode: r.Mode, planFile: r.PlanFile, planStatus: r.PlanStatus}
	}
}

// checkpoint takes a checkpoint of the workspace named by the message id
// and records the session's state beside it. A failure is logged: a turn
// never fails for want of a checkpoint (a rewind to it says there is none).
func (s *Session) checkpoint(ctx context.Context, messageID string) {
	store := s.m.checkpoints
	if store == nil || messageID == "" {
		return
	}
	man, err := store.Save(ctx, s.meta.ID, messageID)
	if err != nil {
		slog.Warn("checkpoint", "session", s.meta.ID, "message", messageID, "err", err)
		if man == nil {
			return
		}
	}
	s.mu.Lock()
	at := rewindFields{Message: messageID, Mode: agentproto.Mode(s.meta.Mode), PlanFile: s.meta.PlanFile}
	s.mu.Unlock()
	if at.PlanFile != "" {
		if text, err := s.m.readPlanText(at.PlanFile); err == nil {
			if p, err := workspace.ParsePlan(text); err == nil && p.Meta != nil {
				at.PlanStatus = string(p.Meta.Status)
			}
		}
	}
	s.record(chatRecord{Record: recordCheckpoint, rewindFields: at})
}

// knownID is the session whose checkpoint.Known records s's writes and
// scans: its root's. A sub-agent's edits are agentls's own work in its
// root's turn, which the user rewinds (a sub-agent is never rewound).
func (s *Session) knownID() string { return s.rootSession().meta.ID }

// rescanTimeout bounds the scan after a command, which runs even when the
// turn was cancelled.
const rescanTimeout = 30 * time.Second

// commandStart is the scan a call of a command (`run`) or of a mutating
// tool takes right before its command starts: after the user's permission
// (tools.StartTeller; the person may save or create files while the
// question is open, and those are theirs), or before the tool runs when
// the tool does not say when its command starts. Taken once at most; a
// command that never starts (rejected, refused, cancelled) scans nothing.
type commandStart struct {
	mcp bool // a mutating MCP tool: the open files' disk state too (mcp_rescan.go)

	once    sync.Once
	started bool
	before  *checkpoint.Before
	open    map[string]string
}

// take scans, the first time only.
func (c *commandStart) take(ctx context.Context, s *Session) {
	c.once.Do(func() {
		c.started = true
		if c.mcp {
			c.open = s.openDiskState()
		}
		c.before = s.beforeCommand(ctx)
	})
}

// taken is the scan, and whether the command started (nil c: no
// command). It closes c: a later take scans nothing.
func (c *commandStart) taken() (*checkpoint.Before, map[string]string, bool) {
	if c == nil {
		return nil, nil, false
	}
	c.once.Do(func() {})
	return c.before, c.open, c.started
}

// CommandStarting implements tools.CommandStarter: the call's command
// starts now, so the workspace is scanned now (commandStart).
func (e *env) CommandStarting(ctx context.Context) {
	if e.start != nil {
		e.start.take(ctx, e.s)
	}
}

// beforeCommand scans the workspace before a command (`run`) or a mutating
// tool of the execute/other kinds starts (commandStart): what changed
// before it — the user's saves while the model thought or while the
// permission question was open — is not its work (afterCommand).
// Nil without a store, or when the scan failed: the command's changes then
// stay the user's (a rewind leaves them as conflicts).
func (s *Session) beforeCommand(ctx context.Context) *checkpoint.Before {
	if s.m.checkpoints == nil {
		return nil
	}
	b, err := s.m.checkpoints.BeforeCommand(ctx)
	if err != nil {
		slog.Warn("checkpoint: scan before the command", "session", s.meta.ID, "err", err)
		return nil
	}
	return b
}

// afterCommand records the changes the command made outside the editor
// (checkpoint.Store.KnowCommand): what changed while it ran, less the files
// the editor saved and those another session wrote meanwhile, becomes
// what agentls knows of them.
// It runs when the turn was cancelled while the command ran too (the
// command changed files before it was stopped; without the scan a rewind
// would take them for the user's), so it does not inherit ctx's
// cancellation, only its values, bounded by rescanTimeout.
func (s *Session) afterCommand(ctx context.Context, b *checkpoint.Before) {
	if b == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), rescanTimeout)
	defer cancel()
	if _, err := s.m.checkpoints.KnowCommand(ctx, s.knownID(), b); err != nil {
		slog.Warn("checkpoint: rescan after the command", "session", s.meta.ID, "err", err)
	}
}

// EditorSaved tells the checkpoints that the editor saved the file at abs
// (LSP textDocument/didSave): the user's change, not the work of a command
// running meanwhile. No I/O: the LSP read loop calls it.
func (m *Manager) EditorSaved(abs string) {
	if m.checkpoints != nil {
		m.checkpoints.EditorSaved(abs)
	}
}

// knowWrites records the agent's own writes: the digest each changed file
// has now.
func (s *Session) knowWrites(changes []workspace.Change) {
	store := s.m.checkpoints
	if store == nil {
		return
	}
	k := checkpoint.Known{}
	for _, c := range changes {
		switch c.Kind {
		case workspace.ChangeEdit, workspace.ChangeCreate:
			k[store.Key(c.Path.Abs)] = writtenDigest(c.Path.Abs, c.After)
		case workspace.ChangeDelete:
			k[store.Key(c.Path.Abs)] = ""
		case workspace.ChangeRename:
			k[store.Key(c.From.Abs)] = ""
			if e, ok, err := store.Current(c.Path.Abs); err == nil && ok {
				k[store.Key(c.Path.Abs)] = e.SHA256
			}
		}
	}
	if len(k) == 0 {
		return
	}
	if err := store.UpdateKnown(s.knownID(), k); err != nil {
		slog.Warn("checkpoint: record the agent's write", "session", s.meta.ID, "err", err)
	}
}

// writtenDigest is the digest of the file at abs that an edit leaving its
// text after made: after's own, or, when the editor applied the edit and
// saved it in the file's form (VS Code writes back the BOM its buffer does
// not show, a CRLF file's line breaks), the bytes on disk when they are
// after in that form, or agentls wrote the edit on disk under the
// editor's saved buffer, byte for byte (server/edits_bytes.go: the disk
// decodes to after as the editor shows it) — not someone else's change.
func writtenDigest(abs, after string) string {
	d := checkpoint.Digest([]byte(after))
	disk, err := os.ReadFile(abs)
	if err != nil || string(disk) == after {
		return d
	}
	if b, ok := workspace.EncodeLike(disk, after, after); ok && string(b) == string(disk) || workspace.DecodesTo(disk, after) {
		return checkpoint.Digest(disk)
	}
	return d
}

// knowCurrent records the files at abs as agentls knows them now (its
// own write outside a session's edits).
func (s *Session) knowCurrent(abs ...string) {
	store := s.m.checkpoints
	if store == nil {
		return
	}
	k := checkpoint.Known{}
	for _, a := range abs {
		e, ok, err := store.Current(a)
		if err != nil {
			continue
		}
		k[store.Key(a)] = ""
		if ok {
			k[store.Key(a)] = e.SHA256
		}
	}
	if err := store.UpdateKnown(s.knownID(), k); err != nil {
		slog.Warn("checkpoint: record agentls's write", "session", s.meta.ID, "err", err)
	}
}

// stepTick takes the checkpoint of a plan step tick: in build mode, before
// a change to the attached plan is applied, named by the assistant message
// that asks for it (a rewind to that message returns to the state before
// the tick). A message that ticks two steps keeps the checkpoint of its
// first: a second would replace the state before the message's ticks by
// one that holds its edits between them, while the conversation's side
// returns to the first (noteCheckpoint).
func (s *Session) stepTick(ctx context.Context, tool string, changes []workspace.Change) {
	if tool == guard.SystemActor || s.State().Mode != agentproto.ModeBuild {
		return
	}
	plan := s.planFile()
	if plan == "" {
		return
	}
	touches := false
	for _, c := range changes {
		for _, p := range c.Targets() {
			touches = touches || p.Rel == plan
		}
	}
	if !touches {
		return
	}
	s.mu.Lock()
	id := ""
	for i := len(s.messages) - 1; i >= 0; i-- {
		if s.messages[i].Role == llm.RoleAssistant {
			id = s.messages[i].ID
			break
		}
	}
	s.mu.Unlock()
	if id != "" && s.m.checkpoints != nil && !s.m.checkpoints.Has(s.meta.ID, id) {
		s.checkpoint(ctx, id)
	}
}
