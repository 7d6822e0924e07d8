// Package lsptest is the server's end-to-end test harness, in the manner of
// gopls's internal/test/integration: an Env is one real agentls server
// (server.Serve) driven over real OS pipes by an lspclient.Client, as an
// editor drives it, with a scripted model or a configured endpoint.
//
// Tests wait on named Expectations (Env.Await), each judged on the messages
// received so far and the agent/prompt calls made through the Env: Met,
// Unmet (wait for the next message) or Unmeetable (fail at once, e.g. the
// turn ended without the awaited message; see OnceMet). Every wait has its
// own deadline; a failed wait names the expectation that was not met and
// shows the last protocol messages.
//
// Payloads are decoded into the types the server sends them from
// (agent.Update*, agentproto.Session, agentproto.ModeChangedParams,
// questions.Question, agentproto.PromptResult), not into maps.
package lsptest

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/agentls/agentls/agent/llm"
	"github.com/agentls/agentls/agent/scripted"
	"github.com/agentls/agentls/config"
	"github.com/agentls/agentls/internal/expect"
	"github.com/agentls/agentls/internal/lspclient"
	"github.com/agentls/agentls/internal/setuptest"
	"github.com/agentls/agentls/permission"
	"github.com/agentls/agentls/server"
)

// DefaultWaitTimeout bounds one Await unless Setup.WaitTimeout says
// otherwise. It is a deadline for a hung wait, not a timing assertion: a
// wait that ends early ends as soon as its expectations are met.
const DefaultWaitTimeout = 45 * time.Second

// envTimeout bounds an Env's whole life (its calls to the server).
const envTimeout = 2 * time.Minute

// Env is one server driven by an LSP client over real pipes.
type Env struct {
	// T is the test the Env fails.
	T testing.TB
	// Ctx ends with the test (or after two minutes).
	Ctx context.Context
	// Dir is the workspace folder.
	Dir string
	// Editor is the client side of the connection.
	Editor *lspclient.Client
	// Model is the scripted model (nil without Setup.Script).
	Model *scripted.Provider

	waitTimeout time.Duration

	prompts expect.Log[PromptState] // agent/prompt calls made through the Env
}

// Setup is how Start builds an Env.
type Setup struct {
	// Script is the scripted model's transcript (YAML); empty for no model.
	Script string
	// Files are written into the workspace before the server starts.
	Files map[string]string
	// Caps are the client capabilities; nil is FullCaps.
	Caps map[string]any
	// Handlers answer the server's requests (lspclient defaults when nil).
	Handlers lspclient.Handlers
	// InitOpts are the initializationOptions (none when nil).
	InitOpts map[string]any
	// Dir reuses a workspace folder (restart tests); empty is a new one.
	Dir string
	// ConfigFile is the server's --config flag.
	ConfigFile string
	// Env is the server's environment; nil has every variable empty but
	// XDG_STATE_HOME and XDG_CONFIG_HOME, folders of the test's own unless
	// Env names them or HOME.
	Env map[string]string
	// RealModel builds the configured model (the provider factory) instead
	// of the script.
	RealModel bool
	// WaitTimeout bounds each Await; zero is DefaultWaitTimeout.
	WaitTimeout time.Duration
	// AnswerAtOnce has the editor's Handlers answer agent/askUser and
	// window/showMessageRequest the moment they arrive, as a client that
	// answers by itself (an auto-approve setting) does: agentls takes such
	// an allowing answer as the client's, not a person's (permission
	// HumanFloor). Without it the editor answers as a person does, after
	// PersonReads (Handlers.ReadFor, unless the test set it).
	AnswerAtOnce bool
}

// PersonReads is how long the test editor's person takes over a question
// before answering it: past permission.HumanFloor, so that agentls takes
// the answer as a person's.
const PersonReads = permission.HumanFloor + 50*time.Millisecond

// ReadAsAPerson waits as long as a person takes over a question or a plan
// before acting on it (PersonReads): agentls takes a plan approval that
// comes within permission.HumanFloor of the plan awaiting it (through
// agent/resolvePlan, a lens, /approve, agent/setMode) as the client's own,
// and does not approve.
func (e *Env) ReadAsAPerson() { time.Sleep(PersonReads) }

