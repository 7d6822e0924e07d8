package lsptest

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/agentls/agentls/agent"
	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/internal/lspclient"
	"github.com/agentls/agentls/questions"
)

// Messages returns the params of every message of method so far.
func (e *Env) Messages(method string) []json.RawMessage {
	var out []json.RawMessage
	for _, m := range e.Editor.Messages() {
		if m.Method == method {
			out = append(out, m.Params)
		}
	}
	return out
}

// decodeUpdate decodes m's update as T if m is an agent/update of kind.
func decodeUpdate[T any](m lspclient.Message, kind string) (T, bool) {
	var u T
	if m.Method != "agent/update" {
		return u, false
	}
	var p struct {
		Update json.RawMessage `json:"update"`
	}
	var head struct {
		SessionUpdate string `json:"sessionUpdate"`
	}
	if json.Unmarshal(m.Params, &p) != nil || json.Unmarshal(p.Update, &head) != nil || head.SessionUpdate != kind {
		return u, false
	}
	if json.Unmarshal(p.Update, &u) != nil {
		return u, false
	}
	return u, true
}

// Updates returns the agent/update updates of kind (their sessionUpdate)
// so far, decoded into T (agent.UpdateToolCallDone for "tool_call_update",
// agentproto.MessageChunk for "agent_message_chunk", …).
func Updates[T any](e *Env, kind string) []T {
	var out []T
	for _, m := range e.Editor.Messages() {
		if u, ok := decodeUpdate[T](m, kind); ok {
			out = append(out, u)
		}
	}
	return out
}

// decodeAll decodes the params of every message of method into T; a
// message that does not decode fails the test.
func decodeAll[T any](e *Env, method string) []T {
	e.T.Helper()
	var out []T
	for _, raw := range e.Messages(method) {
		var v T
		if err := json.Unmarshal(raw, &v); err != nil {
			e.T.Fatalf("%s params: %v", method, err)
		}
		out = append(out, v)
	}
	return out
}

// LogLines are the window/logMessage texts so far.
func (e *Env) LogLines() []string {
	var out []string
	for _, m := range decodeAll[ShownMessage](e, "window/logMessage") {
		out = append(out, m.Message)
	}
	return out
}

// HasLine reports whether one of lines starts with prefix.
func HasLine(lines []string, prefix string) bool {
	for _, l := range lines {
		if strings.HasPrefix(l, prefix) {
			return true
		}
	}
	return false
}

// ShownMessage is a window/showMessage or window/logMessage.
type ShownMessage struct {
	Type    int    `json:"type"`
	Message string `json:"message"`
}

// Shown are the window/showMessage notifications so far.
func (e *Env) Shown() []ShownMessage { return decodeAll[ShownMessage](e, "window/showMessage") }

// AwaitShown waits for a window/showMessage containing text and returns
// the first.
func (e *Env) AwaitShown(text string) ShownMessage {
	e.T.Helper()
	e.Await(ShownContaining(text))
	for _, m := range e.Shown() {
		if strings.Contains(m.Message, text) {
			return m
		}
	}
	panic("unreachable: the expectation was met")
}

// AskUser is an agent/askUser request as the editor receives it.
type AskUser struct {
	SessionID  string               `json:"sessionId"`
	QuestionID string               `json:"questionId"`
	CreatedAt  string               `json:"createdAt"`
	Purpose    string               `json:"purpose"`
	Errors     map[string]string    `json:"errors"`
	Questions  []questions.Question `json:"questions"`
	// Permission is the permission request (purpose "permission") or a
	// plan approval's grants.
	Permission *agentproto.PermissionRequest `json:"permission"`
}

// AskUserRequests are the agent/askUser requests with this purpose ("" for
// all) so far.
func (e *Env) AskUserRequests(purpose string) []AskUser {
	e.T.Helper()
	var out []AskUser
	for _, p := range decodeAll[AskUser](e, "agent/askUser") {
		if purpose == "" || p.Purpose == purpose {
			out = append(out, p)
		}
	}
	return out
}

// MessageRequest is a window/showMessageRequest as the editor receives it.
type MessageRequest struct {
	Type    int              `json:"type"`
	Message string           `json:"message"`
	Actions []map[string]any `json:"actions"`
}

// MessageRequests are the window/showMessageRequest requests so far.
func (e *Env) MessageRequests() []MessageRequest {
	e.T.Helper()
	return decodeAll[MessageRequest](e, "window/showMessageRequest")
}

// ModeChanges are the agent/modeChanged notifications so far.
func (e *Env) ModeChanges() []agentproto.ModeChangedParams {
	e.T.Helper()
	return decodeAll[agentproto.ModeChangedParams](e, "agent/modeChanged")
}

// ToolOutput returns the tool_call_update of one call: its status and its
// rawOutput (the tool result the model saw) decoded as a JSON object.
func (e *Env) ToolOutput(callID string) (status string, out map[string]any) {
	e.T.Helper()
	for _, u := range Updates[agent.UpdateToolCallDone](e, "tool_call_update") {
		if u.ToolCallID != callID {
			continue
		}
		if len(u.RawOutput) == 0 {
			return u.Status, nil
		}
		if err := json.Unmarshal(u.RawOutput, &out); err != nil {
			e.T.Fatalf("rawOutput of %s: %v", callID, err)
		}
		return u.Status, out
	}
	e.T.Fatalf("no tool_call_update for %s", callID)
	return "", nil
}

// AwaitChunk waits for an agent_message_chunk containing text.
func (e *Env) AwaitChunk(text string) {
	e.T.Helper()
	e.Await(Update("agent_message_chunk", fmt.Sprintf("an agent_message_chunk containing %q", text), func(u agentproto.MessageChunk) bool {
		return strings.Contains(u.Content.Text, text)
	}))
}

// AwaitMessage waits for a message of method whose params (as JSON text)
// contain every one of subs, and returns the first such params.
func (e *Env) AwaitMessage(method string, subs ...string) json.RawMessage {
	e.T.Helper()
	e.Await(ParamsContaining(method, subs...))
	for _, m := range e.Editor.Messages() {
		if paramsContain(m, method, subs) {
			return m.Params
		}
	}
	panic("unreachable: the expectation was met")
}
