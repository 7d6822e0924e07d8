package acp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/agentls/agentls/agent"
	"github.com/agentls/agentls/agent/tools"
	"github.com/agentls/agentls/sandbox"
)

var _ agent.TerminalRunner = (*editor)(nil)

// terminalGrace bounds each terminal request that must happen even when
// the turn was cancelled (create, kill, output, release).
const terminalGrace = 5 * time.Second

// graceContext is ctx without its cancellation, bounded by terminalGrace.
func graceContext(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.WithoutCancel(ctx), terminalGrace)
}

// RunInTerminal runs a permitted command in the client's terminal
// (terminal/create with /bin/sh -c, without the variables the command must
// not get (terminalCommand), inside the sandbox (the agentls launcher,
// and bwrap when usable, around it), in the tool call's content so the
// client shows its output live), waits for it (killing it on timeout or
// cancellation), reads its output and releases it. Without the client's
// `terminal` capability agentls's own shell runs it.
func (e *editor) RunInTerminal(ctx context.Context, sessionID string, job tools.TerminalJob) (tools.TerminalResult, bool, error) {
	if !e.a.clientCaps().Terminal {
		return tools.TerminalResult{}, false, nil
	}
	if job.BeforeStart != nil {
		if err := job.BeforeStart(); err != nil {
			return tools.TerminalResult{}, true, err
		}
	}
	if ctx.Err() != nil {
		// Cancelled while asking or checking: create nothing (the
		// terminal/create below is not abandoned on cancellation).
		return tools.TerminalResult{Cancelled: true}, true, nil
	}
	var coverFailed bool
	res, handled, err := e.runInTerminalOnce(ctx, sessionID, job, &coverFailed)
	if coverFailed && ctx.Err() == nil {
		// Nothing ran: a socket the sandbox was to cover went away while
		// bubblewrap set it up. Once more, the sandbox made anew.
		slog.Info("acp: bubblewrap could not cover a socket that went away; the command starts again", "session", sessionID)
		res, handled, err = e.runInTerminalOnce(ctx, sessionID, job, &coverFailed)
	}
	return res, handled, err
}

// runInTerminalOnce is RunInTerminal's one run of the command in the
// client's terminal; coverFailed is set when it never ran because a
// socket bubblewrap was to cover went away (sandbox.Prepared.CoverFailed).
func (e *editor) runInTerminalOnce(ctx context.Context, sessionID string, job tools.TerminalJob, coverFailed *bool) (tools.TerminalResult, bool, error) {
	start := time.Now()
	sid := sdk.SessionId(sessionID)
	command, args := terminalCommand(job.Command, job.EnvDeny)
	prep, err := sandbox.Prepare(job.Sandbox, "", append([]string{command}, args...))
	if err != nil {
		return tools.TerminalResult{}, true, fmt.Errorf("the command did not start: %w", err)
	}
	defer prep.Cleanup() // after terminal/release (deferred below, so run first)
	command, args = prep.Argv[0], prep.Argv[1:]
	req := sdk.CreateTerminalRequest{SessionId: sid, Command: command, Args: args, Cwd: sdk.Ptr(job.Dir)}
	for _, kv := range job.Env {
		name, value, _ := strings.Cut(kv, "=")
		req.Env = append(req.Env, sdk.EnvVariable{Name: name, Value: value})
	}
	if job.MaxOut > 0 {
		req.OutputByteLimit = sdk.Ptr(job.MaxOut)
	}
	// terminal/create is not abandoned on cancellation: a terminal the
	// client starts meanwhile would run on, never released. The terminal
	// requests go through the wire, not the SDK: the SDK reports a result
	// that does not decode ({"terminalId":5}, true) as an error response of
	// its own, which would read as the client's refusal (and agentls's own
	// shell would run a command the client may have started), and its
	// writes wait without a context, so a client that stops reading while
	// the output queue is full would hold terminal/kill, and the cancelled
	// turn, until it read again.
	cctx, cancelCreate := graceContext(ctx)
	var raw json.RawMessage
	err = e.a.wire.call(cctx, "terminal/create", req, &raw)
	unanswered := cctx.Err() != nil
	cancelCreate()
	var refused *answeredError
	if err != nil && !unanswered && ctx.Err() == nil && errors.As(err, &refused) {
		// The client answered that it could not start it (its terminal
		// cannot run the agentls launcher, say): nothing started, so
		// agentls's own shell runs the command, in the same sandbox.
		slog.Warn("acp: the client's terminal did not start the command; agentls's own shell runs it", "err", clientError(err))
		return tools.TerminalResult{}, false, nil
	}
	if err != nil {
		return tools.TerminalResult{}, true, fmt.Errorf("the client's terminal did not start the command: %s", clientError(err))
	}
	var created sdk.CreateTerminalResponse
	if json.Unmarshal(raw, &created) != nil || created.TerminalId == "" {
		return tools.TerminalResult{}, true, errNoTerminalID // terminal_answers.go
	}
	id := created.TerminalId
	defer func() {
		rctx, cancel := graceContext(ctx)
		defer cancel()
		if err := e.a.wire.call(rctx, "terminal/release", sdk.ReleaseTerminalRequest{SessionId: sid, TerminalId: id}, nil); err != nil {
			slog.Debug("acp: terminal/release failed", "terminal", id, "err", err)
		}
	}()
	if callID := agent.ToolCallID(ctx); callID != "" {
		content := toolContent{Type: "terminal", TerminalID: id}
		e.a.calls.add(sessionID, callID, content)
		e.send(ctx, sessionID, toolCallUpdate{SessionUpdate: "tool_call_update", ToolCallID: callID, Content: []toolContent{content}})
	}
	res := tools.TerminalResult{}
	note := "" // how it ended, when the client said no exit code; its output lost
	wctx, cancel := context.WithTimeout(ctx, job.Timeout)
	defer cancel()
	var exit sdk.WaitForTerminalExitResponse
	err = e.a.wire.call(wctx, "terminal/wait_for_exit", sdk.WaitForTerminalExitRequest{SessionId: sid, TerminalId: id}, &exit)
	if err != nil {
		if wctx.Err() == nil {
			return tools.TerminalResult{}, true, fmt.Errorf("waiting for the client's terminal: %s", clientError(err))
		}
		res.TimedOut, res.Cancelled = ctx.Err() == nil, ctx.Err() != nil
		kctx, cancel := graceContext(ctx)
		if err := e.a.wire.call(kctx, "terminal/kill", sdk.KillTerminalRequest{SessionId: sid, TerminalId: id}, nil); err != nil {
			slog.Warn("acp: terminal/kill failed", "terminal", id, "err", err)
		}
		cancel()
	} else if exit.ExitCode != nil {
		res.ExitCode = *exit.ExitCode
	} else {
		res.ExitCode = -1 // ended by a signal, or the client did not say
		note = exitNote(exit)
	}
	octx, cancelOut := graceContext(ctx)
	defer cancelOut()
	out, err := e.terminalOutput(octx, sid, id) // terminal_answers.go
	if err != nil {
		slog.Warn("acp: terminal/output failed", "terminal", id, "err", err)
		note = withNote(note, "(the client's terminal did not return the command's output: "+clientError(err)+")")
	}
	res.Output = out.Output
	*coverFailed = err == nil && !out.Truncated && !res.TimedOut && !res.Cancelled && prep.CoverFailed(res.ExitCode, out.Output)
	if out.Truncated {
		res.Output = "(the start of the output was cut by the client's output limit)\n" + res.Output
	}
	if note != "" {
		res.Output = withNote(res.Output, note)
	}
	res.Duration = time.Since(start)
	return res, true, nil
}
