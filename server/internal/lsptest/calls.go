package lsptest

import (
	"errors"

	"go.lsp.dev/jsonrpc2"

	"github.com/agentls/agentls/agentproto"
)

// NewSession calls agent/newSession (mode "" for the default).
func (e *Env) NewSession(mode string) agentproto.Session {
	e.T.Helper()
	return MustCall(e, agentproto.NewSession, agentproto.NewSessionParams{Mode: agentproto.Mode(mode)})
}

// LoadSession calls agent/loadSession.
func (e *Env) LoadSession(sid string) agentproto.LoadedSession {
	e.T.Helper()
	return MustCall(e, agentproto.LoadSession, agentproto.SessionParams{SessionID: sid})
}

// CloseSession sends agent/closeSession; a failed call fails the test.
func (e *Env) CloseSession(sid string) {
	e.T.Helper()
	MustCall(e, agentproto.CloseSession, agentproto.SessionParams{SessionID: sid})
}

// PromptOutcome is how an agent/prompt call ended: its result or its error.
type PromptOutcome struct {
	Result agentproto.PromptResult
	Err    error
}

// PromptRPC sends agent/prompt with params without waiting; the outcome
// arrives on the channel. The call counts for TurnEnded.
func (e *Env) PromptRPC(params map[string]any) <-chan PromptOutcome {
	sid, _ := params["sessionId"].(string)
	i := e.prompts.Add(PromptState{SessionID: sid})
	done := make(chan PromptOutcome, 1)
	go func() {
		var o PromptOutcome
		o.Err = e.Editor.Call(e.Ctx, agentproto.Prompt.Name(), params, &o.Result)
		e.prompts.Set(i, PromptState{SessionID: sid, Returned: true})
		done <- o
	}()
	return done
}

// PromptAsync sends a prompt without waiting; its result (zero if the
// call failed) arrives on the channel.
func (e *Env) PromptAsync(sid, text string) <-chan agentproto.PromptResult {
	out := make(chan agentproto.PromptResult, 1)
	done := e.PromptRPC(map[string]any{"sessionId": sid, "text": text})
	go func() { out <- (<-done).Result }()
	return out
}

// Prompt sends a prompt and waits for its result; a failed call fails the
// test.
func (e *Env) Prompt(sid, text string) agentproto.PromptResult {
	e.T.Helper()
	o := <-e.PromptRPC(map[string]any{"sessionId": sid, "text": text})
	if o.Err != nil {
		e.T.Fatalf("prompt: %v", o.Err)
	}
	return o.Result
}

// RPCCode is the JSON-RPC error code of a call's error (0 if none).
func RPCCode(err error) int64 {
	var je *jsonrpc2.Error
	if errors.As(err, &je) {
		return int64(je.Code)
	}
	return 0
}

// Rewind calls agent/rewind; the error is the server's answer when it
// refuses.
func (e *Env) Rewind(req agentproto.RewindParams) (agentproto.RewindResult, error) {
	e.T.Helper()
	return Call(e, agentproto.Rewind, agentproto.RewindParams{SessionID: req.SessionID, ToMessageID: req.ToMessageID, What: agentproto.RewindWhat(req.What), Paths: req.Paths})
}
