package server_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/internal/lspclient"
	"github.com/agentls/agentls/server/internal/lsptest"
)

// This file proves that every permission question shows everything it
// grants (Guard III item 3), on the LSP face: the approval's
// allowed_commands in the askUser payload and text and in the plain
// message; the run question's folder; the "Approve & Build" lens that opens
// the question instead of approving unseen grants; and the one escape of
// control and bidi characters.

// grantingPlanScript presents the plan with two allowed commands, the
// second one long enough that a cut would hide its end.
var grantingPlanScript = "name: grants\nsteps:" + writeGreetPlan + `
  - tool_calls:
      - {id: x, name: exit_plan_mode, args: {plan_file_path: plans/greet.plan, allowed_commands: ["go test ./...", "` + strings.Repeat("a", 90) + ` sh *"]}}
  - text: done
    expect:
      tool_result_contains: {x: ['"approved":true']}
`

var wantGrants = []string{"go test ./...", strings.Repeat("a", 90) + " sh *"}

// TestApprovalShowsGrants: the approval's agent/askUser carries the grants
// as permission.grants (kind plan) and lists each, in full, in its text.
func TestApprovalShowsGrants(t *testing.T) {
	t.Parallel()
	h := lsptest.Start(t, lsptest.Setup{Handlers: lspclient.Handlers{AskUser: approveAll}, Script: grantingPlanScript})
	s := h.NewSession("plan")
	wantStop(t, h.Prompt(s.SessionID, "plan"), "end_turn")
	asks := h.AskUserRequests("plan_approval")
	if len(asks) != 1 {
		t.Fatalf("%d approval asks, want 1", len(asks))
	}
	p := asks[0].Permission
	if p == nil || p.Kind != "plan" || p.What != "plans/greet.plan" || !slices.Equal(p.Grants, wantGrants) {
		t.Fatalf("approval permission = %+v, want kind plan with the grants %q", p, wantGrants)
	}
	if ids := idsOf(p.Options); !slices.Equal(ids, []string{"reject_once", "allow_once"}) {
		t.Fatalf("approval options %v", ids)
	}
	text := asks[0].Questions[0].Question
	for _, g := range wantGrants {
		if !strings.Contains(text, "Approving also allows these commands for this session:") || !strings.Contains(text, "- `"+g+"`") {
			t.Fatalf("approval text does not list %q: %q", g, text)
		}
	}
}

func idsOf(opts []agentproto.PermissionOption) []string {
	var out []string
	for _, o := range opts {
		out = append(out, string(o.ID))
	}
	return out
}

// TestApprovalMessageShowsGrants: a plain editor's approval message lists
// every granted command in full.
func TestApprovalMessageShowsGrants(t *testing.T) {
	t.Parallel()
	h := lsptest.Start(t, lsptest.Setup{Caps: noAskCaps(false), Script: grantingPlanScript,
		Handlers: lspclient.Handlers{ShowMessageRequest: func(json.RawMessage) any { return map[string]any{"title": "Accept & Build"} }}})
	s := h.NewSession("plan")
	wantStop(t, h.Prompt(s.SessionID, "plan"), "end_turn")
	reqs := h.MessageRequests()
	if len(reqs) != 1 || !strings.Contains(reqs[0].Message, "\nApprove the plan \"Greeting\" (plans/greet.plan, steps above)?") {
		t.Fatalf("message requests = %+v", reqs)
	}
	for _, g := range wantGrants {
		if !strings.Contains(reqs[0].Message, "- `"+g+"`") {
			t.Fatalf("approval message does not list %q: %q", g, reqs[0].Message)
		}
	}
}

