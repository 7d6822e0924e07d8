package agent

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"testing/synctest"

	"github.com/agentls/agentls/agent/scripted"
	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/config"
	"github.com/agentls/agentls/permission"
	"github.com/agentls/agentls/workspace"
)

// autoRunReason is what the question adds for a change to a file the editor
// runs by itself that the change names itself.
const autoRunReason = " — your editor or shell runs what it names by itself, outside agentls's sandbox"

// autoRunCase is one BUILD tool call and what the user is asked about it.
type autoRunCase struct {
	name string
	// files and dirs are made first; links maps a symlink to its target.
	files map[string]string
	dirs  []string
	links map[string]string
	call  string // one tool call in the script's flow syntax, id c
	// what is the permission's What; "" for a call that must not be asked.
	what string
	// applied says what exists (true) or not (false) once the call is applied.
	applied map[string]bool
}

// autoRunCases: every tool that changes files, on each kind of file the
// editor or shell runs by itself, reached by its name, a symlink, `..`,
// another letter case, in a subfolder, as a move's destination or source,
// inside a folder removed; and a plain file, never asked.
var autoRunCases = []autoRunCase{
	{name: "write tasks.json", call: `{id: c, name: write, args: {path: .vscode/tasks.json, content: "{}"}}`,
		what: "create `.vscode/tasks.json`" + autoRunReason, applied: map[string]bool{".vscode/tasks.json": true}},
	{name: "edit settings in another case", files: map[string]string{".VSCode/Settings.JSON": "{\"a\": 1}\n"},
		call: `{id: c, name: edit, args: {path: .VSCode/Settings.JSON, old_string: "1", new_string: "2"}}`,
		what: "edit `.VSCode/Settings.JSON`" + autoRunReason},
	{name: "symlink to .vscode", dirs: []string{".vscode"}, links: map[string]string{"cfg": ".vscode"},
		call: `{id: c, name: write, args: {path: cfg/tasks.json, content: "{}"}}`,
		what: "create `.vscode/tasks.json`" + autoRunReason, applied: map[string]bool{".vscode/tasks.json": true}},
	{name: ".vscode is a symlink, by its name", dirs: []string{"cfg"}, links: map[string]string{".vscode": "cfg"},
		call:    `{id: c, name: write, args: {path: .vscode/tasks.json, content: "{}"}}`,
		what:    "create `cfg/tasks.json` — your editor or shell runs what `.vscode/tasks.json` names by itself, outside agentls's sandbox",
		applied: map[string]bool{"cfg/tasks.json": true}},
	{name: ".vscode is a symlink, by its target", dirs: []string{"cfg"}, links: map[string]string{".vscode": "cfg"},
		call:    `{id: c, name: write, args: {path: cfg/tasks.json, content: "{}"}}`,
		what:    "create `cfg/tasks.json` — your editor or shell runs what `.vscode/tasks.json` names by itself, outside agentls's sandbox",
		applied: map[string]bool{"cfg/tasks.json": true}},
	{name: "dot dot", dirs: []string{"src", ".vscode"},
		call: `{id: c, name: write, args: {path: src/../.vscode/launch.json, content: "{}"}}`,
		what: "create `.vscode/launch.json`" + autoRunReason, applied: map[string]bool{".vscode/launch.json": true}},
	{name: "nested dir-locals", call: `{id: c, name: write, args: {path: sub/.dir-locals.el, content: "((nil . ((eval . (x)))))"}}`,
		what: "create `sub/.dir-locals.el`" + autoRunReason, applied: map[string]bool{"sub/.dir-locals.el": true}},
	{name: "code-workspace", call: `{id: c, name: write, args: {path: team.code-workspace, content: "{}"}}`,
		what: "create `team.code-workspace`" + autoRunReason, applied: map[string]bool{"team.code-workspace": true}},
	{name: "helix languages", call: `{id: c, name: write, args: {path: .helix/languages.toml, content: "x"}}`,
		what: "create `.helix/languages.toml`" + autoRunReason, applied: map[string]bool{".helix/languages.toml": true}},
	{name: "mv into tasks.json", files: map[string]string{"a.json": "{}"}, dirs: []string{".vscode"},
		call:    `{id: c, name: mv, args: {from: a.json, to: .vscode/tasks.json}}`,
		what:    "rename `a.json` → `.vscode/tasks.json` — your editor or shell runs what `.vscode/tasks.json` names by itself, outside agentls's sandbox",
		applied: map[string]bool{".vscode/tasks.json": true, "a.json": false}},
	// (mv .vscode away is refused: the guard keeps .vscode/mcp.json.)
	{name: "mv .idea away", files: map[string]string{".idea/workspace.xml": "<x/>"},
		call:    `{id: c, name: mv, args: {from: .idea, to: old}}`,
		what:    "rename `.idea` → `old` — your editor or shell runs what `.idea` names by itself, outside agentls's sandbox",
		applied: map[string]bool{"old/workspace.xml": true, ".idea": false}},
	{name: "mv a folder into .idea", files: map[string]string{"runs/app.xml": "<x/>"},
		call:    `{id: c, name: mv, args: {from: runs, to: .idea}}`,
		what:    "rename `runs` → `.idea` — your editor or shell runs what `.idea` names by itself, outside agentls's sandbox",
		applied: map[string]bool{".idea/app.xml": true, "runs": false}},
	{name: "rm envrc", files: map[string]string{".envrc": "export A=1\n"},
		call: `{id: c, name: rm, args: {path: .envrc}}`,
		what: "delete `.envrc`" + autoRunReason, applied: map[string]bool{".envrc": false}},
	{name: "rm a folder holding one", files: map[string]string{"sub/.exrc": "x\n", "sub/a.txt": "a\n"},
		call:    `{id: c, name: rm, args: {path: sub, recursive: true}}`,
		what:    "delete `sub` — your editor or shell runs what `sub/.exrc` names by itself, outside agentls's sandbox",
		applied: map[string]bool{"sub": false}},
	{name: "touch nvim.lua", call: `{id: c, name: touch, args: {path: .nvim.lua}}`,
		what: "create `.nvim.lua`" + autoRunReason, applied: map[string]bool{".nvim.lua": true}},
	{name: "mkdir .zed", call: `{id: c, name: mkdir, args: {path: .zed}}`,
		what: "mkdir `.zed`" + autoRunReason, applied: map[string]bool{".zed": true}},
	{name: "a deep symlink to a file, by its target", files: map[string]string{"notes.txt": "a\n"}, dirs: []string{"sub"},
		links: map[string]string{"sub/.envrc": "../notes.txt"},
		call:  `{id: c, name: edit, args: {path: notes.txt, old_string: "a", new_string: "b"}}`,
		what:  "edit `notes.txt` — your editor or shell runs what `sub/.envrc` names by itself, outside agentls's sandbox"},
	{name: "a deep symlink to a folder, by its target", dirs: []string{"sub", "cfg"},
		links:   map[string]string{"sub/.vscode": "../cfg"},
		call:    `{id: c, name: write, args: {path: cfg/tasks.json, content: "{}"}}`,
		what:    "create `cfg/tasks.json` — your editor or shell runs what `sub/.vscode/tasks.json` names by itself, outside agentls's sandbox",
		applied: map[string]bool{"cfg/tasks.json": true}},
	{name: "a chain of two symlinks", files: map[string]string{"notes.txt": "a\n"}, dirs: []string{"a/b"},
		links: map[string]string{"a/b/.nvim.lua": "../mid", "a/mid": "../notes.txt"},
		call:  `{id: c, name: edit, args: {path: notes.txt, old_string: "a", new_string: "b"}}`,
		what:  "edit `notes.txt` — your editor or shell runs what `a/b/.nvim.lua` names by itself, outside agentls's sandbox"},
	{name: "a deep symlink to a file not made yet", dirs: []string{"sub"},
		links:   map[string]string{"sub/.exrc": "../later.vim"},
		call:    `{id: c, name: write, args: {path: later.vim, content: "x"}}`,
		what:    "create `later.vim` — your editor or shell runs what `sub/.exrc` names by itself, outside agentls's sandbox",
		applied: map[string]bool{"later.vim": true}},
	{name: "a symlink inside node_modules is not asked", files: map[string]string{"notes.txt": "a\n"}, dirs: []string{"node_modules/pkg"},
		links: map[string]string{"node_modules/pkg/.envrc": "../../notes.txt"},
		call:  `{id: c, name: edit, args: {path: notes.txt, old_string: "a", new_string: "b"}}`},
	{name: "a plain file is not asked", call: `{id: c, name: write, args: {path: src/a.go, content: "package a"}}`,
		applied: map[string]bool{"src/a.go": true}},
}

