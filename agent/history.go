package agent

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"time"

	"github.com/agentls/agentls/agent/llm"
	"github.com/agentls/agentls/agentproto"
)

// The kinds of bookkeeping records a `.chat` file holds besides messages.
// They never change a message: the file stays the full, append-only
// history, and the records say how the model's view of it differs.
const (
	recordRepair     = "repair"     // tool calls given an "interrupted" result, orphan results dropped
	recordCompaction = "compaction" // old tool results stubbed, older turns replaced by a summary
	recordSetAside   = "set_aside"  // a failed turn's messages left out of the model's view
	recordSubagent   = "subagent"   // a task call started a sub-agent's session
	recordTurnError  = "turn_error" // a prompt's turn ended with an error (Reason; "" clears it)
)

// interruptedResult is the synthetic result of a tool call that has none
// (agentls stopped, e.g. killed, while the tool ran).
const interruptedResult = `{"success":false,"error":"interrupted: agentls stopped before this tool finished; check the file before relying on it"}`

// chatRecord is a `.chat` line that is not a message. Message indices count
// the messages of the file, in order, records excluded.
type chatRecord struct {
	Record string    `json:"record"`
	At     time.Time `json:"at"`
	// repair: the tool call ids given a synthetic result, and the ids of
	// the results dropped as orphans.
	Synthetic []string `json:"synthetic,omitempty"`
	Dropped   []string `json:"dropped,omitempty"`
	// compaction: tool results of messages before StubBefore are stubbed;
	// messages before SummaryUpto are replaced by Summary. Each compaction
	// record holds the whole state (the latest wins).
	StubBefore  int    `json:"stub_before,omitempty"`
	SummaryUpto int    `json:"summary_upto,omitempty"`
	Summary     string `json:"summary,omitempty"`
	// TokensBefore is the estimated size of the next request before the
	// compaction (the log line says the size after).
	TokensBefore int `json:"tokens_before,omitempty"`
	// set_aside: messages From..To-1 are not sent to the model.
	From   int    `json:"from,omitempty"`
	To     int    `json:"to,omitempty"`
	Reason string `json:"reason,omitempty"`
	// subagent: the task call and the sub-agent's session it started.
	ToolCallID string `json:"tool_call_id,omitempty"`
	Child      string `json:"child,omitempty"`
	// checkpoint, rewind (checkpoints.go).
	rewindFields
}

// viewState is how the model's view differs from the full history.
type viewState struct {
	stubBefore  int
	summaryUpto int
	summary     string
	aside       [][2]int // [from, to) ranges left out
	// repaired holds the tool call ids whose repair is recorded.
	repaired map[string]bool
	// states are the session's states at its checkpoints, by message id.
	states map[string]sessionAt
	// summaries are the compactions' summaries, in order (a conversation
	// rewind returns to the last one made before its message).
	summaries []summaryAt
	// stubs remembers each stubbed tool result's stub by message id (a
	// message and its call never change): view stubs the same old results
	// at every request.
	stubs map[string]string
	// children are the sub-agents' sessions by the task call that started
	// them.
	children map[string]string
	// turnErrors are the errors failed prompts' turns ended with, by the
	// prompt's message id (retry.go).
	turnErrors map[string]string
	// rewound are the [from, to) ranges conversation rewinds left out
	// (rewound.go), a subset of aside.
	rewound [][2]int
	// rewindNote is the last code-only rewind's note while no answer of
	// the model followed it (decodeHistory): the loaded session's
	// Session.rewindNote.
	rewindNote string
	// waitsOnHuman reports whether a tool is declared to wait on the
	// person (guard.WaitsOnHuman) and its Reach; nil: none is (the
	// session sets it, session_tools.go).
	waitsOnHuman func(tool string) (waits, editor bool)
	// acts reports whether a tool's call changes something (declared
	// mutating: a command, a write, a mutating MCP call), so that calling
	// it again does it again; nil: none does.
	acts func(tool string) bool
}

