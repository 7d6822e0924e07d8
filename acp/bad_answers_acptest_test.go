package acp_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/agentls/agentls/acp/internal/acptest"
)

// A hostile or broken client's answers to agentls's requests: each gets a
// clear error and loses nothing (acptest, the expectation harness).

// answerMarker is the option id (or file text) a test's client answers
// with, which answerAs then rewrites into the answer under test.
const answerMarker = "REWRITE-THIS-ANSWER"

// answerAs rewrites the client's response that carries answerMarker: its
// result becomes result (raw JSON), or, when result is "", the response
// becomes an error response.
func answerAs(result string) func([]byte) []byte { return rewriteAnswer(answerMarker, result) }

// rewriteAnswer is answerAs for the client's responses that contain marker.
func rewriteAnswer(marker, result string) func([]byte) []byte {
	return func(line []byte) []byte {
		var m map[string]json.RawMessage
		if !bytes.Contains(line, []byte(marker)) || json.Unmarshal(line, &m) != nil || m["method"] != nil || m["result"] == nil {
			return line
		}
		delete(m, "result")
		if result == "" {
			m["error"] = json.RawMessage(`{"code":-32603,"message":"the client broke"}`)
		} else {
			m["result"] = json.RawMessage(result)
		}
		b, err := json.Marshal(m)
		if err != nil {
			panic(err)
		}
		return b
	}
}

const approvalScript = `
steps:
  - tool_calls: [{id: w, name: plan_write, args: {title: Greeting, path: plans/greet.plan, content: "# Goal\nSay hi.\n\n## Steps\n- [ ] Write hi.txt\n"}}]
  - tool_calls: [{id: x, name: exit_plan_mode, args: {plan_file_path: plans/greet.plan}}]
  - text: "The model must not be asked again."
`

// TestApprovalWithAnInvalidAnswerEndsTheTurn: a plan approval answered
// with an option that was not offered, with no outcome (`null`, `{}`) or
// with an error is no decision — not "Keep Planning" (the model told the
// user rejected it), not a wait of plan_mode.approval_timeout_secs for a
// decision no other surface of ACP can make: the turn ends with an error
// naming the answer, the plan stays unapproved and the mode plan.
func TestApprovalWithAnInvalidAnswerEndsTheTurn(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		permit  string
		rewrite func([]byte) []byte
		want    []string
	}{
		{name: "an option not offered", permit: "allow_always", want: []string{"allow_always", "which is not one of the options offered"}},
		{name: "another option id", permit: "yes", want: []string{"yes", "which is not one of the options offered"}},
		{name: "null", permit: answerMarker, rewrite: answerAs("null"), want: []string{"without a valid outcome"}},
		{name: "empty object", permit: answerMarker, rewrite: answerAs("{}"), want: []string{"without a valid outcome"}},
		{name: "a misspelt outcome", permit: answerMarker, rewrite: answerAs(`{"outcome":{"outcome":"selectd","optionId":"allow_once"}}`), want: []string{"without a valid outcome", "selectd"}},
		{name: "an error", permit: answerMarker, rewrite: answerAs(""), want: []string{"the client answered session/request_permission with error -32603: the client broke"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			env := acptest.Start(t, acptest.Setup{Script: approvalScript, Permit: acptest.Choose(tc.permit), Rewrite: tc.rewrite})
			sid := env.NewSession()
			env.PromptAsync(sid, "plan a greeting")
			want := append([]string{"the plan approval could not be asked", "plans/greet.plan was not approved and the session stays in plan mode"}, tc.want...)
			env.Await(
				acptest.TurnFailedWith(sid, want...),
				acptest.ToolCallStatus("x", sdk.ToolCallStatusFailed),
				acptest.Not(acptest.Update("current_mode_update", "", nil)),
			)
			if n := env.Model.Remaining(); n != 1 {
				t.Errorf("the model was asked %d more times after the failed approval", 1-n)
			}
			if plan := env.Read("plans/greet.plan"); !bytes.Contains([]byte(plan), []byte("status: draft")) {
				t.Errorf("the plan's status changed:\n%s", plan)
			}
		})
	}
}

