package server_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/internal/lspclient"
	"github.com/agentls/agentls/server/internal/lsptest"
)

// This file proves the plain-editor experience (PROTOCOL.md §7, issue 10)
// with a client that declares nothing of experimental.agent, as Neovim 0.7
// and eglot do.

// promptCommand runs agentls.prompt with the raw arguments value.
func promptCommand(h *lsptest.Env, args any) (sessionID string, err error) {
	var res struct {
		SessionID string `json:"sessionId"`
		Started   bool   `json:"started"`
	}
	err = h.Editor.Call(h.Ctx, "workspace/executeCommand", map[string]any{"command": "agentls.prompt", "arguments": args}, &res)
	if err == nil && (!res.Started || res.SessionID == "") {
		h.T.Fatalf("agentls.prompt = %+v, want {sessionId, started: true}", res)
	}
	return res.SessionID, err
}

func shortOf(id string) string {
	hex := strings.ReplaceAll(id, "-", "")
	return hex[len(hex)-6:]
}

// TestPlainClientSeesTheAgentsWords: no agent/update; step text and one
// line per tool call as logMessage, the final text as showMessage, the
// prompt result's text.
func TestPlainClientSeesTheAgentsWords(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("word ", 600)
	h := lsptest.Start(t, lsptest.Setup{Caps: lsptest.PlainCaps(), Files: map[string]string{"a.txt": "one\n"}, Script: `
name: words
steps:
  - text: "Looking around."
    tool_calls:
      - {id: r, name: read, args: {path: a.txt}}
      - {id: e, name: edit, args: {path: a.txt, old_string: one, new_string: two}}
  - text: "All done: a.txt says one."
  - text: "` + long + `"
  - error: "bad request"
`})
	s := h.NewSession("plan")
	r := h.Prompt(s.SessionID, "look")
	wantStop(t, r, "end_turn")
	if n := len(h.Messages("agent/update")); n != 0 {
		t.Fatalf("%d agent/update sent to a plain client", n)
	}
	prefix := "[PLAN " + shortOf(s.SessionID) + "] "
	lines := h.LogLines()
	for _, want := range []string{prefix + "Looking around.", prefix + "→ read `a.txt`", prefix + "✗ refused edit `a.txt`: plan mode"} {
		if !slices.Contains(lines, want) {
			t.Fatalf("log lines %q lack %q", lines, want)
		}
	}
	final := h.AwaitShown("All done")
	if final.Type != 3 || final.Message != prefix+"All done: a.txt says one." {
		t.Fatalf("final message = %+v", final)
	}

	// A long final text is cut, pointing at the whole text.
	var pr struct {
		StopReason string `json:"stopReason"`
		Text       string `json:"text"`
	}
	if err := h.Editor.Call(h.Ctx, "agent/prompt", map[string]any{"sessionId": s.SessionID, "text": "more"}, &pr); err != nil {
		t.Fatal(err)
	}
	if pr.StopReason != "end_turn" || pr.Text != strings.TrimSpace(long) {
		t.Fatalf("prompt result = %s, %d chars of text", pr.StopReason, len(pr.Text))
	}
	cut := h.AwaitShown("(full text: `agentls` log / `.agentls/chats/" + s.SessionID + ".chat`)")
	if n := len([]rune(cut.Message)); n > 1400 {
		t.Fatalf("the long final message was not cut: %d characters", n)
	}

	// A turn that stops on an error says so as a Warning.
	r = h.Prompt(s.SessionID, "fail")
	wantStop(t, r, "error")
	warn := h.AwaitShown("the turn stopped on an error")
	if warn.Type != 2 || !strings.HasPrefix(warn.Message, prefix) {
		t.Fatalf("error message = %+v", warn)
	}
}

