package openai

import (
	"strings"

	goopenai "github.com/sashabaranov/go-openai"

	"github.com/agentls/agentls/agent/llm"
)

// The tags a reasoning model writes its thinking between when the server
// does not parse it out.
const (
	thinkOpen  = "<think>"
	thinkClose = "</think>"
)

// thinkSplitter moves the reasoning a model writes inline at the start of
// its answer, <think>…</think> (Qwen3, QwQ, DeepSeek-R1 on a server that
// does not parse it out: vLLM without a reasoning parser, llama.cpp with
// --reasoning-format none), from the text to the reasoning, as the server
// would have sent it in reasoning_content: the faces show it as thinking,
// and the conversation keeps the answer alone (as these models' own chat
// templates do). Only a tag at the very start (after white space) opens it;
// a "<think>" later in an answer is text. Tags may be split across chunks:
// what could still be one is held until the next piece tells.
type thinkSplitter struct {
	state   thinkState
	pending string // held: a possible opening tag at the start, a possible closing tag in the thinking
	// assumeOpen starts the answer inside the reasoning, opening tag or not:
	// the model's answers come without it (closeOnly, think_close.go).
	assumeOpen bool
}

type thinkState int

const (
	thinkUndecided thinkState = iota // nothing but white space, or part of the opening tag, so far
	thinkInside                      // between the tags
	thinkClosed                      // after the closing tag: the white space before the answer is dropped
	thinkAfter                       // the answer, or an answer that did not start with the tag
)

// feed takes the next piece of the answer and returns what of it (and of
// what was held) is reasoning and what is text.
func (t *thinkSplitter) feed(s string) (thought, text string) {
	switch t.state {
	case thinkAfter:
		return "", s
	case thinkClosed:
		if text = strings.TrimLeft(s, " \t\r\n"); text != "" {
			t.state = thinkAfter
		}
		return "", text
	case thinkUndecided:
		t.pending += s
		rest := strings.TrimLeft(t.pending, " \t\r\n")
		switch {
		case strings.HasPrefix(rest, thinkOpen):
			t.state, t.pending = thinkInside, ""
			return t.feed(rest[len(thinkOpen):])
		case strings.HasPrefix(thinkOpen, rest):
			return "", "" // white space, or the tag's start: not decided yet
		case t.assumeOpen:
			held := t.pending
			t.state, t.pending = thinkInside, ""
			return t.feed(held)
		default:
			t.state, text, t.pending = thinkAfter, t.pending, ""
			return "", text
		}
	default: // thinkInside
		buf := t.pending + s
		if i := strings.Index(buf, thinkClose); i >= 0 {
			t.state, t.pending = thinkClosed, ""
			_, text = t.feed(buf[i+len(thinkClose):])
			return buf[:i], text
		}
		hold := heldTagStart(buf, thinkClose)
		t.pending = buf[len(buf)-hold:]
		return buf[:len(buf)-hold], ""
	}
}

// apart says the server sends the reasoning apart: an answer not begun
// yet is not assumed to start inside it.
func (t *thinkSplitter) apart() {
	if t.state == thinkUndecided {
		t.assumeOpen = false
	}
}

// flush ends the answer: what is held is given back, as reasoning inside
// an unclosed block (an answer cut off while it thought), else as text.
func (t *thinkSplitter) flush() (thought, text string) {
	held := t.pending
	t.pending = ""
	if t.state == thinkInside {
		return held, ""
	}
	return "", held
}

// heldTagStart is the length of the longest end of s that begins tag.
func heldTagStart(s, tag string) int {
	for n := min(len(tag)-1, len(s)); n > 0; n-- {
		if strings.HasSuffix(s, tag[:n]) {
			return n
		}
	}
	return 0
}

// convertWhole converts a whole (non-streamed) answer, its inline reasoning
// moved out of the text (thinkSplitter), and emits its reasoning and text.
// It reports whether anything was emitted, and records in ex the reasoning
// the server sent apart and the inline one.
func convertWhole(cr *goopenai.ChatCompletionResponse, onEvent func(llm.Event), ex *exchange) (llm.Response, bool) {
	m := &cr.Choices[0].Message
	ex.reasoning = m.ReasoningContent
	t := thinkSplitter{assumeOpen: ex.assumeOpen && m.ReasoningContent == ""}
	thought, text := t.feed(m.Content)
	moreThought, moreText := t.flush()
	thought, text, ex.closing = settleInline(&t, m.ReasoningContent, thought+moreThought, text+moreText, string(cr.Choices[0].FinishReason), len(m.ToolCalls))
	if thought != "" {
		m.ReasoningContent += thought
		ex.inline = thought
	}
	m.Content = text
	return completionResponse(cr), emitWhole(*m, onEvent)
}
