package openai

import (
	"bytes"
	"encoding/json"
	"fmt"
	"hash/maphash"
	"net"
	"slices"
	"sync"

	goopenai "github.com/sashabaranov/go-openai"

	"github.com/agentls/agentls/agent/llm"
)

// A request body is assembled from pieces encoded once: the tools array once
// per tool set, each message once for as long as it stays in the history.
// Re-encoding the tool definitions and the whole history on every request was
// a third of the server's CPU in long sessions (issue 24). go-openai still
// sends the request and reads the answer: it encodes a small stand-in request
// (the same fields, no messages, one placeholder tool) and recordingDoer
// sends the assembled body in its place.

// The budget of the encoding cache's messages: past it the older half is dropped.
const maxCachedMessageBytes = 64 << 20

// encoded is a request's pre-encoded messages (system prompt first) and tools
// array (nil when it offers no tools).
type encoded struct {
	messages [][]byte
	tools    []byte
}

// encodeCache holds encoded messages and tool arrays, keyed by a hash of
// their content and checked against the content itself on a hit (cheap when,
// as in a session's history, the strings are the same ones). It is safe for
// concurrent use; encoding happens outside its lock.
type encodeCache struct {
	seed maphash.Seed
	// maxBytes bounds the messages held (maxCachedMessageBytes).
	maxBytes int

	mu sync.Mutex
	// cur and prev are two generations of messages: when cur outgrows its
	// budget it becomes prev and the old prev is dropped; a hit in prev
	// moves to cur. Messages still in use thus survive, others age out.
	cur, prev map[uint64]msgEntry
	curBytes  int
	tools     llm.ToolSetMemo[[]byte]
}

type msgEntry struct {
	msg  llm.Message
	json []byte
	// to is whose reasoning was considered for m (reasoningEcho).
	to echoTo
}

func newEncodeCache() *encodeCache {
	return &encodeCache{seed: maphash.MakeSeed(), maxBytes: maxCachedMessageBytes, cur: map[uint64]msgEntry{}, prev: map[uint64]msgEntry{}}
}

// request encodes req's system prompt and messages and its tools, from the
// cache where it can; model is the model it goes to, whose own reasoning
// goes back as echo says (reasoning_state.go).
func (c *encodeCache) request(req llm.Request, model string, echo echoMode) (encoded, error) {
	var enc encoded
	n := len(req.Messages)
	if req.System != "" {
		n++
	}
	enc.messages = make([][]byte, 0, n)
	if req.System != "" {
		b, err := c.message(llm.Message{Role: llm.RoleSystem, Content: req.System}, echoTo{})
		if err != nil {
			return enc, err
		}
		enc.messages = append(enc.messages, b)
	}
	spans := echoSpans(req.Messages)
	for i, m := range req.Messages {
		var to echoTo
		switch {
		case echo == echoNone:
		case echo == echoOnAll && m.Role == llm.RoleAssistant:
			to = echoTo{model: model, placeholder: true}
		case spans[i] && m.Thinking != "":
			to = echoTo{model: model}
		}
		b, err := c.message(m, to)
		if err != nil {
			return enc, err
		}
		enc.messages = append(enc.messages, b)
	}
	if len(req.Tools) > 0 {
		b, err := c.toolsJSON(req.Tools)
		if err != nil {
			return enc, err
		}
		enc.tools = b
	}
	return enc, nil
}

// message returns m as sent (messageJSON), with the reasoning to asks for
// (reasoningEcho).
func (c *encodeCache) message(m llm.Message, to echoTo) ([]byte, error) {
	key := c.messageHash(m, to)
	c.mu.Lock()
	e, ok := c.cur[key]
	if !ok {
		if e, ok = c.prev[key]; ok && sameMessage(e, m, to) {
			c.putLocked(key, e)
		}
	}
	c.mu.Unlock()
	if ok && sameMessage(e, m, to) {
		return e.json, nil
	}
	b := messageJSON(m, reasoningEcho(m, to))
	c.mu.Lock()
	c.putLocked(key, msgEntry{msg: m, json: b, to: to})
	c.mu.Unlock()
	return b, nil
}

// putLocked stores an entry in the current generation, turning generations
// over when it is full.
func (c *encodeCache) putLocked(key uint64, e msgEntry) {
	size := len(e.json) + len(e.msg.Content)
	if c.curBytes+size > c.maxBytes/2 {
		c.prev, c.cur, c.curBytes = c.cur, map[uint64]msgEntry{}, 0
	}
	c.cur[key] = e
	c.curBytes += size
}