// TestPlainCommands: arguments [], [{}], [null] or an object; agentls.prompt
// without a session makes one and keeps using it; newSession says its id;
// errors in the user's terms.
func TestPlainCommands(t *testing.T) {
	t.Parallel()
	h := lsptest.Start(t, lsptest.Setup{Caps: lsptest.PlainCaps(), Script: `
name: commands
steps:
  - text: first answer
  - text: second answer
  - text: third answer
`})
	goTypes := regexp.MustCompile(`struct|Go value|json:|\bstring\b|map\[|\[\]`)
	for _, tc := range []struct {
		name string
		args any
		want string
	}{
		{"empty list", []any{}, `agentls.prompt expects {"text": "…"}; got no text`},
		{"empty object", []any{map[string]any{}}, `agentls.prompt expects {"text": "…"}; got no text`},
		{"null", []any{nil}, `agentls.prompt expects {"text": "…"}; got no text`},
		{"a string", []any{"hello"}, `agentls.prompt expects {"text": "…"} (and optionally "sessionId"); got the text "hello"`},
		{"a number as text", []any{map[string]any{"text": 5}}, "text should be text, not a number"},
		{"a list", []any{[]any{1}}, "got a list"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := promptCommand(h, tc.args)
			if lsptest.RPCCode(err) != -32602 || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("agentls.prompt %v = %v, want -32602 containing %q", tc.args, err, tc.want)
			}
			if goTypes.MatchString(strings.ReplaceAll(err.Error(), tc.want, "")) {
				t.Fatalf("error shows Go types: %v", err)
			}
		})
	}
	if n := len(h.Messages("window/logMessage")) + len(h.Shown()); n != 0 {
		t.Fatalf("failed commands started something: %d messages", n)
	}

	// No session yet: agentls.prompt makes a plan session and returns at once.
	sid, err := promptCommand(h, []any{map[string]any{"text": "hi"}})
	if err != nil {
		t.Fatal(err)
	}
	h.AwaitShown("[PLAN " + shortOf(sid) + "] first answer")
	// The object form, no sessionId: the same (current) session.
	again, err := promptCommand(h, map[string]any{"text": "again"})
	if err != nil || again != sid {
		t.Fatalf("second agentls.prompt = %q, %v; want the current session %q", again, err, sid)
	}
	h.AwaitShown("second answer")

	// agentls.newSession with [] says its id, and becomes the current session.
	var s agentproto.Session
	if err := h.Editor.Call(h.Ctx, "workspace/executeCommand", map[string]any{"command": "agentls.newSession", "arguments": []any{}}, &s); err != nil {
		t.Fatal(err)
	}
	h.AwaitShown("agentls: new plan session " + s.SessionID)
	third, err := promptCommand(h, []any{map[string]any{"text": "third"}})
	if err != nil || third != s.SessionID {
		t.Fatalf("agentls.prompt after newSession = %q, %v; want %q", third, err, s.SessionID)
	}
	h.AwaitShown("[PLAN " + shortOf(s.SessionID) + "] third answer")
}

const plainPlanScript = `
name: plain approval
steps:
  - tool_calls:
      - {id: w, name: plan_write, args: {title: Greeting, path: plans/greet.plan, content: "# Goal\nSay hello.\n\n## Steps\n- [ ] Write hello.txt with a friendly greeting\n- [ ] Tell the user\n"}}
  - tool_calls:
      - {id: x, name: exit_plan_mode, args: {plan_file_path: plans/greet.plan}}
`

