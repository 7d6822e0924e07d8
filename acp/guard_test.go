package acp_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/agentls/agentls/agent/llm"
	"github.com/agentls/agentls/agentproto"
)

// queueModel answers each request with the next queued response, then with
// a plain "done".
type queueModel struct {
	mu    sync.Mutex
	queue []llm.Response
}

func (q *queueModel) push(calls ...agentproto.ToolCall) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.queue = append(q.queue, llm.Response{Message: llm.Message{Role: llm.RoleAssistant, ToolCalls: calls}, FinishReason: "tool_calls"})
}

func (q *queueModel) Complete(_ context.Context, _ llm.Request, _ func(llm.Event)) (llm.Response, error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if len(q.queue) == 0 {
		return llm.Response{Message: llm.Message{Role: llm.RoleAssistant, Content: "done"}, FinishReason: "stop"}, nil
	}
	r := q.queue[0]
	q.queue = q.queue[1:]
	return r, nil
}

// guardFiles is the workspace of the bypass tests: sources, a plan,
// agentls's and git's own files, and symlinks that point out of bounds.
var guardFiles = map[string]string{
	"ws/src/main.go":           "package main\n",
	"ws/.agentls.yaml":         "plan_mode: {require_approval: true}\n",
	"ws/.git/config":           "[core]\n",
	"ws/plans/ok.plan":         "# ok\n\n## Steps\n- [ ] one\n",
	"outside/secret.txt":       "TOPSECRET\n",
	"outside/victim.plan":      "# not yours\n",
	"ws2/src/other.go":         "package other\n",
	"ws2/plans/elsewhere.plan": "# other workspace\n",
}

// guardRig is a rig over guardFiles (the rig's workspace is root/ws) with
// the symlinks, driven by a queue model.
func guardRig(t testing.TB, userConfig string) (*rig, *queueModel, string) {
	t.Helper()
	root := t.TempDir()
	writeFiles(t, root, guardFiles)
	ws := filepath.Join(root, "ws")
	for link, target := range map[string]string{
		"ws/link.plan":       filepath.Join(ws, "src", "main.go"),
		"ws/plans/evil":      filepath.Join(ws, "src"),
		"ws/plans/out.plan":  filepath.Join(root, "outside", "victim.plan"),
		"ws/plans/outdir":    filepath.Join(root, "outside"),
		"ws/src/escape.plan": filepath.Join(root, "outside", "victim.plan"),
	} {
		if err := os.Symlink(target, filepath.Join(root, link)); err != nil {
			t.Fatal(err)
		}
	}
	q := &queueModel{}
	// The user's config folder is inside the workspace (a workspace at ~).
	r := newRig(t, setup{dir: ws, model: q, userConfig: userConfig, xdgConfig: filepath.Join(ws, ".config"),
		caps: sdk.ClientCapabilities{Fs: sdk.FileSystemCapabilities{ReadTextFile: true, WriteTextFile: true}}})
	return r, q, root
}

