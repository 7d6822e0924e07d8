package tools

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"

	"github.com/agentls/agentls/agent/llm"
	"github.com/agentls/agentls/guard"
	"github.com/agentls/agentls/questions"
)

//go:embed descriptions/ask_user.md
var askUserDescription string

// AskUserTool puts a batch of structured questions to the user.
type AskUserTool struct{}

// Spec implements Tool.
func (AskUserTool) Spec() Spec {
	button := prop{
		"type": "object",
		"properties": map[string]prop{
			"label":   str(""),
			"value":   {},
			"variant": enum("danger: the destructive option.", "primary", "secondary", "danger"),
		},
		"required":             []string{"label", "value"},
		"additionalProperties": false,
	}
	question := prop{
		"type": "object",
		"properties": map[string]prop{
			"name":     str("Answer key: letters, digits, _; no leading digit; unique."),
			"question": str("Markdown."),
			"schema":   {"type": "object", "description": "JSON Schema (2020-12) the answer must satisfy: {\"type\":\"boolean\"} yes/no, {\"type\":\"string\",\"enum\":[…]} a choice, {\"type\":\"string\"} free text, array for several."},
			"buttons":  {"type": "array", "description": "One-click answers; each value must satisfy schema.", "items": button},
			"severity": enum("", "critical", "major", "minor"),
			"optional": boolean("May be left unanswered."),
		},
		"required":             []string{"name", "question", "schema"},
		"additionalProperties": false,
	}
	return Spec{ToolSpec: llm.ToolSpec{
		Name:        "ask_user",
		Description: askUserDescription,
		Parameters: object([]string{"questions"}, map[string]prop{
			"questions": {
				"type":  "array",
				"items": question, "minItems": questions.MinQuestions, "maxItems": questions.MaxQuestions,
			},
		}),
	}, Guard: guard.Decl{
		Class: guard.ClassReadOnly, Kind: guard.KindReadOnly,
		Paths:       guard.NoPaths(),
		Interaction: guard.WaitsOnHuman, Plan: guard.OfferedInPlan,
	}}
}

// Kind implements Tool.
func (AskUserTool) Kind() string { return "other" }

// Title implements Tool.
func (AskUserTool) Title(args json.RawMessage) string {
	var a struct {
		Questions []struct {
			Question string `json:"question"`
		} `json:"questions"`
	}
	if json.Unmarshal(args, &a) != nil || len(a.Questions) == 0 {
		return "ask the user"
	}
	if len(a.Questions) > 1 {
		return fmt.Sprintf("ask the user %d questions", len(a.Questions))
	}
	return title("ask:", a.Questions[0].Question)
}

// Run implements Tool.
func (AskUserTool) Run(ctx context.Context, env Env, args json.RawMessage) (Result, error) {
	set, err := questions.Parse(args)
	if err != nil {
		return Failf("invalid questions, nothing was shown to the user:\n%v", err), nil
	}
	ans, err := env.Ask(ctx, set)
	if ctx.Err() != nil {
		return Failf("cancelled by the user: the questions were withdrawn unanswered"), nil
	}
	if err != nil {
		return Failf("%v", err), nil
	}
	switch ans.Status {
	case "answered":
		answers := ans.Answers
		if answers == nil {
			answers = map[string]any{}
		}
		return OK(map[string]any{"status": "answered", "answers": answers}), nil
	case "dismissed":
		return OK(map[string]any{"status": "dismissed"}), nil
	case "question_pending":
		r := OK(map[string]any{"status": "question_pending", "question_id": ans.QuestionID})
		r.Stop = "question_pending"
		return r, nil
	}
	return Result{}, fmt.Errorf("ask user: unknown answer status %q", ans.Status)
}
