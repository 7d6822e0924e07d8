package server_test

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentls/agentls/agent"
	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/internal/lspclient"
	"github.com/agentls/agentls/server/internal/lsptest"
)

// This file proves the question surfaces of PROTOCOL.md §3–§4 end to end:
// agent/askUser, window/showMessageRequest, and the pending question answered
// with agent/answer or agent/prompt's questionAnswer. The helpers below are
// shared by approval_test.go and run_test.go.

// cancelWhileAsked waits until the editor is asked (method), cancels the
// session's turn with agent/cancel, and checks that the prompt (done) ended
// "cancelled" and that exactly that request was withdrawn ($/cancelRequest
// with its id).
func cancelWhileAsked(h *lsptest.Env, t *testing.T, sessionID string, done <-chan lsptest.PromptOutcome, method string) {
	t.Helper()
	h.AwaitInTurn(sessionID, lsptest.Received(method))
	var asked string
	for _, m := range h.Editor.Messages() {
		if m.Method == method && m.IsCall {
			asked = m.ID
		}
	}
	if asked == "" {
		t.Fatalf("the %s request has no id", method)
	}
	if err := h.Editor.Call(h.Ctx, "agent/cancel", map[string]any{"sessionId": sessionID}, nil); err != nil {
		t.Fatal(err)
	}
	out := <-done
	if out.Err != nil {
		t.Fatal(out.Err)
	}
	wantStop(t, out.Result, "cancelled")
	h.Await(lsptest.CancelRequestFor(asked))
}

// wantStop fails the test unless the prompt ended with stop.
func wantStop(t testing.TB, r agentproto.PromptResult, stop agentproto.StopReason) {
	t.Helper()
	if string(r.StopReason) != string(stop) {
		t.Fatalf("stopReason = %q (error %v), want %q", r.StopReason, r.Error, stop)
	}
}

// wantInvalidParams fails unless err is -32602 containing want.
func wantInvalidParams(t testing.TB, err error, want string) {
	t.Helper()
	if lsptest.RPCCode(err) != -32602 || !strings.Contains(err.Error(), want) {
		t.Fatalf("error = %v, want -32602 containing %q", err, want)
	}
}

