package agent

import (
	"fmt"

	"github.com/agentls/agentls/agentproto"
)

// uniqueCallIDs gives each of an answer's calls an id of its own, keeping
// the endpoint's where it is one: an empty id, or two calls of one answer
// under one id ("call_0", as some servers number every call), would lose a
// result in the history's repair (the model never sees it, and strict
// endpoints refuse the history) and merge two calls' rows on the faces.
// An id an earlier answer used is kept (the history pairs results with
// the answer they follow).
func uniqueCallIDs(msgID string, calls []agentproto.ToolCall) {
	seen := make(map[string]bool, len(calls))
	for _, c := range calls {
		seen[c.ID] = true
	}
	used := make(map[string]bool, len(calls))
	for i := range calls {
		id := calls[i].ID
		for n := 0; id == "" || used[id]; n++ {
			cand := fmt.Sprintf("call_%s_%d", ShortID(msgID), i)
			if n > 0 {
				cand += fmt.Sprintf("_%d", n)
			}
			if !seen[cand] && !used[cand] {
				id = cand
			}
		}
		calls[i].ID = id
		used[id] = true
	}
}
