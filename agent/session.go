// Package agent runs agentls's chat sessions: one conversation per session,
// each with its own mode (plan or build), the turn loop that streams a model's
// answer and runs its tool calls through the guard, the planner and builder
// personas, and the human-in-the-loop flows (questions, plan approval,
// command permission). It talks to the editor only through the small
// interfaces of editor.go (Notifier, Applier, Asker, DocumentShower,
// ProgressStarter), so it is testable without JSON-RPC and serves every face.
package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/agentls/agentls/agent/instructions"
	"github.com/agentls/agentls/agent/llm"
	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/guard"
	"github.com/agentls/agentls/internal/allowrule"
	"github.com/agentls/agentls/questions"
	"github.com/agentls/agentls/sessionstore"
)

// Session is one conversation with its own mode. Its state is guarded by mu;
// a turn runs at most once at a time (busy).
type Session struct {
	m *Manager
	// sub is set on a sub-agent's session (subagent.go): its root, its
	// parent, its kind and budget. nil on a root session.
	sub *subLink
	// tree is a root session's bookkeeping of its sub-agents: the
	// parallel bounds and the tokens per child (subagent_tree.go).
	tree subTree

	// toolset is the session's registry with the tool source's tools
	// (session_tools.go); nil is the manager's.
	toolset atomic.Pointer[sessionTools]
	// toolSeq counts the session's tool listings (loadTools).
	toolSeq atomic.Uint64
	// mcpAlways are the MCP tools the user allowed for the session
	// ("Always allow this tool"), by mcpAlwaysKey (server and its tool), under mu.
	mcpAlways map[string]bool
	mu        sync.Mutex
	meta      sessionstore.Meta
	messages  []llm.Message
	// callIDs are the ids of every tool call in messages (tool_call_ids.go),
	// built from them at the first answer and extended as messages grow;
	// nil until then (whoever replaces messages sets it back to nil).
	callIDs map[string]bool
	// view is how the model's view differs from messages (compaction,
	// repairs, set-aside turns), as the session file's records say.
	view viewState
	// calib scales the token estimate to what the endpoint reports (0: 1).
	calib float64
	// windows are what the endpoint's overflow errors taught of each model
	// the session's requests went to (window.go), by requestModel.
	windows map[string]*learnedWindow
	// modeNotice, when set, is told to the model at its next step.
	modeNotice string
	// rewindNote, when set, tells the model at its next step which files a
	// code rewind changed (rewind.go).
	rewindNote string
	// planPhase holds the plans written or edited in the current planning
	// phase (rel path → text as the model left it).
	planPhase map[string]string
	// requestedComments counts, per plan, the review comments "Request
	// changes" sent to the planner (plan_comments.go); under mu.
	requestedComments map[string]int
	// baseline is the approved text of the attached plan (loaded from disk
	// once baselineLoaded); reported is the hash of the plan text last
	// reported as changed since approval.
	baseline       *planBaseline
	baselineLoaded bool
	reported       [32]byte
	busy           bool
	cancel         context.CancelFunc
	turnCtx        context.Context // the running turn's; Err() != nil once it is cancelled
	metaGen        uint64          // bumped by every metadata change (under mu)
	// saveMu orders the metadata writes (never held with mu); savedGen is
	// the generation last stored.
	saveMu   sync.Mutex
	savedGen uint64
	// recorded is what the known-sessions record holds of the session
	// (sessionstore.Trusted), under saveMu: a save whose mode, review or
	// models differ records them anew.
	recorded sessionstore.Trusted
	// metaTouchedAt is when a save last stamped the metadata's UpdatedAt
	// (meta_touch.go), under mu.
	metaTouchedAt time.Time
	turnEnded     chan struct{} // closed when the running turn ends
	// lastResult is how the last turn ended (set before turnEnded closes).
	lastResult TurnResult
	pending    *pendingQuestion
	// heldNext are the questions the running turn also waits for, held
	// (HoldQuestion) while another held question was pending, oldest
	// first: each becomes pending when the one before it is answered.
	heldNext []*pendingQuestion
	approval *pendingApproval
	allowed  allowrule.Rules // commands the user allowed for this session
	edited   map[string]bool // absolute paths of files the agent edited
	// lockedPlan is the plan this session registered as building
	// (planlocks.go), under saveMu.
	lockedPlan string
	// persistErr is the first failed write of the session's files not
	// reported yet (persist.go).
	persistErr *PersistError
	// touched are the folders the session's tool calls named, in the order
	// of their first touch (touchedSeen as a set), read from the history up
	// to touchedFrom; instructionsShown is the hash of the instructions last
	// shown to the user (instructions.go).
	touched           []string
	touchedSeen       map[string]bool
	touchedFrom       int
	instructionsShown [32]byte
	// lastInstructions are the instructions of the last request built.
	lastInstructions instructions.Set
}