// TestPlainApprovalShowsThePlanAndSurvivesDismissal: the approval message
// carries the plan's title, steps and path, safe action first; a dismissed
// (null) reply keeps the approval pending for the lenses, which then show
// Approve & Build and Keep Planning.
func TestPlainApprovalShowsThePlanAndSurvivesDismissal(t *testing.T) {
	t.Parallel()
	h := lsptest.Start(t, lsptest.Setup{Caps: lsptest.PlainCaps(), Script: plainPlanScript + `
  - expect:
      tool_result_contains: {x: ['"approved":true']}
    text: building now
`, Handlers: lspclient.Handlers{ShowMessageRequest: func(json.RawMessage) any { return nil }}})
	s := h.NewSession("plan")
	done := h.PromptAsync(s.SessionID, "plan a greeting")
	h.Await(lsptest.MethodCount("window/showMessageRequest", 1))
	r := h.MessageRequests()[0]
	for _, want := range []string{`"Greeting"`, "plans/greet.plan", "1. [ ] Write hello.txt with a friendly greeting", "2. [ ] Tell the user"} {
		if !strings.Contains(r.Message, want) {
			t.Fatalf("approval message lacks %q:\n%s", want, r.Message)
		}
	}
	if len(r.Actions) != 2 || r.Actions[0]["title"] != "Keep Planning" || r.Actions[1]["title"] != "Accept & Build" {
		t.Fatalf("actions = %v, want Keep Planning then Accept & Build", r.Actions)
	}
	// Dismissed, yet pending: the lenses offer both decisions.
	// The approval was registered before the dialog was sent, and stays.
	ls := lensesOf(h, "plans/greet.plan")
	if got := renderLenses(ls); len(got) < 2 || !strings.HasPrefix(got[0], "Approve & Build → agentls.approvePlan") ||
		got[1] != `Keep Planning → agentls.rejectPlan {"planFile":"plans/greet.plan","reason":"the user chose to keep planning","sessionId":"`+s.SessionID+`"}` {
		t.Fatalf("lenses while pending = %q", got)
	}
	for _, l := range ls {
		if l.Command.Command == "" {
			t.Fatalf("a lens without a command: %q", renderLenses(ls))
		}
	}
	h.ReadAsAPerson() // a person reads the plan before approving it
	if err := runLens(h, ls[0], nil); err != nil {
		t.Fatalf("Approve & Build lens: %v", err)
	}
	if res := <-done; res.StopReason != "end_turn" {
		t.Fatalf("prompt = %+v", res)
	}
	if got := h.Editor.Mode(s.SessionID); got != "build" {
		t.Fatalf("mode = %q, want build", got)
	}
}

// TestPromptDuringPendingApproval: a prompt while the approval is pending
// rejects the plan with its text; both prompt requests get the same result.
func TestPromptDuringPendingApproval(t *testing.T) {
	t.Parallel()
	h := lsptest.Start(t, lsptest.Setup{Caps: lsptest.PlainCaps(), Script: plainPlanScript + `
  - expect:
      tool_result_contains: {x: ["Plan rejected by the user. Reason: make it shorter."]}
    text: revising
`, Handlers: lspclient.Handlers{ShowMessageRequest: func(json.RawMessage) any { return nil }}})
	s := h.NewSession("plan")
	first := h.PromptAsync(s.SessionID, "plan a greeting")
	h.Await(lsptest.MethodCount("window/showMessageRequest", 1))
	var second struct {
		StopReason string `json:"stopReason"`
		Text       string `json:"text"`
	}
	if err := h.Editor.Call(h.Ctx, "agent/prompt", map[string]any{"sessionId": s.SessionID, "text": "make it shorter"}, &second); err != nil {
		t.Fatalf("prompt during the approval: %v", err)
	}
	res := <-first
	if res.StopReason != "end_turn" || second.StopReason != "end_turn" || second.Text != "revising" {
		t.Fatalf("results = %+v and %+v", res, second)
	}
	if got := h.Editor.Mode(s.SessionID); got != "plan" {
		t.Fatalf("mode = %q, want plan", got)
	}
}

