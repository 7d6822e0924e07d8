package acp

import (
	"bytes"
	"encoding/json"

	"github.com/agentls/agentls/questions"
)

// shownInput is a tool call's arguments as its rawInput, which clients
// show a person: every string, and every key, escaped as the question
// shows them (questions.Escape: no control or bidi character reaches the
// screen raw, so a right-to-left override cannot reorder what is read).
// A `command` string is escaped as one line (questions.EscapeLine), as the
// run question's title shows it: agent-shell puts rawInput.command in a
// ```console fence of its own unless the title already holds it, and a
// command line of its own that is a fence would close that fence early.
// Nothing reads rawInput back: the tool ran on the model's arguments, kept
// as they came. Arguments that are not JSON are left out.
func shownInput(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber() // numbers as the model wrote them
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(escapeValue(v, "")); err != nil {
		return nil
	}
	return json.RawMessage(bytes.TrimRight(b.Bytes(), "\n"))
}

// escapeValue is v with its strings and keys escaped; key is the name v
// has in its object ("" elsewhere).
func escapeValue(v any, key string) any {
	switch t := v.(type) {
	case string:
		if key == "command" {
			return questions.EscapeLine(t)
		}
		return questions.Escape(t)
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = escapeValue(e, "")
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, e := range t {
			out[questions.EscapeLine(k)] = escapeValue(e, k)
		}
		return out
	}
	return v
}
