package tools

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/guard"
	"github.com/agentls/agentls/questions"
)

// AskUserParams are the arguments of ask_user: a batch of questions. Its
// fields are the schema the model is shown; the arguments are checked by
// questions.Parse, whose errors name each offending field for the model.
type AskUserParams struct {
	Questions []AskUserQuestion `json:"questions" minItems:"1" maxItems:"8"`
	set       *questions.Set
}

// AskUserQuestion is one question of ask_user's schema (questions.Question).
type AskUserQuestion struct {
	Name     string          `json:"name" description:"Answer key: an identifier, unique."`
	Question string          `json:"question" description:"Markdown."`
	Schema   map[string]any  `json:"schema" description:"JSON Schema of the answer: boolean, a string enum, a string, or an array."`
	Buttons  []AskUserButton `json:"buttons,omitempty" description:"One-click answers (values satisfy schema)."`
	Severity string          `json:"severity,omitempty" enum:"critical,major,minor"`
	Optional bool            `json:"optional,omitempty" description:"May be left unanswered."`
}

// AskUserButton is a one-click answer of ask_user's schema (questions.Button).
type AskUserButton struct {
	Label   string `json:"label"`
	Value   any    `json:"value"`
	Variant string `json:"variant,omitempty" enum:"primary,secondary,danger"`
}

// decodeArgs implements selfDecoder: questions.Parse checks the questions.
func (p *AskUserParams) decodeArgs(args json.RawMessage) error {
	set, err := questions.Parse(args)
	if err != nil {
		return fmt.Errorf("invalid questions, nothing was shown to the user:\n%v", err)
	}
	p.set = set
	return nil
}

// askUserTitle is ask_user's title of a call.
func askUserTitle(p AskUserParams) string {
	switch {
	case len(p.Questions) > 1:
		return fmt.Sprintf("ask the user %d questions", len(p.Questions))
	case len(p.Questions) == 1 && p.Questions[0].Question != "":
		return title("ask:", p.Questions[0].Question)
	}
	return "ask the user"
}

// runAskUser runs ask_user.
func runAskUser(ctx context.Context, env Env, p AskUserParams) (Result, error) {
	ans, err := env.Ask(ctx, p.set)
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

// askUserTool puts a batch of structured questions to the user.
var askUserTool = New(Def[AskUserParams]{Name: "ask_user", Kind: "other", Run: runAskUser,
	Title: askUserTitle,
	Guard: guard.Decl{Class: guard.ClassReadOnly, Kind: guard.KindReadOnly, Interaction: guard.WaitsOnHuman, Plan: guard.OfferedInPlan, Reach: agentproto.ReachEditor,
		Paths: guard.NoPaths()},
})
