package lsptest

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/agentls/agentls/internal/expect"
	"github.com/agentls/agentls/internal/lspclient"
)

// Verdict is an expectation's judgement of the state so far (the core's,
// internal/expect).
type Verdict = expect.Verdict

const (
	// Met: the expectation holds.
	Met = expect.Met
	// Unmet: not yet; the next message may meet it.
	Unmet = expect.Unmet
	// Unmeetable: it can no longer be met; the wait fails at once.
	Unmeetable = expect.Unmeetable
)

// State is what expectations judge (internal/expect's Transcript): every
// message the server sent so far, in wire order (Messages), and the
// agent/prompt calls made through the Env (Prompts).
type State = expect.Transcript[lspclient.Message, PromptState]

// PromptState is one agent/prompt call made through the Env.
type PromptState struct {
	SessionID string
	// Returned: the server answered (the turn ended) or the call failed.
	Returned bool
}

// Expectation is a named condition on the State: a Description for
// failure messages and a Check that judges the state.
type Expectation = expect.Expectation[State]

// OnceMet is met as soon as every one of musts is met, and unmeetable as
// soon as pre is met (or unmeetable) while one of musts is not, or one of
// musts is unmeetable: "once the turn ended, the chunk must have arrived".
// Unlike gopls's OnceMet it does not wait for pre when musts are met.
func OnceMet(pre Expectation, musts ...Expectation) Expectation { return expect.OnceMet(pre, musts...) }

// Not is met while e is not, and unmeetable once e is met: awaited with
// TurnEnded, it says what must not arrive during the turn.
func Not(e Expectation) Expectation { return expect.Not(e) }

// AllOf is met when every one of es is met.
func AllOf(es ...Expectation) Expectation { return expect.AllOf(es...) }

// AnyOf is met when one of es is met.
func AnyOf(es ...Expectation) Expectation { return expect.AnyOf(es...) }

// TurnEnded is met once an agent/prompt call for session sid ("" for any
// session) was made through the Env and every such call has returned.
func TurnEnded(sid string) Expectation {
	return expect.TurnEnded("agent/prompt", sid, func(s State) []PromptState { return s.Prompts },
		func(p PromptState) string { return p.SessionID }, func(p PromptState) bool { return p.Returned })
}

// MessageMatching is met once a message for which match holds arrived.
func MessageMatching(desc string, match func(lspclient.Message) bool) Expectation {
	return expect.Seen(desc, messages, match)
}

// messages is the state's message log.
func messages(s State) []lspclient.Message { return s.Messages }

// MethodCount is met once at least n messages of method arrived.
func MethodCount(method string, n int) Expectation {
	return expect.SeenTimes(fmt.Sprintf("at least %d × %s", n, method), n, messages,
		func(m lspclient.Message) bool { return m.Method == method })
}

// Received is met once a message of method arrived.
func Received(method string) Expectation {
	return MessageMatching("a "+method, func(m lspclient.Message) bool { return m.Method == method })
}

// ParamsContaining is met once a message of method arrived whose params
// (as JSON text) contain every one of subs.
func ParamsContaining(method string, subs ...string) Expectation {
	return MessageMatching(fmt.Sprintf("a %s containing %q", method, subs), func(m lspclient.Message) bool {
		return paramsContain(m, method, subs)
	})
}

// paramsContain reports whether m is of method and its params contain
// every one of subs.
func paramsContain(m lspclient.Message, method string, subs []string) bool {
	return m.Method == method && expect.ContainsAll(string(m.Params), subs)
}

// Update is met once an agent/update of kind (its sessionUpdate) arrived
// whose update, decoded into T, satisfies match (nil: any).
func Update[T any](kind, desc string, match func(T) bool) Expectation {
	if desc == "" {
		desc = "an agent/update " + kind
	}
	return MessageMatching(desc, func(m lspclient.Message) bool {
		u, ok := decodeUpdate[T](m, kind)
		return ok && (match == nil || match(u))
	})
}

// ShownContaining is met once a window/showMessage containing text arrived.
func ShownContaining(text string) Expectation {
	return MessageMatching(fmt.Sprintf("a window/showMessage containing %q", text), func(m lspclient.Message) bool {
		var sm ShownMessage
		return m.Method == "window/showMessage" && json.Unmarshal(m.Params, &sm) == nil && strings.Contains(sm.Message, text)
	})
}

// CancelRequestFor is met once a $/cancelRequest for the request with this
// id (its JSON text, as lspclient.Message.ID) arrived.
func CancelRequestFor(id string) Expectation {
	return MessageMatching("a $/cancelRequest for request "+id, func(m lspclient.Message) bool {
		var p struct {
			ID json.RawMessage `json:"id"`
		}
		return m.Method == "$/cancelRequest" && json.Unmarshal(m.Params, &p) == nil && string(p.ID) == id
	})
}

// Await waits until every expectation is met, re-judging on every message
// and every returned prompt. It fails the test at once when one is
// unmeetable, and when the wait's deadline (Setup.WaitTimeout) or the Env's
// context ends first; the failure names the expectation not met and shows
// the last messages.
func (e *Env) Await(exps ...Expectation) {
	e.T.Helper()
	if msg := e.await(exps); msg != "" {
		e.T.Fatalf("%s", msg)
	}
}

// await is Await's wait; it returns the failure message ("" when met).
func (e *Env) await(exps []Expectation) string {
	if f := expect.Wait(e.Ctx, e.waitTimeout, e.source(), exps...); f != nil {
		return failure(f)
	}
	return ""
}

// source is the State now, with channels closed on the next message and
// on the next returned prompt.
func (e *Env) source() expect.Source[State] {
	return expect.TranscriptOf(e.Editor.Snapshot, e.prompts.Snapshot)
}

// failure is a failed wait's message: the expectation, why, the prompts
// and the last messages.
func failure(f *expect.Failure[State]) string {
	call := func(p PromptState) (string, string) {
		if p.Returned {
			return p.SessionID, "returned"
		}
		return p.SessionID, "running"
	}
	return expect.ReportTranscript("lsptest", f, "agent/prompt", call, "messages from the server", func(m lspclient.Message) expect.Shown {
		kind := "notification"
		if m.IsCall {
			kind = "request " + m.ID
		}
		return expect.Shown{Method: m.Method, Kind: kind, Params: m.Params}
	})
}

// AwaitInTurn waits for exps while the turn of session sid (prompted
// through the Env) runs: once the turn has ended without them, the wait
// fails at once, as they can no longer come.
func (e *Env) AwaitInTurn(sid string, exps ...Expectation) {
	e.T.Helper()
	e.Await(OnceMet(TurnEnded(sid), exps...))
}
