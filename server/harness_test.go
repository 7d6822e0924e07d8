package server_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"

	"github.com/agentls/agentls/agent/llm"
	"github.com/agentls/agentls/agent/scripted"
	"github.com/agentls/agentls/config"
	"github.com/agentls/agentls/internal/lspclient"
	"github.com/agentls/agentls/server"
)

// harness is one server driven by a fake editor over real pipes.
type harness struct {
	t     *testing.T
	ctx   context.Context
	dir   string
	ed    *lspclient.Client
	model *scripted.Provider
}

// fullCaps is an editor that can do everything agentls uses.
func fullCaps() map[string]any {
	return map[string]any{
		"workspace": map[string]any{
			"applyEdit":     true,
			"workspaceEdit": map[string]any{"documentChanges": true, "resourceOperations": []string{"create", "rename", "delete"}},
		},
		"window":       map[string]any{"showDocument": map[string]any{"support": true}},
		"experimental": map[string]any{"agent": map[string]any{"askUser": true, "modeIndicator": true, "savesEdits": true}},
	}
}

type setup struct {
	script   string            // scripted model transcript (YAML)
	files    map[string]string // workspace files
	caps     map[string]any    // client capabilities; nil → fullCaps
	handlers lspclient.Handlers
	initOpts map[string]any
	dir      string // reuse a workspace (restart tests)
	// configFile is the --config flag; env the server's environment (nil:
	// every variable empty).
	configFile string
	env        map[string]string
	// realModel builds the configured model (agent.NewProvider) instead of
	// the script.
	realModel bool
}

// startReal starts a plain client's server with the configured model.
func startReal(t *testing.T, env map[string]string, initOpts map[string]any) *harness {
	return start(t, setup{caps: plainCaps(), realModel: true, env: env, initOpts: initOpts})
}

func start(t *testing.T, s setup) *harness {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	dir := s.dir
	if dir == "" {
		dir = t.TempDir()
	}
	for name, content := range s.files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var model *scripted.Provider
	if s.script != "" {
		sc, err := scripted.Parse([]byte(s.script))
		if err != nil {
			t.Fatalf("script: %v", err)
		}
		model = scripted.New(sc)
	}
	opts := server.Options{
		ConfigFile: s.configFile,
		Getenv:     func(k string) string { return s.env[k] },
		NewProvider: func(config.Config, func(string) string, string) (llm.Provider, error) {
			if model == nil {
				return nil, os.ErrNotExist
			}
			return model, nil
		},
	}
	if s.realModel {
		opts.NewProvider = nil
	}
	ed, err := lspclient.Start(ctx, dir, func(ctx context.Context, rwc io.ReadWriteCloser) error {
		return server.Serve(ctx, rwc, opts)
	}, s.handlers)
	if err != nil {
		t.Fatal(err)
	}
	h := &harness{t: t, ctx: ctx, dir: dir, ed: ed, model: model}
	t.Cleanup(func() { _ = ed.Close() })
	caps := s.caps
	if caps == nil {
		caps = fullCaps()
	}
	params := map[string]any{"rootUri": "file://" + filepath.ToSlash(dir), "capabilities": caps}
	if s.initOpts != nil {
		params["initializationOptions"] = s.initOpts
	}
	var res map[string]any
	if err := ed.Call(ctx, "initialize", params, &res); err != nil {
		t.Fatalf("initialize: %v", err)
	}
	if err := ed.Notify(ctx, "initialized", map[string]any{}); err != nil {
		t.Fatal(err)
	}
	return h
}

type sessionInfo struct {
	SessionID string  `json:"sessionId"`
	Title     string  `json:"title"`
	Mode      string  `json:"mode"`
	PlanFile  *string `json:"planFile"`
}

func (h *harness) newSession(mode string) sessionInfo {
	h.t.Helper()
	params := map[string]any{}
	if mode != "" {
		params["mode"] = mode
	}
	var s sessionInfo
	if err := h.ed.Call(h.ctx, "agent/newSession", params, &s); err != nil {
		h.t.Fatalf("newSession: %v", err)
	}
	return s
}

type promptResult struct {
	StopReason string       `json:"stopReason"`
	Error      *promptError `json:"error"`
}

type promptError struct {
	Message string `json:"message"`
}

func (e *promptError) String() string {
	if e == nil {
		return "<nil>"
	}
	return e.Message
}

func (h *harness) prompt(sid, text string) promptResult {
	h.t.Helper()
	var r promptResult
	if err := h.ed.Call(h.ctx, "agent/prompt", map[string]any{"sessionId": sid, "text": text}, &r); err != nil {
		h.t.Fatalf("prompt: %v", err)
	}
	return r
}

// promptAsync sends a prompt without waiting; its result arrives on the channel.
func (h *harness) promptAsync(sid, text string) <-chan promptResult {
	done := make(chan promptResult, 1)
	go func() {
		var r promptResult
		_ = h.ed.Call(h.ctx, "agent/prompt", map[string]any{"sessionId": sid, "text": text}, &r)
		done <- r
	}()
	return done
}

func (h *harness) read(name string) string {
	h.t.Helper()
	b, err := os.ReadFile(filepath.Join(h.dir, filepath.FromSlash(name)))
	if err != nil {
		h.t.Fatal(err)
	}
	return string(b)
}

// updates returns the `update` objects of agent/update notifications of one kind.
func (h *harness) updates(kind string) []map[string]any {
	var out []map[string]any
	for _, m := range h.ed.Messages() {
		if m.Method != "agent/update" {
			continue
		}
		var p struct {
			Update map[string]any `json:"update"`
		}
		if json.Unmarshal(m.Params, &p) == nil && p.Update["sessionUpdate"] == kind {
			out = append(out, p.Update)
		}
	}
	return out
}

// messages returns the params of every message with this method.
func (h *harness) messages(method string) []json.RawMessage {
	var out []json.RawMessage
	for _, m := range h.ed.Messages() {
		if m.Method == method {
			out = append(out, m.Params)
		}
	}
	return out
}

// logLines are the window/logMessage texts.
func (h *harness) logLines() []string {
	var out []string
	for _, raw := range h.messages("window/logMessage") {
		var p struct {
			Message string `json:"message"`
		}
		if json.Unmarshal(raw, &p) == nil {
			out = append(out, p.Message)
		}
	}
	return out
}

func hasLine(lines []string, prefix string) bool {
	for _, l := range lines {
		if strings.HasPrefix(l, prefix) {
			return true
		}
	}
	return false
}

// rpcCode extracts a JSON-RPC error code from a Call error (0 if none).
func rpcCode(err error) int64 {
	var je *jsonrpc2.Error
	if errors.As(err, &je) {
		return int64(je.Code)
	}
	return 0
}
