package acp

import (
	"bytes"
	"encoding/json"
	"io"
	"sync"
)

// A client withdraws a session/prompt with $/cancel_request naming its id
// (the protocol's request cancel; the Go SDK client adds session/cancel,
// other clients may not). The SDK cancels the prompt's context then, as it
// does for a prompt superseded by a newer one — which, while the turn waits
// for the plan approval, is the user's answer and must not cancel it
// (prompt_supersede.go). So the wire, which reads every line before the
// SDK, tells the two apart: a $/cancel_request for the newest session/prompt
// of a session cancels that session's running turn as session/cancel does
// (the open permission request or plan approval is withdrawn, nothing is
// granted, the prompt ends `cancelled`).

// promptIDs is the id of each session's newest session/prompt, as the wire
// routed it to the SDK, while that prompt is unanswered: an entry goes when
// the SDK writes the prompt's answer (watchAnswers) or the session closes
// (closed), so the map holds at most one entry per session with a prompt
// running, however many sessions a connection opens.
type promptIDs struct {
	mu     sync.Mutex
	newest map[string]string // session id → idKey
	// withdrawn is called (on the reader's goroutine, before the SDK sees
	// the cancel) with the session whose newest prompt the client
	// withdrew; it must not block.
	withdrawn func(sessionID string)
}

// routed records a session/prompt line about to reach the SDK.
func (p *promptIDs) routed(id json.RawMessage, line []byte) {
	var m struct {
		Params struct {
			SessionID string `json:"sessionId"`
		} `json:"params"`
	}
	key, ok := idKey(id) // commands.go
	if !ok || json.Unmarshal(line, &m) != nil || m.Params.SessionID == "" {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.newest == nil {
		p.newest = map[string]string{}
	}
	p.newest[m.Params.SessionID] = key
}

// closed forgets sessionID's prompt (session/close).
func (p *promptIDs) closed(sessionID string) {
	p.mu.Lock()
	delete(p.newest, sessionID)
	p.mu.Unlock()
}

// tracked is how many sessions have an unanswered prompt on record.
func (p *promptIDs) tracked() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.newest)
}

// answered forgets the prompt an answer the SDK writes (line) is to, if
// it is a session's newest. A superseded prompt's answer leaves the newer
// prompt's entry alone; a request's id is unique while it runs, so an
// answer with the id of a running prompt is that prompt's.
func (p *promptIDs) answered(line []byte) {
	p.mu.Lock()
	none := len(p.newest) == 0
	p.mu.Unlock()
	if none || !bytes.Contains(line, []byte(`"id"`)) {
		return
	}
	var res struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	if json.Unmarshal(line, &res) != nil || res.Method != "" {
		return // a request or notification, not an answer
	}
	key, ok := idKey(res.ID)
	if !ok {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	for s, k := range p.newest {
		if k == key {
			delete(p.newest, s)
		}
	}
}

// promptAnswers is the SDK's output as promptIDs watches it.
type promptAnswers struct {
	p *promptIDs
	w io.Writer
}

// watchAnswers returns w, telling p of each line the SDK writes before it
// goes out: once the client can read a prompt's answer, its id is gone.
func (p *promptIDs) watchAnswers(w io.Writer) io.Writer { return &promptAnswers{p: p, w: w} }

func (a *promptAnswers) Write(b []byte) (int, error) {
	a.p.answered(b)
	return a.w.Write(b)
}

// cancelRequested handles a $/cancel_request line: when it names a
// session's newest prompt, that session's turn is withdrawn.
func (p *promptIDs) cancelRequested(line []byte) {
	var m struct {
		Params struct {
			RequestID json.RawMessage `json:"requestId"`
		} `json:"params"`
	}
	if json.Unmarshal(line, &m) != nil {
		return
	}
	key, ok := idKey(m.Params.RequestID)
	if !ok {
		return
	}
	p.mu.Lock()
	session := ""
	for s, k := range p.newest {
		if k == key {
			session = s
			break
		}
	}
	withdrawn := p.withdrawn
	p.mu.Unlock()
	if session != "" && withdrawn != nil {
		withdrawn(session)
	}
}

// promptWithdrawn cancels the running turn of sessionID, whose prompt the
// client withdrew ($/cancel_request): as session/cancel, and its
// passCancel no longer spares a turn waiting for the plan approval.
func (a *Agent) promptWithdrawn(sessionID string) {
	a.prompts.mu.Lock()
	p := a.prompts.byKey[sessionID]
	a.prompts.mu.Unlock()
	if p == nil {
		return // no turn runs: nothing to withdraw
	}
	p.withdrawn.Store(true)
	h, err := a.hostOf(sessionID)
	if err != nil {
		return
	}
	_ = h.mgr.Cancel(sessionID)
}