// TestPlainFreeTextQuestion: a question buttons cannot show is shown as a
// message; the next agentls.prompt answers it (validated: an invalid answer
// leaves it pending).
func TestPlainFreeTextQuestion(t *testing.T) {
	t.Parallel()
	h := lsptest.Start(t, lsptest.Setup{Caps: lsptest.PlainCaps(), Script: `
name: free text
steps:
  - tool_calls:
      - {id: q, name: ask_user, args: {questions: [` + branchQuestion + `]}}
  - expect:
      last_message_contains: ['"branch":"feature-x"']
    text: branch noted
`})
	sid, err := promptCommand(h, []any{map[string]any{"text": "ask me"}})
	if err != nil {
		t.Fatal(err)
	}
	q := h.AwaitShown("Branch name?")
	for _, want := range []string{"text, matching ^[a-z0-9-]+$", "send your answer as the next prompt"} {
		if !strings.Contains(q.Message, want) {
			t.Fatalf("question message lacks %q: %s", want, q.Message)
		}
	}
	// Invalid: told why, still pending. (Sent as soon as the question shows:
	// it waits for the asking turn to end.)
	_, err = promptCommand(h, []any{map[string]any{"text": "Not A Branch"}})
	if lsptest.RPCCode(err) != -32602 || !strings.Contains(err.Error(), "still pending") || !strings.Contains(err.Error(), "must match") {
		t.Fatalf("invalid answer = %v", err)
	}
	if _, err := promptCommand(h, []any{map[string]any{"text": "feature-x", "sessionId": sid}}); err != nil {
		t.Fatalf("answer: %v", err)
	}
	h.AwaitShown("branch noted")
}