// apply folds a record into the state.
func (v *viewState) apply(r chatRecord) {
	switch r.Record {
	case recordRepair:
		if v.repaired == nil {
			v.repaired = map[string]bool{}
		}
		for _, id := range append(append([]string(nil), r.Synthetic...), r.Dropped...) {
			v.repaired[id] = true
		}
	case recordCompaction:
		v.stubBefore = max(v.stubBefore, r.StubBefore)
		if r.SummaryUpto >= v.summaryUpto {
			v.summaryUpto, v.summary = r.SummaryUpto, r.Summary
			v.summaries = append(v.summaries, summaryAt{r.SummaryUpto, r.Summary})
		}
	case recordSetAside, recordRewind:
		if r.To > r.From {
			v.aside = append(v.aside, [2]int{r.From, r.To})
		}
		if r.Record == recordRewind && r.To > r.From {
			v.rewindSummary(r.From) // checkpoints.go
			v.rewound = append(v.rewound, [2]int{r.From, r.To})
		}
		if r.Record == recordRewind {
			v.rewindNote = r.Note
		}
	case recordCheckpoint:
		v.noteCheckpoint(r)
	case recordTurnError:
		if v.turnErrors == nil {
			v.turnErrors = map[string]string{}
		}
		if r.Reason == "" {
			delete(v.turnErrors, r.Message)
		} else {
			v.turnErrors[r.Message] = r.Reason
		}
	case recordSubagent:
		if v.children == nil {
			v.children = map[string]string{}
		}
		v.children[r.ToolCallID] = r.Child
	}
}

func (v *viewState) setAside(i int) bool {
	for _, r := range v.aside {
		if i >= r[0] && i < r[1] {
			return true
		}
	}
	return false
}

// visible returns msgs[from:to] without the set-aside messages.
func (v *viewState) visible(msgs []llm.Message, from, to int) []llm.Message {
	out := make([]llm.Message, 0, to-from)
	for i := from; i < to; i++ {
		if !v.setAside(i) {
			out = append(out, msgs[i])
		}
	}
	return out
}

// decodeHistory decodes a session file's lines into its messages and the
// state its records describe. A line that is neither is skipped with a
// warning (the file stays loadable).
func decodeHistory(id string, lines []json.RawMessage) ([]llm.Message, viewState) {
	msgs := make([]llm.Message, 0, len(lines))
	var v viewState
	for i, line := range lines {
		var probe struct {
			Record string `json:"record"`
		}
		if json.Unmarshal(line, &probe) == nil && probe.Record != "" {
			var r chatRecord
			if err := json.Unmarshal(line, &r); err != nil {
				slog.Warn("skipping unreadable record", "session", id, "line", i+1, "err", err)
				continue
			}
			v.apply(r)
			continue
		}
		var m llm.Message
		if err := json.Unmarshal(line, &m); err != nil || m.Role == "" {
			slog.Warn("skipping unreadable message", "session", id, "line", i+1, "err", err)
			continue
		}
		if m.ID == "" {
			m.ID = derivedMessageID(id, len(msgs))
		}
		if m.Role == llm.RoleAssistant {
			v.rewindNote = "" // the request it answered carried the note
		}
		msgs = append(msgs, m)
	}
	return msgs, v
}

// repairHistory makes a conversation valid for OpenAI-compatible endpoints:
// every assistant tool call is followed by exactly one result (a synthetic
// "interrupted" one when it has none) and every tool result answers a call
// of the assistant message just before it (others are dropped). It returns
// the repaired messages and the ids it added and dropped; msgs is not
// changed, and is itself the result when nothing needed repair (the usual
// case: no copy of the history for every request).
func repairHistory(msgs []llm.Message) (out []llm.Message, synthetic, dropped []string) {
	return repairHistoryWith(msgs, nil)
}

// repairHistoryWith is repairHistory where interrupted, when set, gives the
// synthetic result of a call ("" for the usual one).
func repairHistoryWith(msgs []llm.Message, interrupted func(agentproto.ToolCall) string) (out []llm.Message, synthetic, dropped []string) {
	if wellFormed(msgs) {
		return msgs, nil, nil
	}
	return repairCopy(msgs, interrupted)
}

