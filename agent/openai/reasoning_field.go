package openai

import "bytes"

// Servers name a message's reasoning two ways: reasoning_content (DeepSeek,
// llama.cpp, older vLLM), which go-openai reads, and reasoning (vLLM since
// it removed reasoning_content, Ollama, OpenRouter, Groq), which it does
// not: their thinking was dropped. reasoningAsContent renames the second
// to the first in an answer's JSON (a stream's data line, a whole body)
// before go-openai decodes it.

var (
	reasoningKey        = []byte(`"reasoning"`)
	reasoningContentKey = []byte(`"reasoning_content"`)
)

// reasoningAsContent is b with each "reasoning" key whose value is a
// string or null renamed to "reasoning_content", unless b has a
// "reasoning_content" key already (a server sending both: go-openai reads
// that one, and a rename would make it read one twice). b is returned
// unchanged, and not copied, when there is nothing to rename; a value that
// is an object or an array (a reasoning summary, a request's settings) is
// left alone: go-openai would refuse it as a string.
func reasoningAsContent(b []byte) []byte {
	if !bytes.Contains(b, reasoningKey) || bytes.Contains(b, reasoningContentKey) {
		return b
	}
	var out []byte
	last := 0
	for i := 0; ; {
		j := bytes.Index(b[i:], reasoningKey)
		if j < 0 {
			break
		}
		at := i + j
		i = at + len(reasoningKey)
		if !isKeyAt(b, at, i) {
			continue
		}
		if out == nil {
			out = make([]byte, 0, len(b)+len("_content")*2)
		}
		out = append(out, b[last:at]...)
		out = append(out, reasoningContentKey...)
		last = i
	}
	if out == nil {
		return b
	}
	return append(out, b[last:]...)
}

// isKeyAt reports whether the quoted word at b[start:end] is an object key
// (after '{' or ',') whose value is a string or null: a quote inside a JSON
// string is escaped, so one right after '{' or ',' opens a key, and a
// string followed by ':' is one.
func isKeyAt(b []byte, start, end int) bool {
	k := start - 1
	for k >= 0 && isJSONSpace(b[k]) {
		k--
	}
	if k < 0 || (b[k] != '{' && b[k] != ',') {
		return false
	}
	k = end
	for k < len(b) && isJSONSpace(b[k]) {
		k++
	}
	if k >= len(b) || b[k] != ':' {
		return false
	}
	k++
	for k < len(b) && isJSONSpace(b[k]) {
		k++
	}
	return k < len(b) && (b[k] == '"' || bytes.HasPrefix(b[k:], []byte("null")))
}

func isJSONSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }
