package agent

import (
	"fmt"

	"github.com/agentls/agentls/agentproto"
)

// uniqueCallIDs gives each of an answer's calls an id no other call of the
// session has, keeping the endpoint's where it is new: an empty id, two
// calls of one answer under one id ("call_0", as some servers number every
// call) or an id an earlier answer used would lose a result in the
// history's repair (the model never sees it, and strict endpoints refuse
// the history) and merge two calls' rows on the faces.
func (s *Session) uniqueCallIDs(msgID string, calls []agentproto.ToolCall) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.callIDs == nil {
		s.callIDs = map[string]bool{}
		for _, m := range s.messages {
			for _, c := range m.ToolCalls {
				s.callIDs[c.ID] = true
			}
		}
	}
	for i := range calls {
		id := calls[i].ID
		for n := 0; id == "" || s.callIDs[id]; n++ {
			id = fmt.Sprintf("call_%s_%d", ShortID(msgID), i)
			if n > 0 {
				id += fmt.Sprintf("_%d", n)
			}
		}
		calls[i].ID = id
		s.callIDs[id] = true
	}
}
