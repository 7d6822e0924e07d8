package openai

import (
	"strings"
	"sync"
)

// Some reasoning models' chat templates end the prompt with "<think>\n"
// (DeepSeek-R1 and its distills, QwQ), so the model writes only the
// closing tag: on a server that does not parse the reasoning out (vLLM
// without a reasoning parser, an older llama.cpp or LM Studio) the answer
// arrived as "reasoning…\n</think>\n\nanswer", all of it shown and kept as
// the answer, the reasoning sent back to the model in every later request.
// The first such answer of a model is split once it is whole (the
// reasoning kept with the message, shown again on reload, never sent
// back; streamed, it was shown as text already); from then on that
// model's answers start inside the reasoning (thinkSplitter.assumeOpen),
// so they are shown as thinking live. An answer that then never closes it
// (the model did not think, and it was no answer cut short) is text after
// all, and the model's answers start as text again.

// closing is what an answer says about its model's answers.
type closing int

const (
	closingUnknown   closing = iota // nothing new
	closingLearned                  // the reasoning came without its opening tag
	closingUnlearned                // assumed open, the answer never closed it
)

// closeOnly splits text at its first "</think>" when that tag stands on a
// line of its own after some reasoning, with no opening tag before it, and
// the answer starts on a line after it: the reasoning (trimmed) and the
// answer. A "</think>" within a sentence or a code span is text.
func closeOnly(text string) (thought, answer string, ok bool) {
	i := strings.Index(text, thinkClose)
	if i < 0 {
		return "", "", false
	}
	before, after := text[:i], text[i+len(thinkClose):]
	if strings.Contains(before, thinkOpen) || strings.TrimSpace(before) == "" || !strings.HasSuffix(strings.TrimRight(before, " \t"), "\n") {
		return "", "", false
	}
	if rest := strings.TrimLeft(after, " \t"); rest != "" && !strings.HasPrefix(rest, "\n") && !strings.HasPrefix(rest, "\r\n") {
		return "", "", false
	}
	return strings.TrimSpace(before), strings.TrimLeft(after, " \t\r\n"), true
}

// settleInline is an answer's inline reasoning and text once it is whole
// (t fed all of it; reasoning is what the server sent apart, calls the
// tool calls it made), and what the answer says about its model's answers
// (closing).
func settleInline(t *thinkSplitter, reasoning, thought, text, finish string, calls int) (string, string, closing) {
	switch {
	case reasoning != "":
		return thought, text, closingUnlearned // the server sends it apart
	case t.assumeOpen:
		if t.state == thinkInside && finish != "length" && calls == 0 {
			return "", thought + text, closingUnlearned
		}
	case thought == "":
		if th, answer, ok := closeOnly(text); ok {
			return th, answer, closingLearned
		}
	}
	return thought, text, closingUnknown
}

// closeOnlyModels are the models whose answers come without the opening
// tag (closeOnly), as the answers told: model name → true.
type closeOnlyModels struct{ m sync.Map }

// assumed reports whether model's answers start inside the reasoning.
func (c *closeOnlyModels) assumed(model string) bool {
	v, _ := c.m.Load(model)
	return v == true
}

// learn records what one of model's answers said.
func (c *closeOnlyModels) learn(model string, what closing) {
	if what != closingUnknown {
		c.m.Store(model, what == closingLearned)
	}
}
