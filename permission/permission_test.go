package permission

import (
	"slices"
	"strings"
	"testing"

	"github.com/agentls/agentls/agentproto"
)

func runRequest(cmd string) Request {
	return Request{Kind: agentproto.PermissionRun, What: cmd, Cwd: "/w/sub", Network: NetworkNotIsolated, Sandbox: SandboxOff,
		Options: []agentproto.PermissionOption{Opt(agentproto.RejectOnce, "Reject"), Opt(agentproto.AllowOnce, "Run"), Opt(agentproto.AllowAlways, `Always allow "`+cmd+`" (this session)`)}}
}

// TestRequestRendering: every face's text says what, where and what it
// grants, escaped; the question's values are the option ids; actions put
// rejections first; an answer outside the options is an error.
func TestRequestRendering(t *testing.T) {
	tests := []struct {
		name     string
		req      Request
		text     []string // each in Text()
		notText  []string
		title    string
		actions  []string
		decision map[any]agentproto.OptionKind // answer → decision; absent kind: error
	}{
		{
			name:  "run names folder, network and sandbox",
			req:   runRequest("make test"),
			text:  []string{"Run `make test`?", "Folder: /w/sub", "Network: not isolated", "Sandbox: off"},
			title: "Run `make test` in /w/sub", actions: []string{"Reject", "Run", `Always allow "make test" (this session)`},
			decision: map[any]agentproto.OptionKind{"allow_once": agentproto.AllowOnce, "allow_always": agentproto.AllowAlways, "reject_once": agentproto.RejectOnce, "run": "", true: ""},
		},
		{
			name:    "control and bidi characters are escaped everywhere",
			req:     runRequest("echo \u202Egnp.exe\x1b[2J"),
			text:    []string{`echo \u202Egnp.exe\u001B[2J`},
			notText: []string{"\u202E", "\x1b"},
			title:   "Run `echo \\u202Egnp.exe\\u001B[2J` in /w/sub", actions: []string{"Reject", "Run", "Always allow \"echo \u202Egnp.exe\x1b[2J\" (this session)"},
		},
		{
			name: "an MCP call names its server's network and sandbox",
			req: Request{Kind: agentproto.PermissionMCP, What: "write_file {\"path\":\"a\"}", Network: NetworkNo, Sandbox: "on (landlock+bwrap)",
				Note: "MCP server `fs`", Options: []agentproto.PermissionOption{Opt(agentproto.RejectOnce, "Reject"), Opt(agentproto.AllowOnce, "Allow")}},
			text:  []string{"Allow the MCP call `write_file {\"path\":\"a\"}`?\n\nNetwork: no\nSandbox: on (landlock+bwrap)", "MCP server `fs`"},
			title: "Allow mcp: write_file {\"path\":\"a\"}", actions: []string{"Reject", "Allow"},
		},
		{
			name: "plan approval lists every grant whole",
			req: Request{Kind: agentproto.PermissionPlan, What: "plans/x.plan", Grants: []string{"go test ./...", strings.Repeat("a", 100) + " sh *"},
				Options: []agentproto.PermissionOption{Opt(agentproto.RejectOnce, "Keep Planning"), Opt(agentproto.AllowOnce, "Accept & Build")}},
			text:  []string{"Review the plan `plans/x.plan`.", GrantsIntro + "\n- `go test ./...`\n- `" + strings.Repeat("a", 100) + " sh *`"},
			title: "Approve the plan `plans/x.plan` and start building?", actions: []string{"Keep Planning", "Accept & Build"},
		},
		{
			name: "trust with a document refers to it",
			req: Request{Kind: agentproto.PermissionTrust, What: "/w/.agentls.yaml", Grants: []string{"run.allow: [\"sh *\"]"}, Document: "/s/trust-1.md",
				Options: []agentproto.PermissionOption{Opt(agentproto.RejectOnce, "Don't trust"), Opt(agentproto.AllowAlways, "Trust")}},
			text:  []string{"Trust it?", "in full in /s/trust-1.md"},
			title: "Trust /w/.agentls.yaml", actions: []string{"Don't trust", "Trust"},
		},
		{
			name: "an edit shows its diff in a fence it cannot close",
			req: Request{Kind: agentproto.PermissionEdit, What: "edit README.md", Diff: "--- a/README.md\n+++ b/README.md\n@@ -1,1 +1,1 @@\n-x\n+````\n+\x1b[2J",
				Options: []agentproto.PermissionOption{Opt(agentproto.RejectOnce, "Reject"), Opt(agentproto.AllowOnce, "Apply")}},
			text:    []string{"Apply this edit? edit README.md", "\n\n`````diff\n--- a/README.md", "+````\n+\\u001B[2J\n`````"},
			notText: []string{"\x1b"},
			title:   "Apply the edit: edit README.md", actions: []string{"Reject", "Apply"},
			decision: map[any]agentproto.OptionKind{"allow_once": agentproto.AllowOnce, "reject_once": agentproto.RejectOnce, "allow_always": ""},
		},
		{
			name: "an edit of a file the editor runs by itself names it and why, escaped, in one line",
			req: Request{Kind: agentproto.PermissionEdit, What: "create .vscode/\u202Etasks.json\n — your editor or shell runs what it names by itself, outside agentls's sandbox",
				Options: []agentproto.PermissionOption{Opt(agentproto.RejectOnce, "Reject"), Opt(agentproto.AllowOnce, "Apply")}},
			text:     []string{"Apply this edit? create .vscode/\\u202Etasks.json\\u000A — your editor or shell runs what it names by itself, outside agentls's sandbox"},
			notText:  []string{"\u202E", "json\n"},
			title:    "Apply the edit: create .vscode/\\u202Etasks.json\\u000A — your editor or shell runs what it names by itself, outside agentls's sandbox",
			actions:  []string{"Reject", "Apply"},
			decision: map[any]agentproto.OptionKind{"allow_once": agentproto.AllowOnce, "reject_once": agentproto.RejectOnce},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			text := tc.req.Text()
			for _, w := range tc.text {
				if !strings.Contains(text, w) {
					t.Errorf("Text() = %q lacks %q", text, w)
				}
			}
			for _, w := range tc.notText {
				if strings.Contains(text, w) || strings.Contains(tc.req.Title(), w) {
					t.Errorf("Text() or Title() holds %q raw", w)
				}
			}
			if got := tc.req.Title(); got != tc.title {
				t.Errorf("Title() = %q, want %q", got, tc.title)
			}
			var titles []string
			for _, a := range tc.req.Actions() {
				titles = append(titles, a.Title)
			}
			want := make([]string, len(tc.actions))
			for i, a := range tc.actions {
				want[i] = strings.NewReplacer("\u202E", `\u202E`, "\x1b", `\u001B`).Replace(a)
			}
			if !slices.Equal(titles, want) {
				t.Errorf("Actions() = %q, want %q", titles, want)
			}
			set, err := tc.req.Question()
			if err != nil {
				t.Fatal(err)
			}
			q := set.Questions[0]
			if q.Name != QuestionName || q.Question != text {
				t.Errorf("question = %+v", q)
			}
			for _, o := range tc.req.Options {
				if errs := set.Validate(map[string]any{QuestionName: string(o.ID)}); errs != nil {
					t.Errorf("option %s does not answer the question: %v", o.ID, errs)
				}
			}
			for answer, kind := range tc.decision {
				d, err := tc.req.DecisionOf(answer)
				if kind == "" {
					if err == nil {
						t.Errorf("DecisionOf(%v) = %+v, want an error", answer, d)
					}
					continue
				}
				if err != nil || d.Option != kind || d.Allowed() != (kind != agentproto.RejectOnce) {
					t.Errorf("DecisionOf(%v) = %+v, %v; want %s", answer, d, err, kind)
				}
			}
		})
	}
}