// TestPlainMultiQuestionAnswers: several questions are answered by a prompt
// as name=value lines or JSON, or by agentls.answer, or one at a time:
// the choice as a message request, the number as the next prompt.
func TestPlainMultiQuestionAnswers(t *testing.T) {
	t.Parallel()
	const two = `{name: env, question: "Which environment?", schema: {type: string, enum: [dev, prod]}}, {name: count, question: "How many?", schema: {type: integer, minimum: 1}}`
	for _, tc := range []struct {
		name   string
		answer func(h *lsptest.Env, sid string) error
		expect string
	}{
		{"name=value", func(h *lsptest.Env, sid string) error {
			_, err := promptCommand(h, []any{map[string]any{"text": "env=prod\ncount=3"}})
			return err
		}, `"count":3,"env":"prod"`},
		{"json", func(h *lsptest.Env, sid string) error {
			_, err := promptCommand(h, []any{map[string]any{"text": `{"env": "dev", "count": 2}`}})
			return err
		}, `"count":2,"env":"dev"`},
		{"agentls.answer", func(h *lsptest.Env, sid string) error {
			return h.Editor.Call(h.Ctx, "workspace/executeCommand", map[string]any{"command": "agentls.answer",
				"arguments": []any{map[string]any{"answers": map[string]any{"env": "dev", "count": 1}}}}, nil)
		}, `"count":1,"env":"dev"`},
		{"one at a time", func(h *lsptest.Env, sid string) error {
			// env was asked as a message request (the editor took its first
			// action); the prompt answers the question shown, count.
			if _, err := promptCommand(h, []any{map[string]any{"text": "many"}}); lsptest.RPCCode(err) != -32602 {
				return fmt.Errorf("an answer that does not fit = %v, want -32602", err)
			}
			_, err := promptCommand(h, []any{map[string]any{"text": "3"}})
			return err
		}, `"count":3,"env":"dev"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := lsptest.Start(t, lsptest.Setup{Caps: lsptest.PlainCaps(), Script: `
name: two
steps:
  - tool_calls:
      - {id: q, name: ask_user, args: {questions: [` + two + `]}}
  - expect:
      last_message_contains: ['` + tc.expect + `']
    text: thanks
`})
			var pr agentproto.PromptResult
			s := h.NewSession("plan")
			if err := h.Editor.Call(h.Ctx, "agent/prompt", map[string]any{"sessionId": s.SessionID, "text": "ask"}, &pr); err != nil || pr.StopReason != "question_pending" {
				t.Fatalf("prompt = %+v, %v", pr, err)
			}
			q := h.AwaitShown("How many?")
			if !strings.Contains(q.Message, "(2/2) How many? (a whole number, at least 1)") || strings.Contains(q.Message, "Which environment?") {
				t.Fatalf("question message = %s, want the second question alone", q.Message)
			}
			if reqs := h.MessageRequests(); len(reqs) != 1 || !strings.Contains(reqs[0].Message, "(1/2) Which environment?") {
				t.Fatalf("message requests = %+v, want the first question", reqs)
			}
			// A bad value is refused and the question stays pending.
			if _, err := promptCommand(h, []any{map[string]any{"text": "env=prod\ncount=0"}}); lsptest.RPCCode(err) != -32602 {
				t.Fatalf("invalid answer = %v", err)
			}
			if err := tc.answer(h, s.SessionID); err != nil {
				t.Fatalf("answer: %v", err)
			}
			h.AwaitShown("thanks")
		})
	}
}

// TestPlainEditsOfUnopenedFiles: with edits: auto a plain client gets
// applyEdit only for open documents; other files (and the plan's status)
// are written on disk, so no hidden unsaved buffer is left.
func TestPlainEditsOfUnopenedFiles(t *testing.T) {
	t.Parallel()
	h := lsptest.Start(t, lsptest.Setup{Caps: lsptest.PlainCaps(), Files: map[string]string{"a.txt": "one\n", "b.txt": "uno\n"}, Script: `
name: edits
steps:
  - tool_calls:
      - {id: e1, name: edit, args: {path: a.txt, old_string: one, new_string: two}}
      - {id: e2, name: edit, args: {path: b.txt, old_string: uno, new_string: dos}}
  - text: edited
`})
	if err := h.Editor.Open(h.Ctx, "b.txt", "uno\n"); err != nil {
		t.Fatal(err)
	}
	s := h.NewSession("build")
	wantStop(t, h.Prompt(s.SessionID, "edit"), "end_turn")
	if got := h.Read("a.txt"); got != "two\n" {
		t.Fatalf("a.txt on disk = %q, want the server's write", got)
	}
	if buf, _ := h.Editor.Buffer("b.txt"); buf != "dos\n" {
		t.Fatalf("b.txt buffer = %q, want the edit applied by the editor", buf)
	}
	var targets []string
	for _, raw := range h.Messages("workspace/applyEdit") {
		for _, f := range []string{"a.txt", "b.txt"} {
			if strings.Contains(string(raw), f) {
				targets = append(targets, f)
			}
		}
	}
	if !slices.Equal(targets, []string{"b.txt"}) {
		t.Fatalf("applyEdit targets = %q, want only the open b.txt", targets)
	}
}

// TestPlainCodeLensRefresh: a client with refreshSupport is asked to
// refresh lenses when a plan changes; one without it never is.
func TestPlainCodeLensRefresh(t *testing.T) {
	t.Parallel()
	for _, refresh := range []bool{true, false} {
		caps := lsptest.PlainCaps()
		caps["workspace"].(map[string]any)["codeLens"] = map[string]any{"refreshSupport": refresh}
		h := lsptest.Start(t, lsptest.Setup{Caps: caps, Script: plainPlanScript + "  - text: revised\n"})
		s := h.NewSession("plan")
		wantStop(t, h.Prompt(s.SessionID, "plan"), "end_turn")
		if refresh {
			h.Await(lsptest.MethodCount("workspace/codeLens/refresh", 1))
		} else if n := len(h.Messages("workspace/codeLens/refresh")); n != 0 {
			t.Fatalf("%d refreshes sent to a client without refreshSupport", n)
		}
	}
}

// TestNoAPIKey: a public endpoint without a key is never called: the prompt
// fails with the reason and one Error message says it.
func TestNoAPIKey(t *testing.T) {
	t.Parallel()
	h := startReal(t, nil, map[string]any{"model": map[string]any{"base_url": "https://api.example.invalid/v1", "name": "gpt-x"}})
	s := h.NewSession("plan")
	r := h.Prompt(s.SessionID, "hi")
	wantStop(t, r, "error")
	const want = "no API key: set OPENAI_API_KEY, or model.api_key_env in .agentls.yaml, or point OPENAI_BASE_URL at a local server such as Ollama"
	if r.Error == nil || !strings.Contains(r.Error.Message, want) {
		t.Fatalf("prompt error = %s", r.Error)
	}
	m := h.AwaitShown(want)
	if m.Type != 1 {
		t.Fatalf("message = %+v, want an Error", m)
	}
	if n := len(h.Shown()); n != 1 {
		t.Fatalf("%d messages, want one: %+v", n, h.Shown())
	}
	var check map[string]any
	if err := h.Editor.Call(h.Ctx, "agent/checkModel", map[string]any{}, &check); err != nil {
		t.Fatal(err)
	}
	if check["ok"] != false || !strings.Contains(check["message"].(string), "no API key") || check["baseUrl"] != "https://api.example.invalid/v1" {
		t.Fatalf("checkModel = %v", check)
	}
}

// TestCheckModel: one GET /models against a fake OpenAI endpoint on
// 127.0.0.1: ok, a model it does not offer, a refused key.
func TestCheckModel(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		status  int
		body    string
		ok      bool
		message string
	}{
		{"offered", 200, `{"object":"list","data":[{"id":"gpt-x","object":"model"}]}`, true, ""},
		{"not offered", 200, `{"object":"list","data":[{"id":"llama3","object":"model"}]}`, false, `does not offer the model "gpt-x" (it offers: llama3)`},
		{"bad key", 401, `{"error":{"message":"Incorrect API key","type":"invalid_request_error"}}`, false, "401"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var mu sync.Mutex
			var requests []string
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				mu.Lock()
				requests = append(requests, r.Method+" "+r.URL.Path)
				mu.Unlock()
				if r.Header.Get("Authorization") != "Bearer sk-test" {
					t.Errorf("request %s %s auth %q", r.Method, r.URL.Path, r.Header.Get("Authorization"))
				}
				if r.URL.Path != "/v1/models" {
					// The window asks of a model that answers: this
					// endpoint has none of those paths.
					http.NotFound(w, r)
					return
				}
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(tc.status)
				_, _ = w.Write([]byte(tc.body))
			}))
			defer srv.Close()
			h := startReal(t, map[string]string{"OPENAI_API_KEY": "sk-test"}, map[string]any{"model": map[string]any{"base_url": srv.URL + "/v1", "name": "gpt-x"}})
			var check struct {
				OK       bool   `json:"ok"`
				Provider string `json:"provider"`
				Model    string `json:"model"`
				BaseURL  string `json:"baseUrl"`
				Message  string `json:"message"`
			}
			if err := h.Editor.Call(h.Ctx, "agent/checkModel", map[string]any{}, &check); err != nil {
				t.Fatal(err)
			}
			if check.OK != tc.ok || !strings.Contains(check.Message, tc.message) || check.Provider != "openai" || check.Model != "gpt-x" || check.BaseURL != srv.URL+"/v1" {
				t.Fatalf("checkModel = %+v", check)
			}
			mu.Lock()
			defer mu.Unlock()
			slices.Sort(requests)
			// One request checks; a model that answers is then asked its
			// context window (docs/sessions.md): the model list again and
			// the servers' own paths. Nothing else.
			want := []string{"GET /v1/models"}
			if tc.ok {
				want = []string{"GET /api/ps", "GET /api/v0/models", "GET /api/v1/models", "GET /props", "GET /v1/models", "GET /v1/models"}
			}
			if !slices.Equal(requests, want) {
				t.Fatalf("requests %q, want %q", requests, want)
			}
		})
	}
}