// FullCaps is an editor that can do everything agentls uses.
func FullCaps() map[string]any {
	return map[string]any{
		"workspace": map[string]any{
			"applyEdit":     true,
			"workspaceEdit": map[string]any{"documentChanges": true, "resourceOperations": []string{"create", "rename", "delete"}},
		},
		"window":       map[string]any{"showDocument": map[string]any{"support": true}},
		"experimental": map[string]any{"agent": map[string]any{"askUser": true, "modeIndicator": true, "savesEdits": true}},
	}
}

// PlainCaps are Neovim 0.7.2's capabilities in the parts agentls reads: a
// plain LSP client with applyEdit and resource operations, no
// documentChanges, no showDocument, no experimental.agent.
func PlainCaps() map[string]any {
	return map[string]any{
		"workspace": map[string]any{
			"applyEdit":     true,
			"workspaceEdit": map[string]any{"resourceOperations": []string{"rename", "create", "delete"}},
		},
		"window": map[string]any{"showMessage": map[string]any{"messageActionItem": map[string]any{"additionalPropertiesSupport": false}}},
	}
}

// Start starts a server as s describes, connects a client and runs
// initialize and initialized. The server and client end with the test.
func Start(t testing.TB, s Setup) *Env {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), envTimeout)
	t.Cleanup(cancel)
	dir := s.Dir
	if dir == "" {
		dir = t.TempDir()
	}
	setuptest.WriteFiles(t, dir, s.Files)
	model := setuptest.Model(t, s.Script)
	// Without HOME or the XDG folders a server uses the password
	// database's home (config.Home): each workspace gets folders of its
	// own beside it, the same for every server started on it (a restart
	// finds the state the first one left: the sessions it made).
	defaults := map[string]string{}
	if _, home := s.Env["HOME"]; !home {
		for k, suffix := range map[string]string{"XDG_STATE_HOME": ".xdg-state", "XDG_CONFIG_HOME": ".xdg-config"} {
			if _, ok := s.Env[k]; !ok {
				defaults[k] = dir + suffix
				if err := os.MkdirAll(defaults[k], 0o700); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	opts := server.Options{
		ConfigFile: s.ConfigFile,
		Getenv: func(k string) string {
			if v, ok := defaults[k]; ok {
				return v
			}
			return s.Env[k]
		},
		NewProvider: func(config.Config, func(string) string, string) (llm.Provider, error) {
			if model == nil {
				return nil, os.ErrNotExist
			}
			return model, nil
		},
	}
	if s.RealModel {
		opts.NewProvider = nil
	}
	handlers := s.Handlers
	if !s.AnswerAtOnce && handlers.ReadFor == 0 {
		handlers.ReadFor = PersonReads
	}
	ed, err := lspclient.Start(ctx, dir, func(ctx context.Context, rwc io.ReadWriteCloser) error {
		return server.Serve(ctx, rwc, opts)
	}, handlers)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ed.Close() })
	e := &Env{T: t, Ctx: ctx, Dir: dir, Editor: ed, Model: model, waitTimeout: s.WaitTimeout}
	if e.waitTimeout <= 0 {
		e.waitTimeout = DefaultWaitTimeout
	}
	caps := s.Caps
	if caps == nil {
		caps = FullCaps()
	}
	params := map[string]any{"rootUri": "file://" + filepath.ToSlash(dir), "capabilities": caps}
	if s.InitOpts != nil {
		params["initializationOptions"] = s.InitOpts
	}
	if err := ed.Call(ctx, "initialize", params, nil); err != nil {
		t.Fatalf("initialize: %v", err)
	}
	if err := ed.Notify(ctx, "initialized", map[string]any{}); err != nil {
		t.Fatal(err)
	}
	return e
}

// Read returns a workspace file's content (name is slash-separated,
// relative to Dir).
func (e *Env) Read(name string) string {
	e.T.Helper()
	return setuptest.ReadFile(e.T, e.Dir, name)
}
