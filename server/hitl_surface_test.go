package server_test

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/google/uuid"

	"github.com/agentls/agentls/agent"
	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/internal/lspclient"
	"github.com/agentls/agentls/server/internal/lsptest"
)

// This file adds to questions_test.go: the seed's §6.3 examples through the
// agent/askUser form (errors a person understands on re-ask), the exact
// ask_user results of PROTOCOL.md §4a, the extra properties of message
// actions, and agent/cancel while a window/showMessageRequest is open.

// seedQuestions are the examples of the seed's §6.3, with a valid and an
// invalid answer and the error the re-ask carries for the invalid one.
var seedQuestions = []struct {
	name     string
	question string // YAML flow mapping
	invalid  any
	errMsg   string
	valid    any
}{
	{"confirm", `{name: confirm, question: "Should I proceed?", schema: {type: boolean}, buttons: [{label: "Yes", value: true}, {label: "No", value: false}]}`,
		"yes", "expected boolean, but got string", true},
	{"environment", `{name: environment, question: "Which deployment environment should I use?", schema: {type: string, enum: [dev, staging, prod]}, ` +
		`buttons: [{label: Development, value: dev}, {label: Staging, value: staging}, {label: Production, value: prod, variant: danger}]}`,
		"qa", "must be one of dev, staging, prod", "staging"},
	{"branch_name", `{name: branch_name, question: "What should I name the new feature branch?", schema: {type: string, pattern: "^[a-z0-9-]+$", minLength: 3, maxLength: 50}}`,
		"Feature_Login", "must match ^[a-z0-9-]+$", "feature-login"},
	{"components", `{name: components, question: "Select which components to update:", schema: {type: array, items: {type: string, enum: [frontend, backend, database, docs]}, minItems: 1}}`,
		[]any{}, "must have at least 1 item (got 0)", []any{"frontend", "docs"}},
	{"endpoint_config", `{name: endpoint_config, question: "Configure the new API endpoint:", schema: {type: object, ` +
		`properties: {path: {type: string, pattern: "^/[a-z0-9/-]+$"}, method: {type: string, enum: [GET, POST, PUT, DELETE]}, auth_required: {type: boolean, default: true}}, required: [path, method]}}`,
		map[string]any{"path": "/api/users"}, "missing required property: method", map[string]any{"path": "/api/users", "method": "POST"}},
}

func TestSeedQuestionsThroughAskUser(t *testing.T) {
	t.Parallel()
	for _, sq := range seedQuestions {
		t.Run(sq.name, func(t *testing.T) {
			validJSON, err := json.Marshal(map[string]any{sq.name: sq.valid})
			if err != nil {
				t.Fatal(err)
			}
			h := lsptest.Start(t, lsptest.Setup{
				Handlers: lspclient.Handlers{AskUser: replySequence(
					map[string]any{"answers": map[string]any{sq.name: sq.invalid}},
					map[string]any{"answers": map[string]any{sq.name: sq.valid}},
				)},
				Script: `
name: seed
steps:
  - tool_calls:
      - {id: q, name: ask_user, args: {questions: [` + sq.question + `]}}
  - text: done
`,
			})
			s := h.NewSession("plan")
			wantStop(t, h.Prompt(s.SessionID, "ask"), "end_turn")
			asks := h.AskUserRequests("question")
			if len(asks) != 2 {
				t.Fatalf("%d asks, want 2", len(asks))
			}
			if want := map[string]string{sq.name: sq.errMsg}; !reflect.DeepEqual(asks[1].Errors, want) {
				t.Fatalf("re-ask errors = %v, want %v", asks[1].Errors, want)
			}
			status, out := h.ToolOutput("q")
			want := map[string]any{"success": true, "result": map[string]any{"status": "answered", "answers": decodeJSON(t, validJSON)}}
			if status != "completed" || !reflect.DeepEqual(out, want) {
				t.Fatalf("ask_user = %s %v, want %v", status, out, want)
			}
		})
	}
}