// TestRunPermissionWithoutAnOutcomeFails: a run permission answered
// `null`, `{}` or with an outcome of neither shape (the SDK reads most of
// them as `cancelled`) is an invalid answer: the command does not run and the
// model reads why (the script's expect), and the turn goes on — it is not a cancel the user
// never made.
func TestRunPermissionWithoutAnOutcomeFails(t *testing.T) {
	t.Parallel()
	for _, result := range []string{"null", "{}", `{"outcome":"selected"}`, `{"outcome":{"optionId":"allow_once"}}`,
		`{"outcome":{"outcome":"selectd","optionId":"allow_once"}}`, `{"outcome":{"outcome":"selected"}}`} {
		t.Run(result, func(t *testing.T) {
			t.Parallel()
			touchMadeNotPermitted(t, acptest.Setup{Permit: acptest.Choose(answerMarker), Rewrite: answerAs(result)},
				"The client's answer was broken.", "without a valid outcome", "a command ran without a permission")
		})
	}
}

// TestClientReadWithoutContentReadsTheDisk: an fs/read_text_file answered
// `null`, `{}` or with a content that is not text is an invalid answer,
// not an empty file (an edit computed on "" would replace the file): the
// read falls back to the disk, as after an error.
func TestClientReadWithoutContentReadsTheDisk(t *testing.T) {
	t.Parallel()
	for _, result := range []string{"null", "{}", `{"content":5}`} {
		t.Run(result, func(t *testing.T) {
			t.Parallel()
			env := acptest.Start(t, acptest.Setup{
				Caps:    sdk.ClientCapabilities{Fs: sdk.FileSystemCapabilities{ReadTextFile: true, WriteTextFile: true}},
				Files:   map[string]string{"a.txt": answerMarker + "\n"},
				Rewrite: answerAs(result),
				Script: `
steps:
  - tool_calls: [{id: r1, name: read, args: {path: a.txt}}]
  - expect: {tool_result_contains: {r1: ["` + answerMarker + `", '"total_lines":1']}}
    text: "Read it."
`})
			sid := env.NewSession()
			env.PromptAsync(sid, "read a.txt")
			env.Await(
				acptest.TurnEndedWith(sid, sdk.StopReasonEndTurn),
				acptest.Received("fs/read_text_file"),
			)
		})
	}
}

// TestElicitationWithoutAValidActionAsksAnotherWay: an elicitation/create
// answered `null`, `{}` or with an action ACP does not have is no answer —
// not the user's dismissal (the model was told "dismissed"): the question
// is asked another way (here as the agent's text, the turn ending
// question_pending), as after an error.
func TestElicitationWithoutAValidActionAsksAnotherWay(t *testing.T) {
	t.Parallel()
	for _, result := range []string{"null", "{}", `{"action":"sure"}`} {
		t.Run(result, func(t *testing.T) {
			t.Parallel()
			env := acptest.Start(t, acptest.Setup{
				Caps:    formCaps,
				Rewrite: rewriteAnswer(`"action":"decline"`, result), // the harness's client declines
				Script:  "\nsteps:\n" + askEnvAndConfirm,
			})
			sid := env.NewSession()
			env.PromptAsync(sid, "ask me")
			env.Await(
				acptest.TurnEndedWith(sid, sdk.StopReasonEndTurn),
				acptest.Received("elicitation/create"),
				acptest.Update("agent_message_chunk", "the questions as the agent's text", func(u sdk.SessionUpdate) bool {
					c := u.AgentMessageChunk.Content.Text
					return c != nil && bytes.Contains([]byte(c.Text), []byte("Which environment?"))
				}),
				acptest.Not(acptest.Update("tool_call_update", "q1 reported dismissed", func(u sdk.SessionUpdate) bool {
					b, _ := json.Marshal(u.ToolCallUpdate.RawOutput)
					return bytes.Contains(b, []byte("dismissed"))
				})),
			)
		})
	}
}