// TestApproveLensOpensTheQuestionWhenThePlanGrants: with commands granted,
// the lens says so and its command opens the approval question again (the
// one listing them) instead of approving; the answer to that question
// decides.
func TestApproveLensOpensTheQuestionWhenThePlanGrants(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	approvals := 0
	h := lsptest.Start(t, lsptest.Setup{Script: grantingPlanScript, Handlers: lspclient.Handlers{AskUser: func(raw json.RawMessage) any {
		var p lsptest.AskUser
		_ = json.Unmarshal(raw, &p)
		mu.Lock()
		defer mu.Unlock()
		if p.Purpose != "plan_approval" {
			return map[string]any{"dismissed": true}
		}
		approvals++
		if approvals == 1 {
			return map[string]any{"dismissed": true} // the first dialog: Escape
		}
		return map[string]any{"answers": map[string]any{"approve": true}}
	}}})
	s := h.NewSession("plan")
	done := h.PromptAsync(s.SessionID, "plan")
	h.AwaitMessage("agent/askUser", `"purpose":"plan_approval"`)
	var approve *lens
	for i := 0; approve == nil; i++ {
		for _, l := range lensesOf(h, "plans/greet.plan") {
			if l.Command.Command == "agentls.approvePlan" {
				l := l
				approve = &l
			}
		}
		if approve == nil && i > 1000 {
			t.Fatal("no Approve & Build lens on the plan awaiting approval")
		}
	}
	if want := "Approve & Build… (also allows 2 commands)"; approve.Command.Title != want {
		t.Fatalf("lens title %q, want %q", approve.Command.Title, want)
	}
	var res struct {
		Asked  bool     `json:"asked"`
		Grants []string `json:"grants"`
	}
	if err := h.Editor.Call(h.Ctx, "workspace/executeCommand", map[string]any{"command": approve.Command.Command, "arguments": approve.Command.Arguments}, &res); err != nil {
		t.Fatal(err)
	}
	if !res.Asked || !slices.Equal(res.Grants, wantGrants) {
		t.Fatalf("agentls.approvePlan = %+v, want the question asked with the grants", res)
	}
	wantStop(t, <-done, "end_turn")
	asks := h.AskUserRequests("plan_approval")
	if len(asks) != 2 || asks[1].Permission == nil || !slices.Equal(asks[1].Permission.Grants, wantGrants) {
		t.Fatalf("approval asks = %+v, want the question asked again with its grants", asks)
	}
	if h.Editor.Mode(s.SessionID) != "build" {
		t.Fatalf("mode %q after approving in the reopened question", h.Editor.Mode(s.SessionID))
	}
}

// TestQuestionsEscapeControls: a command holding a right-to-left override,
// an escape sequence and a bell reaches the askUser question, its buttons,
// the permission payload and the plain message escaped (`\u202E`), never
// raw.
func TestQuestionsEscapeControls(t *testing.T) {
	t.Parallel()
	const raw = "echo safe\u202E\u0007\u001b[2Jhs.live"
	const escaped = `echo safe\u202E\u0007\u001B[2Jhs.live`
	script := fmt.Sprintf("name: rlo\nsteps:\n  - tool_calls:\n      - {id: r, name: run, args: {command: %q}}\n  - text: ok\n", raw)
	bad := func(s string) bool { return strings.ContainsAny(s, "\u202E\u0007\u001b") }
	t.Run("askUser", func(t *testing.T) {
		h := lsptest.Start(t, lsptest.Setup{Script: script, Handlers: lspclient.Handlers{AskUser: decide("reject")}})
		s := h.NewSession("build")
		wantStop(t, h.Prompt(s.SessionID, "run"), "end_turn")
		asks := h.AskUserRequests("permission")
		if len(asks) != 1 {
			t.Fatalf("%d permission asks", len(asks))
		}
		a := asks[0]
		q := a.Questions[0]
		if bad(q.Question) || !strings.Contains(q.Question, "Run `"+escaped+"`?") || a.Permission == nil || a.Permission.What != escaped {
			t.Fatalf("question %q, permission %+v: want the command escaped", q.Question, a.Permission)
		}
		for _, b := range q.Buttons {
			if bad(b.Label) {
				t.Fatalf("button %q holds a raw control", b.Label)
			}
		}
		for _, o := range a.Permission.Options {
			if bad(o.Label) {
				t.Fatalf("option %q holds a raw control", o.Label)
			}
		}
	})
	t.Run("showMessageRequest", func(t *testing.T) {
		h := lsptest.Start(t, lsptest.Setup{Caps: noAskCaps(false), Script: script,
			Handlers: lspclient.Handlers{ShowMessageRequest: func(json.RawMessage) any { return map[string]any{"title": "Reject"} }}})
		s := h.NewSession("build")
		wantStop(t, h.Prompt(s.SessionID, "run"), "end_turn")
		reqs := h.MessageRequests()
		if len(reqs) != 1 || bad(reqs[0].Message) || !strings.Contains(reqs[0].Message, escaped) {
			t.Fatalf("message requests = %+v, want the command escaped", reqs)
		}
		for _, a := range reqs[0].Actions {
			if bad(fmt.Sprint(a["title"])) {
				t.Fatalf("action %v holds a raw control", a)
			}
		}
		if _, out := h.ToolOutput("r"); !strings.Contains(fmt.Sprint(out["error"]), "rejected") {
			t.Fatalf("the run was not rejected through the escaped action title: %v", out)
		}
	})
}