// TestSeedQuestionsPending: the examples no message request can show stay
// pending; agent/answer names what is wrong the way a person reads it.
func TestSeedQuestionsPending(t *testing.T) {
	t.Parallel()
	for _, sq := range seedQuestions {
		t.Run(sq.name, func(t *testing.T) {
			h := lsptest.Start(t, lsptest.Setup{
				Caps: noAskCaps(false),
				Script: `
name: seed_pending
steps:
  - tool_calls:
      - {id: q, name: ask_user, args: {questions: [` + sq.question + `]}}
  - text: done
`,
			})
			s := h.NewSession("plan")
			r := h.Prompt(s.SessionID, "ask")
			if sq.name == "confirm" || sq.name == "environment" {
				// Buttons: shown as a message request, the first action taken.
				wantStop(t, r, "end_turn")
				if n := len(h.MessageRequests()); n != 1 {
					t.Fatalf("%d message requests, want 1", n)
				}
				return
			}
			wantStop(t, r, "question_pending")
			qid := lsptest.Updates[agent.UpdateQuestion](h, "question_pending")[0].QuestionID
			answer := func(v any) error {
				return h.Editor.Call(h.Ctx, "agent/answer", map[string]any{"sessionId": s.SessionID, "questionId": qid, "answers": map[string]any{sq.name: v}}, nil)
			}
			wantInvalidParams(t, answer(sq.invalid), sq.name+": "+sq.errMsg)
			if err := answer(sq.valid); err != nil {
				t.Fatalf("valid answer: %v", err)
			}
			h.AwaitChunk("done")
		})
	}
}

// TestAskUserResultsExact: what the model reads is exactly PROTOCOL.md §4a.
func TestAskUserResultsExact(t *testing.T) {
	t.Parallel()
	const question = `{name: env, question: "Where?", schema: {type: string, enum: [dev, prod]}}`
	tests := []struct {
		name  string
		caps  map[string]any
		reply any
		want  func(qid string) map[string]any
		stop  agentproto.StopReason
	}{
		{"answered", nil, map[string]any{"answers": map[string]any{"env": "prod"}}, func(string) map[string]any {
			return map[string]any{"success": true, "result": map[string]any{"status": "answered", "answers": map[string]any{"env": "prod"}}}
		}, "end_turn"},
		{"dismissed", nil, map[string]any{"dismissed": true}, func(string) map[string]any {
			return map[string]any{"success": true, "result": map[string]any{"status": "dismissed"}}
		}, "end_turn"},
		{"pending", noAskCaps(false), nil, func(qid string) map[string]any {
			return map[string]any{"success": true, "result": map[string]any{"status": "question_pending", "question_id": qid}}
		}, "question_pending"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			q := question
			if tc.stop == "question_pending" {
				q = branchQuestion
			}
			h := lsptest.Start(t, lsptest.Setup{
				Caps:     tc.caps,
				Handlers: lspclient.Handlers{AskUser: func(json.RawMessage) any { return tc.reply }},
				Script:   "name: exact\nsteps:\n  - tool_calls:\n      - {id: q, name: ask_user, args: {questions: [" + q + "]}}\n  - text: done\n",
			})
			s := h.NewSession("plan")
			wantStop(t, h.Prompt(s.SessionID, "ask"), tc.stop)
			var qid string
			if ups := lsptest.Updates[agent.UpdateQuestion](h, "question_pending"); len(ups) > 0 {
				qid = ups[0].QuestionID
				id, err := uuid.Parse(qid)
				if err != nil || id.Version() != 7 {
					t.Fatalf("question id %q is not a UUID v7 (%v)", qid, err)
				}
			}
			if _, out := h.ToolOutput("q"); !reflect.DeepEqual(out, tc.want(qid)) {
				t.Fatalf("ask_user result = %v, want %v", out, tc.want(qid))
			}
		})
	}
}