// TestQuestionNamesTheSubagent: the question a person reads on the LSP
// faces ends "Asked by sub-agent …" for every kind a sub-agent asks
// (run, edit, an MCP call), and says nothing of the kind for a session's
// own request or a requester that only looks like one.
func TestQuestionNamesTheSubagent(t *testing.T) {
	opts := []agentproto.PermissionOption{Opt(agentproto.RejectOnce, "Reject"), Opt(agentproto.AllowOnce, "Allow")}
	for _, kind := range []agentproto.PermissionKind{agentproto.PermissionRun, agentproto.PermissionEdit, agentproto.PermissionMCP} {
		for _, c := range []struct{ requester, want string }{
			{SubagentRequester("run", "build-1 1a2b3c4d"), "\n\nAsked by sub-agent build-1 1a2b3c4d."},
			{SubagentRequester("mcp__s__t", "build-1/build-1 0000abcd"), "\n\nAsked by sub-agent build-1/build-1 0000abcd."},
			{"run", ""},
			{"run (sub-agent build-1 1a2b3c4d", ""},
		} {
			r := Request{Kind: kind, What: "x", Requester: c.requester, Options: opts}
			set, err := r.Question()
			if err != nil {
				t.Fatal(err)
			}
			q := set.Questions[0].Question
			if c.want == "" {
				if strings.Contains(q, "sub-agent") {
					t.Errorf("%s by %q: %q names a sub-agent", kind, c.requester, q)
				}
				continue
			}
			if !strings.HasSuffix(q, c.want) || !strings.HasPrefix(q, r.Text()) {
				t.Errorf("%s by %q: question %q, want Text then %q", kind, c.requester, q, c.want)
			}
		}
	}
}

