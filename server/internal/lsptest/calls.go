package lsptest

import (
	"errors"

	"go.lsp.dev/jsonrpc2"

	"github.com/agentls/agentls/agent"
	"github.com/agentls/agentls/server"
)

// NewSession calls agent/newSession (mode "" for the default).
func (e *Env) NewSession(mode string) agent.Info {
	e.T.Helper()
	params := map[string]any{}
	if mode != "" {
		params["mode"] = mode
	}
	var s agent.Info
	if err := e.Editor.Call(e.Ctx, "agent/newSession", params, &s); err != nil {
		e.T.Fatalf("newSession: %v", err)
	}
	return s
}

// LoadSession calls agent/loadSession.
func (e *Env) LoadSession(sid string) server.LoadedSession {
	e.T.Helper()
	var s server.LoadedSession
	if err := e.Editor.Call(e.Ctx, "agent/loadSession", map[string]any{"sessionId": sid}, &s); err != nil {
		e.T.Fatalf("loadSession: %v", err)
	}
	return s
}

// CloseSession sends agent/closeSession; a failed call fails the test.
func (e *Env) CloseSession(sid string) {
	e.T.Helper()
	if err := e.Editor.Call(e.Ctx, "agent/closeSession", map[string]any{"sessionId": sid}, nil); err != nil {
		e.T.Fatalf("closeSession: %v", err)
	}
}

// PromptOutcome is how an agent/prompt call ended: its result or its error.
type PromptOutcome struct {
	Result server.PromptResult
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
		o.Err = e.Editor.Call(e.Ctx, "agent/prompt", params, &o.Result)
		e.prompts.Set(i, PromptState{SessionID: sid, Returned: true})
		done <- o
	}()
	return done
}

// PromptAsync sends a prompt without waiting; its result (zero if the
// call failed) arrives on the channel.
func (e *Env) PromptAsync(sid, text string) <-chan server.PromptResult {
	out := make(chan server.PromptResult, 1)
	done := e.PromptRPC(map[string]any{"sessionId": sid, "text": text})
	go func() { out <- (<-done).Result }()
	return out
}

// Prompt sends a prompt and waits for its result; a failed call fails the
// test.
func (e *Env) Prompt(sid, text string) server.PromptResult {
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
func (e *Env) Rewind(req agent.RewindRequest) (agent.RewindResult, error) {
	e.T.Helper()
	var res agent.RewindResult
	err := e.Editor.Call(e.Ctx, "agent/rewind", req, &res)
	return res, err
}
