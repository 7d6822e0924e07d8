package agent

import (
	"fmt"

	"github.com/agentls/agentls/agent/llm"
	"github.com/agentls/agentls/agentproto"
)

// uniqueCallIDs gives each of an answer's calls an id of its own, keeping
// the endpoint's where it is one: an empty id, or two calls of one answer
// under one id ("call_0", as some servers number every call), would lose a
// result in the history's repair (the model never sees it, and strict
// endpoints refuse the history) and merge two calls' rows on the faces.
// An id an earlier answer of the session used (earlier: servers that
// number each answer's calls from call_0 again) is replaced too: the faces
// key a call's row by its id, so the new call would overwrite the old
// one's row, and the history pairs each result with the call of its own
// answer under the id given here.
func uniqueCallIDs(msgID string, calls []agentproto.ToolCall, earlier map[string]bool) {
	seen := make(map[string]bool, len(calls))
	for _, c := range calls {
		seen[c.ID] = true
	}
	used := make(map[string]bool, len(calls))
	for i := range calls {
		id := calls[i].ID
		for n := 0; id == "" || used[id] || earlier[id]; n++ {
			cand := fmt.Sprintf("call_%s_%d", ShortID(msgID), i)
			if n > 0 {
				cand += fmt.Sprintf("_%d", n)
			}
			if !seen[cand] && !used[cand] && !earlier[cand] {
				id = cand
			}
		}
		calls[i].ID = id
		used[id] = true
	}
}

// giveCallIDs gives the calls of the answer msgID ids of their own
// (uniqueCallIDs) against every id the session's history holds, and
// counts them as used from then on.
func (s *Session) giveCallIDs(msgID string, calls []agentproto.ToolCall) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.callIDs == nil {
		s.callIDs = map[string]bool{}
		s.noteCallIDsLocked(s.messages)
	}
	uniqueCallIDs(msgID, calls, s.callIDs)
	for _, c := range calls {
		s.callIDs[c.ID] = true
	}
}

// noteCallIDsLocked adds the tool call ids of msgs, now in the history, to
// s.callIDs once it is built (s.mu held).
func (s *Session) noteCallIDsLocked(msgs []llm.Message) {
	if s.callIDs == nil {
		return
	}
	for _, m := range msgs {
		for _, c := range m.ToolCalls {
			s.callIDs[c.ID] = true
		}
	}
}
