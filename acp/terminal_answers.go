package acp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	sdk "github.com/coder/acp-go-sdk"
)

// errNoTerminalID is a terminal/create answered without a terminalId (or
// with a result of another shape): the
// client may or may not have started the command, and agentls cannot wait
// for, read, kill or release it.
var errNoTerminalID = errors.New("the client answered terminal/create without a terminalId (a string); whether the command started is unknown")

// exitNote says how the command ended when the client's
// terminal/wait_for_exit gave no exit code: the signal it names, or that
// the client named neither (the exit status is unknown; reported as -1).
func exitNote(exit sdk.WaitForTerminalExitResponse) string {
	if exit.Signal != nil && *exit.Signal != "" {
		return fmt.Sprintf("(the command was ended by signal %s)", oneLine(*exit.Signal))
	}
	return "(the client's terminal/wait_for_exit reported neither an exit code nor a signal: the command's exit status is unknown)"
}

// terminalOutput reads the terminal's output (terminal/output, through the
// wire, which keeps the raw result): a result without a text `output` is
// an error, never an empty output.
func (e *editor) terminalOutput(ctx context.Context, sid sdk.SessionId, id string) (sdk.TerminalOutputResponse, error) {
	var raw json.RawMessage
	if err := e.a.wire.call(ctx, "terminal/output", sdk.TerminalOutputRequest{SessionId: sid, TerminalId: id}, &raw); err != nil {
		return sdk.TerminalOutputResponse{}, err
	}
	var res struct {
		Output    *string `json:"output"`
		Truncated bool    `json:"truncated"`
	}
	if json.Unmarshal(raw, &res) != nil || res.Output == nil {
		return sdk.TerminalOutputResponse{}, errors.New("the client answered terminal/output without a text output")
	}
	return sdk.TerminalOutputResponse{Output: *res.Output, Truncated: res.Truncated}, nil
}

// withNote appends a note on its own line to a command's output.
func withNote(output, note string) string {
	if output != "" && output[len(output)-1] != '\n' {
		output += "\n"
	}
	return output + note
}