// answers of the user, and what each leaves the model reading.
var autoRunAnswers = []struct {
	name  string
	reply *AskReply // nil: the editor cannot ask
	apply bool
	told  string
}{
	{"apply", &AskReply{Answers: map[string]any{"decision": "allow_once"}}, true, `"success":true`},
	{"reject", &AskReply{Answers: map[string]any{"decision": "reject_once"}}, false, "rejected when asked"},
	{"dismiss", &AskReply{Dismissed: true}, false, "dismissed when asked"},
	{"no surface", nil, false, "the editor cannot ask"},
}

// setUpFiles makes a case's files, folders and symlinks in dir.
func setUpFiles(t testing.TB, dir string, files map[string]string, dirs []string, links map[string]string) {
	t.Helper()
	for _, d := range dirs {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for name, text := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for link, target := range links {
		if err := os.Symlink(target, filepath.Join(dir, link)); err != nil {
			t.Fatal(err)
		}
	}
}

// toolResult is the raw output of tool call id as the editor was told it.
func (e *memEditor) toolResult(id string) string {
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, u := range e.updates {
		if d, ok := u.(UpdateToolCallDone); ok && d.ToolCallID == id {
			return string(d.RawOutput)
		}
	}
	return ""
}

// exists reports whether a workspace path exists (symlinks not followed).
func exists(dir, rel string) bool {
	_, err := os.Lstat(filepath.Join(dir, filepath.FromSlash(rel)))
	return err == nil
}

// runAutoRunCase runs tc's call in a BUILD session with review mode review,
// the user answering reply (nil: no surface), and returns the permission
// requests asked and the call's result.
func runAutoRunCase(t *testing.T, tc autoRunCase, review string, reply *AskReply) (*Manager, []permission.Request, string) {
	t.Helper()
	var mu sync.Mutex
	var asked []permission.Request
	ed := &memEditor{}
	if reply != nil {
		ed.ask = func(_ context.Context, req AskRequest) (AskReply, error) {
			mu.Lock()
			defer mu.Unlock()
			if req.Purpose != "permission" || req.Permission == nil {
				t.Errorf("asked %+v, want a permission", req)
				return AskReply{Dismissed: true}, nil
			}
			asked = append(asked, *req.Permission)
			return *reply, nil
		}
	}
	script := "name: autorun\nsteps:\n  - tool_calls:\n      - " + tc.call + "\n  - text: done\n"
	m, _ := newTestManager(t, script, ed, nil)
	setUpFiles(t, m.ws.Root(), tc.files, tc.dirs, tc.links)
	s := newTestSession(t, m, "build")
	if _, err := m.SetReview(s.ID(), review); err != nil {
		t.Fatal(err)
	}
	res, err := m.Prompt(context.Background(), PromptRequest{SessionID: s.ID(), Text: "go"})
	if err != nil || res.StopReason != agentproto.StopEndTurn {
		t.Fatalf("Prompt = %+v, %v", res, err)
	}
	mu.Lock()
	defer mu.Unlock()
	return m, asked, ed.toolResult("c")
}

// TestAutoRunEditsAreAsked: in BUILD mode, review mode off, a change to a
// file the editor or shell runs by itself is asked, with the file and why,
// and applies only on Apply; Reject, a dismissal or an editor that cannot
// ask apply nothing and the model reads why. A plain file is not asked.
func TestAutoRunEditsAreAsked(t *testing.T) {
	t.Parallel()
	for _, tc := range autoRunCases {
		for _, a := range autoRunAnswers {
			t.Run(tc.name+"/"+a.name, func(t *testing.T) {
				t.Parallel()
				m, asked, result := runAutoRunCase(t, tc, ReviewOff, a.reply)
				dir := m.ws.Root()
				if tc.what == "" {
					if len(asked) != 0 || !strings.Contains(result, `"success":true`) {
						t.Fatalf("a plain file: asked %+v, result %s", asked, result)
					}
					return
				}
				if a.reply != nil {
					if len(asked) != 1 {
						t.Fatalf("asked %d times, want once: %+v", len(asked), asked)
					}
					p := asked[0]
					if p.Kind != agentproto.PermissionEdit || p.What != tc.what || len(p.Options) != 2 ||
						p.Options[0].Kind != agentproto.RejectOnce || p.Options[1].Kind != agentproto.AllowOnce {
						t.Errorf("the question = %+v,\nwant What %q, Reject then Apply", p, tc.what)
					}
					if title := p.Title(); !strings.HasPrefix(title, "Apply the edit: ") || !strings.Contains(title, "outside agentls's sandbox") {
						t.Errorf("title = %q", title)
					}
				}
				if !strings.Contains(result, a.told) {
					t.Errorf("the model read %s, want %q", result, a.told)
				}
				if !a.apply {
					for _, want := range []string{`"declined":[`, "nothing of it was applied", "runs by itself, so every change to it is asked"} {
						if !strings.Contains(result, want) {
							t.Errorf("the model read %s, want %q", result, want)
						}
					}
				}
				for rel, after := range tc.applied {
					want := after == a.apply // applied: as after; declined: as before
					if got := exists(dir, rel); got != want {
						t.Errorf("%s exists = %v after %s, want %v", rel, got, a.name, want)
					}
				}
			})
		}
	}
}

// TestAutoRunEditAskedOnceInReviewMode: review mode on asks the change
// once, with why; a plain file is asked too, without it.
func TestAutoRunEditAskedOnceInReviewMode(t *testing.T) {
	t.Parallel()
	apply := &AskReply{Answers: map[string]any{"decision": "allow_once"}}
	m, asked, _ := runAutoRunCase(t, autoRunCases[0], ReviewEdits, apply)
	if len(asked) != 1 || asked[0].What != autoRunCases[0].what || !exists(m.ws.Root(), ".vscode/tasks.json") {
		t.Fatalf("asked %+v", asked)
	}
	_, asked, _ = runAutoRunCase(t, autoRunCase{call: `{id: c, name: write, args: {path: a.go, content: "package a"}}`}, ReviewEdits, apply)
	if len(asked) != 1 || asked[0].What != "create `a.go`" {
		t.Fatalf("review mode asked %+v for a plain file", asked)
	}
}

// TestAutoRunPlanModeUnchanged: in plan mode the guard refuses the change
// (only .plan files change there); nothing is asked.
func TestAutoRunPlanModeUnchanged(t *testing.T) {
	t.Parallel()
	asks := 0
	ed := &memEditor{ask: func(context.Context, AskRequest) (AskReply, error) {
		asks++
		return AskReply{Answers: map[string]any{"decision": "allow_once"}}, nil
	}}
	m, _ := newTestManager(t, "name: p\nsteps:\n  - tool_calls:\n      - "+autoRunCases[0].call+"\n  - text: done\n", ed, nil)
	s := newTestSession(t, m, "plan")
	if res, err := m.Prompt(context.Background(), PromptRequest{SessionID: s.ID(), Text: "go"}); err != nil || res.StopReason != agentproto.StopEndTurn {
		t.Fatalf("Prompt = %+v, %v", res, err)
	}
	if asks != 0 || exists(m.ws.Root(), ".vscode/tasks.json") || !strings.Contains(ed.toolResult("c"), `"success":false`) {
		t.Fatalf("plan mode: %d asks, result %s", asks, ed.toolResult("c"))
	}
}

// TestAutoRunEditTimesOut: a question nobody answers within
// plan_mode.approval_timeout_secs applies nothing, and the model reads
// why. In a synctest bubble: the second passes on the fake clock.
func TestAutoRunEditTimesOut(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		ed := &memEditor{ask: func(ctx context.Context, _ AskRequest) (AskReply, error) {
			<-ctx.Done()
			return AskReply{}, ctx.Err()
		}}
		m, _ := newTestManager(t, "name: t\nsteps:\n  - tool_calls:\n      - "+autoRunCases[0].call+"\n  - text: done\n", ed,
			func(c *config.Config) { c.PlanMode.ApprovalTimeoutSecs = 1 })
		s := newTestSession(t, m, "build")
		if res, err := m.Prompt(context.Background(), PromptRequest{SessionID: s.ID(), Text: "go"}); err != nil || res.StopReason != agentproto.StopEndTurn {
			t.Fatalf("Prompt = %+v, %v", res, err)
		}
		result := ed.toolResult("c")
		if exists(m.ws.Root(), ".vscode/tasks.json") || !strings.Contains(result, "did not answer within 1s") || !strings.Contains(result, `"declined":[`) {
			t.Fatalf("after the timeout: result %s", result)
		}
	})
}