// yamlList renders strings as a YAML flow sequence (JSON is valid YAML).
func yamlList(items ...string) string {
	b, err := json.Marshal(items)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// replySequence answers successive requests with the given results; past the end
// it repeats the last one.
func replySequence(results ...any) func(json.RawMessage) any {
	var mu sync.Mutex
	n := 0
	return func(json.RawMessage) any {
		mu.Lock()
		defer mu.Unlock()
		r := results[min(n, len(results)-1)]
		n++
		return r
	}
}

// noAskCaps is an editor without agent/askUser (showMessageRequest only).
func noAskCaps(actionProps bool) map[string]any {
	caps := lsptest.FullCaps()
	// Our kind of client (agent/update, saves edits) without the form.
	caps["experimental"] = map[string]any{"agent": map[string]any{"savesEdits": true}}
	if actionProps {
		caps["window"] = map[string]any{
			"showDocument": map[string]any{"support": true},
			"showMessage":  map[string]any{"messageActionItem": map[string]any{"additionalPropertiesSupport": true}},
		}
	}
	return caps
}

const branchQuestion = `{name: branch, question: "Branch name?", schema: {type: string, pattern: "^[a-z0-9-]+$"}}`

func TestAskUserSurface(t *testing.T) {
	t.Parallel()
	answers := func(v any) any { return map[string]any{"answers": map[string]any{"branch": v}} }
	tests := []struct {
		name      string
		replies   []any
		wantAsks  int
		wantErrs  []string // errors["branch"] of each re-ask contains this
		wantModel []string
	}{
		{"valid first", []any{answers("feature-x")}, 1, nil,
			[]string{`"success":true`, `"status":"answered"`, `"branch":"feature-x"`}},
		{"invalid then valid", []any{answers("Bad Name"), answers("ok-name")}, 2,
			[]string{"must match ^[a-z0-9-]+$"},
			[]string{`"status":"answered"`, `"branch":"ok-name"`}},
		{"missing then valid", []any{map[string]any{"answers": map[string]any{}}, answers("x")}, 2,
			[]string{"an answer is required"},
			[]string{`"status":"answered"`, `"branch":"x"`}},
		{"invalid three times", []any{answers("A"), answers(7), answers("B")}, 3,
			[]string{"must match", "string"},
			[]string{`"success":false`, "failed validation 3 times", "branch: must match"}},
		{"dismissed", []any{map[string]any{"dismissed": true}}, 1, nil,
			[]string{`"success":true`, `"status":"dismissed"`}},
		{"null reply", []any{nil}, 1, nil, []string{`"status":"dismissed"`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := lsptest.Start(t, lsptest.Setup{
				Handlers: lspclient.Handlers{AskUser: replySequence(tc.replies...)},
				Script: fmt.Sprintf(`
name: ask_form
steps:
  - tool_calls:
      - {id: q, name: ask_user, args: {questions: [%s]}}
  - text: done
    expect:
      tool_result_contains: {q: %s}
`, branchQuestion, yamlList(tc.wantModel...)),
			})
			s := h.NewSession("plan")
			before := time.Now().UTC().Add(-time.Second)
			wantStop(t, h.Prompt(s.SessionID, "ask me"), "end_turn")
			asks := h.AskUserRequests("")
			if len(asks) != tc.wantAsks {
				t.Fatalf("%d agent/askUser requests, want %d", len(asks), tc.wantAsks)
			}
			for i, a := range asks {
				if a.SessionID != s.SessionID || a.Purpose != "question" || a.QuestionID != asks[0].QuestionID ||
					len(a.Questions) != 1 || a.Questions[0].Name != "branch" {
					t.Fatalf("ask %d = %+v", i, a)
				}
				at, err := time.Parse(time.RFC3339, a.CreatedAt)
				if err != nil || at.Before(before.Truncate(time.Second)) {
					t.Fatalf("ask %d createdAt %q (%v)", i, a.CreatedAt, err)
				}
				if i == 0 {
					if a.Errors != nil {
						t.Fatalf("first ask carries errors %v", a.Errors)
					}
					continue
				}
				if msg := a.Errors["branch"]; !strings.Contains(msg, tc.wantErrs[i-1]) || len(a.Errors) != 1 {
					t.Fatalf("re-ask %d errors = %v, want branch: …%s…", i, a.Errors, tc.wantErrs[i-1])
				}
			}
			if h.Model.Remaining() != 0 {
				t.Fatalf("%d script steps left", h.Model.Remaining())
			}
			if got := h.Editor.Mode(s.SessionID); got != "plan" {
				t.Fatalf("mode = %q: ask_user changed the mode", got)
			}
		})
	}
}

const fourQuestions = `
      - id: q
        name: ask_user
        args:
          questions:
            - name: target
              question: Deploy where?
              schema: {type: string, enum: [dev, staging, prod]}
              buttons: [{label: Production, value: prod, variant: danger}, {label: Staging, value: staging}]
              severity: critical
            - {name: confirm, question: "Run migrations?", schema: {type: boolean}, severity: major}
            - {name: color, question: "Pick a color", schema: {type: string, enum: [red, green]}, severity: minor}
            - {name: fast, question: "Fast mode?", schema: {type: boolean}}
`

func TestShowMessageRequestSurface(t *testing.T) {
	t.Parallel()
	choose := map[string]string{"Deploy where?": "Production", "Run migrations?": "No", "Pick a color": "green", "Fast mode?": "Yes"}
	for _, props := range []bool{false, true} {
		t.Run(fmt.Sprintf("additionalPropertiesSupport=%v", props), func(t *testing.T) {
			h := lsptest.Start(t, lsptest.Setup{
				Caps: noAskCaps(props),
				Handlers: lspclient.Handlers{ShowMessageRequest: func(raw json.RawMessage) any {
					var p lsptest.MessageRequest
					_ = json.Unmarshal(raw, &p)
					return map[string]any{"title": choose[p.Message]}
				}},
				Script: `
name: ask_messages
steps:
  - tool_calls:` + fourQuestions + `
  - text: done
    expect:
      tool_result_contains: {q: ['"status":"answered"', '"target":"prod"', '"confirm":false', '"color":"green"', '"fast":true']}
`,
			})
			s := h.NewSession("plan")
			wantStop(t, h.Prompt(s.SessionID, "ask me"), "end_turn")
			if n := len(h.Messages("agent/askUser")); n != 0 {
				t.Fatalf("%d agent/askUser requests to an editor without askUser", n)
			}
			reqs := h.MessageRequests()
			want := []struct {
				typ    int
				msg    string
				titles []string
				values []any
			}{
				{1, "Deploy where?", []string{"Production", "Staging"}, []any{"prod", "staging"}},
				{2, "Run migrations?", []string{"Yes", "No"}, []any{true, false}},
				{3, "Pick a color", []string{"red", "green"}, []any{"red", "green"}},
				{3, "Fast mode?", []string{"Yes", "No"}, []any{true, false}},
			}
			if len(reqs) != len(want) {
				t.Fatalf("%d showMessageRequest, want %d: %+v", len(reqs), len(want), reqs)
			}
			for i, w := range want {
				r := reqs[i]
				if r.Type != w.typ || r.Message != w.msg || len(r.Actions) != len(w.titles) {
					t.Fatalf("request %d = %+v, want type %d %q", i, r, w.typ, w.msg)
				}
				for j, a := range r.Actions {
					v, hasValue := a["value"]
					if a["title"] != w.titles[j] || hasValue != props || (props && !reflect.DeepEqual(v, w.values[j])) {
						t.Fatalf("request %d action %d = %v, want title %q (value %v: %v)", i, j, a, w.titles[j], props, w.values[j])
					}
				}
			}
		})
	}
}

func TestShowMessageRequestDismissedOrUnknown(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		reply any
		want  []string
	}{
		{"null is dismissed", nil, []string{`"success":true`, `"status":"dismissed"`}},
		{"unknown title fails", map[string]any{"title": "Maybe"}, []string{`"success":false`, `unknown action \"Maybe\"`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := lsptest.Start(t, lsptest.Setup{
				Caps:     noAskCaps(false),
				Handlers: lspclient.Handlers{ShowMessageRequest: func(json.RawMessage) any { return tc.reply }},
				Script: `
name: ask_messages
steps:
  - tool_calls:` + fourQuestions + `
  - text: done
    expect:
      tool_result_contains: {q: ` + yamlList(tc.want...) + `}
`,
			})
			s := h.NewSession("plan")
			wantStop(t, h.Prompt(s.SessionID, "ask me"), "end_turn")
			// The first answer that ends the batch stops the asking.
			if n := len(h.MessageRequests()); n != 1 {
				t.Fatalf("%d showMessageRequest, want 1", n)
			}
		})
	}
}

