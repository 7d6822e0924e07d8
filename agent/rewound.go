package agent

import "github.com/agentls/agentls/agent/llm"

// withRewound marks the messages conversation rewinds left out (an edited
// or regenerated turn, /rewind): the file keeps them, agent/loadSession
// returns them marked so that an editor shows the conversation as the
// model sees it. msgs are the session's messages in file order.
func (s *Session) withRewound(msgs []llm.Message) []llm.Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, r := range s.view.rewound {
		for i := max(r[0], 0); i < min(r[1], len(msgs)); i++ {
			msgs[i].Rewound = true
		}
	}
	return msgs
}
