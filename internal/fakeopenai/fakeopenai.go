// Package fakeopenai is an OpenAI-compatible Chat Completions endpoint on
// 127.0.0.1 for tests and benchmarks. Like real endpoints it answers 400 to
// a history that breaks the tool-call rules (a tool call without its result,
// a result without its call) and, when given a limit, answers
// context_length_exceeded (or vLLM's or llama.cpp's wording of it) to a
// request that is too large. Valid requests are answered by a Reply
// function, streamed as server-sent events with usage in the last chunk.
package fakeopenai

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"time"
)

// Overflow is the wording of a context overflow error.
type Overflow string

// The overflow wordings of the endpoints agentls recognises.
const (
	OverflowOpenAI      Overflow = "openai"       // code context_length_exceeded
	OverflowVLLM        Overflow = "vllm"         // "This model's maximum context length is …"
	OverflowLlamaCpp    Overflow = "llamacpp"     // "request (N tokens) exceeds the available context size (M tokens)"
	OverflowLlamaCppOld Overflow = "llamacpp-old" // "the request exceeds the available context size": no numbers in the message
	OverflowLMStudio    Overflow = "lmstudio"     // "Trying to keep the first N tokens when context the overflows. …", the error a string
	// OverflowOllamaCut is no error: the request is answered as if its
	// prompt had been cut to half the window (Ollama's), and its usage
	// counts window/2+2 prompt tokens.
	OverflowOllamaCut Overflow = "ollama-cut"
)

// Overflows are all the error wordings (not OverflowOllamaCut, which is
// none).
var Overflows = []Overflow{OverflowOpenAI, OverflowVLLM, OverflowLlamaCpp, OverflowLlamaCppOld, OverflowLMStudio}

// Options configure a Server.
type Options struct {
	// Reply answers a valid request; nil answers every request with "ok".
	Reply func(Request) Reply
	// MaxBytes, when positive, is the context limit: a request whose body is
	// larger is answered with an overflow error.
	MaxBytes int
	// Overflow is the wording of that error (default OverflowOpenAI).
	Overflow Overflow
	// Models, when set, is the list GET /models answers (else that request
	// is answered 404).
	Models []string
	// Window, when its Tokens are set, is the context window the server
	// reports, the way its Kind of server does (window.go).
	Window WindowReport
	// ReasoningBack makes the server DeepSeek's in thinking mode, which
	// refuses (400) a request whose history lacks an assistant message's
	// reasoning_content, by its rule.
	ReasoningBack ReasoningRule
}

// ReasoningRule is which assistant messages a server wants reasoning_content
// back on.
type ReasoningRule string

// The rules.
const (
	// ReasoningBackInToolSpans: those of a span between two user messages
	// where the model called a tool, with its text (DeepSeek's documented
	// rule: "Missing `reasoning_content` field in the assistant message at
	// message index N").
	ReasoningBackInToolSpans ReasoningRule = "tool-spans"
	// ReasoningBackOnAll: every assistant message, when the request offers
	// tools, the field present even if empty (DeepSeek V4 as its users
	// met it: "The `reasoning_content` in the thinking mode must be passed
	// back to the API.").
	ReasoningBackOnAll ReasoningRule = "all"
	// ReasoningRefused: none; an assistant message carrying reasoning or
	// reasoning_content is refused (Groq's strict schema: "property
	// 'reasoning' is unsupported").
	ReasoningRefused ReasoningRule = "refused"
)

// Server is a running fake endpoint. Close it when done.
type Server struct {
	// URL is the base URL to configure, ending in /v1.
	URL  string
	opts Options
	srv  *httptest.Server

	mu       sync.Mutex
	reqs     []Request
	maxBytes int      // Options.MaxBytes, until SetMaxBytes
	asks     []string // the requests for information (Asks)
	chatted  bool     // a chat request was answered (WindowReport.LoadedByChat)
}

// SetMaxBytes changes the context limit (Options.MaxBytes) from the next
// request on: the model's server restarted with another context size.
func (s *Server) SetMaxBytes(n int) {
	s.mu.Lock()
	s.maxBytes = n
	s.mu.Unlock()
}

// Request is one request the server received.
type Request struct {
	Body     []byte
	Model    string
	Messages []Message
	Tools    []string
	// Authorization is the request's Authorization header ("" without one).
	Authorization string
	// Status is the HTTP status it was answered with.
	Status int
	// Cut says the request was over the limit and answered as cut
	// (OverflowOllamaCut).
	Cut bool
	// Elapsed is the time the server spent on it, from its arrival to the
	// end of the answer.
	Elapsed time.Duration
}