// repairCopy is repairHistoryWith's repair, into a new slice.
func repairCopy(msgs []llm.Message, interrupted func(agentproto.ToolCall) string) (out []llm.Message, synthetic, dropped []string) {
	out = make([]llm.Message, 0, len(msgs))
	for i := 0; i < len(msgs); i++ {
		m := msgs[i]
		if m.Role == llm.RoleTool {
			dropped = append(dropped, m.ToolCallID)
			continue
		}
		out = append(out, m)
		if m.Role != llm.RoleAssistant || len(m.ToolCalls) == 0 {
			continue
		}
		want := make(map[string]bool, len(m.ToolCalls))
		for _, c := range m.ToolCalls {
			want[c.ID] = true
		}
		j := i + 1
		for ; j < len(msgs) && msgs[j].Role == llm.RoleTool; j++ {
			if id := msgs[j].ToolCallID; want[id] {
				out = append(out, msgs[j])
				delete(want, id)
			} else {
				dropped = append(dropped, id)
			}
		}
		for _, c := range m.ToolCalls {
			if want[c.ID] {
				delete(want, c.ID)
				content := interruptedResult
				if interrupted != nil {
					if r := interrupted(c); r != "" {
						content = r
					}
				}
				out = append(out, llm.Message{Role: llm.RoleTool, ToolCallID: c.ID, Name: c.Name, Content: content})
				synthetic = append(synthetic, c.ID)
			}
		}
		i = j - 1
	}
	return out, synthetic, dropped
}

// wellFormed reports whether repairHistory would leave msgs as they are:
// every run of tool results follows an assistant message with tool calls
// and answers each of its calls exactly once, in any order.
func wellFormed(msgs []llm.Message) bool {
	for i := 0; i < len(msgs); i++ {
		m := msgs[i]
		if m.Role == llm.RoleTool {
			return false // not right after the calls it answers
		}
		if m.Role != llm.RoleAssistant || len(m.ToolCalls) == 0 {
			continue
		}
		j := i + 1
		for ; j < len(msgs) && msgs[j].Role == llm.RoleTool; j++ {
			id := msgs[j].ToolCallID
			if !slices.ContainsFunc(m.ToolCalls, func(c agentproto.ToolCall) bool { return c.ID == id }) ||
				slices.ContainsFunc(msgs[i+1:j], func(r llm.Message) bool { return r.ToolCallID == id }) {
				return false // a result of another call, or a second one
			}
		}
		results := msgs[i+1 : j]
		for _, c := range m.ToolCalls {
			if !slices.ContainsFunc(results, func(r llm.Message) bool { return r.ToolCallID == c.ID }) {
				return false // a call without its result
			}
		}
		i = j - 1
	}
	return true
}

// view is the conversation as the model gets it: messages before the summary
// point and set-aside turns left out, old tool results stubbed, the result
// repaired. When a summary stands for earlier messages and the view does not
// start with a user message, a short user message says where the summary is.
func (v *viewState) view(msgs []llm.Message) (out []llm.Message, synthetic, dropped []string) {
	out = make([]llm.Message, 0, len(msgs)-min(v.summaryUpto, len(msgs)))
	var calls map[string]agentproto.ToolCall
	lastAnswer := 0 // the last assistant message: the results before it were shown to the model
	for i := v.summaryUpto; i < len(msgs); i++ {
		if v.setAside(i) {
			continue
		}
		m := msgs[i]
		if m.Role == llm.RoleTool && i < v.stubBefore && !v.keptWhole(m) {
			if stub, ok := v.stubs[m.ID]; ok && m.ID != "" {
				m.Content = stub
			} else {
				if calls == nil {
					calls = callsByID(msgs[v.summaryUpto:v.stubBefore])
					lastAnswer = lastRole(msgs, llm.RoleAssistant)
				}
				m.Content = v.stubResult(m, calls[m.ToolCallID], i < lastAnswer)
				if m.ID != "" {
					if v.stubs == nil {
						v.stubs = map[string]string{}
					}
					v.stubs[m.ID] = m.Content
				}
			}
		}
		if m.Role == llm.RoleAssistant && i < v.stubBefore {
			m.ToolCalls = v.stubCalls(m.ToolCalls)
		}
		out = append(out, m)
	}
	if p := v.pinnedPrompt(msgs); p >= 0 {
		out = append([]llm.Message{msgs[p]}, out...)
	}
	out, synthetic, dropped = repairHistoryWith(out, v.interrupted)
	if v.summary != "" && (len(out) == 0 || out[0].Role != llm.RoleUser) {
		out = append([]llm.Message{{Role: llm.RoleUser, Content: "(The earlier part of this conversation is summarised in the system prompt. Continue from there.)"}}, out...)
	}
	return out, synthetic, dropped
}