// pendingScript asks a free-text question (no surface without askUser) and
// then checks what the next model request sees.
func pendingScript(next string) string {
	return `
name: pending
steps:
  - tool_calls:
      - {id: q, name: ask_user, args: {questions: [` + branchQuestion + `]}}
` + next
}

// askPending runs the prompt that leaves a question pending and returns its id.
func askPending(t *testing.T, h *lsptest.Env, sid string) string {
	t.Helper()
	wantStop(t, h.Prompt(sid, "ask me"), "question_pending")
	ups := lsptest.Updates[agent.UpdateQuestion](h, "question_pending")
	if len(ups) != 1 {
		t.Fatalf("%d question_pending updates, want 1", len(ups))
	}
	u := ups[0]
	qid, qs := u.QuestionID, u.Questions
	if qid == "" || len(qs) != 1 || qs[0].Name != "branch" {
		t.Fatalf("question_pending update = %v", u)
	}
	if _, err := time.Parse(time.RFC3339, u.CreatedAt); err != nil {
		t.Fatalf("createdAt: %v", err)
	}
	status, out := h.ToolOutput("q")
	res, _ := out["result"].(map[string]any)
	if status != "completed" || res["status"] != "question_pending" || res["question_id"] != qid {
		t.Fatalf("ask_user result = %s %v, want question_pending %s", status, out, qid)
	}
	return qid
}