// terminalAnswers makes the harness's client (which has no terminals and
// answers terminal/* "method not found") answer each method named in
// results with that raw result instead.
func terminalAnswers(results map[string]string) func([]byte) []byte {
	return func(line []byte) []byte {
		var m struct {
			ID    json.RawMessage `json:"id"`
			Error *struct {
				Data struct {
					Method string `json:"method"`
				} `json:"data"`
			} `json:"error"`
		}
		if json.Unmarshal(line, &m) != nil || m.Error == nil {
			return line
		}
		result, ok := results[m.Error.Data.Method]
		if !ok {
			return line
		}
		b, err := json.Marshal(map[string]json.RawMessage{"jsonrpc": json.RawMessage(`"2.0"`), "id": m.ID, "result": json.RawMessage(result)})
		if err != nil {
			panic(err)
		}
		return b
	}
}

// TestClientTerminalThatLies: a client terminal whose answers leave out
// what agentls needs is named in the run's result, never taken for a
// clean run: terminal/create without a terminalId fails the call (the
// command is not run again by agentls's own shell); terminal/wait_for_exit
// without an exit code or a signal says the status is unknown;
// terminal/output without an output says the output was not returned
// (not an empty output).
func TestClientTerminalThatLies(t *testing.T) {
	t.Parallel()
	ok := map[string]string{
		"terminal/create": `{"terminalId":"t1"}`, "terminal/wait_for_exit": `{"exitCode":0}`,
		"terminal/output": `{"output":"hi\n","truncated":false}`, "terminal/release": `null`, "terminal/kill": `null`,
	}
	with := func(method, result string) map[string]string {
		m := map[string]string{}
		for k, v := range ok {
			m[k] = v
		}
		m[method] = result
		return m
	}
	tests := []struct {
		name    string
		answers map[string]string
		status  sdk.ToolCallStatus
		want    []string
	}{
		{"the truth", ok, sdk.ToolCallStatusCompleted, []string{`"exit_code":0`, `"output":"hi\n"`}},
		{"create without terminalId", with("terminal/create", `{}`), sdk.ToolCallStatusFailed, []string{"without a terminalId"}},
		{"create null", with("terminal/create", `null`), sdk.ToolCallStatusFailed, []string{"without a terminalId"}},
		{"exit without a status", with("terminal/wait_for_exit", `{}`), sdk.ToolCallStatusCompleted, []string{`"exit_code":-1`, "neither an exit code nor a signal"}},
		{"exit null", with("terminal/wait_for_exit", `null`), sdk.ToolCallStatusCompleted, []string{`"exit_code":-1`, "neither an exit code nor a signal"}},
		{"exit by a signal", with("terminal/wait_for_exit", `{"signal":"SIGKILL"}`), sdk.ToolCallStatusCompleted, []string{`"exit_code":-1`, "ended by signal SIGKILL"}},
		{"output null", with("terminal/output", `null`), sdk.ToolCallStatusCompleted, []string{"did not return the command's output", "without a text output"}},
		{"output {}", with("terminal/output", `{}`), sdk.ToolCallStatusCompleted, []string{"did not return the command's output"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			env := acptest.Start(t, acptest.Setup{
				UserConfig: buildByDefault + "run: {allow: ['touch made']}\n",
				Caps:       sdk.ClientCapabilities{Terminal: true},
				Rewrite:    terminalAnswers(tc.answers),
				Script:     runScript("touch made", "Told.", tc.want...),
			})
			sid := env.NewSession()
			env.PromptAsync(sid, "run it")
			env.Await(acptest.TurnEndedWith(sid, sdk.StopReasonEndTurn), acptest.Received("terminal/create"), acptest.ToolCallStatus("r1", tc.status))
			if env.Exists("made") {
				t.Error("agentls ran the command itself after the client's terminal/create") // the client only said it did
			}
		})
	}
}

