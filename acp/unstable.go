package acp

// This file holds every use of the SDK's unstable (not yet in the ACP spec)
// parts: elicitation (form-mode questions) and usage_update. A later SDK or
// protocol version that settles them touches this file only.

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/agentls/agentls/agent"
	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/questions"
)

// elicitsForms tells whether the client takes form-mode elicitation/create.
func elicitsForms(caps sdk.ClientCapabilities) bool {
	return caps.Elicitation != nil && caps.Elicitation.Form != nil
}

// elicitationForm is elicitation/create in form mode, scoped to a session
// and tool call as the unstable schema has it. (The SDK's
// UnstableCreateElicitationForm drops the scope, so the wire sends this.)
type elicitationForm struct {
	Mode            string                        `json:"mode"`
	SessionID       string                        `json:"sessionId"`
	ToolCallID      string                        `json:"toolCallId,omitempty"`
	Message         string                        `json:"message"`
	RequestedSchema sdk.UnstableElicitationSchema `json:"requestedSchema"`
}

// elicitationReply is the client's answer: accept (with content), decline
// or cancel; any other action (or none: `null`) is no answer.
type elicitationReply struct {
	Action  string         `json:"action"`
	Content map[string]any `json:"content"`
}

// elicit asks the batch as one form. ok is false when a question cannot be
// a form field (objects, arrays of free values): another surface is tried.
// Declining or cancelling the form dismisses the questions.
func (e *editor) elicit(ctx context.Context, req agent.AskRequest) (agent.AskReply, bool, error) {
	schema, ok := formSchema(req.Set)
	if !ok {
		return agent.AskReply{}, false, nil
	}
	msg := questions.Escape(req.Set.Questions[0].Question)
	if len(req.Set.Questions) > 1 {
		msg = "The agent has questions for you."
	}
	var reply elicitationReply
	err := e.a.wire.call(ctx, "elicitation/create", elicitationForm{
		Mode: "form", SessionID: req.SessionID, ToolCallID: agent.ToolCallID(ctx), Message: msg, RequestedSchema: schema,
	}, &reply)
	if err != nil {
		if ctx.Err() != nil {
			return agent.AskReply{}, true, ctx.Err()
		}
		slog.Warn("acp: elicitation failed; trying another way to ask", "err", err)
		return agent.AskReply{}, false, nil
	}
	switch reply.Action {
	case "accept":
		return agent.AskReply{Answers: reply.Content}, true, nil
	case "decline", "cancel":
		return agent.AskReply{Dismissed: true}, true, nil
	}
	// `null`, `{}` or an action ACP does not have: no answer, and not the
	// user's dismissal either; the questions are asked another way.
	slog.Warn("acp: elicitation answered without a valid action (accept, decline or cancel); trying another way to ask", "action", reply.Action)
	return agent.AskReply{}, false, nil
}

// formSchema is the questions as one elicitation schema: each question a
// property (its own JSON Schema, titled with the question), required unless
// optional. ok is false when a schema is not one of the primitive types a
// form can show, uses `$defs`/`$ref` (they would not resolve under the
// form's properties), or the whole form is over the limits every schema
// that reaches a client keeps (questions.CheckSchemaLimits): up to eight
// questions each within them can add up to more.
func formSchema(set *questions.Set) (sdk.UnstableElicitationSchema, bool) {
	s := sdk.UnstableElicitationSchema{Type: sdk.UnstableElicitationSchemaTypeObject, Properties: map[string]any{}}
	for _, q := range set.Questions {
		var prop map[string]any
		if json.Unmarshal(q.Schema, &prop) != nil || bytes.Contains(q.Schema, []byte(`"$ref"`)) || bytes.Contains(q.Schema, []byte(`"$defs"`)) {
			return s, false
		}
		switch prop["type"] {
		case "string", "number", "integer", "boolean":
		case "array":
			// A multi-select: items of an enum, or titled consts (anyOf
			// or oneOf, MCP's SEP-1330 shape).
			items, _ := prop["items"].(map[string]any)
			if items == nil || items["enum"] == nil && items["anyOf"] == nil && items["oneOf"] == nil {
				return s, false
			}
		default:
			return s, false
		}
		if len(q.Buttons) > 0 && prop["type"] == "string" {
			oneOf := make([]any, 0, len(q.Buttons))
			for _, b := range q.Buttons {
				oneOf = append(oneOf, map[string]any{"const": b.Value, "title": questions.EscapeLine(b.Label)})
			}
			prop["oneOf"] = oneOf
		}
		prop["title"] = questions.Escape(q.Question)
		if c := questions.Constraints(q); c != "" {
			prop["description"] = c
		}
		s.Properties[q.Name] = prop
		if !q.Optional {
			s.Required = append(s.Required, q.Name)
		}
	}
	whole, err := json.Marshal(s)
	if err != nil || questions.CheckSchemaLimits("the form", whole) != nil {
		return s, false
	}
	return s, true
}

// usageUpdate is usage_update (sdk.SessionUsageUpdate's shape).
type usageUpdate struct {
	SessionUpdate string     `json:"sessionUpdate"`
	Used          int        `json:"used"`
	Size          int        `json:"size"`
	Cost          *usageCost `json:"cost,omitempty"` // usage_cost.go
	// Meta carries the tokens per sub-agent and the total
	// (agentls/children, agentls/total) once the session has sub-agents.
	Meta map[string]any `json:"_meta,omitempty"`
}

// sendUsage sends usage_update: used is the estimated size of the next
// request (contextTokens), size the model's context window, cost the
// session's spend on this connection when the model's price is known
// (usage_cost.go).
func (e *editor) sendUsage(ctx context.Context, sessionID string, u agentproto.UsageUpdate) {
	var cost *usageCost
	if p, ok := priceOf(e.h.Config()); ok {
		cost = &usageCost{Amount: e.a.costs.add(sessionID, u.InputTokens, u.OutputTokens, p), Currency: "USD"}
	}
	if u.ContextWindow <= 0 {
		return
	}
	var meta map[string]any
	if u.Total != nil {
		meta = map[string]any{"agentls/children": u.Children, "agentls/total": u.Total}
	}
	e.send(ctx, sessionID, usageUpdate{SessionUpdate: "usage_update", Used: u.ContextTokens, Size: u.ContextWindow, Cost: cost, Meta: meta})
}
