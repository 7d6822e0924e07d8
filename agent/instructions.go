package agent

import (
	"context"
	"encoding/json"

	"github.com/agentls/agentls/agent/instructions"
	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/questions"
)

// Project instructions (docs/instructions.md) are loaded by
// agent/instructions; the session keeps the folders its tool calls
// touched and tells the user which files its requests carry.

// maxTouchedDirs bounds the folders a session remembers as touched (each
// is looked at for an instruction file before every model request).
const maxTouchedDirs = 2000

// instructions loads the session's instructions for its next request: the
// user's file, the root's, then the touched folders' (in the order of
// their first touch), cut to instructions.max_bytes in total. A workspace
// file counts only when the guard lets the session read it in its mode now.
func (s *Session) instructions() instructions.Set {
	m := s.m
	limit := m.config().Instructions.MaxBytes
	if limit <= 0 {
		return instructions.Set{}
	}
	return instructions.Load(instructions.Sources{
		Workspace: m.ws,
		UserFile:  m.userInstructions,
		UserHome:  m.userHome,
		Touched:   s.touchedDirs(),
		MaxBytes:  limit,
		MayRead: func(abs string) bool {
			args, _ := json.Marshal(map[string]string{"path": abs})
			return m.Guard().CheckCall(s.State(), "read", args) == nil
		},
	})
}

// touchedDirs brings the session's touched folders up to date with its
// history (the path arguments of every tool call, as the tools declare
// them, whether or not the call went through) and returns them in the
// order of their first touch. A folder counts from the root down to the
// path, so a touch of a/b/c.go touches a and a/b; the root is not among
// them (its file always applies). Recomputed from the history when a
// session is loaded, so a reloaded session has the same instructions.
func (s *Session) touchedDirs() []string {
	s.mu.Lock()
	if s.touchedFrom > len(s.messages) {
		s.touchedFrom, s.touched, s.touchedSeen = 0, nil, nil
	}
	msgs := s.messages[s.touchedFrom:len(s.messages):len(s.messages)]
	s.mu.Unlock()
	var dirs []string
	for _, msg := range msgs {
		for _, call := range msg.ToolCalls {
			for _, given := range s.m.pathArgs(call.Name, call.Arguments) {
				dirs = append(dirs, instructions.DirsOf(s.m.ws, given)...)
			}
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.touchedSeen == nil {
		s.touchedSeen = map[string]bool{}
	}
	for _, d := range dirs {
		if !s.touchedSeen[d] && len(s.touched) < maxTouchedDirs {
			s.touchedSeen[d] = true
			s.touched = append(s.touched, d)
		}
	}
	s.touchedFrom += len(msgs)
	return append([]string(nil), s.touched...)
}

// pathArgs are the paths a tool call names, by the arguments its tool
// declares as paths (none for an unknown tool or bad arguments).
func (m *Manager) pathArgs(tool, raw string) []string {
	d, ok := m.tools.Declarations().Lookup(tool)
	if !ok || len(d.Paths) == 0 {
		return nil
	}
	var args map[string]json.RawMessage
	if json.Unmarshal([]byte(raw), &args) != nil {
		return nil
	}
	var out []string
	for _, p := range d.Paths {
		var v string
		if json.Unmarshal(args[p.Name], &v) == nil && v != "" {
			out = append(out, v)
		}
	}
	return out
}

// showInstructions tells the user which instruction files set holds, once
// per content (an `instructions_loaded` update) in the session.
func (s *Session) showInstructions(ctx context.Context, set instructions.Set) {
	s.mu.Lock()
	if set.Hash() == s.instructionsShown {
		s.mu.Unlock()
		return
	}
	s.instructionsShown = set.Hash()
	s.mu.Unlock()
	files := set.Files()
	if len(files) == 0 {
		return
	}
	for i := range files { // a repository's folder names reach a person: escaped (a line break, a bidi override)
		files[i].Path = questions.EscapeLine(files[i].Path)
	}
	s.m.notes.Update(ctx, s.meta.ID, agentproto.InstructionsLoaded{SessionUpdate: "instructions_loaded", Files: files})
}