// TestMessageActionExtraProperties: with additionalPropertiesSupport the
// value sent back on the chosen item decides (an editor may decorate the
// title); it must be one of the offered values. Without it, only the title
// counts.
func TestMessageActionExtraProperties(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		props bool
		reply any
		want  []string
	}{
		{"value decides", true, map[string]any{"title": "⚠ Production", "value": "prod"}, []string{`"status":"answered"`, `"env":"prod"`}},
		{"value wins over the title", true, map[string]any{"title": "Staging", "value": "prod"}, []string{`"env":"prod"`}},
		{"title without value", true, map[string]any{"title": "Staging"}, []string{`"env":"staging"`}},
		{"value not offered", true, map[string]any{"title": "Production", "value": "mars"}, []string{`"success":false`, `value \"mars\" is not one of the offered actions`}},
		{"no support: the title decides", false, map[string]any{"title": "Staging", "value": "prod"}, []string{`"env":"staging"`}},
		{"no support: a decorated title is unknown", false, map[string]any{"title": "⚠ Production", "value": "prod"}, []string{`"success":false`, "unknown action"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := lsptest.Start(t, lsptest.Setup{
				Caps:     noAskCaps(tc.props),
				Handlers: lspclient.Handlers{ShowMessageRequest: func(json.RawMessage) any { return tc.reply }},
				Script: `
name: props
steps:
  - tool_calls:
      - id: q
        name: ask_user
        args:
          questions:
            - {name: env, question: "Where?", schema: {type: string, enum: [dev, staging, prod]}, buttons: [{label: Staging, value: staging}, {label: Production, value: prod}]}
  - text: done
    expect:
      tool_result_contains: {q: ` + yamlList(tc.want...) + `}
`,
			})
			s := h.NewSession("plan")
			wantStop(t, h.Prompt(s.SessionID, "ask"), "end_turn")
			reqs := h.MessageRequests()
			if len(reqs) != 1 {
				t.Fatalf("%d message requests", len(reqs))
			}
			for _, a := range reqs[0].Actions {
				if _, has := a["value"]; has != tc.props {
					t.Fatalf("action %v carries a value: %v, want %v", a, has, tc.props)
				}
			}
		})
	}
}

// TestCancelWithdrawsMessageRequest: agent/cancel while a
// window/showMessageRequest is open (a question, a plan approval, a
// permission to run) withdraws it with $/cancelRequest, and the model reads
// that the user cancelled.
func TestCancelWithdrawsMessageRequest(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		mode   string
		script string
		call   string
		want   string
	}{
		{"question", "plan", "name: c\nsteps:\n  - tool_calls:\n      - {id: q, name: ask_user, args: {questions: [{name: ok, question: \"Go?\", schema: {type: boolean}}]}}\n",
			"q", "cancelled by the user: the questions were withdrawn unanswered"},
		{"approval", "plan", approvalScript(""), "x",
			"cancelled by the user: the plan approval was withdrawn; plans/greet.plan was not approved and the session stays in plan mode"},
		{"permission", "build", "name: c\nsteps:\n  - tool_calls:\n      - {id: r, name: run, args: {command: touch ran.txt}}\n",
			"r", "cancelled by the user: the request for permission was withdrawn and touch ran.txt did not run"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			release := make(chan struct{})
			defer close(release)
			h := lsptest.Start(t, lsptest.Setup{
				Caps:     noAskCaps(true),
				Script:   tc.script,
				Handlers: lspclient.Handlers{ShowMessageRequest: blockingAsk(release, nil)},
			})
			s := h.NewSession(tc.mode)
			done := h.PromptRPC(map[string]any{"sessionId": s.SessionID, "text": "go"})
			cancelWhileAsked(h, t, s.SessionID, done, "window/showMessageRequest")
			if status, res := h.ToolOutput(tc.call); status != "failed" || res["error"] != tc.want {
				t.Fatalf("%s = %s %v, want %q", tc.call, status, res, tc.want)
			}
			if got := h.Editor.Mode(s.SessionID); got != tc.mode {
				t.Fatalf("mode = %q, want %q", got, tc.mode)
			}
			if exists(t, h, "ran.txt") {
				t.Fatal("the command ran after the cancellation")
			}
			if _, err := resolvePlan(h, s.SessionID, "approve", ""); lsptest.RPCCode(err) != -32602 {
				t.Fatalf("resolvePlan after cancel: %v", err)
			}
		})
	}
}

// decodeJSON decodes b as a generic JSON value.
func decodeJSON(t *testing.T, b []byte) any {
	t.Helper()
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("decode %s: %v", b, err)
	}
	return v
}
