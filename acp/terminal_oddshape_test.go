package acp_test

import (
	"testing"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/agentls/agentls/acp/internal/acptest"
)

// TestClientTerminalCreateOfAnOddShapeIsNotRunAgain: docs/acp.md says a
// terminal/create answer that leaves out what agentls needs fails the call
// and agentls does not run the command itself ("the client may have
// started it"); only an error response means the client could not start
// it. A result of the wrong shape (a numeric terminalId, a bare string, a
// list, `true`) is an answer, not an error: the client may well have
// started the command. But the SDK turns the failed decode into an
// internal-error RequestError, which RunInTerminal takes for the client's
// refusal, and agentls's own shell runs the command a second time.
func TestClientTerminalCreateOfAnOddShapeIsNotRunAgain(t *testing.T) {
	t.Parallel()
	ok := map[string]string{
		"terminal/wait_for_exit": `{"exitCode":0}`, "terminal/output": `{"output":"","truncated":false}`,
		"terminal/release": `null`, "terminal/kill": `null`,
	}
	for _, result := range []string{`{"terminalId":5}`, `"t1"`, `["t1"]`, `true`} {
		t.Run(result, func(t *testing.T) {
			t.Parallel()
			answers := map[string]string{"terminal/create": result}
			for k, v := range ok {
				answers[k] = v
			}
			env := acptest.Start(t, acptest.Setup{
				UserConfig: buildByDefault + "run: {allow: ['touch made']}\n",
				Caps:       sdk.ClientCapabilities{Terminal: true},
				Rewrite:    terminalAnswers(answers),
				Script: `
steps:
  - tool_calls: [{id: r1, name: run, args: {command: "touch made"}}]
  - text: "Told."
`})
			sid := env.NewSession()
			env.PromptAsync(sid, "run it")
			env.Await(acptest.TurnEndedWith(sid, sdk.StopReasonEndTurn), acptest.Received("terminal/create"))
			if env.Exists("made") {
				t.Error("agentls ran the command itself after the client answered terminal/create (the client may have started it)")
			}
			env.Await(acptest.OnceMet(acptest.TurnEnded(sid), acptest.ToolCallStatus("r1", sdk.ToolCallStatusFailed)))
		})
	}
}
