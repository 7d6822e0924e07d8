package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"

	"github.com/agentls/agentls/agent/llm"
	"github.com/agentls/agentls/agent/tooloutcome"
	"github.com/agentls/agentls/agent/tools"
	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/guard"
	"github.com/sourcegraph/conc/iter"
	"github.com/sourcegraph/conc/panics"
)

// MaxToolArgBytes caps a tool call's arguments: larger ones are refused and
// stored as a short stub, not kept and re-sent with every request.
const MaxToolArgBytes = 1 << 20

// refusedArgsKey marks the stub that replaces refused arguments.
const refusedArgsKey = "agentls_arguments_refused"

// capArguments returns args, or the stub of arguments over MaxToolArgBytes.
func capArguments(args string) string {
	if len(args) <= MaxToolArgBytes {
		return args
	}
	b, _ := json.Marshal(map[string]string{refusedArgsKey: fmt.Sprintf("arguments refused: %s over the 1 MB cap", byteSize(len(args)))})
	return string(b)
}

// refusedArguments returns the reason stored in a refused call's stub.
func refusedArguments(args string) (string, bool) {
	if !strings.Contains(args, refusedArgsKey) {
		return "", false
	}
	var stub map[string]string
	if json.Unmarshal([]byte(args), &stub) != nil || len(stub) != 1 || stub[refusedArgsKey] == "" {
		return "", false
	}
	return stub[refusedArgsKey], true
}

// callOutcome is one executed tool call.
type callOutcome struct {
	result tools.Result
	err    error // ends the turn (approval timeout)
	// problems are the new problems of the call's edits, one a line
	// (language_intel.go), shown as a second content block.
	problems string
	// asked keeps the question the call asked and its reply.
	asked *tooloutcome.Record
}

// runCalls runs one step's tool calls: consecutive read-only calls in
// parallel, mutating calls one at a time, results appended in call order.
// cut says the answer ended at the model's output limit (finish_reason
// "length"): a call whose arguments are not whole JSON was cut there.
func (s *Session) runCalls(ctx context.Context, calls []agentproto.ToolCall, cut bool) (agentproto.StopReason, error) {
	for _, c := range calls {
		s.m.notes.Update(ctx, s.meta.ID, agentproto.ToolCallStarted{
			SessionUpdate: "tool_call", ToolCallID: c.ID, Title: s.title(c), Kind: s.kind(c),
			Status: "pending", RawInput: rawInput(c.Arguments),
		})
	}
	outcomes := make([]callOutcome, len(calls))
	for i := 0; i < len(calls); {
		j := i + 1
		if s.readOnly(calls[i].Name) {
			for j < len(calls) && s.readOnly(calls[j].Name) {
				j++
			}
		}
		batch := calls[i:j]
		mapper := iter.Mapper[agentproto.ToolCall, callOutcome]{MaxGoroutines: s.batchWidth(batch)}
		res := mapper.Map(batch, func(c *agentproto.ToolCall) callOutcome { return s.runCall(ctx, *c, cut) })
		copy(outcomes[i:j], res)
		i = j
	}
	var stop agentproto.StopReason
	var turnErr error
	for i, c := range calls {
		out := outcomes[i]
		if out.err != nil && turnErr == nil {
			turnErr = out.err
		}
		s.append(llm.Message{Role: llm.RoleTool, ToolCallID: c.ID, Name: c.Name, Content: out.result.JSON(),
			Outcome: tooloutcome.Of(out.result, out.asked)})
		if out.result.Stop != "" && stop == "" {
			stop = agentproto.StopReason(out.result.Stop)
		}
	}
	return stop, turnErr
}

