package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentls/agentls/internal/fakeopenai"
	"github.com/agentls/agentls/internal/lspclient"
)

// configProcess is a real agentls process whose environment names a
// "hosted" endpoint (OPENAI_BASE_URL, OPENAI_API_KEY: the fallback a broken
// configuration must never reach) and whose --config file names a local one.
type configProcess struct {
	ctx    context.Context
	ed     *lspclient.Client
	dir    string
	config string // the --config file, in the workspace so the editor can save it
	sid    string
}

// startConfigProcess starts agentls on dir with the --config file's content.
func startConfigProcess(t *testing.T, hosted *fakeopenai.Server, content string) *configProcess {
	t.Helper()
	dir, xdg := t.TempDir(), t.TempDir()
	p := &configProcess{dir: dir, config: filepath.Join(dir, "agentls-local.yaml")}
	if err := os.WriteFile(p.config, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	p.ctx = ctx
	started := make(chan *os.Process, 1)
	ed, err := lspclient.Start(ctx, dir, processServeWith(t, started, func(cmd *exec.Cmd) {
		cmd.Args = append(cmd.Args, "--config", p.config)
		cmd.Env = append(cmd.Env, "OPENAI_BASE_URL="+hosted.URL, "OPENAI_API_KEY=sk-hosted",
			"XDG_CONFIG_HOME="+filepath.Join(xdg, "config"), "XDG_STATE_HOME="+filepath.Join(xdg, "state"))
	}), lspclient.Handlers{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ed.Close() })
	<-started
	p.ed = ed
	init := map[string]any{
		"rootUri":      "file://" + filepath.ToSlash(dir),
		"capabilities": map[string]any{"experimental": map[string]any{"agent": map[string]any{"askUser": true, "savesEdits": true}}},
	}
	if err := ed.Call(ctx, "initialize", init, nil); err != nil {
		t.Fatal(err)
	}
	if err := ed.Notify(ctx, "initialized", map[string]any{}); err != nil {
		t.Fatal(err)
	}
	var s struct {
		SessionID string `json:"sessionId"`
	}
	if err := ed.Call(ctx, "agent/newSession", map[string]any{"mode": "plan"}, &s); err != nil {
		t.Fatal(err)
	}
	p.sid = s.SessionID
	return p
}

// promptResult is agent/prompt's result in the parts these tests read.
type promptResult struct {
	StopReason string `json:"stopReason"`
	Error      *struct {
		Message string `json:"message"`
	} `json:"error"`
}

func (p *configProcess) prompt(t *testing.T) promptResult {
	t.Helper()
	var r promptResult
	if err := p.ed.Call(p.ctx, "agent/prompt", map[string]any{"sessionId": p.sid, "text": "hello"}, &r); err != nil {
		t.Fatal(err)
	}
	return r
}

// TestLocalEndpointWithoutKey: model.api_key_env: "" (a local server
// without a key) loads, and requests go to the configured endpoint, never
// to the hosted one of the environment.
func TestLocalEndpointWithoutKey(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("starts agentls processes")
	}
	hosted, local := fakeopenai.New(fakeopenai.Options{}), fakeopenai.New(fakeopenai.Options{})
	defer hosted.Close()
	defer local.Close()
	p := startConfigProcess(t, hosted, "model:\n  base_url: "+local.URL+"\n  api_key_env: \"\"\n  name: local-model\n")
	if r := p.prompt(t); r.StopReason != "end_turn" {
		t.Fatalf("prompt = %+v", r)
	}
	if n := len(hosted.Requests()); n != 0 {
		t.Fatalf("%d requests reached the hosted endpoint of the environment", n)
	}
	if reqs := local.Requests(); len(reqs) != 1 || reqs[0].Model != "local-model" {
		t.Fatalf("local endpoint requests = %d, want 1 for local-model", len(reqs))
	}
}

// TestBrokenConfigFileSendsNoRequest: while the --config file does not load,
// no request reaches any endpoint (not the hosted one of the environment,
// not the file's own) and each prompt names the file, line and fix; once
// the fixed file is saved, requests go to the file's endpoint.
func TestBrokenConfigFileSendsNoRequest(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("starts agentls processes")
	}
	hosted, local := fakeopenai.New(fakeopenai.Options{}), fakeopenai.New(fakeopenai.Options{})
	defer hosted.Close()
	defer local.Close()
	good := "model:\n  base_url: " + local.URL + "\n  api_key_env: \"\"\n  name: local-model\n"
	p := startConfigProcess(t, hosted, good+"edits: sometimes\n")
	for range 2 {
		r := p.prompt(t)
		if r.StopReason != "error" || r.Error == nil ||
			!strings.Contains(r.Error.Message, "agentls-local.yaml:5: edits: must be one of auto, client, disk — fix the file; agentls sends no request to the model until it loads") {
			t.Fatalf("prompt = %+v (%+v), want the file, line and fix", r, r.Error)
		}
	}
	var check struct {
		OK      bool   `json:"ok"`
		Message string `json:"message"`
	}
	if err := p.ed.Call(p.ctx, "agent/checkModel", map[string]any{}, &check); err != nil {
		t.Fatal(err)
	}
	if check.OK || !strings.Contains(check.Message, "agentls-local.yaml:5:") {
		t.Fatalf("checkModel = %+v", check)
	}
	if h, l := len(hosted.Requests()), len(local.Requests()); h != 0 || l != 0 {
		t.Fatalf("requests while the file was broken: hosted %d, local %d; want 0", h, l)
	}

	if err := p.ed.Open(p.ctx, "agentls-local.yaml", good); err != nil {
		t.Fatal(err)
	}
	if err := p.ed.Save(p.ctx, "agentls-local.yaml"); err != nil {
		t.Fatal(err)
	}
	if err := p.ed.Await(p.ctx, func(ms []lspclient.Message) bool {
		for _, m := range ms {
			if m.Method == "window/showMessage" && strings.Contains(string(m.Params), "model requests resume") {
				return true
			}
		}
		return false
	}); err != nil {
		t.Fatalf("no showMessage after the fixed file was saved: %v", err)
	}
	if r := p.prompt(t); r.StopReason != "end_turn" {
		t.Fatalf("prompt after the fix = %+v (%+v)", r, r.Error)
	}
	if h, l := len(hosted.Requests()), len(local.Requests()); h != 0 || l != 1 {
		t.Fatalf("requests after the fix: hosted %d, local %d; want 0 and 1", h, l)
	}
}
