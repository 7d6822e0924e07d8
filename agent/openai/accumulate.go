package openai

import (
	"fmt"
	"math/rand/v2"
	"strings"

	goopenai "github.com/sashabaranov/go-openai"

	"github.com/agentls/agentls/agent/llm"
	"github.com/agentls/agentls/agentproto"
)

// accumulator builds a Response from streamed chunks and forwards text and
// reasoning pieces to onEvent as they arrive.
type accumulator struct {
	onEvent func(llm.Event)
	text    strings.Builder
	calls   []*callBuilder
	byIndex map[int]int // streamed tool-call index → position in calls
	finish  string
	usage   llm.Usage
	chunks  int
	// choices counts the chunks' first choices: a stream without any holds
	// no answer (only usage, say), however it ended.
	choices int
	// emitted is set once any text or reasoning arrived: from then on the
	// attempt cannot be retried without duplicating events.
	emitted bool
	// think moves inline reasoning out of the text.
	think thinkSplitter
	// closing is what the whole answer said about its model's answers
	// (think_close.go).
	closing closing
	// reasoning is the reasoning the server sent apart (kept with the
	// message, and sent back where needed: reasoning_state.go); inline is
	// the inline one (kept to be shown again, never sent back).
	reasoning, inline strings.Builder
}

// callBuilder is a tool call being assembled from deltas.
type callBuilder struct {
	id   string
	name strings.Builder
	args strings.Builder
}

func newAccumulator(onEvent func(llm.Event)) *accumulator {
	return &accumulator{onEvent: onEvent, byIndex: map[int]int{}}
}

// add merges one chunk. Only the first choice (index 0) is used.
func (a *accumulator) add(chunk *goopenai.ChatCompletionStreamResponse) {
	a.chunks++
	if chunk.Usage != nil {
		a.usage = usage(chunk.Usage)
	}
	for i := range chunk.Choices {
		ch := &chunk.Choices[i]
		if ch.Index != 0 {
			continue
		}
		a.choices++
		if ch.Delta.ReasoningContent != "" {
			a.think.apart()
		}
		a.emit(llm.EventThought, ch.Delta.ReasoningContent)
		a.reasoning.WriteString(ch.Delta.ReasoningContent)
		thought, text := a.think.feed(ch.Delta.Content)
		a.inline.WriteString(thought)
		a.emit(llm.EventThought, thought)
		a.emit(llm.EventText, text)
		a.emit(llm.EventText, ch.Delta.Refusal)
		for _, tc := range ch.Delta.ToolCalls {
			a.addCall(tc)
		}
		if ch.FinishReason != "" {
			a.finish = string(ch.FinishReason)
		}
	}
}

// end emits what the inline-reasoning splitter still holds, once the
// stream has ended, and settles the answer's reasoning and text
// (settleInline: what was shown stays shown).
func (a *accumulator) end() {
	thought, text := a.think.flush()
	a.inline.WriteString(thought)
	a.emit(llm.EventThought, thought)
	a.emit(llm.EventText, text)
	inline, answer, what := settleInline(&a.think, a.reasoning.String(), a.inline.String(), a.text.String(), a.finish, len(a.calls))
	if inline != a.inline.String() || answer != a.text.String() { // moved (think_close.go): rarely, so no copy otherwise
		a.inline.Reset()
		a.inline.WriteString(inline)
		a.text.Reset()
		a.text.WriteString(answer)
	}
	a.closing = what
}

// emit forwards a non-empty piece; text pieces also build the answer.
func (a *accumulator) emit(kind llm.EventKind, s string) {
	if s == "" {
		return
	}
	a.emitted = true
	if kind == llm.EventText {
		a.text.WriteString(s)
	}
	if a.onEvent != nil {
		a.onEvent(llm.Event{Kind: kind, Text: s})
	}
}

// addCall merges a tool-call delta into the call it continues: the call with
// the same index; without an index, the call with the same ID; without
// either, the last call. A delta whose ID differs from the ID already seen at
// its index starts a new call (some servers number every call 0).
func (a *accumulator) addCall(tc goopenai.ToolCall) {
	var c *callBuilder
	switch {
	case tc.Index != nil:
		if pos, ok := a.byIndex[*tc.Index]; ok && (tc.ID == "" || a.calls[pos].id == "" || a.calls[pos].id == tc.ID) {
			c = a.calls[pos]
		} else {
			c = a.newCall()
			a.byIndex[*tc.Index] = len(a.calls) - 1
		}
	case tc.ID != "":
		c = a.callByID(tc.ID)
		if c == nil {
			c = a.newCall()
		}
	case len(a.calls) > 0:
		c = a.calls[len(a.calls)-1]
	default:
		c = a.newCall()
	}
	if c.id == "" {
		c.id = tc.ID
	}
	c.name.WriteString(tc.Function.Name)
	c.args.WriteString(tc.Function.Arguments)
}

func (a *accumulator) newCall() *callBuilder {
	c := &callBuilder{}
	a.calls = append(a.calls, c)
	return c
}

func (a *accumulator) callByID(id string) *callBuilder {
	for _, c := range a.calls {
		if c.id == id {
			return c
		}
	}
	return nil
}

// response returns the assembled answer. Arguments are passed on raw, even
// when they are not valid JSON; calls without an ID get a generated one.
func (a *accumulator) response() llm.Response {
	msg := llm.Message{Role: llm.RoleAssistant, Content: a.text.String()}
	for i, c := range a.calls {
		msg.ToolCalls = append(msg.ToolCalls, agentproto.ToolCall{
			ID:        callID(c.id, i),
			Name:      c.name.String(),
			Arguments: c.args.String(),
		})
	}
	return llm.Response{Message: msg, FinishReason: finishReason(a.finish, len(msg.ToolCalls)), Usage: a.usage}
}

// callID returns id, or when the server sent none a generated
// "call_<random>_<i>", unique enough not to collide with earlier turns.
func callID(id string, i int) string {
	if id != "" {
		return id
	}
	return fmt.Sprintf("call_%08x_%d", rand.Uint32(), i)
}

// finishReason returns the server's reason, or the implied one when it sent
// none.
func finishReason(reason string, calls int) string {
	switch {
	case reason != "":
		return reason
	case calls > 0:
		return "tool_calls"
	default:
		return "stop"
	}
}