type pendingQuestion struct {
	id        string
	set       *questions.Set
	createdAt time.Time
	turn      chan struct{} // the turnEnded of the turn that asked it
	// held takes the answer given through agent/answer to a question its
	// turn still waits for (HoldQuestion: a permission question a plain
	// editor shows); nil for a question whose turn ended (question_pending).
	// Buffered: the one answer, sent by whoever took the question out of
	// pending.
	held chan map[string]any
}

// Info returns the session as the protocol shows it.
func (s *Session) Info() agentproto.Session {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.infoLocked()
}

func (s *Session) infoLocked() agentproto.Session {
	return agentproto.Session{
		SessionID: s.meta.ID,
		Title:     s.meta.Title,
		Mode:      agentproto.Mode(s.meta.Mode),
		PlanFile:  optional(s.meta.PlanFile),
		CreatedAt: s.meta.CreatedAt.UTC().Format(time.RFC3339),
		UpdatedAt: s.meta.UpdatedAt.UTC().Format(time.RFC3339),
		ParentID:  s.meta.ParentID, ParentToolCallID: s.meta.ParentToolCallID, Kind: s.meta.Kind,
		Review: s.reviewLocked(),
	}
}

// ID is the session's id.
func (s *Session) ID() string { return s.meta.ID }

// Messages returns a copy of the conversation.
func (s *Session) Messages() []llm.Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]llm.Message(nil), s.messages...)
}

