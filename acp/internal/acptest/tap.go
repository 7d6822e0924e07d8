package acptest

import (
	"bytes"
	"encoding/json"
	"sync"

	"github.com/agentls/agentls/internal/expect"
)

// Message is one JSON-RPC message agentls wrote to the client.
type Message struct {
	// Method is the request's or notification's method ("" for a
	// response; "(unparsable)" for a line that is not JSON).
	Method string
	// ID is the request's or response's id as JSON text ("" for a
	// notification).
	ID string
	// Params are the params as sent (a response's result or error; the
	// line, for an unparsable one).
	Params json.RawMessage
}

// tap records every line agentls writes, as the client receives it.
type tap struct {
	mu   sync.Mutex
	buf  []byte
	msgs expect.Log[Message]
}

func (t *tap) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	for {
		i := bytes.IndexByte(t.buf, '\n')
		if i < 0 {
			break
		}
		line := t.buf[:i]
		var m struct {
			Method string          `json:"method"`
			ID     json.RawMessage `json:"id"`
			Params json.RawMessage `json:"params"`
			Result json.RawMessage `json:"result"`
			Error  json.RawMessage `json:"error"`
		}
		msg := Message{Method: "(unparsable)", Params: append(json.RawMessage(nil), line...)}
		if json.Unmarshal(line, &m) == nil {
			msg = Message{Method: m.Method, ID: string(m.ID), Params: m.Params}
			if m.Method == "" {
				msg.Params = m.Result
				if m.Error != nil {
					msg.Params = m.Error
				}
			}
		}
		t.msgs.Add(msg)
		t.buf = t.buf[i+1:]
	}
	return len(p), nil
}
