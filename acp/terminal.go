package acp

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/agentls/agentls/agent"
	"github.com/agentls/agentls/agent/tools"
)

var _ agent.TerminalRunner = (*editor)(nil)

// terminalGrace bounds the kill and release of a terminal whose turn was
// cancelled or whose command timed out.
const terminalGrace = 5 * time.Second

// RunInTerminal runs a permitted command in the client's terminal
// (terminal/create with /bin/sh -c, in the tool call's content so the
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
	start := time.Now()
	sid := sdk.SessionId(sessionID)
	req := sdk.CreateTerminalRequest{SessionId: sid, Command: "/bin/sh", Args: []string{"-c", job.Command}, Cwd: sdk.Ptr(job.Dir)}
	if job.MaxOut > 0 {
		req.OutputByteLimit = sdk.Ptr(job.MaxOut)
	}
	created, err := e.a.conn.CreateTerminal(ctx, req)
	if err != nil {
		return tools.TerminalResult{}, true, fmt.Errorf("the client's terminal did not start the command: %s", clientError(err))
	}
	id := created.TerminalId
	final, cancelFinal := context.WithTimeout(context.WithoutCancel(ctx), terminalGrace)
	defer cancelFinal()
	defer func() {
		if _, err := e.a.conn.ReleaseTerminal(final, sdk.ReleaseTerminalRequest{SessionId: sid, TerminalId: id}); err != nil {
			slog.Debug("acp: terminal/release failed", "terminal", id, "err", err)
		}
	}()
	if callID := agent.ToolCallID(ctx); callID != "" {
		content := toolContent{Type: "terminal", TerminalID: id}
		e.a.calls.add(sessionID, callID, content)
		e.send(ctx, sessionID, toolCallUpdate{SessionUpdate: "tool_call_update", ToolCallID: callID, Content: []toolContent{content}})
	}
	res := tools.TerminalResult{}
	wctx, cancel := context.WithTimeout(ctx, job.Timeout)
	defer cancel()
	exit, err := e.a.conn.WaitForTerminalExit(wctx, sdk.WaitForTerminalExitRequest{SessionId: sid, TerminalId: id})
	if err != nil {
		if wctx.Err() == nil {
			return tools.TerminalResult{}, true, fmt.Errorf("waiting for the client's terminal: %s", clientError(err))
		}
		res.TimedOut, res.Cancelled = ctx.Err() == nil, ctx.Err() != nil
		if _, err := e.a.conn.KillTerminal(final, sdk.KillTerminalRequest{SessionId: sid, TerminalId: id}); err != nil {
			slog.Warn("acp: terminal/kill failed", "terminal", id, "err", err)
		}
	} else if exit.ExitCode != nil {
		res.ExitCode = *exit.ExitCode
	} else {
		res.ExitCode = -1 // ended by a signal
	}
	out, err := e.a.conn.TerminalOutput(final, sdk.TerminalOutputRequest{SessionId: sid, TerminalId: id})
	if err != nil && !errors.Is(err, context.Canceled) {
		slog.Debug("acp: terminal/output failed", "terminal", id, "err", err)
	}
	res.Output = out.Output
	if out.Truncated {
		res.Output = "(the start of the output was cut by the client's output limit)\n" + res.Output
	}
	res.Duration = time.Since(start)
	return res, true, nil
}
