package acptest

import (
	"encoding/json"
	"fmt"
	"strings"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/agentls/agentls/internal/expect"
)

// State is what expectations judge (internal/expect's Transcript): every
// message agentls wrote to the client so far, in wire order (Messages),
// and the session/prompt calls made through the Env (Prompts).
type State = expect.Transcript[Message, PromptState]

// Verdict is an expectation's judgement (internal/expect's).
type Verdict = expect.Verdict

// The verdicts.
const (
	Met        = expect.Met
	Unmet      = expect.Unmet
	Unmeetable = expect.Unmeetable
)

// Expectation is a named condition on the State.
type Expectation = expect.Expectation[State]

// OnceMet is met when every one of musts is, and unmeetable once pre is
// met while one of musts is not ("once the turn ended, the chunk must
// have arrived").
func OnceMet(pre Expectation, musts ...Expectation) Expectation { return expect.OnceMet(pre, musts...) }

// Not is met while e is not, and unmeetable once e is met: with TurnEnded,
// what must not arrive during the turn.
func Not(e Expectation) Expectation { return expect.Not(e) }

// AllOf is met when every one of es is met.
func AllOf(es ...Expectation) Expectation { return expect.AllOf(es...) }

// AnyOf is met when one of es is met.
func AnyOf(es ...Expectation) Expectation { return expect.AnyOf(es...) }

// TurnEnded is met once a session/prompt call for sid ("" for any) was
// made through the Env and every such call has returned.
func TurnEnded(sid sdk.SessionId) Expectation {
	return expect.TurnEnded("session/prompt", string(sid), func(s State) []PromptState { return s.Prompts },
		func(p PromptState) string { return string(p.SessionID) }, func(p PromptState) bool { return p.Returned })
}

// TurnEndedWith is met once the last session/prompt call for sid returned
// with stop reason stop, and unmeetable once it returned otherwise (another
// reason, or an error).
func TurnEndedWith(sid sdk.SessionId, stop sdk.StopReason) Expectation {
	return lastTurn(fmt.Sprintf("the turn of session %s ended with %s", sid, stop), sid,
		func(p PromptState) bool { return p.Err == nil && p.Stop == stop })
}

// TurnFailedWith is met once the last session/prompt call for sid returned
// an error whose text holds every one of subs, and unmeetable once it
// returned otherwise.
func TurnFailedWith(sid sdk.SessionId, subs ...string) Expectation {
	return lastTurn(fmt.Sprintf("the turn of session %s failed with %q", sid, subs), sid,
		func(p PromptState) bool { return p.Err != nil && expect.ContainsAll(p.Err.Error(), subs) })
}

// PromptEndedWith is met once the i-th session/prompt call (from 0, in the
// order sent) returned stop without an error, and unmeetable once it
// returned otherwise. A later prompt's end says nothing of an earlier
// one's: their answers are read by separate goroutines.
func PromptEndedWith(i int, stop sdk.StopReason) Expectation {
	return Expectation{Description: fmt.Sprintf("prompt %d ended with %s", i+1, stop), Check: func(s State) Verdict {
		if i >= len(s.Prompts) || !s.Prompts[i].Returned {
			return Unmet
		}
		if p := s.Prompts[i]; p.Err == nil && p.Stop == stop {
			return Met
		}
		return Unmeetable
	}}
}

// lastTurn is met once the last session/prompt call for sid returned as
// ended says, and unmeetable once it returned otherwise.
func lastTurn(desc string, sid sdk.SessionId, ended func(PromptState) bool) Expectation {
	return Expectation{Description: desc, Check: func(s State) Verdict {
		for i := len(s.Prompts) - 1; i >= 0; i-- {
			p := s.Prompts[i]
			if p.SessionID != sid {
				continue
			}
			switch {
			case !p.Returned:
				return Unmet
			case ended(p):
				return Met
			}
			return Unmeetable
		}
		return Unmet
	}}
}

// MessageMatching is met once a message for which match holds arrived.
func MessageMatching(desc string, match func(Message) bool) Expectation {
	return expect.Seen(desc, messages, match)
}

// messages is the state's message log.
func messages(s State) []Message { return s.Messages }

// Received is met once a message of method arrived.
func Received(method string) Expectation {
	return MessageMatching("a "+method, func(m Message) bool { return m.Method == method })
}

// MethodCount is met once at least n messages of method arrived.
func MethodCount(method string, n int) Expectation {
	return expect.SeenTimes(fmt.Sprintf("at least %d × %s", n, method), n, messages,
		func(m Message) bool { return m.Method == method })
}

// ParamsContaining is met once a message of method arrived whose params
// (as JSON text) contain every one of subs.
func ParamsContaining(method string, subs ...string) Expectation {
	return MessageMatching(fmt.Sprintf("a %s containing %q", method, subs), func(m Message) bool {
		return m.Method == method && expect.ContainsAll(string(m.Params), subs)
	})
}