// confirmingEditor is a memEditor whose review holds changes until the
// user confirms them (confirms: the LSP face with change annotations), or
// a reviewer that does not (an ACP client): decline declines everything.
type confirmingEditor struct {
	*memEditor
	confirms bool
	decline  bool
	mu       sync.Mutex
	reviewed []ApplyRequest
}

func (e *confirmingEditor) ReviewsEdits([]workspace.Change) bool  { return true }
func (e *confirmingEditor) ConfirmsEdits([]workspace.Change) bool { return e.confirms }

func (e *confirmingEditor) Apply(ctx context.Context, req ApplyRequest) error {
	if !req.Review {
		return e.memEditor.Apply(ctx, req)
	}
	e.mu.Lock()
	e.reviewed = append(e.reviewed, req)
	e.mu.Unlock()
	if e.decline {
		return declinedAll(req.Changes, "declined in the editor's review")
	}
	return e.memEditor.Apply(ctx, req)
}

// TestAutoRunEditReviewedByTheEditor: an editor that holds changes until
// the user confirms them gets the change marked for review with why, review
// mode off, and asks no question; one whose review does not hold them (an
// ACP client's) gets the question.
func TestAutoRunEditReviewedByTheEditor(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name              string
		confirms, decline bool
		asks              int
		applied           bool
	}{
		{"confirmed", true, false, 0, true},
		{"declined in the review", true, true, 0, false},
		{"a review that does not hold asks", false, false, 1, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			asks := 0
			mem := &memEditor{ask: func(context.Context, AskRequest) (AskReply, error) {
				asks++
				return AskReply{Answers: map[string]any{"decision": "allow_once"}}, nil
			}}
			ed := &confirmingEditor{memEditor: mem, confirms: tc.confirms, decline: tc.decline}
			ws, err := workspace.New(t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			mem.ws = ws
			m := newManagerWith(t, ws, "name: r\nsteps:\n  - tool_calls:\n      - "+autoRunCases[0].call+"\n  - text: done\n", ed)
			s := newTestSession(t, m, "build")
			if res, err := m.Prompt(context.Background(), PromptRequest{SessionID: s.ID(), Text: "go"}); err != nil || res.StopReason != agentproto.StopEndTurn {
				t.Fatalf("Prompt = %+v, %v", res, err)
			}
			if asks != tc.asks || exists(ws.Root(), ".vscode/tasks.json") != tc.applied {
				t.Fatalf("%d asks, applied %v; want %d, %v (result %s)", asks, exists(ws.Root(), ".vscode/tasks.json"), tc.asks, tc.applied, mem.toolResult("c"))
			}
			if r := mem.toolResult("c"); tc.decline && !strings.Contains(r, "declined in the editor's review; .vscode/tasks.json is a file the user's editor or shell runs by itself") {
				t.Errorf("the model read %s, want why it was reviewed", r)
			}
			ed.mu.Lock()
			defer ed.mu.Unlock()
			if !tc.confirms {
				if len(ed.reviewed) != 0 {
					t.Fatalf("a review that does not hold got %+v", ed.reviewed)
				}
				return
			}
			want := "your editor or shell runs what it names by itself, outside agentls's sandbox"
			if len(ed.reviewed) != 1 || ed.reviewed[0].Why[".vscode/tasks.json"] != want {
				t.Fatalf("reviewed %+v, want the change with why", ed.reviewed)
			}
		})
	}
}