// TestAskedBy: the line a sub-agent's question gains, read back from the
// requester SubagentRequester made; nothing for a session's own request.
func TestAskedBy(t *testing.T) {
	for _, c := range []struct{ requester, want string }{
		{SubagentRequester("run", "build-1 1a2b3c4d"), "Asked by sub-agent build-1 1a2b3c4d."},
		{"edit (sub-agent build-1/build-1 0000abcd)", "Asked by sub-agent build-1/build-1 0000abcd."},
		{"run", ""},
		{"agentls", ""},
		{"exit_plan_mode", ""},
		{"run (sub-agent build-1 1a2b3c4d", ""}, // not closed: not ours
		{"", ""},
	} {
		if got := (Request{Requester: c.requester}).AskedBy(); got != c.want {
			t.Errorf("AskedBy of requester %q = %q, want %q", c.requester, got, c.want)
		}
	}
}

// TestChoicesSayWhatAlwaysGrants: the answers as a list, the "always" one
// with what it grants beyond the request (escaped), for clients that show
// their own labels ("Always accept") instead of the options' names; a
// trust question's says what trusting keeps when the asker says nothing.
func TestChoicesSayWhatAlwaysGrants(t *testing.T) {
	r := Request{Kind: agentproto.PermissionMCP, What: "write_note {}",
		Always: "every later call of the tool `write_note`, with any arguments, runs without a question for the rest of this session \u202E",
		Options: []agentproto.PermissionOption{Opt(agentproto.RejectOnce, "Reject"), Opt(agentproto.AllowOnce, "Allow"),
			Opt(agentproto.AllowAlways, "Always allow mcp__evil__write_note (this session)")}}
	want := "The answers (your editor may label them its own way):\n- Reject\n- Allow\n" +
		"- Always allow mcp__evil__write_note (this session): every later call of the tool `write_note`, with any arguments, runs without a question for the rest of this session \\u202E"
	if got := r.Choices(); got != want {
		t.Errorf("Choices() =\n%s\nwant\n%s", got, want)
	}
	trust := Request{Kind: agentproto.PermissionTrust, What: "/w/.agentls.yaml",
		Options: []agentproto.PermissionOption{Opt(agentproto.RejectOnce, "Don't trust"), Opt(agentproto.AllowAlways, "Trust")}}
	if got := trust.Choices(); !strings.HasSuffix(got, "\n- Trust: "+TrustAlways) {
		t.Errorf("the trust question's choices do not say what trusting keeps:\n%s", got)
	}
	if got := (Request{}).Choices(); got != "" {
		t.Errorf("Choices() of no option = %q", got)
	}
}