// Message is a message of a request.
type Message struct {
	Role    string `json:"role"`
	Content string `json:"content"`
	// ReasoningContent and Reasoning are an assistant message's reasoning
	// sent back (DeepSeek's field, vLLM's); nil when the field is absent.
	ReasoningContent *string    `json:"reasoning_content"`
	Reasoning        *string    `json:"reasoning"`
	ToolCalls        []ToolCall `json:"tool_calls"`
	ToolCallID       string     `json:"tool_call_id"`
}

// ToolCall is a tool call of an assistant message, or of a Reply.
type ToolCall struct {
	ID       string `json:"id"`
	Function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	} `json:"function"`
}

// Call is a ToolCall for a Reply.
func Call(id, name, args string) ToolCall {
	c := ToolCall{ID: id}
	c.Function.Name, c.Function.Arguments = name, args
	return c
}

// Reply is the answer to a request: text and/or tool calls, or an error.
type Reply struct {
	Text      string
	ToolCalls []ToolCall
	// Reasoning is the model's reasoning, sent before the text in the
	// field ReasoningField names ("": reasoning_content, DeepSeek's and
	// llama.cpp's; "reasoning" is vLLM's, Ollama's and OpenRouter's).
	Reasoning      string
	ReasoningField string
	// Status, when not zero, answers with this HTTP status and ErrorBody.
	Status    int
	ErrorBody string
}

// New starts a server on 127.0.0.1.
func New(opts Options) *Server {
	s := &Server{opts: opts, maxBytes: opts.MaxBytes}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	s.URL = s.srv.URL + "/v1"
	return s
}

// Close stops the server.
func (s *Server) Close() { s.srv.Close() }

// Requests returns the requests received so far.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.reqs...)
}

// LastUser is the text of the last user message of r ("" when none).
func (r Request) LastUser() string {
	for i := len(r.Messages) - 1; i >= 0; i-- {
		if r.Messages[i].Role == "user" {
			return r.Messages[i].Content
		}
	}
	return ""
}