func TestPendingQuestionAnsweredWithAgentAnswer(t *testing.T) {
	t.Parallel()
	h := lsptest.Start(t, lsptest.Setup{
		Caps: noAskCaps(false),
		Script: pendingScript(`
  - text: thanks
    expect:
      last_message_contains: ["[Answered: feature-x]", '"branch":"feature-x"']
      tool_result_contains: {q: ['"status":"question_pending"']}
`),
	})
	s := h.NewSession("plan")
	qid := askPending(t, h, s.SessionID)
	if n := len(h.MessageRequests()) + len(h.Messages("agent/askUser")); n != 0 {
		t.Fatalf("a free-text question was shown through %d requests", n)
	}
	answer := func(id string, answers map[string]any) (map[string]any, error) {
		var res map[string]any
		err := h.Editor.Call(h.Ctx, "agent/answer", map[string]any{"sessionId": s.SessionID, "questionId": id, "answers": answers}, &res)
		return res, err
	}
	_, err := answer(qid, map[string]any{"branch": "Not Valid"})
	wantInvalidParams(t, err, "branch: must match ^[a-z0-9-]+$")
	_, err = answer(qid, map[string]any{"branch": "ok", "extra": 1})
	wantInvalidParams(t, err, "extra: no such question")
	_, err = answer("0190aaaa-0000-7000-8000-000000000000", map[string]any{"branch": "x"})
	wantInvalidParams(t, err, `question "0190aaaa-0000-7000-8000-000000000000" is not pending`)
	err = h.Editor.Call(h.Ctx, "agent/answer", map[string]any{"sessionId": s.SessionID, "questionId": qid, "answers": []string{"x"}}, nil)
	wantInvalidParams(t, err, "answers")
	// Nothing changed: the question is still pending and takes a valid answer.
	res, err := answer(qid, map[string]any{"branch": "feature-x"})
	if err != nil || res["accepted"] != true {
		t.Fatalf("agent/answer = %v, %v", res, err)
	}
	h.AwaitChunk("thanks") // the resumed turn passed the script's expectations
	if h.Model.Remaining() != 0 {
		t.Fatalf("%d script steps left", h.Model.Remaining())
	}
	_, err = answer(qid, map[string]any{"branch": "again"})
	wantInvalidParams(t, err, "is not pending")
}

func TestPendingQuestionAnsweredInPrompt(t *testing.T) {
	t.Parallel()
	h := lsptest.Start(t, lsptest.Setup{
		Caps: noAskCaps(false),
		Script: `
name: pending_two
steps:
  - tool_calls:
      - id: q
        name: ask_user
        args:
          questions:
            - {name: environment, question: "Where?", schema: {type: string, enum: [dev, staging]}}
            - {name: region, question: "Region?", schema: {type: string, minLength: 3}}
  - text: deploying
    expect:
      last_message_contains: ["[Answers: environment=staging, region=us-east-1]", "go ahead"]
`,
	})
	s := h.NewSession("plan")
	wantStop(t, h.Prompt(s.SessionID, "ask me"), "question_pending")
	if n := len(h.MessageRequests()); n != 0 {
		t.Fatalf("%d showMessageRequest for a batch with a free-text question", n)
	}
	qid := lsptest.Updates[agent.UpdateQuestion](h, "question_pending")[0].QuestionID
	withAnswer := func(answers map[string]any) (agentproto.PromptResult, error) {
		var r agentproto.PromptResult
		err := h.Editor.Call(h.Ctx, "agent/prompt", map[string]any{
			"sessionId": s.SessionID, "text": "go ahead",
			"questionAnswer": map[string]any{"questionId": qid, "answers": answers},
		}, &r)
		return r, err
	}
	_, err := withAnswer(map[string]any{"environment": "prod", "region": "x"})
	wantInvalidParams(t, err, "environment: must be one of")
	if !strings.Contains(err.Error(), "region: ") {
		t.Fatalf("error %v does not name region", err)
	}
	if h.Model.Remaining() != 1 {
		t.Fatal("an invalid answer started a turn")
	}
	r, err := withAnswer(map[string]any{"environment": "staging", "region": "us-east-1"})
	if err != nil {
		t.Fatal(err)
	}
	wantStop(t, r, "end_turn")
	_, err = withAnswer(map[string]any{"environment": "staging", "region": "us-east-1"})
	wantInvalidParams(t, err, "is not pending")
}

