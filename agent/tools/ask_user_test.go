package tools

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/agentls/agentls/questions"
)

func TestAskUser(t *testing.T) {
	t.Parallel()
	const oneQuestion = `{"questions":[{"name":"env","question":"Which environment?","schema":{"type":"string","enum":["dev","prod"]},` +
		`"buttons":[{"label":"Production","value":"prod","variant":"danger"}]}]}`
	tests := []struct {
		name      string
		args      string
		answer    Answer
		askErr    error
		want      string // the wire result
		stop      string
		wantError []string
		asked     bool
	}{
		{
			name: "answered", args: oneQuestion, asked: true,
			answer: Answer{Status: "answered", Answers: map[string]any{"env": "prod"}},
			want:   `{"success":true,"result":{"answers":{"env":"prod"},"status":"answered"}}`,
		},
		{
			name: "dismissed", args: oneQuestion, asked: true,
			answer: Answer{Status: "dismissed"},
			want:   `{"success":true,"result":{"status":"dismissed"}}`,
		},
		{
			name: "pending ends the turn", args: oneQuestion, asked: true,
			answer: Answer{Status: "question_pending", QuestionID: "0190f5e2-0000-7000-8000-000000000000"},
			want:   `{"success":true,"result":{"question_id":"0190f5e2-0000-7000-8000-000000000000","status":"question_pending"}}`,
			stop:   "question_pending",
		},
		{
			name: "answers rejected by the env", args: oneQuestion, asked: true,
			askErr:    errors.New("the user's answers do not fit the questions: env: must be one of dev, prod"),
			wantError: []string{"do not fit"},
		},
		{name: "button value outside the schema", args: `{"questions":[{"name":"env","question":"?","schema":{"type":"string","enum":["dev"]},"buttons":[{"label":"P","value":"prod"}]}]}`, wantError: []string{"nothing was shown", "buttons[0]"}},
		{name: "bad name", args: `{"questions":[{"name":"1x","question":"?","schema":{"type":"boolean"}}]}`, wantError: []string{"questions[0].name"}},
		{name: "no questions", args: `{"questions":[]}`, wantError: []string{"questions"}},
		{name: "not an array", args: `{"questions":{"name":"x"}}`, wantError: []string{"questions"}},
		{name: "bad JSON", args: `{"questions":[`, wantError: []string{"nothing was shown"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := newFake(t, nil)
			env.answer, env.askErr = tt.answer, tt.askErr
			r := call(t, askUserTool, env, tt.args)
			if asked := len(env.asked) > 0; asked != tt.asked {
				t.Errorf("Ask called = %v, want %v", asked, tt.asked)
			}
			if tt.wantError != nil {
				wantFail(t, r, tt.wantError...)
				return
			}
			if got := r.JSON(); got != tt.want {
				t.Errorf("result = %s\nwant     %s", got, tt.want)
			}
			if r.Stop != tt.stop {
				t.Errorf("Stop = %q, want %q", r.Stop, tt.stop)
			}
		})
	}
}

func TestAskUserCancelled(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		answer Answer
		askErr error
	}{
		{"withdrawn while asked", Answer{}, context.Canceled},
		// An answer that raced the cancellation is not reported: the turn ended.
		{"answered as the turn was cancelled", Answer{Status: "answered", Answers: map[string]any{"ok": true}}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := newFake(t, nil)
			env.answer, env.askErr = tt.answer, tt.askErr
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			r, err := askUserTool.Run(ctx, env, []byte(`{"questions":[{"name":"ok","question":"?","schema":{"type":"boolean"}}]}`))
			if err != nil {
				t.Fatalf("Go error %v, want a tool result the model reads", err)
			}
			wantFail(t, r, "cancelled by the user", "withdrawn")
			if r.Stop != "" {
				t.Errorf("Stop = %q", r.Stop)
			}
		})
	}
}

// TestAskUserSchemaBounds: the schema's bounds on the number of questions
// (tags of AskUserParams) are the ones questions.Parse enforces.
func TestAskUserSchemaBounds(t *testing.T) {
	t.Parallel()
	var s struct {
		Properties struct {
			Questions struct {
				MinItems int `json:"minItems"`
				MaxItems int `json:"maxItems"`
			} `json:"questions"`
		} `json:"properties"`
	}
	if err := json.Unmarshal(askUserTool.Spec().Parameters, &s); err != nil {
		t.Fatal(err)
	}
	if q := s.Properties.Questions; q.MinItems != questions.MinQuestions || q.MaxItems != questions.MaxQuestions {
		t.Errorf("schema allows %d to %d questions, questions.Parse %d to %d", q.MinItems, q.MaxItems, questions.MinQuestions, questions.MaxQuestions)
	}
}