// newManagerWith is newTestManager with an editor of the test's own.
func newManagerWith(t *testing.T, ws *workspace.Workspace, script string, ed Editor) *Manager {
	t.Helper()
	sc, err := scripted.Parse([]byte(script))
	if err != nil {
		t.Fatal(err)
	}
	m, err := NewManager(Options{Workspace: ws, Config: config.Default(), Provider: scripted.New(sc), Editor: ed})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(m.Close)
	return m
}

// TestSubagentAutoRunEditAsked: a build sub-agent's change to a file the
// editor runs by itself is asked in its root's session, naming the
// sub-agent; rejected, nothing applies and the child reads why. A root's
// review mode is its sub-agents' too: a plain file of the child's is asked
// once review mode is on.
func TestSubagentAutoRunEditAsked(t *testing.T) {
	t.Parallel()
	script := `
steps:
  - tool_calls:
      - {id: t1, name: task, args: {kind: build, prompt: "edit"}}
  - text: done
children:
  build-1:
    - tool_calls:
        - {id: w1, name: write, args: {path: .vscode/tasks.json, content: "{}"}}
        - {id: w2, name: write, args: {path: a.txt, content: "a"}}
    - expect:
        tool_result_contains:
          w1: ['"success":false', "rejected when asked", "runs by itself"]
          w2: ['"success":false', "rejected when asked"]
      text: both rejected
`
	var mu sync.Mutex
	var asked []AskRequest
	ed := &memEditor{ask: func(_ context.Context, req AskRequest) (AskReply, error) {
		mu.Lock()
		asked = append(asked, req)
		mu.Unlock()
		return AskReply{Answers: map[string]any{"decision": "reject_once"}}, nil
	}}
	m, model := newTestManager(t, script, ed, nil)
	s := newTestSession(t, m, "build")
	if _, err := m.SetReview(s.ID(), ReviewEdits); err != nil {
		t.Fatal(err)
	}
	if res, err := m.Prompt(context.Background(), PromptRequest{SessionID: s.ID(), Text: "go"}); err != nil || res.StopReason != agentproto.StopEndTurn {
		t.Fatalf("Prompt = %+v, %v", res, err)
	}
	if model.Remaining() != 0 {
		t.Fatalf("%d script steps left: the child did not read its rejections", model.Remaining())
	}
	if exists(m.ws.Root(), ".vscode/tasks.json") || exists(m.ws.Root(), "a.txt") {
		t.Fatal("a rejected change of the sub-agent was applied")
	}
	mu.Lock()
	defer mu.Unlock()
	if len(asked) != 2 {
		t.Fatalf("%d questions, want 2", len(asked))
	}
	for _, q := range asked {
		if q.SessionID != s.ID() || q.Permission == nil || !strings.Contains(q.Permission.Requester, "sub-agent build-1") {
			t.Errorf("question %+v (permission %+v): want the root's session, the child named", q, q.Permission)
		}
	}
	if asked[0].Permission.What != "create `.vscode/tasks.json`"+autoRunReason || asked[1].Permission.What != "create `a.txt`" {
		t.Errorf("asked %q and %q", asked[0].Permission.What, asked[1].Permission.What)
	}
}