// runCall runs one call: lookup, JSON check, the guard's first check (mode
// read now), the tool, and its tool_call_update. cut is runCalls'.
func (s *Session) runCall(ctx context.Context, c agentproto.ToolCall, cut bool) (out callOutcome) {
	m := s.m
	asked := &tooloutcome.Record{}
	ctx = tooloutcome.WithRecord(ctx, asked)
	defer func() {
		out.asked = asked
		status := "completed"
		if !out.result.Success {
			status = "failed"
		}
		text := out.result.JSON()
		// The call's end is shown also when the turn was cancelled.
		ctx, cancel := finalSendContext(ctx)
		defer cancel()
		content := []agentproto.ToolContent{{Type: "content", Content: agentproto.TextContent{Type: "text", Text: text}}}
		for _, note := range asked.Notes() { // e.g. a permission the client answered by itself
			content = append(content, agentproto.ToolContent{Type: "content", Content: agentproto.TextContent{Type: "text", Text: note}})
		}
		if out.problems != "" {
			content = append(content, agentproto.ToolContent{Type: "content", Content: agentproto.TextContent{Type: "text", Text: "New problems:\n" + out.problems}})
		}
		m.notes.Update(ctx, s.meta.ID, UpdateToolCallDone{
			SessionUpdate: "tool_call_update", ToolCallID: c.ID, Status: status,
			Content:   content,
			RawOutput: json.RawMessage(text), Refusal: out.result.Refusal,
		})
	}()
	if ctx.Err() != nil {
		// The turn was cancelled while an earlier call of the step ran (its
		// question was open): the calls after it do not start — no edit,
		// no command, no new question for a turn the user stopped.
		return callOutcome{result: tools.Failf("not run: the user cancelled the turn before this call started")}
	}
	s.m.notes.Update(ctx, s.meta.ID, agentproto.ToolCallStarted{
		SessionUpdate: "tool_call", ToolCallID: c.ID, Title: s.title(c), Kind: s.kind(c), Status: "in_progress",
	})
	ctx = withToolCall(ctx, s.wireCallID(c.ID))
	s.observeMode()
	progressOf(ctx).Report(ctx, fmt.Sprintf("%s: running %s…", upper(s.State().Mode), c.Name))
	tool, ok := s.tools().Lookup(c.Name)
	if !ok {
		return callOutcome{result: tools.Failf("unknown tool %q; the tools are: %s", c.Name, strings.Join(s.tools().Names(), ", "))}
	}
	if why, ok := refusedArguments(c.Arguments); ok {
		return callOutcome{result: tools.Failf("the arguments of %s were not run: %s. Send large content in pieces of under 1 MB (e.g. write a first part, then add the rest with edit)", c.Name, why)}
	}
	args := json.RawMessage(c.Arguments)
	if strings.TrimSpace(c.Arguments) == "" {
		args = json.RawMessage("{}")
	}
	if !json.Valid(args) && cut {
		// Calling again the same way is cut again: say why, and what works.
		return callOutcome{result: tools.Failf("your answer was cut off at the output limit (model.max_tokens; finish_reason length) inside the arguments of %s, so it was not run: send large content in smaller pieces (e.g. write a first part, then add the rest with edit)", c.Name)}
	}
	if !json.Valid(args) {
		return callOutcome{result: tools.Failf("the arguments of %s are not valid JSON (%s); call it again with a JSON object", c.Name, excerpt(c.Arguments, 120))}
	}
	if r := s.guard().CheckCall(s.State(), c.Name, args); r != nil {
		m.notify(ctx, guard.NotifyRefused(r))
		return callOutcome{result: tools.Refused(r)}
	}
	s.syncCallFiles(ctx, c.Name, args)
	ctx = withGivenPaths(ctx, s.callPaths(c.Name, args)) // autorun_edits.go: the names as given
	mcpWriter := s.mcpMutating(c.Name)
	d, declared := m.tools.Declarations().Lookup(c.Name)
	command := declared && d.Class == guard.ClassMutating && (d.Kind == guard.KindExecute || d.Kind == guard.KindOther)
	var start *commandStart
	if mcpWriter || command {
		start = &commandStart{mcp: mcpWriter}
		if st, ok := tool.(tools.StartTeller); !ok || !st.TellsCommandStart() {
			start.take(ctx, s) // a tool that never says when its command starts: scanned before it runs
		}
	}
	var res tools.Result
	var err error
	var catcher panics.Catcher
	catcher.Try(func() { res, err = tool.Run(ctx, &env{s: s, ctx: ctx, start: start}, args) })
	if before, open, started := start.taken(); started && mcpWriter {
		s.mcpAfterWrite(ctx, c.Name, before, open) // rescan, reload clean buffers, warn about dirty ones
	} else if started {
		s.afterCommand(ctx, before) // checkpoints.go: the command's changes are not the user's
	}
	if rec := catcher.Recovered(); rec != nil {
		slog.Error("tool panicked", "tool", c.Name, "panic", rec.String())
		return callOutcome{result: tools.Failf("internal error in %s: %v", c.Name, rec.Value)}
	}
	if err != nil {
		if errors.Is(err, errApprovalTimeout) || errors.Is(err, ErrAskFailed) {
			return callOutcome{result: tools.Failf("%v", err), err: err}
		}
		var r *guard.Refusal
		if errors.As(err, &r) {
			m.notify(ctx, guard.NotifyRefused(r))
			return callOutcome{result: tools.Refused(r)}
		}
		if ctx.Err() != nil {
			return callOutcome{result: tools.Failf("cancelled by the user")}
		}
		slog.Error("tool failed", "tool", c.Name, "err", err)
		return callOutcome{result: tools.Failf("%s failed: %v", c.Name, err)}
	}
	if res.Refusal != nil {
		m.notify(ctx, guard.NotifyRefused(res.Refusal))
	}
	res, problems := s.withDiagnostics(ctx, c.ID, res)
	return callOutcome{result: res, problems: problems}
}

// readOnly reports whether a call may run in parallel with its neighbours:
// a declared read-only tool that runs unattended. Questions and approvals
// wait for the user and mode switches change how later calls are judged:
// they run alone, in order.
func (s *Session) readOnly(name string) bool {
	d, ok := s.tools().Declarations().Lookup(name)
	return ok && d.Class == guard.ClassReadOnly && d.Interaction == guard.Unattended
}

func (s *Session) title(c agentproto.ToolCall) string {
	if t, ok := s.tools().Lookup(c.Name); ok && json.Valid([]byte(c.Arguments)) {
		return t.Title(json.RawMessage(c.Arguments))
	}
	return c.Name
}

func (s *Session) kind(c agentproto.ToolCall) string {
	if t, ok := s.tools().Lookup(c.Name); ok {
		return t.Kind()
	}
	return "other"
}

// rawInput is the call's arguments as JSON, or a JSON string when invalid.
func rawInput(args string) json.RawMessage {
	if json.Valid([]byte(args)) {
		return json.RawMessage(args)
	}
	b, _ := json.Marshal(args)
	return b
}

func excerpt(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
