package acp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
)

// sniffBytes is how much of a line over the size cap is kept to read its
// envelope: "id" and "method" come first in what every client writes.
const sniffBytes = 64 << 10

// headEnvelope reads the id and the method of a message from the start of
// its line (the line itself is too long to keep): the top-level members
// before the first one that does not fit in head. ok is false when head
// does not start a JSON object.
func headEnvelope(head []byte) (id json.RawMessage, method string, hasMethod, ok bool) {
	dec := json.NewDecoder(bytes.NewReader(head))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, "", false, false
	}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			break
		}
		key, _ := t.(string)
		var v json.RawMessage
		if dec.Decode(&v) != nil {
			break // a value longer than head: params or result
		}
		switch { // keys match as the wire's decoding matches them (case-insensitive, the last wins)
		case strings.EqualFold(key, "id"):
			id = v
			if string(v) == "null" {
				id = nil
			}
		case strings.EqualFold(key, "method"):
			method = ""
			hasMethod = json.Unmarshal(v, &method) == nil
		}
	}
	return id, method, hasMethod, true
}

// refuseOversize answers a line over the size cap, of which head is the
// start. A request gets -32600 with its own id (so the client's call ends,
// instead of waiting for an answer that never comes); a response to one of
// the wire's own requests fails that request at once (a read falls back to
// the disk, a permission is no answer) instead of leaving it to its
// timeout; anything else is answered with id null.
func (w *wire) refuseOversize(head []byte) {
	id, method, hasMethod, _ := headEnvelope(head)
	msg := fmt.Sprintf("the message is over %d KB; it was dropped", maxLineBytes>>10)
	switch {
	case id != nil && !hasMethod:
		slog.Warn("acp: a client's answer over the size cap dropped", "id", string(id), "cap_bytes", maxLineBytes)
		answer, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "error": map[string]any{"code": -32603, "message": "the client's answer is over " + fmt.Sprint(maxLineBytes>>10) + " KB; it was dropped"}})
		if w.deliver(id, answer) {
			return
		}
		// An answer to the SDK's own request: it ends at its timeout.
		return
	case id != nil && hasMethod:
		slog.Warn("acp: a request over the size cap refused", "method", method, "cap_bytes", maxLineBytes)
		w.replyError(&id, -32600, fmt.Sprintf("Invalid request: %s %s", method, msg))
		return
	}
	slog.Warn("acp: message over the size cap dropped", "cap_bytes", maxLineBytes)
	w.replyError(nil, -32600, "Invalid request: "+msg)
}