// Update is met once a session/update of kind (its sessionUpdate) arrived
// for which match holds (nil: any).
func Update(kind, desc string, match func(sdk.SessionUpdate) bool) Expectation {
	if desc == "" {
		desc = "a session/update " + kind
	}
	return MessageMatching(desc, func(m Message) bool {
		u, ok := decodeUpdate(m, kind)
		return ok && (match == nil || match(u))
	})
}

// AgentTextIs is met once the agent_message_chunk texts so far, joined,
// are text, and unmeetable once they are not the start of it.
func AgentTextIs(text string) Expectation {
	return Expectation{Description: fmt.Sprintf("the agent's text %q", text), Check: func(s State) Verdict {
		switch got := AgentText(s); {
		case got == text:
			return Met
		case !strings.HasPrefix(text, got):
			return Unmeetable
		}
		return Unmet
	}}
}

// AgentText is the joined text of the agent_message_chunk updates in s.
func AgentText(s State) string {
	var b strings.Builder
	for _, m := range s.Messages {
		if u, ok := decodeUpdate(m, "agent_message_chunk"); ok && u.AgentMessageChunk.Content.Text != nil {
			b.WriteString(u.AgentMessageChunk.Content.Text.Text)
		}
	}
	return b.String()
}

// PermissionRequested is met once a session/request_permission arrived
// for which match holds (nil: any).
func PermissionRequested(desc string, match func(sdk.RequestPermissionRequest) bool) Expectation {
	if desc == "" {
		desc = "a session/request_permission"
	}
	return MessageMatching(desc, func(m Message) bool {
		var p sdk.RequestPermissionRequest
		return m.Method == "session/request_permission" && json.Unmarshal(m.Params, &p) == nil && (match == nil || match(p))
	})
}

// ToolCallStatus is met once a tool_call or tool_call_update for id
// reported status.
func ToolCallStatus(id string, status sdk.ToolCallStatus) Expectation {
	return Update("", fmt.Sprintf("tool call %s reported %s", id, status), func(u sdk.SessionUpdate) bool {
		switch {
		case u.ToolCall != nil:
			return string(u.ToolCall.ToolCallId) == id && u.ToolCall.Status == status
		case u.ToolCallUpdate != nil:
			return string(u.ToolCallUpdate.ToolCallId) == id && u.ToolCallUpdate.Status != nil && *u.ToolCallUpdate.Status == status
		}
		return false
	})
}

// decodeUpdate decodes m as a session/update of kind ("" for any kind).
func decodeUpdate(m Message, kind string) (sdk.SessionUpdate, bool) {
	if m.Method != "session/update" {
		return sdk.SessionUpdate{}, false
	}
	var p struct {
		Update json.RawMessage `json:"update"`
	}
	if json.Unmarshal(m.Params, &p) != nil {
		return sdk.SessionUpdate{}, false
	}
	if kind != "" {
		var k struct {
			SessionUpdate string `json:"sessionUpdate"`
		}
		if json.Unmarshal(p.Update, &k) != nil || k.SessionUpdate != kind {
			return sdk.SessionUpdate{}, false
		}
	}
	var u sdk.SessionUpdate
	if json.Unmarshal(p.Update, &u) != nil {
		return sdk.SessionUpdate{}, false
	}
	return u, true
}

// Await waits until every expectation is met, re-judging on every message
// and every returned prompt. It fails the test at once when one is
// unmeetable, and when the wait's deadline (Setup.WaitTimeout) or the
// Env's context ends first; the failure names the expectation and shows
// the last messages.
func (e *Env) Await(exps ...Expectation) {
	e.T.Helper()
	if f := expect.Wait(e.Ctx, e.waitTimeout, e.source(), exps...); f != nil {
		e.T.Fatalf("%s", failure(f))
	}
}

// AwaitInTurn waits for exps while the turn of session sid (prompted
// through the Env) runs: once the turn has ended without them, the wait
// fails at once.
func (e *Env) AwaitInTurn(sid sdk.SessionId, exps ...Expectation) {
	e.T.Helper()
	e.Await(OnceMet(TurnEnded(sid), exps...))
}

// State is the State now.
func (e *Env) State() State {
	st, _ := e.source()()
	return st
}

// source is what expectations judge (the wire so far and the prompt
// calls), with the channels that close when either grows.
func (e *Env) source() expect.Source[State] {
	return expect.TranscriptOf(e.wire.msgs.Snapshot, e.prompts.Snapshot)
}

// failure says why a wait failed, with each prompt call's state and the
// last messages agentls wrote.
func failure(f *expect.Failure[State]) string {
	call := func(p PromptState) (string, string) {
		switch {
		case p.Returned && p.Err != nil:
			return string(p.SessionID), fmt.Sprintf("failed: %v", p.Err)
		case p.Returned:
			return string(p.SessionID), fmt.Sprintf("returned %s", p.Stop)
		}
		return string(p.SessionID), "running"
	}
	return expect.ReportTranscript("acptest", f, "session/prompt", call, "messages from agentls", func(m Message) expect.Shown {
		kind := "notification"
		switch {
		case m.Method == "":
			kind = "response " + m.ID
		case m.ID != "":
			kind = "request " + m.ID
		}
		return expect.Shown{Method: m.Method, Kind: kind, Params: m.Params}
	})
}