// System is the text of r's system message ("" when none).
func (r Request) System() string {
	if len(r.Messages) > 0 && r.Messages[0].Role == "system" {
		return r.Messages[0].Content
	}
	return ""
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	idx := -1
	defer func() {
		if idx >= 0 {
			s.mu.Lock()
			s.reqs[idx].Elapsed = time.Since(start)
			s.mu.Unlock()
		}
	}()
	if r.Method == http.MethodGet || r.URL.Path == "/api/show" {
		s.serveInfo(w, r)
		return
	}
	body, err := io.ReadAll(r.Body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	var in struct {
		Model    string    `json:"model"`
		Messages []Message `json:"messages"`
		Tools    []struct {
			Function struct {
				Name string `json:"name"`
			} `json:"function"`
		} `json:"tools"`
		Stream bool `json:"stream"`
	}
	req := Request{Body: body, Authorization: r.Header.Get("Authorization")}
	if err := json.Unmarshal(body, &in); err != nil {
		idx = s.record(req, http.StatusBadRequest)
		writeError(w, http.StatusBadRequest, invalidRequest("We could not parse the JSON body of your request.", "", nil))
		return
	}
	req.Model, req.Messages = in.Model, in.Messages
	for _, t := range in.Tools {
		req.Tools = append(req.Tools, t.Function.Name)
	}
	if msg, param := checkHistory(in.Messages); msg != "" {
		idx = s.record(req, http.StatusBadRequest)
		writeError(w, http.StatusBadRequest, invalidRequest(msg, param, nil))
		return
	}
	if msg := s.opts.ReasoningBack.refusal(in.Messages, len(in.Tools) > 0); msg != "" {
		idx = s.record(req, http.StatusBadRequest)
		writeError(w, http.StatusBadRequest, invalidRequest(msg, "", nil))
		return
	}
	s.mu.Lock()
	maxBytes := s.maxBytes
	s.mu.Unlock()
	promptTokens := Tokens(len(body))
	if maxBytes > 0 && len(body) > maxBytes {
		if s.opts.Overflow != OverflowOllamaCut {
			idx = s.record(req, http.StatusBadRequest)
			writeError(w, http.StatusBadRequest, s.overflow(len(body), maxBytes))
			return
		}
		promptTokens = Tokens(maxBytes)/2 + 2
		req.Cut = true
	}
	reply := Reply{Text: "ok"}
	if s.opts.Reply != nil {
		reply = s.opts.Reply(req)
	}
	if reply.Status != 0 {
		idx = s.record(req, reply.Status)
		writeError(w, reply.Status, reply.ErrorBody)
		return
	}
	idx = s.record(req, http.StatusOK)
	s.mu.Lock()
	s.chatted = true
	s.mu.Unlock()
	usage := fmt.Sprintf(`{"prompt_tokens":%d,"completion_tokens":%d,"total_tokens":%d}`, promptTokens, Tokens(len(reply.Text)), promptTokens+Tokens(len(reply.Text)))
	if !in.Stream {
		writeWhole(w, reply, usage)
		return
	}
	writeStream(w, reply, usage)
}

// Tokens is the token count the server reports for n bytes (one per four).
func Tokens(n int) int { return (n + 3) / 4 }

func (s *Server) record(r Request, status int) int {
	r.Status = status
	s.mu.Lock()
	defer s.mu.Unlock()
	s.reqs = append(s.reqs, r)
	return len(s.reqs) - 1
}

// overflow is the error body of a request of n bytes over the limit of
// maxBytes.
func (s *Server) overflow(n, maxBytes int) string {
	limit, got := Tokens(maxBytes), Tokens(n)
	switch s.opts.Overflow {
	case OverflowVLLM:
		return invalidRequest(fmt.Sprintf("This model's maximum context length is %d tokens. However, you requested %d tokens in the messages. Please reduce the length of the messages.", limit, got), "", nil)
	case OverflowLlamaCpp:
		return fmt.Sprintf(`{"error":{"code":400,"message":"request (%d tokens) exceeds the available context size (%d tokens), try increasing it","type":"exceed_context_size_error","n_prompt_tokens":%d,"n_ctx":%d}}`, got, limit, got, limit)
	case OverflowLlamaCppOld:
		return fmt.Sprintf(`{"error":{"code":400,"message":"the request exceeds the available context size, try increasing it","type":"exceed_context_size_error","n_prompt_tokens":%d,"n_ctx":%d}}`, got, limit)
	case OverflowLMStudio:
		return fmt.Sprintf(`{"error":"Trying to keep the first %d tokens when context the overflows. However, the model is loaded with context length of only %d tokens, which is not enough. Try to load the model with a larger context length, or provide a shorter input"}`, got, limit)
	default:
		code := "context_length_exceeded"
		return invalidRequest(fmt.Sprintf("This model's maximum context length is %d tokens. However, your messages resulted in %d tokens. Please reduce the length of the messages.", limit, got), "messages", &code)
	}
}

// checkHistory applies OpenAI's rules on tool messages and returns the
// error message and param of the first violation ("" when valid).
func checkHistory(msgs []Message) (string, string) {
	for i := 0; i < len(msgs); i++ {
		m := msgs[i]
		if m.Role == "tool" {
			return "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.", fmt.Sprintf("messages.[%d].role", i)
		}
		if m.Role != "assistant" || len(m.ToolCalls) == 0 {
			continue
		}
		want := map[string]bool{}
		for _, c := range m.ToolCalls {
			want[c.ID] = true
		}
		j := i + 1
		for ; j < len(msgs) && msgs[j].Role == "tool"; j++ {
			if !want[msgs[j].ToolCallID] {
				return "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.", fmt.Sprintf("messages.[%d].role", j)
			}
			delete(want, msgs[j].ToolCallID)
		}
		if len(want) > 0 {
			var ids []string
			for _, c := range m.ToolCalls {
				if want[c.ID] {
					ids = append(ids, c.ID)
				}
			}
			return "An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: " + strings.Join(ids, ", "), fmt.Sprintf("messages.[%d].role", i)
		}
		i = j - 1
	}
	return "", ""
}

// refusal is the error message of a request with msgs (offering tools or
// not) that lacks reasoning r wants back ("" when none).
func (r ReasoningRule) refusal(msgs []Message, tools bool) string {
	switch r {
	case ReasoningBackInToolSpans:
		if i := missingReasoning(msgs); i >= 0 {
			return fmt.Sprintf("Missing `reasoning_content` field in the assistant message at message index %d. For more information, please refer to https://api-docs.deepseek.com/guides/thinking_mode#tool-calls", i)
		}
	case ReasoningBackOnAll:
		for _, m := range msgs {
			if tools && m.Role == "assistant" && m.ReasoningContent == nil {
				return "The `reasoning_content` in the thinking mode must be passed back to the API."
			}
		}
	case ReasoningRefused:
		for i, m := range msgs {
			for field, v := range map[string]*string{"reasoning": m.Reasoning, "reasoning_content": m.ReasoningContent} {
				if v != nil && m.Role == "assistant" {
					return fmt.Sprintf("'messages.%d' : for 'role:assistant' the following must be satisfied[('messages.%d' : property '%s' is unsupported, did you mean 'role'?)]", i+1, i+1, field)
				}
			}
		}
	}
	return ""
}

// missingReasoning is the index of the first assistant message without
// its reasoning_content in a span between two user messages where the
// model called a tool (DeepSeek's rule in thinking mode), or -1.
func missingReasoning(msgs []Message) int {
	start := 0
	check := func(end int) int {
		tools := false
		for _, m := range msgs[start:end] {
			tools = tools || m.Role == "assistant" && len(m.ToolCalls) > 0
		}
		for i := start; i < end && tools; i++ {
			if msgs[i].Role == "assistant" && (msgs[i].ReasoningContent == nil || *msgs[i].ReasoningContent == "") {
				return i
			}
		}
		return -1
	}
	for i, m := range msgs {
		if m.Role == "user" {
			if j := check(i); j >= 0 {
				return j
			}
			start = i + 1
		}
	}
	return check(len(msgs))
}

func invalidRequest(msg, param string, code *string) string {
	b, _ := json.Marshal(map[string]any{"error": map[string]any{
		"message": msg, "type": "invalid_request_error", "param": nullable(param), "code": code,
	}})
	return string(b)
}

func nullable(s string) any {
	if s == "" {
		return nil
	}
	return s
}

func writeError(w http.ResponseWriter, status int, body string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	io.WriteString(w, body)
}

func writeWhole(w http.ResponseWriter, r Reply, usage string) {
	msg := map[string]any{"role": "assistant", "content": r.Text}
	if r.Reasoning != "" {
		msg[r.reasoningField()] = r.Reasoning
	}
	finish := "stop"
	if len(r.ToolCalls) > 0 {
		msg["tool_calls"] = toolCalls(r.ToolCalls)
		finish = "tool_calls"
	}
	b, _ := json.Marshal(map[string]any{
		"id": "x", "object": "chat.completion", "created": 1, "model": "m",
		"choices": []any{map[string]any{"index": 0, "message": msg, "finish_reason": finish}},
		"usage":   json.RawMessage(usage),
	})
	w.Header().Set("Content-Type", "application/json")
	w.Write(b)
}

// reasoningField is the field r's reasoning is sent in.
func (r Reply) reasoningField() string {
	if r.ReasoningField == "" {
		return "reasoning_content"
	}
	return r.ReasoningField
}

func toolCalls(calls []ToolCall) []any {
	out := make([]any, len(calls))
	for i, c := range calls {
		out[i] = map[string]any{"index": i, "id": c.ID, "type": "function",
			"function": map[string]string{"name": c.Function.Name, "arguments": c.Function.Arguments}}
	}
	return out
}

func writeStream(w http.ResponseWriter, r Reply, usage string) {
	w.Header().Set("Content-Type", "text/event-stream")
	chunk := func(delta any, finish string, usage string) {
		fin := any(nil)
		if finish != "" {
			fin = finish
		}
		m := map[string]any{"id": "x", "object": "chat.completion.chunk", "created": 1, "model": "m",
			"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": fin}}}
		if usage != "" {
			m["choices"] = []any{}
			m["usage"] = json.RawMessage(usage)
		}
		b, _ := json.Marshal(m)
		fmt.Fprintf(w, "data: %s\n\n", b)
	}
	if r.Reasoning != "" {
		chunk(map[string]any{"role": "assistant", "content": "", r.reasoningField(): r.Reasoning}, "", "")
	}
	chunk(map[string]any{"role": "assistant", "content": r.Text}, "", "")
	finish := "stop"
	if len(r.ToolCalls) > 0 {
		chunk(map[string]any{"tool_calls": toolCalls(r.ToolCalls)}, "", "")
		finish = "tool_calls"
	}
	chunk(map[string]any{}, finish, "")
	chunk(nil, "", usage)
	io.WriteString(w, "data: [DONE]\n\n")
}