// pinnedPrompt is the index of the user message the view starts with
// although a summary stands for it, or -1: when the summary cut falls
// inside a turn (at a step, a turn too long for the window alone), that
// turn's prompt stays verbatim before its remaining steps.
func (v *viewState) pinnedPrompt(msgs []llm.Message) int {
	if v.summaryUpto <= 0 || v.summaryUpto >= len(msgs) || msgs[v.summaryUpto].Role == llm.RoleUser {
		return -1
	}
	for i := v.summaryUpto - 1; i >= 0; i-- {
		if msgs[i].Role == llm.RoleUser && !v.setAside(i) {
			return i
		}
	}
	return -1
}

// unrecorded returns the ids of ids whose repair is not yet recorded.
func (v *viewState) unrecorded(ids []string) []string {
	var out []string
	for _, id := range ids {
		if !v.repaired[id] {
			out = append(out, id)
		}
	}
	return out
}

// callsByID indexes the tool calls of msgs.
func callsByID(msgs []llm.Message) map[string]agentproto.ToolCall {
	out := map[string]agentproto.ToolCall{}
	for _, m := range msgs {
		for _, c := range m.ToolCalls {
			out[c.ID] = c
		}
	}
	return out
}

// stubMinBytes is the size under which a tool result is kept as it is: its
// stub would not be much shorter.
const stubMinBytes = 400

// keptWhole reports whether the tool result m is never stubbed, because
// calling the tool again would not give it back: the person's answer (a
// tool declared to wait on the human whose answer comes from the editor:
// a question's answer, a plan rejection's reason) or a refusal by the
// person (a failed result of any tool that waits on the human: a
// permission denied), and a sub-agent's answer (a task call that started a
// sub-agent's session), which only running the whole sub-agent again
// would give.
func (v *viewState) keptWhole(m llm.Message) bool {
	if m.Role != llm.RoleTool {
		return false
	}
	if v.children[m.ToolCallID] != "" {
		return true
	}
	if v.waitsOnHuman == nil {
		return false
	}
	waits, editor := v.waitsOnHuman(m.Name)
	return waits && (editor || !succeeded(m.Content))
}

// succeeded reports whether a tool result's envelope says it succeeded.
func succeeded(content string) bool {
	return strings.HasPrefix(content, `{"success":true`)
}

// stubResult is the one-line stand-in of a tool result: what was called
// and how much output it gave. The stub of an old result, seen by the model
// (an assistant message follows it), says it was removed and can be had
// again; the stub of a result stubbed in the step that asked for it (too
// long for the window the moment it came) says the model never saw it and
// asks for a narrower call, since the same call would give the same stub.
// The stub of a call that changes something (acts: a command, a write)
// says it already happened and that calling again does it again: "call
// the tool again" would have the model run `git push` or a migration twice
// to read its output.
func (v *viewState) stubResult(m llm.Message, c agentproto.ToolCall, seen bool) string {
	if len(m.Content) < stubMinBytes {
		return m.Content
	}
	name := c.Name
	if name == "" {
		name = m.Name
	}
	what := name
	if args := strings.Join(strings.Fields(c.Arguments), " "); args != "" {
		what += " " + excerpt(args, 160)
	}
	size := byteSize(len(m.Content))
	acts := v.acts != nil && v.acts(name)
	var elided string
	switch {
	case seen && acts:
		elided = fmt.Sprintf("%s: it already ran; its %s of output were removed from the context to save space. "+
			"Calling it again does it again: do that only if doing it twice is harmless", what, size)
	case seen:
		elided = fmt.Sprintf("%s: %s of output removed from the context to save space; call the tool again if you need it", what, size)
	case acts:
		elided = fmt.Sprintf("%s: it already ran, but its %s of output were too long for the context window and were not shown to you. "+
			"Calling it again does it again: only if doing it twice is harmless, call it again asking for less output "+
			"(a command's output piped into tail -n 50 or grep)", what, size)
	default:
		elided = fmt.Sprintf("%s: its %s of output were too long for the context window and were not shown to you; "+
			"the same call would give the same result, so call it again asking for less: a range of lines (offset and limit), "+
			"a narrower pattern, path or command output", what, size)
	}
	b, _ := json.Marshal(map[string]any{"success": succeeded(m.Content), "elided": elided})
	return string(b)
}