// TestAutoRunRewindNotAsked: the user's rewind of a turn that changed
// .vscode/tasks.json (asked, applied) restores it without a question.
func TestAutoRunRewindNotAsked(t *testing.T) {
	t.Parallel()
	asks := 0
	ed := &memEditor{ask: func(context.Context, AskRequest) (AskReply, error) {
		asks++
		return AskReply{Answers: map[string]any{"decision": "allow_once"}}, nil
	}}
	m, _ := newTestManager(t, `
name: rewind
steps:
  - tool_calls:
      - {id: c, name: edit, args: {path: .vscode/tasks.json, old_string: "old", new_string: "new"}}
  - text: done
`, ed, nil)
	setUpFiles(t, m.ws.Root(), map[string]string{".vscode/tasks.json": "old\n"}, nil, nil)
	s := newTestSession(t, m, "build")
	ctx := context.Background()
	if res, err := m.Prompt(ctx, PromptRequest{SessionID: s.ID(), Text: "go"}); err != nil || res.StopReason != agentproto.StopEndTurn {
		t.Fatalf("Prompt = %+v, %v", res, err)
	}
	if got := readWS(t, m, ".vscode/tasks.json"); got != "new\n" || asks != 1 {
		t.Fatalf("tasks.json = %q after %d asks, want the applied edit after one", got, asks)
	}
	if _, err := m.Rewind(ctx, agentproto.RewindParams{SessionID: s.ID(), ToMessageID: s.Messages()[0].ID, What: agentproto.RewindCode}); err != nil {
		t.Fatal(err)
	}
	if got := readWS(t, m, ".vscode/tasks.json"); got != "old\n" || asks != 1 {
		t.Fatalf("tasks.json = %q after the rewind and %d asks, want it restored unasked", got, asks)
	}
}
