package acp

import (
	"sync"

	"github.com/google/uuid"
)

// messageIDs gives each assistant message's chunks one messageId: a
// UUIDv7 made when its first chunk goes out, kept until the message ends
// (a tool call starts, or the turn ends). Ids are not stored with the
// session: a replay (session/load) makes new ones.
type messageIDs struct {
	mu  sync.Mutex
	ids map[string]string // session id + "\x00" + chunk kind → id
}

// of returns the id of the session's current message of kind
// (agent_message_chunk, agent_thought_chunk), making one if there is none.
func (m *messageIDs) of(sessionID, kind string) string {
	m.mu.Lock()
	defer m.mu.Unlock()
	k := sessionID + "\x00" + kind
	if id, ok := m.ids[k]; ok {
		return id
	}
	id, err := uuid.NewV7()
	if err != nil {
		return ""
	}
	if m.ids == nil {
		m.ids = map[string]string{}
	}
	m.ids[k] = id.String()
	return m.ids[k]
}

// end ends the session's current messages: the next chunk starts a new one.
func (m *messageIDs) end(sessionID string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, kind := range []string{"agent_message_chunk", "agent_thought_chunk", "user_message_chunk"} {
		delete(m.ids, sessionID+"\x00"+kind)
	}
}

// sessionInfoUpdate is session_info_update: the session's title.
type sessionInfoUpdate struct {
	SessionUpdate string `json:"sessionUpdate"` // "session_info_update"
	Title         string `json:"title"`
	UpdatedAt     string `json:"updatedAt,omitempty"`
}