// messageHash hashes the fields chatMessage sends, and the reasoning
// considered for to.
func (c *encodeCache) messageHash(m llm.Message, to echoTo) uint64 {
	var h maphash.Hash
	h.SetSeed(c.seed)
	field := func(s string) {
		h.WriteString(s)
		h.WriteByte(0)
	}
	field(string(m.Role))
	field(m.Content)
	field(m.ToolCallID)
	for _, tc := range m.ToolCalls {
		field(tc.ID)
		field(tc.Name)
		field(tc.Arguments)
	}
	if to.model != "" {
		field(to.model)
		if to.placeholder {
			h.WriteByte(1)
		}
		field(m.Thinking)
		h.Write(m.ProviderState)
	}
	return h.Sum64()
}

// sameMessage reports whether e's message, encoded for e.to, is sent as b
// for to.
func sameMessage(e msgEntry, b llm.Message, to echoTo) bool {
	a := e.msg
	return a.Role == b.Role && a.Content == b.Content && a.ToolCallID == b.ToolCallID &&
		slices.Equal(a.ToolCalls, b.ToolCalls) &&
		e.to == to && (to.model == "" || a.Thinking == b.Thinking && bytes.Equal(a.ProviderState, b.ProviderState))
}

// toolsJSON returns the tools array for specs (ToolsJSON, cached per tool
// set).
func (c *encodeCache) toolsJSON(specs []llm.ToolSpec) ([]byte, error) {
	return c.tools.Get(specs, ToolsJSON)
}

// placeholderTools stands for a request's tools in the request go-openai
// encodes (its checks look at whether there are tools); the assembled body
// replaces its literal encoding.
var placeholderTools = []goopenai.Tool{{Type: goopenai.ToolTypeFunction}}

// The literal encodings replaced when assembling a body.
var (
	emptyMessagesJSON    = []byte(`"messages":[]`)
	placeholderToolsJSON = []byte(`"tools":[{"type":"function"}]`)
)

// wireRequest is the stand-in request go-openai encodes and sends: creq's
// fields, no messages, and a placeholder tool when there are tools.
func wireRequest(creq goopenai.ChatCompletionRequest, enc encoded) goopenai.ChatCompletionRequest {
	creq.Messages = []goopenai.ChatCompletionMessage{}
	creq.Tools = nil
	if enc.tools != nil {
		creq.Tools = placeholderTools
	}
	return creq
}

// comma separates the messages of an assembled body.
var comma = []byte{','}

// requestBody is an assembled request body: its pieces in order, sent one
// after the other without being joined (joining a long history's megabytes
// on every request was half of what assembling cost).
type requestBody struct {
	pieces [][]byte
	size   int
}

// reader returns a fresh reader of the whole body.
func (b *requestBody) reader() *net.Buffers {
	bufs := net.Buffers(slices.Clone(b.pieces))
	return &bufs
}

// bytes returns the body joined (for tests).
func (b *requestBody) bytes() []byte {
	return bytes.Join(b.pieces, nil)
}

// body assembles the request body for wire (a wireRequest): its encoding
// with the messages and the tools array spliced in, byte for byte what
// go-openai would have sent for the whole request.
func body(wire goopenai.ChatCompletionRequest, enc encoded) (*requestBody, error) {
	head, err := json.Marshal(wire)
	if err != nil {
		return nil, fmt.Errorf("encode request: %w", err)
	}
	// String values are escaped ("\"messages\""), so the first literal
	// occurrence is the field itself.
	i := bytes.Index(head, emptyMessagesJSON)
	if i < 0 {
		return nil, fmt.Errorf("encode request: no messages field in %.200s", head)
	}
	b := &requestBody{pieces: make([][]byte, 0, 2*len(enc.messages)+5)}
	add := func(p []byte) {
		b.pieces = append(b.pieces, p)
		b.size += len(p)
	}
	add(head[:i+len(emptyMessagesJSON)-1])
	for j, m := range enc.messages {
		if j > 0 {
			add(comma)
		}
		add(m)
	}
	rest := head[i+len(emptyMessagesJSON)-1:] // from the closing bracket on
	if enc.tools != nil {
		k := bytes.Index(rest, placeholderToolsJSON)
		if k < 0 {
			return nil, fmt.Errorf("encode request: no tools field in %.200s", head)
		}
		add(rest[:k+len(`"tools":`)])
		add(enc.tools)
		rest = rest[k+len(placeholderToolsJSON):]
	}
	add(rest)
	return b, nil
}