// lastRole is the index of the last message of role in msgs, or -1.
func lastRole(msgs []llm.Message, role llm.Role) int {
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role == role {
			return i
		}
	}
	return -1
}

// stubArgMinBytes is the size from which a string argument of an old tool
// call (a write's content) is stubbed.
const stubArgMinBytes = 200

// stubCalls returns calls with the long string arguments of each call
// stubbed (stubArguments); calls itself when none is long. Each call's stub
// is remembered by its id (v.stubs, keyed "call "+id): view stubs the same
// old calls at every request.
func (v *viewState) stubCalls(calls []agentproto.ToolCall) []agentproto.ToolCall {
	var out []agentproto.ToolCall
	for i, c := range calls {
		if len(c.Arguments) < stubMinBytes {
			continue
		}
		args, ok := v.stubs["call "+c.ID]
		if !ok || c.ID == "" {
			args = stubArguments(c.Arguments)
			if c.ID != "" {
				if v.stubs == nil {
					v.stubs = map[string]string{}
				}
				v.stubs["call "+c.ID] = args
			}
		}
		if args != c.Arguments {
			if out == nil {
				out = slices.Clone(calls)
			}
			out[i].Arguments = args
		}
	}
	if out == nil {
		return calls
	}
	return out
}

// countStubbableCalls counts the tool calls of m whose arguments a stub
// shortens.
func countStubbableCalls(m llm.Message) int {
	n := 0
	for _, c := range m.ToolCalls {
		if len(c.Arguments) >= stubMinBytes && stubArguments(c.Arguments) != c.Arguments {
			n++
		}
	}
	return n
}

// stubArguments is an old tool call's arguments with each top-level string
// of stubArgMinBytes or more (a written file's content, an edit's text)
// replaced by a note of its size: the call stays readable (which tool, on
// which path) and valid JSON. Arguments that are not a JSON object are
// left as they are.
func stubArguments(args string) string {
	var obj map[string]any
	if json.Unmarshal([]byte(args), &obj) != nil {
		return args
	}
	changed := false
	for k, val := range obj {
		if str, ok := val.(string); ok && len(str) >= stubArgMinBytes {
			obj[k] = fmt.Sprintf("[%s elided from the context to save space; it was sent whole when the call was made]", byteSize(len(str)))
			changed = true
		}
	}
	if !changed {
		return args
	}
	b, err := json.Marshal(obj)
	if err != nil || len(b) >= len(args) {
		return args
	}
	return string(b)
}

// byteSize renders n bytes for people: "812 B", "12.3 KB", "20.0 MB".
func byteSize(n int) string {
	switch {
	case n < 1000:
		return fmt.Sprintf("%d B", n)
	case n < 1000*1000:
		return fmt.Sprintf("%.1f KB", float64(n)/1000)
	default:
		return fmt.Sprintf("%.1f MB", float64(n)/1000/1000)
	}
}

// interrupted is the synthetic result of a task call whose sub-agent a
// restart cut off: it names the sub-agent's session, which keeps its
// partial transcript ("" for any other call).
func (v *viewState) interrupted(c agentproto.ToolCall) string {
	child := v.children[c.ID]
	if child == "" {
		return ""
	}
	b, _ := json.Marshal(map[string]any{"success": false,
		"error": fmt.Sprintf("sub-agent %s was cut off by a restart; partial transcript in session %s", child, child)})
	return string(b)
}
