package tools

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/config"
	"github.com/agentls/agentls/guard"
	"github.com/agentls/agentls/questions"
	"github.com/agentls/agentls/workspace"
)

// applyCall is one recorded Env.Apply.
type applyCall struct {
	tool, label string
	changes     []workspace.Change
}

// exitCall is one recorded Env.ExitPlanMode.
type exitCall struct {
	path    string
	allowed []string
}

// fakeEnv is an in-memory Env over a real workspace in a temporary folder.
// Apply runs the real guard's CheckChanges with the fake's mode, then writes
// to disk; questions and run confirmations are scripted.
type fakeEnv struct {
	t   *testing.T
	ws  *workspace.Workspace
	g   *guard.Guard
	cfg config.Config

	mu         sync.Mutex
	mode       agentproto.Mode
	planFile   string
	applyErr   error // returned by Apply after the guard passed
	applied    []applyCall
	written    map[string]string // PlanWritten: rel → text
	answer     Answer
	askErr     error
	asked      []*questions.Set
	confirm    bool
	confirmErr error
	confirmed  []string
	onConfirm  func() // runs inside ConfirmRun (a mode switch while the user is asked)
	// confirmRule is the allow rule ConfirmRun says let the command run ("" = the user answered).
	confirmRule string
	unsaved     []string
	entered     []string
	exits       []exitCall
	exitResult  Result
}

var _ Env = (*fakeEnv)(nil)

// newFake returns a fake env in build mode over a fresh workspace holding
// files (workspace-relative path → content).
func newFake(t *testing.T, files map[string]string) *fakeEnv {
	t.Helper()
	root := t.TempDir()
	for rel, content := range files {
		writeFile(t, filepath.Join(root, filepath.FromSlash(rel)), content)
	}
	ws, err := workspace.New(root)
	if err != nil {
		t.Fatal(err)
	}
	cfg := config.Default()
	return &fakeEnv{
		t: t, ws: ws, g: guard.New(ws, cfg.PlanMode.PlansDir, declared(t)), cfg: cfg,
		mode: agentproto.ModeBuild, written: map[string]string{}, confirm: true,
	}
}

func writeFile(t *testing.T, abs, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(abs, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// path is the absolute path of a workspace-relative path.
func (f *fakeEnv) path(rel string) string {
	return filepath.Join(f.ws.Root(), filepath.FromSlash(rel))
}

// file returns a file's content on disk, failing the test if it is missing.
func (f *fakeEnv) file(rel string) string {
	f.t.Helper()
	b, err := os.ReadFile(f.path(rel))
	if err != nil {
		f.t.Fatalf("read %s: %v", rel, err)
	}
	return string(b)
}

// missing reports whether nothing exists at rel.
func (f *fakeEnv) missing(rel string) bool {
	_, err := os.Lstat(f.path(rel))
	return os.IsNotExist(err)
}

func (f *fakeEnv) setMode(m agentproto.Mode) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.mode = m
}

func (f *fakeEnv) Workspace() *workspace.Workspace { return f.ws }
func (f *fakeEnv) Guard() *guard.Guard             { return f.g }
func (f *fakeEnv) Config() config.Config           { return f.cfg }

func (f *fakeEnv) State() guard.State {
	f.mu.Lock()
	defer f.mu.Unlock()
	st := guard.State{Mode: f.mode}
	if f.mode == agentproto.ModePlan {
		st.EnteredAt = time.Date(2025, 1, 15, 10, 30, 0, 0, time.UTC)
		st.EnteredReason = "user"
	}
	return st
}

func (f *fakeEnv) PlanFile() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.planFile
}

func (f *fakeEnv) Apply(_ context.Context, tool, label string, changes []workspace.Change) error {
	if r := f.g.CheckChanges(f.State(), tool, changes); r != nil {
		return r
	}
	f.mu.Lock()
	f.applied = append(f.applied, applyCall{tool: tool, label: label, changes: changes})
	err := f.applyErr
	f.mu.Unlock()
	if err != nil {
		return err
	}
	for _, c := range changes {
		if err := f.ws.ApplyToDisk(c); err != nil {
			return err
		}
	}
	return nil
}

func (f *fakeEnv) PlanWritten(rel, text string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.written[rel] = text
}

func (f *fakeEnv) Ask(_ context.Context, set *questions.Set) (Answer, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.asked = append(f.asked, set)
	return f.answer, f.askErr
}

func (f *fakeEnv) EnterPlanMode(reason string) EnterResult {
	f.mu.Lock()
	defer f.mu.Unlock()
	already := f.mode == agentproto.ModePlan
	f.mode = agentproto.ModePlan
	f.entered = append(f.entered, reason)
	return EnterResult{EnteredPlanMode: true, AlreadyInPlanMode: already, EnteredAt: "2025-01-15T10:30:00Z", Reason: reason, Instructions: "plan"}
}

func (f *fakeEnv) ExitPlanMode(_ context.Context, path string, allowed []string) (Result, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.exits = append(f.exits, exitCall{path: path, allowed: allowed})
	return f.exitResult, nil
}

func (f *fakeEnv) ConfirmRun(_ context.Context, req RunRequest) (RunPermit, error) {
	f.mu.Lock()
	f.confirmed = append(f.confirmed, req.Command)
	hook := f.onConfirm
	f.mu.Unlock()
	if hook != nil {
		hook()
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	return RunPermit{Run: f.confirm, Rule: f.confirmRule}, f.confirmErr
}

func (f *fakeEnv) UnsavedEdited() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.unsaved...)
}

// call runs a tool with JSON arguments; a Go error fails the test.
func call(t *testing.T, tool Tool, env Env, args string) Result {
	t.Helper()
	r, err := tool.Run(context.Background(), env, json.RawMessage(args))
	if err != nil {
		t.Fatalf("%s %s: unexpected Go error: %v", tool.Spec().Name, args, err)
	}
	return r
}

// wire decodes a result as the model sees it.
func wire(t *testing.T, r Result) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(r.JSON()), &m); err != nil {
		t.Fatalf("result JSON %s: %v", r.JSON(), err)
	}
	return m
}

// value decodes a successful result's value into out (through its JSON form).
func value(t *testing.T, r Result, out any) {
	t.Helper()
	if !r.Success {
		t.Fatalf("want success, got error %q", r.Error)
	}
	b, err := json.Marshal(r.Value)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, out); err != nil {
		t.Fatalf("decode %s: %v", b, err)
	}
}

// wantFail checks that r failed with an error containing every fragment.
func wantFail(t *testing.T, r Result, fragments ...string) {
	t.Helper()
	if r.Success {
		t.Fatalf("want failure containing %q, got success %s", fragments, r.JSON())
	}
	for _, f := range fragments {
		if !strings.Contains(r.Error, f) {
			t.Errorf("error %q does not contain %q", r.Error, f)
		}
	}
}

// wantRefused checks that r is a plan-mode refusal of tool.
func wantRefused(t *testing.T, r Result, tool string) {
	t.Helper()
	if r.Success || r.Refusal == nil {
		t.Fatalf("want a refusal, got %s", r.JSON())
	}
	if r.Error != guard.RefusalMessage {
		t.Errorf("refusal error = %q, want %q", r.Error, guard.RefusalMessage)
	}
	if r.Refusal.ToolName != tool {
		t.Errorf("refusal tool_name = %q, want %q", r.Refusal.ToolName, tool)
	}
	m := wire(t, r)
	if _, ok := m["refusal"]; !ok {
		t.Errorf("wire result has no refusal: %s", r.JSON())
	}
}
