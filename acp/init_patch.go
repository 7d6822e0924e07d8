package acp

import (
	"encoding/json"
	"log/slog"
	"sync"
)

// initPatch completes the SDK's initialize exchange with what its types
// cannot carry: it keeps the client's raw capabilities (fields the SDK
// drops, such as `plan`) and adds agentls's own capabilities
// (sessionCapabilities.delete, for own_methods.go) to the SDK's answer.
type initPatch struct {
	mu sync.Mutex
	// id is the pending initialize request's id ("" when none).
	id string
	// clientCaps are the raw clientCapabilities of the last initialize.
	clientCaps map[string]json.RawMessage
}

// sawInitialize notes an initialize request on its way to the SDK.
func (p *initPatch) sawInitialize(id json.RawMessage, line []byte) {
	var req struct {
		Params struct {
			ClientCapabilities map[string]json.RawMessage `json:"clientCapabilities"`
		} `json:"params"`
	}
	_ = json.Unmarshal(line, &req)
	p.mu.Lock()
	defer p.mu.Unlock()
	p.id = string(id)
	p.clientCaps = req.Params.ClientCapabilities
}

// clientAdvertises tells whether the client's capabilities have key set
// (present and not false or null).
func (p *initPatch) clientAdvertises(key string) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	v, ok := p.clientCaps[key]
	return ok && string(v) != "false" && string(v) != "null"
}

// rewrite adds agentls's own capabilities to the SDK's answer to the
// pending initialize; every other line passes unchanged.
func (p *initPatch) rewrite(line []byte) []byte {
	p.mu.Lock()
	id := p.id
	p.mu.Unlock()
	if id == "" {
		return line
	}
	var msg map[string]json.RawMessage
	if json.Unmarshal(line, &msg) != nil || string(msg["id"]) != id || msg["method"] != nil {
		return line
	}
	p.mu.Lock()
	p.id = ""
	p.mu.Unlock()
	if msg["result"] == nil { // an error answer: nothing to add
		return line
	}
	var res map[string]any
	if json.Unmarshal(msg["result"], &res) != nil {
		return line
	}
	caps, _ := res["agentCapabilities"].(map[string]any)
	if caps == nil {
		return line
	}
	sc, _ := caps["sessionCapabilities"].(map[string]any)
	if sc == nil {
		sc = map[string]any{}
		caps["sessionCapabilities"] = sc
	}
	sc["delete"] = map[string]any{}
	b, err := json.Marshal(res)
	if err != nil {
		slog.Error("acp: complete the initialize answer", "err", err)
		return line
	}
	msg["result"] = b
	out, err := json.Marshal(msg)
	if err != nil {
		return line
	}
	return append(out, '\n')
}