func TestPendingQuestionWithdrawn(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		next     string
		withdraw func(h *lsptest.Env, sid string)
	}{
		// A prompt is the answer to a single string question (PROTOCOL.md
		// §7): an invalid one leaves it pending, for the cancel that drops it.
		{"newer prompt then cancel", "", func(h *lsptest.Env, sid string) {
			err := h.Editor.Call(h.Ctx, "agent/prompt", map[string]any{"sessionId": sid, "text": "never mind"}, nil)
			wantInvalidParams(h.T, err, "The question is still pending")
			if err := h.Editor.Call(h.Ctx, "agent/cancel", map[string]any{"sessionId": sid}, nil); err != nil {
				h.T.Fatal(err)
			}
		}},
		{"cancel", "", func(h *lsptest.Env, sid string) {
			if err := h.Editor.Call(h.Ctx, "agent/cancel", map[string]any{"sessionId": sid}, nil); err != nil {
				h.T.Fatal(err)
			}
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := lsptest.Start(t, lsptest.Setup{Caps: noAskCaps(false), Script: pendingScript(tc.next)})
			s := h.NewSession("plan")
			qid := askPending(t, h, s.SessionID)
			tc.withdraw(h, s.SessionID)
			err := h.Editor.Call(h.Ctx, "agent/answer", map[string]any{"sessionId": s.SessionID, "questionId": qid, "answers": map[string]any{"branch": "x"}}, nil)
			wantInvalidParams(t, err, "is not pending")
			err = h.Editor.Call(h.Ctx, "agent/prompt", map[string]any{
				"sessionId": s.SessionID, "text": "x", "questionAnswer": map[string]any{"questionId": qid, "answers": map[string]any{"branch": "x"}},
			}, nil)
			wantInvalidParams(t, err, "is not pending")
			if h.Model.Remaining() != 0 {
				t.Fatalf("%d script steps left", h.Model.Remaining())
			}
		})
	}
}

// TestAnswerAsSoonAsAsked: an editor that answers the moment it sees the
// question_pending update (while the asking turn is still ending) is
// accepted, not told the session is busy.
func TestAnswerAsSoonAsAsked(t *testing.T) {
	t.Parallel()
	asked := make(chan string, 1)
	h := lsptest.Start(t, lsptest.Setup{
		Caps: noAskCaps(false),
		Handlers: lspclient.Handlers{OnMessage: func(m lspclient.Message) {
			var p struct {
				Update struct {
					SessionUpdate string `json:"sessionUpdate"`
					QuestionID    string `json:"questionId"`
				} `json:"update"`
			}
			if m.Method == "agent/update" && json.Unmarshal(m.Params, &p) == nil && p.Update.SessionUpdate == "question_pending" {
				asked <- p.Update.QuestionID
			}
		}},
		Script: pendingScript(`
  - text: thanks
    expect:
      last_message_contains: ["[Answered: quick]"]
`),
	})
	s := h.NewSession("plan")
	done := h.PromptRPC(map[string]any{"sessionId": s.SessionID, "text": "ask me"})
	qid := <-asked
	var res map[string]any
	if err := h.Editor.Call(h.Ctx, "agent/answer", map[string]any{"sessionId": s.SessionID, "questionId": qid, "answers": map[string]any{"branch": "quick"}}, &res); err != nil {
		t.Fatalf("agent/answer right after question_pending: %v", err)
	}
	out := <-done
	if out.Err != nil {
		t.Fatal(out.Err)
	}
	wantStop(t, out.Result, "question_pending")
	h.AwaitChunk("thanks")
}

// TestCancelledQuestionToolResult: agent/cancel while agent/askUser is open
// withdraws the request and the model is told the user cancelled.
func TestCancelledQuestionToolResult(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	defer close(release)
	h := lsptest.Start(t, lsptest.Setup{
		Handlers: lspclient.Handlers{AskUser: blockingAsk(release, map[string]any{"answers": map[string]any{"branch": "late"}})},
		Script:   pendingScript(""),
	})
	s := h.NewSession("plan")
	done := h.PromptRPC(map[string]any{"sessionId": s.SessionID, "text": "ask"})
	cancelWhileAsked(h, t, s.SessionID, done, "agent/askUser")
	if status, res := h.ToolOutput("q"); status != "failed" || res["error"] != "cancelled by the user: the questions were withdrawn unanswered" {
		t.Fatalf("ask_user = %s %v", status, res)
	}
	var loaded struct {
		Messages []struct {
			Role       string `json:"role"`
			Content    string `json:"content"`
			ToolCallID string `json:"tool_call_id"`
		} `json:"messages"`
	}
	if err := h.Editor.Call(h.Ctx, "agent/loadSession", map[string]any{"sessionId": s.SessionID}, &loaded); err != nil {
		t.Fatal(err)
	}
	last := loaded.Messages[len(loaded.Messages)-1]
	if last.Role != "tool" || last.ToolCallID != "q" || !strings.Contains(last.Content, "cancelled by the user") {
		t.Fatalf("last message = %+v, want the cancelled tool result in the history", last)
	}
}