// snapshot reads every regular file under root (symlinks not followed).
func snapshot(t testing.TB, root string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		if strings.HasPrefix(rel, ".agentls") || strings.HasPrefix(rel, filepath.Join("ws", ".agentls")) ||
			strings.HasPrefix(rel, filepath.Join("ws2", ".agentls")) {
			return nil // agentls's own session files change with every turn
		}
		if d.Type()&os.ModeSymlink != 0 {
			target, _ := os.Readlink(p)
			out[rel] = "-> " + target
			return nil
		}
		if d.IsDir() {
			out[rel+"/"] = ""
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		out[rel] = string(b)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func diffSnapshots(before, after map[string]string) []string {
	var out []string
	for k, v := range before {
		if w, ok := after[k]; !ok {
			out = append(out, "removed "+k)
		} else if w != v {
			out = append(out, "changed "+k)
		}
	}
	for k := range after {
		if _, ok := before[k]; !ok {
			out = append(out, "created "+k)
		}
	}
	return out
}

type bypassCase struct {
	name string
	tool string
	args map[string]any
}

// runBypass makes one call through the ACP face and checks that it was
// refused (failed), that nothing on disk changed and that no
// fs/write_text_file left.
func runBypass(t *testing.T, r *rig, q *queueModel, root string, sid sdk.SessionId, c bypassCase) {
	t.Helper()
	for k, v := range c.args {
		if s, ok := v.(string); ok {
			c.args[k] = strings.ReplaceAll(s, "$ROOT", root)
		}
	}
	args, _ := json.Marshal(c.args)
	id := "call-" + strings.ReplaceAll(c.name, " ", "-")
	before := snapshot(t, root)
	writesBefore := len(r.wire.requests("fs/write_text_file"))
	q.push(agentproto.ToolCall{ID: id, Name: c.tool, Arguments: string(args)})
	if stop := r.mustPrompt(sid, "try: "+c.name); stop != sdk.StopReasonEndTurn {
		t.Fatalf("%s: stop %s", c.name, stop)
	}
	if st := r.client.finalStatus(id); st != sdk.ToolCallStatusFailed {
		t.Errorf("%s: %s %s reported %q, want failed", c.name, c.tool, args, st)
	}
	if d := diffSnapshots(before, snapshot(t, root)); len(d) > 0 {
		t.Errorf("%s: %s %s changed the disk: %v", c.name, c.tool, args, d)
	}
	if w := r.wire.requests("fs/write_text_file"); len(w) != writesBefore {
		t.Errorf("%s: %s %s sent fs/write_text_file: %v", c.name, c.tool, args, w[writesBefore:])
	}
}

// In plan mode nothing but .plan documents inside the workspace changes,
// through every path trick, on the ACP face as on LSP.
func TestBypassPlanModeThroughACP(t *testing.T) {
	t.Parallel()
	r, q, root := guardRig(t, "")
	sid := r.newSession().SessionId
	for _, c := range []bypassCase{
		{"write source", "write", map[string]any{"path": "src/main.go", "content": "pwned"}},
		{"edit source", "edit", map[string]any{"path": "src/main.go", "old_string": "main", "new_string": "pwned"}},
		{"new source file", "write", map[string]any{"path": "src/new.go", "content": "pwned"}},
		{"touch source", "touch", map[string]any{"path": "src/new.go"}},
		{"plan symlink to source", "write", map[string]any{"path": "link.plan", "content": "pwned"}},
		{"symlinked plans folder", "write", map[string]any{"path": "plans/evil/main.go", "content": "pwned"}},
		{"plan symlink out of the workspace", "write", map[string]any{"path": "plans/out.plan", "content": "pwned"}},
		{"plan under a symlinked folder out", "write", map[string]any{"path": "plans/outdir/victim.plan", "content": "pwned"}},
		{"plan symlink in src out", "plan_write", map[string]any{"title": "x", "content": "pwned", "path": "src/escape.plan"}},
		{"dotdot plan", "write", map[string]any{"path": "../outside/victim.plan", "content": "pwned"}},
		{"dotdot in the middle", "write", map[string]any{"path": "plans/../../outside/victim.plan", "content": "pwned"}},
		{"absolute outside", "write", map[string]any{"path": "$ROOT/outside/victim.plan", "content": "pwned"}},
		{"file URI outside", "write", map[string]any{"path": "file://$ROOT/outside/victim.plan", "content": "pwned"}},
		{"other workspace plan", "write", map[string]any{"path": "$ROOT/ws2/plans/elsewhere.plan", "content": "pwned"}},
		{"lookalike suffix", "write", map[string]any{"path": "src/main.plan.go", "content": "pwned"}},
		{"upper-case suffix", "write", map[string]any{"path": "src/MAIN.PLAN", "content": "pwned"}},
		{"trailing space", "write", map[string]any{"path": "src/main.plan ", "content": "pwned"}},
		{"plan folder", "mkdir", map[string]any{"path": "src/folder.plan"}},
		{"missing parent folders", "write", map[string]any{"path": "newdir/deeper/a.plan", "content": "# a\n"}},
		{"move source to a plan", "mv", map[string]any{"from": "src/main.go", "to": "plans/main.plan"}},
		{"move a plan over source", "mv", map[string]any{"from": "plans/ok.plan", "to": "src/ok.plan.go"}},
		{"remove source", "rm", map[string]any{"path": "src/main.go"}},
		{"run", "run", map[string]any{"command": "touch pwned"}},
		{"config file", "write", map[string]any{"path": ".agentls.yaml", "content": "run: {allow: ['*']}\n"}},
		{"git folder plan", "write", map[string]any{"path": ".git/hooks/x.plan", "content": "pwned"}},
		{"agentls folder plan", "write", map[string]any{"path": ".agentls/chats/x.plan", "content": "pwned"}},
		{"NUL byte", "write", map[string]any{"path": "plans/a\x00.plan", "content": "pwned"}},
		{"URL-encoded dotdot", "write", map[string]any{"path": "file://$ROOT/ws/plans/%2e%2e/%2e%2e/outside/victim.plan", "content": "pwned"}},
	} {
		runBypass(t, r, q, root, sid, c)
	}
	// The control: a .plan in the plans folder is written, through the client.
	q.push(agentproto.ToolCall{ID: "ok", Name: "write", Arguments: `{"path":"plans/new.plan","content":"# new\n"}`})
	r.mustPrompt(sid, "write the plan")
	if st := r.client.finalStatus("ok"); st != sdk.ToolCallStatusCompleted {
		t.Errorf("the control write: %s", st)
	}
	if w := r.wire.requests("fs/write_text_file"); len(w) != 1 || w[0]["path"] != filepath.Join(root, "ws", "plans", "new.plan") {
		t.Errorf("control fs/write_text_file: %v", w)
	}
}

// In every mode agentls's and git's own files, the workspace's
// configuration and everything outside the workspace stay untouched.
func TestBypassBuildModeThroughACP(t *testing.T) {
	t.Parallel()
	r, q, root := guardRig(t, buildByDefault)
	sid := r.newSession().SessionId
	for _, c := range []bypassCase{
		{"git config", "write", map[string]any{"path": ".git/config", "content": "pwned"}},
		{"git hook", "write", map[string]any{"path": ".git/hooks/pre-commit", "content": "pwned"}},
		{"agentls session", "write", map[string]any{"path": ".agentls/chats/evil.chat", "content": "pwned"}},
		{"workspace config", "write", map[string]any{"path": ".agentls.yaml", "content": "run: {allow: ['*']}\n"}},
		{"workspace config edit", "edit", map[string]any{"path": ".agentls.yaml", "old_string": "true", "new_string": "false"}},
		{"dotdot", "write", map[string]any{"path": "../outside/secret.txt", "content": "pwned"}},
		{"absolute outside", "write", map[string]any{"path": "$ROOT/outside/secret.txt", "content": "pwned"}},
		{"other workspace", "write", map[string]any{"path": "$ROOT/ws2/src/other.go", "content": "pwned"}},
		{"symlink out", "write", map[string]any{"path": "plans/outdir/secret.txt", "content": "pwned"}},
		{"move out", "mv", map[string]any{"from": "src/main.go", "to": "../outside/main.go"}},
		{"remove git", "rm", map[string]any{"path": ".git", "recursive": true}},
		{"user config", "write", map[string]any{"path": ".config/agentls/config.yaml", "content": "pwned"}},
		{"new user config file", "write", map[string]any{"path": ".config/agentls/other.yaml", "content": "pwned"}},
	} {
		runBypass(t, r, q, root, sid, c)
	}
}

// A session/new whose cwd is the workspace's parent, or another workspace,
// gets its own host: its guard still keeps each workspace's own files and
// plan mode; a session of one workspace cannot reach into the other.
func TestBypassAcrossSessionCwds(t *testing.T) {
	t.Parallel()
	r, q, root := guardRig(t, buildByDefault)
	inWS := r.newSession().SessionId
	parent, err := r.conn.NewSession(r.ctx, sdk.NewSessionRequest{Cwd: root, McpServers: []sdk.McpServer{}})
	if err != nil {
		t.Fatal(err)
	}
	other, err := r.conn.NewSession(r.ctx, sdk.NewSessionRequest{Cwd: filepath.Join(root, "ws2"), McpServers: []sdk.McpServer{}})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []bypassCase{
		{"child config from the parent", "write", map[string]any{"path": "ws/.agentls.yaml", "content": "run: {allow: ['*']}\n"}},
		{"child sessions from the parent", "write", map[string]any{"path": "ws/.agentls/chats/x.chat", "content": "pwned"}},
		{"child git from the parent", "write", map[string]any{"path": "ws/.git/config", "content": "pwned"}},
	} {
		runBypass(t, r, q, root, parent.SessionId, c)
	}
	for _, c := range []bypassCase{
		{"ws2 from ws", "write", map[string]any{"path": "$ROOT/ws2/src/other.go", "content": "pwned"}},
	} {
		runBypass(t, r, q, root, inWS, c)
	}
	for _, c := range []bypassCase{
		{"ws from ws2", "write", map[string]any{"path": "$ROOT/ws/src/main.go", "content": "pwned"}},
		{"ws from ws2 by dotdot", "write", map[string]any{"path": "../ws/src/main.go", "content": "pwned"}},
	} {
		runBypass(t, r, q, root, other.SessionId, c)
	}
	// The parent's session in plan mode cannot change the child's sources.
	if _, err := r.conn.SetSessionMode(r.ctx, sdk.SetSessionModeRequest{SessionId: parent.SessionId, ModeId: "plan"}); err != nil {
		t.Fatal(err)
	}
	runBypass(t, r, q, root, parent.SessionId, bypassCase{"child source in plan mode", "write", map[string]any{"path": "ws/src/main.go", "content": "pwned"}})
	// A cwd in a protected folder is no workspace: its hooks, config and
	// session files would all be the agent's to change.
	for _, cwd := range []string{filepath.Join(root, "ws", ".git"), filepath.Join(root, "ws", ".git", "hooks"), filepath.Join(root, "ws", ".agentls", "chats")} {
		if err := os.MkdirAll(cwd, 0o755); err != nil {
			t.Fatal(err)
		}
		if res, err := r.conn.NewSession(r.ctx, sdk.NewSessionRequest{Cwd: cwd, McpServers: []sdk.McpServer{}}); err == nil || !strings.Contains(err.Error(), "agentls never changes") {
			t.Errorf("session/new with cwd %s = %v, %v; want an error naming the protected folder", cwd, res, err)
		}
	}
	// Sessions live in their own workspace's .agentls/chats.
	for dir, sid := range map[string]sdk.SessionId{"ws": inWS, ".": parent.SessionId, "ws2": other.SessionId} {
		if _, err := os.Stat(filepath.Join(root, dir, ".agentls", "chats", string(sid)+".chat")); err != nil {
			t.Errorf("session %s not in %s/.agentls/chats: %v", sid, dir, err)
		}
	}
}

// A resource link outside the workspace is never read: not by the adapter,
// not through fs/read_text_file; the model is only told it is outside.
func TestResourceLinksOutsideAreNotRead(t *testing.T) {
	t.Parallel()
	r, _, root := guardRig(t, "")
	sid := r.newSession().SessionId
	secret := filepath.Join(root, "outside", "secret.txt")
	res, err := r.conn.Prompt(r.ctx, sdk.PromptRequest{SessionId: sid, Prompt: []sdk.ContentBlock{
		sdk.TextBlock("look at these"),
		sdk.ResourceLinkBlock("secret.txt", "file://"+secret),
		sdk.ResourceLinkBlock("dotdot", "file://"+filepath.Join(root, "ws", "..", "outside", "secret.txt")),
		sdk.ResourceLinkBlock("escape", "file://"+filepath.Join(root, "ws", "plans", "outdir", "secret.txt")),
		sdk.ResourceLinkBlock("main.go", "file://"+filepath.Join(root, "ws", "src", "main.go")),
	}})
	if err != nil || res.StopReason != sdk.StopReasonEndTurn {
		t.Fatalf("prompt: %v %v", res, err)
	}
	chat, err := os.ReadFile(filepath.Join(root, "ws", ".agentls", "chats", string(sid)+".chat"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(chat), "TOPSECRET") {
		t.Error("the content of a file outside the workspace reached the conversation")
	}
	if !strings.Contains(string(chat), "outside the workspace") || !strings.Contains(string(chat), "src/main.go (read it with the read tool)") {
		t.Errorf("the prompt does not name the links: %s", chat)
	}
	if reads := r.wire.requests("fs/read_text_file"); len(reads) != 0 {
		t.Errorf("fs/read_text_file sent for a link: %v", reads)
	}
}

// FuzzPlanModeNeverWritesNonPlan: whatever mutating tool call the model
// makes in plan mode, through the ACP face no fs/write_text_file names a
// path other than a .plan file inside the workspace, and nothing but .plan
// files changes on disk. Run it with -fuzzminimizetime 0s: the SDK's
// connection goroutines make coverage vary between runs of one input, and
// minimising every "interesting" input then takes the whole fuzz time.
//
//	go test ./acp -run XXX -fuzz FuzzPlanModeNeverWritesNonPlan -fuzztime 45s -fuzzminimizetime 0s
func FuzzPlanModeNeverWritesNonPlan(f *testing.F) {
	for i, s := range []string{"src/main.go", "link.plan", "plans/evil/x.go", "../outside/victim.plan", "plans/outdir/victim.plan",
		".agentls.yaml", ".git/config", "plans/a.plan", "newdir/a.plan", "src/escape.plan", "plans/../src/main.go", "file:///etc/passwd"} {
		f.Add(uint8(i), s, "plans/b.plan", "x")
	}
	r, q, base := guardRig(f, "")
	sid := r.newSession().SessionId
	tools := []string{"write", "edit", "touch", "mkdir", "rm", "mv", "plan_write", "plan_edit", "run"}
	f.Fuzz(func(t *testing.T, tool uint8, path, path2, content string) {
		name := tools[int(tool)%len(tools)]
		args := map[string]any{"path": path, "content": content, "old_string": "main", "new_string": content,
			"from": path, "to": path2, "title": "t", "command": path, "recursive": true}
		b, _ := json.Marshal(args)
		before := snapshot(t, base)
		writes := len(r.wire.requests("fs/write_text_file"))
		q.push(agentproto.ToolCall{ID: fmt.Sprintf("f%d", writes), Name: name, Arguments: string(b)})
		pctx, cancel := context.WithTimeout(r.ctx, 5*time.Second)
		defer cancel()
		if _, err := r.conn.Prompt(pctx, sdk.PromptRequest{SessionId: sid, Prompt: []sdk.ContentBlock{sdk.TextBlock("fuzz")}}); err != nil {
			t.Fatalf("%s %s: prompt: %v", name, b, err)
		}
		for _, w := range r.wire.requests("fs/write_text_file")[writes:] {
			p, _ := w["path"].(string)
			if !strings.HasSuffix(p, ".plan") || !strings.HasPrefix(p, filepath.Join(base, "ws")+string(filepath.Separator)) {
				t.Fatalf("%s %s: fs/write_text_file for %q in plan mode", name, b, p)
			}
		}
		for _, d := range diffSnapshots(before, snapshot(t, base)) {
			if !strings.HasSuffix(d, ".plan") && !strings.HasSuffix(d, "/") {
				t.Fatalf("%s %s: %s in plan mode", name, b, d)
			}
			if strings.Contains(d, "outside") || strings.Contains(d, "ws2") || strings.Contains(d, ".git") || strings.Contains(d, ".agentls") {
				t.Fatalf("%s %s: %s", name, b, d)
			}
		}
	})
}