// TestClientWriteAnyResultIsSuccess: docs/acp.md says any result of
// fs/write_text_file counts as success and only an error response fails
// the write: a client answering `true`, a string or a list wrote the file
// (here it did), so the write is not reported failed (a retry would then
// find the file there).
func TestClientWriteAnyResultIsSuccess(t *testing.T) {
	t.Parallel()
	for _, result := range []string{"true", `"ok"`, "[]", "null"} {
		t.Run(result, func(t *testing.T) {
			t.Parallel()
			env := acptest.Start(t, acptest.Setup{
				Caps:    sdk.ClientCapabilities{Fs: sdk.FileSystemCapabilities{WriteTextFile: true}},
				Rewrite: rewriteAnswer(`"result":{}`, result), // the harness's client answers a write {}
				Script: `
steps:
  - tool_calls: [{id: w, name: plan_write, args: {title: Shout, path: plans/shout.plan, content: "# Goal\nShout.\n\n## Steps\n- [ ] Shout\n"}}]
  - expect: {tool_result_contains: {w: ['"success":true']}}
    text: "Written."
`})
			sid := env.NewSession()
			env.PromptAsync(sid, "plan a shout")
			env.Await(acptest.TurnEndedWith(sid, sdk.StopReasonEndTurn), acptest.Received("fs/write_text_file"), acptest.ToolCallStatus("w", sdk.ToolCallStatusCompleted))
			if !bytes.Contains([]byte(env.Read("plans/shout.plan")), []byte("- [ ] Shout")) {
				t.Error("the plan is not on disk")
			}
		})
	}
}

// TestClientAnswerOverTheSizeCapFailsAtOnce: a client's answer to
// fs/read_text_file over the line cap (10 MB) is dropped, and the read it
// answers fails at once — the read falls back to the disk — instead of
// waiting editor.request_timeout_secs (60 s) for an answer that was
// dropped.
func TestClientAnswerOverTheSizeCapFailsAtOnce(t *testing.T) {
	t.Parallel()
	huge, _ := json.Marshal(map[string]string{"content": strings.Repeat("x", 11<<20)})
	env := acptest.Start(t, acptest.Setup{
		Caps:        sdk.ClientCapabilities{Fs: sdk.FileSystemCapabilities{ReadTextFile: true}},
		Files:       map[string]string{"a.txt": answerMarker + "\n"},
		Rewrite:     answerAs(string(huge)),
		WaitTimeout: 30 * time.Second, // under the 60 s a dropped answer waited
		Script: `
steps:
  - tool_calls: [{id: r1, name: read, args: {path: a.txt}}]
  - expect: {tool_result_contains: {r1: ["` + answerMarker + `"]}}
    text: "Read it."
`})
	sid := env.NewSession()
	env.PromptAsync(sid, "read a.txt")
	env.Await(acptest.TurnEndedWith(sid, sdk.StopReasonEndTurn), acptest.Received("fs/read_text_file"))
}

// TestTrustQuestionWithAnInvalidAnswerAsksAgain: the workspace
// configuration's trust question answered `null` decided nothing: its call
// says why (the file stays untrusted for now), and the next prompt asks
// again — before, the failure was a bare `failed` and the question was not
// asked again on this connection.
func TestTrustQuestionWithAnInvalidAnswerAsksAgain(t *testing.T) {
	t.Parallel()
	env := acptest.Start(t, acptest.Setup{
		UserConfig: buildByDefault, Permit: acptest.Choose(answerMarker), Rewrite: answerAs("null"),
		Files:  map[string]string{".agentls.yaml": "run: {allow: ['touch *']}\n"},
		Script: "steps:\n  - text: One.\n  - text: Two.\n",
	})
	sid := env.NewSession()
	env.PromptAsync(sid, "one")
	env.Await(
		acptest.TurnEndedWith(sid, sdk.StopReasonEndTurn),
		acptest.Update("tool_call_update", "the trust call failed saying why", func(u sdk.SessionUpdate) bool {
			b, _ := json.Marshal(u.ToolCallUpdate.Content)
			return strings.HasPrefix(string(u.ToolCallUpdate.ToolCallId), "trust-") && u.ToolCallUpdate.Status != nil &&
				*u.ToolCallUpdate.Status == sdk.ToolCallStatusFailed && bytes.Contains(b, []byte("could not be asked")) && bytes.Contains(b, []byte("without a valid outcome"))
		}),
	)
	env.PromptAsync(sid, "two")
	env.Await(acptest.TurnEndedWith(sid, sdk.StopReasonEndTurn), acptest.MethodCount("session/request_permission", 2))
}