// State is the session's mode as the guard needs it, read at this instant,
// with the session's id and the plans being built.
func (s *Session) State() guard.State {
	if s.sub != nil {
		// A sub-agent: its root's mode read now (never a copy), the root's
		// id for plan locks, and its kind's tools only.
		st := s.sub.root.State()
		st.Grant = s.sub.grant
		return st
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	st := guard.State{Mode: agentproto.Mode(s.meta.Mode), EnteredAt: s.meta.EnteredAt, EnteredReason: s.meta.EnteredReason, Session: s.meta.ID}
	if s.m != nil {
		st.Plans = s.m
	}
	return st
}

// planFile is the attached plan ("" when none).
func (s *Session) planFile() string {
	if s.sub != nil {
		return s.sub.root.planFile() // a sub-agent works on its root's plan
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.meta.PlanFile
}

// append adds messages to the conversation and to the session file.
func (s *Session) append(msgs ...llm.Message) {
	for i := range msgs {
		if msgs[i].ID == "" {
			msgs[i].ID = newMessageID()
		}
	}
	s.mu.Lock()
	s.messages = append(s.messages, msgs...)
	s.noteCallIDsLocked(msgs)
	s.mu.Unlock()
	lines := make([]json.RawMessage, 0, len(msgs))
	for _, msg := range msgs {
		b, err := chatMessageJSON(msg)
		if err != nil {
			slog.Error("encode message", "session", s.meta.ID, "err", err)
			continue
		}
		lines = append(lines, b)
	}
	if err := s.m.store.Append(s.meta.ID, lines...); err != nil {
		s.persistFailed("messages", err)
	}
}

// record appends a bookkeeping record to the session file and applies it
// to the model's view.
func (s *Session) record(r chatRecord) {
	r.At = s.m.now()
	s.mu.Lock()
	s.view.apply(r)
	s.mu.Unlock()
	b, err := recordJSON(r)
	if err != nil {
		slog.Error("encode record", "session", s.meta.ID, "err", err)
		return
	}
	if err := s.m.store.Append(s.meta.ID, b); err != nil {
		s.persistFailed("record "+r.Record, err)
	}
}

// modelMessages is the conversation as the model gets it next (see
// viewState.view), as every endpoint takes it (wireSafe). A repair not yet
// in the session file is recorded there and logged.
func (s *Session) modelMessages() []llm.Message {
	s.mu.Lock()
	msgs, synthetic, dropped := s.view.view(s.messages)
	synthetic, dropped = s.view.unrecorded(synthetic), s.view.unrecorded(dropped)
	s.mu.Unlock()
	if len(synthetic)+len(dropped) > 0 {
		slog.Warn("repaired the conversation history (a tool call without its result, e.g. after a crash)",
			"session", s.meta.ID, "interrupted_calls", synthetic, "dropped_results", dropped)
		s.record(chatRecord{Record: recordRepair, Synthetic: synthetic, Dropped: dropped})
	}
	return wireSafe(msgs)
}

// saveMetaLocked stamps the metadata and returns the function that stores
// it; s.mu must be held, and the function called once it is released: the
// guard reads s.mu on every check, so no file is written under it. Saves
// that finish out of order never store older metadata over newer.
func (s *Session) saveMetaLocked() func() {
	s.meta.UpdatedAt = s.m.now()
	s.metaTouchedAt = s.meta.UpdatedAt // this save carries updated_at too (meta_touch.go)
	s.metaGen++
	gen, meta := s.metaGen, s.meta
	return func() { s.storeMeta(gen, meta) }
}

// storeMeta writes meta, generation gen, unless a newer one was written
// (s.mu not held).
func (s *Session) storeMeta(gen uint64, meta sessionstore.Meta) {
	s.saveMu.Lock()
	defer s.saveMu.Unlock()
	if gen <= s.savedGen {
		return
	}
	s.savedGen = gen
	if err := s.m.store.SaveMeta(meta); err != nil {
		s.persistFailed("metadata", err)
	} else if meta.Trusted() != s.recorded {
		// The record follows what agentls saved of the mode, review and
		// models: a .meta that says otherwise later was not agentls's.
		s.m.recordSession(meta)
		s.recorded = meta.Trusted()
	}
	s.syncPlanLock(meta)
}

// setMode switches the session's mode. source is "tool", "user" or "load";
// reason is the plan-mode entry reason ("user", "default", "model: …").
// It persists the change, tells the model at its next step, and tells the
// editor. It reports whether the mode actually changed.
func (s *Session) setMode(ctx context.Context, mode agentproto.Mode, source, reason string) bool {
	if mode == agentproto.ModeBuild && s.m.planOnly != "" {
		return false // the callers refused first (buildRefused); never build here
	}
	s.mu.Lock()
	old := agentproto.Mode(s.meta.Mode)
	if old == mode {
		s.mu.Unlock()
		return false
	}
	s.meta.Mode = string(mode)
	now := s.m.now()
	if mode == agentproto.ModePlan {
		s.meta.EnteredAt = now
		s.meta.EnteredReason = reason
		s.planPhase = map[string]string{}
	}
	s.modeNotice = fmt.Sprintf("The session's mode changed from %s to %s (%s) since your last step. Follow the instructions of %s mode from now on.",
		upper(old), upper(mode), changeSource(source), upper(mode))
	save := s.saveMetaLocked()
	info := s.infoLocked()
	s.mu.Unlock()
	save()

	if mode == agentproto.ModePlan {
		s.m.notify(ctx, fmt.Sprintf("[plan-mode] entered at %s — reason: %s", now.UTC().Format(time.RFC3339), reason))
	}
	s.m.notes.Update(ctx, s.meta.ID, agentproto.ModeUpdate{SessionUpdate: "current_mode_update", CurrentModeID: mode})
	s.m.notes.ModeChanged(ctx, agentproto.ModeChangedParams{SessionID: info.SessionID, Mode: mode, PlanFile: info.PlanFile, Source: agentproto.ModeSource(source)})
	return true
}

// attachPlan sets the session's plan file (workspace-relative) and reports
// whether it changed.
func (s *Session) attachPlan(rel string) (changed bool) {
	s.mu.Lock()
	if s.meta.PlanFile == rel {
		s.mu.Unlock()
		return false
	}
	s.meta.PlanFile = rel
	save := s.saveMetaLocked()
	s.mu.Unlock()
	save()
	return true
}

// noteApprovedBySwitch adds to the mode notice that the user's switch to
// build mode approved the plan rel: a "Plan rejected" tool result (Keep
// Planning) earlier in the conversation would otherwise stand unanswered
// beside it.
func (s *Session) noteApprovedBySwitch(rel string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.modeNotice += fmt.Sprintf(" The user approved the plan %s by switching to BUILD mode: an earlier answer that it was not approved no longer holds (Keep Planning, a rejection); carry it out.", rel)
}

func changeSource(source string) string {
	switch source {
	case "tool":
		return "after the plan approval"
	case "user":
		return "by the user"
	default:
		return source
	}
}

func upper(m agentproto.Mode) string {
	if m == agentproto.ModeBuild {
		return "BUILD"
	}
	return "PLAN"
}

func optional(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// isBusy reports whether a turn runs (its tool calls may lack results yet).
func (s *Session) isBusy() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.busy
}
