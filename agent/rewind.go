package agent

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/agentls/agentls/agent/llm"
	"github.com/agentls/agentls/agentproto"
)

// Rewind returns a session to the moment before a message: its files
// (what "code": the message's checkpoint, through the editor as one edit,
// or on disk), its conversation (what "conversation": the model's history
// ends before the message; mode, attached plan and plan status as they
// were), or both. It is the user's act: allowed in any mode, never on a
// protected path; a running turn must be cancelled first. req.Paths,
// when set, limits a code rewind to these files (workspace-relative or
// absolute). The result lists the files restored (rewritten, re-created,
// deleted or renamed back), the files left alone because someone else
// changed them (conflicts), the files it cannot restore (skipped: not kept
// by the checkpoint, or protected), and the checkpoint taken right before
// it (UndoMessageID; "" when the code was not rewound).
func (m *Manager) Rewind(ctx context.Context, req agentproto.RewindParams) (agentproto.RewindResult, error) {
	switch req.What {
	case agentproto.RewindCode, agentproto.RewindConversation, agentproto.RewindBoth:
	default:
		return agentproto.RewindResult{}, invalidf("what must be \"code\", \"conversation\" or \"both\", not %q", req.What)
	}
	if req.ToMessageID == "" {
		return agentproto.RewindResult{}, invalidf("toMessageId is required")
	}
	if len(req.Paths) > 0 && req.What != agentproto.RewindCode {
		return agentproto.RewindResult{}, invalidf("paths limits a code rewind: give what \"code\" with it, not %q", req.What)
	}
	only, err := m.rewindPaths(req.Paths) // checkpoint_view.go
	if err != nil {
		return agentproto.RewindResult{}, err
	}
	s, err := m.session(req.SessionID)
	if err != nil {
		return agentproto.RewindResult{}, err
	}
	code, conv := req.What != agentproto.RewindConversation, req.What != agentproto.RewindCode
	s.mu.Lock()
	idx := slices.IndexFunc(s.messages, func(msg llm.Message) bool { return msg.ID == req.ToMessageID })
	s.mu.Unlock()
	if conv && idx < 0 {
		return agentproto.RewindResult{}, invalidf("message %q is not in session %s", req.ToMessageID, s.meta.ID)
	}
	if code && (m.checkpoints == nil || !m.checkpoints.Has(s.meta.ID, req.ToMessageID)) {
		return agentproto.RewindResult{}, invalidf("session %s has no checkpoint for message %q: checkpoints are taken before each turn and at each plan step tick, and kept as docs/rewind.md says", s.meta.ID, req.ToMessageID)
	}
	ctx, release, err := s.begin(ctx)
	if err != nil {
		if errors.Is(err, ErrBusy) {
			return agentproto.RewindResult{}, fmt.Errorf("%w: a turn is running; cancel it (agent/cancel) before rewinding", ErrBusy)
		}
		return agentproto.RewindResult{}, err
	}
	defer release()

	res := agentproto.RewindResult{Restored: []string{}, Conflicts: []agentproto.RewindConflict{}, Skipped: []string{}}
	rec := rewindFields{Message: req.ToMessageID, ID: newMessageID(), What: string(req.What)}
	if code {
		res, err = m.rewindCode(ctx, s, req.ToMessageID, rec.ID, only)
		if err != nil {
			// The undo id stays in the result: a rewind that stopped
			// midway (its journal kept) is undone by a rewind to it.
			return agentproto.RewindResult{UndoMessageID: res.UndoMessageID}, err
		}
	}
	if !conv {
		rec.Note = rewindNoteOf(res) // recorded too: a restart before the next request keeps it
	}
	r := chatRecord{Record: recordRewind, rewindFields: rec}
	if conv {
		s.mu.Lock()
		r.From, r.To = idx, len(s.messages)
		s.mu.Unlock()
	}
	s.record(r)
	if conv {
		s.restoreState(ctx, req.ToMessageID, code)
	} else {
		s.mu.Lock()
		s.rewindNote = rec.Note
		s.mu.Unlock()
	}
	m.notify(ctx, fmt.Sprintf("[rewind] session=%s to=%s what=%s restored=%d conflicts=%d skipped=%d",
		s.meta.ID, req.ToMessageID, req.What, len(res.Restored), len(res.Conflicts), len(res.Skipped)))
	if err := s.takePersistErr(); err != nil {
		return res, err
	}
	return res, nil
}

// restoreState returns the session's mode, attached plan and (unless the
// code rewind restored the plan file itself) plan status to their state
// at the checkpoint of message id. A session loaded from before such
// records keeps its state.
func (s *Session) restoreState(ctx context.Context, id string, codeToo bool) {
	s.withdrawQuestion()
	s.mu.Lock()
	at, ok := s.view.states[id]
	s.mu.Unlock()
	if !ok || at.mode == "" {
		return
	}
	// The plan and the mode are written in one save of the metadata (the
	// mode change's): never build mode with a plan the rewind does not go
	// back to, not even after a kill -9 between two writes.
	s.mu.Lock()
	planChanged := s.meta.PlanFile != at.planFile
	s.meta.PlanFile = at.planFile
	s.mu.Unlock()
	if !s.setMode(ctx, at.mode, "user", "user") && planChanged {
		s.mu.Lock()
		save := s.saveMetaLocked()
		s.mu.Unlock()
		save()
	}
	if at.planFile != "" && at.planStatus != "" && !codeToo {
		// As agentls's own change for no session: the session's follow-up
		// (implemented once every step is ticked) would undo it at once.
		if err := s.m.setPlanStatus(ctx, nil, at.planFile, agentproto.PlanStatus(at.planStatus)); err != nil {
			s.m.planStatusFailed(ctx, at.planFile, agentproto.PlanStatus(at.planStatus), err)
		}
		if p, err := s.m.ws.Resolve(at.planFile); err == nil {
			s.knowCurrent(p.Abs) // agentls's own write, not the user's
		}
	}
	if at.planFile != "" && at.mode == "build" {
		s.baselineNow(at.planFile)
	}
	s.sendPlanUpdate(ctx)
}

// rewindNoteOf is what the model is told, in its next request, of the
// files a code rewind changed under it.
func rewindNoteOf(res agentproto.RewindResult) string {
	var b strings.Builder
	b.WriteString("The user rewound the workspace's files to an earlier checkpoint; the conversation was kept. ")
	if len(res.Restored) == 0 {
		b.WriteString("No file changed.")
	} else {
		fmt.Fprintf(&b, "These files changed (read them again before editing them): %s.", strings.Join(res.Restored, ", "))
	}
	if len(res.Conflicts) > 0 {
		paths := make([]string, len(res.Conflicts))
		for i, c := range res.Conflicts {
			paths[i] = c.Path
		}
		fmt.Fprintf(&b, " Left as they were (changed by someone else): %s.", strings.Join(paths, ", "))
	}
	return b.String()
}

// rewindSection is the system prompt's note of a code rewind ("" for none).
func rewindSection(note string) string {
	if note == "" {
		return ""
	}
	return "\n# Rewind\n" + note + "\n"
}

// clearRewindNote drops the rewind note once a request carrying it (its
// system prompt) was answered.
func (s *Session) clearRewindNote(system string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.rewindNote != "" && strings.Contains(system, s.rewindNote) {
		s.rewindNote = ""
	}
}

// sortedPaths sorts and returns paths (never nil).
func sortedPaths(paths []string) []string {
	if paths == nil {
		return []string{}
	}
	sort.Strings(paths)
	return paths
}