// TestTrustQuestionShowsEveryValueInFull: a long run.allow whose last
// entry is "sh *" is shown whole; above 20 keys they go into a generated
// document in the state folder, opened beside the question.
func TestTrustQuestionShowsEveryValueInFull(t *testing.T) {
	t.Parallel()
	long := make([]string, 0, 12)
	for i := 0; i < 11; i++ {
		long = append(long, fmt.Sprintf("echo harmless-looking-command-%02d", i))
	}
	long = append(long, "sh *")
	allow, _ := json.Marshal(long)
	t.Run("in the question", func(t *testing.T) {
		env := map[string]string{"XDG_STATE_HOME": t.TempDir(), "XDG_CONFIG_HOME": t.TempDir()}
		rec := &trustRecorder{trustAnswer: "Don't trust"}
		h := lsptest.Start(t, lsptest.Setup{Env: env, Caps: noAskUser(), Files: map[string]string{".agentls.yaml": "run:\n  allow: " + string(allow) + "\n"},
			Script: runEchoScript, Handlers: lspclient.Handlers{ShowMessageRequest: rec.messageRequest}})
		var q lsptest.MessageRequest
		if err := json.Unmarshal(h.AwaitMessage("window/showMessageRequest", "Trust it?"), &q); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(q.Message, "- `run.allow: "+string(allow)+"`") || !strings.Contains(q.Message, `"sh *"]`) {
			t.Fatalf("trust question cuts the value: %q", q.Message)
		}
	})
	t.Run("in a document", func(t *testing.T) {
		state := t.TempDir()
		env := map[string]string{"XDG_STATE_HOME": state, "XDG_CONFIG_HOME": t.TempDir()}
		// 22 widening keys.
		yaml := "run:\n  allow: " + string(allow) + "\n  env_deny: [X]\n  timeout_secs: 9999\n  max_output_bytes: 9999999\n" +
			"model:\n  base_url: http://127.0.0.1:1/v1\n  api_key_env: OTHER_KEY\n  name: other\n  plan_name: other-plan\n  max_tokens: 100\n" +
			"  context_window: 1000\n  plan_context_window: 1000\n  connect_timeout_secs: 3000\n  first_byte_timeout_secs: 9000\n  idle_timeout_secs: 9000\n" +
			"plan_mode:\n  default_active: false\n  require_approval: false\n  approval_timeout_secs: 604800\n  plans_dir: elsewhere\n  allow_network_tools: [web_fetch]\n" +
			"edits: disk\neditor:\n  request_timeout_secs: 9000\nmax_turn_requests: 1000\n"
		rec := &trustRecorder{trustAnswer: "Don't trust"}
		caps := lsptest.FullCaps()
		caps["experimental"] = map[string]any{"agent": map[string]any{"savesEdits": true}}
		caps["window"] = map[string]any{"showDocument": map[string]any{"support": true}}
		h := lsptest.Start(t, lsptest.Setup{Env: env, Caps: caps, Files: map[string]string{".agentls.yaml": yaml},
			Script: runEchoScript, Handlers: lspclient.Handlers{ShowMessageRequest: rec.messageRequest}})
		var q lsptest.MessageRequest
		if err := json.Unmarshal(h.AwaitMessage("window/showMessageRequest", "Trust it?"), &q); err != nil {
			t.Fatal(err)
		}
		docs, _ := filepath.Glob(filepath.Join(state, "agentls", "questions", "trust-*.md"))
		if len(docs) != 1 || !strings.Contains(q.Message, docs[0]) {
			t.Fatalf("documents %v; question %q: want one document the question refers to", docs, q.Message)
		}
		body, err := os.ReadFile(docs[0])
		if err != nil || !strings.Contains(string(body), `"sh *"]`) || strings.Count(string(body), "\n| `") < 21 {
			t.Fatalf("document %s (%v):\n%s", docs[0], err, body)
		}
		shown := h.AwaitMessage("window/showDocument", filepath.Base(docs[0]))
		if len(shown) == 0 {
			t.Fatal("the document was not shown")
		}
	})
}
