// Package acptest is the ACP face's end-to-end test harness, the twin of
// server/internal/lsptest on the same expectation core (internal/expect):
// an Env is one real `agentls acp` (acp.Serve) driven over real pipes by
// the ACP SDK's client side, with a scripted model.
//
// Tests wait on named Expectations (Env.Await), judged on every message
// agentls wrote to the client so far, in wire order, and on the
// session/prompt calls made through the Env: Met, Unmet (wait for the
// next message) or Unmeetable (fail at once). Not, AnyOf and AllOf combine
// them; Not with TurnEnded is a negative expectation ("no second
// permission request during the turn"). A failed wait names the
// expectation and shows the last messages.
package acptest

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/agentls/agentls/agent/llm"
	"github.com/agentls/agentls/agent/scripted"
	"github.com/agentls/agentls/internal/expect"
	"github.com/agentls/agentls/internal/setuptest"
)

// DefaultWaitTimeout bounds one Await unless Setup.WaitTimeout says
// otherwise: a deadline for a hung wait, not a timing assertion.
const DefaultWaitTimeout = 45 * time.Second

// envTimeout bounds an Env's whole life.
const envTimeout = 2 * time.Minute

// Setup is how Start builds an Env.
type Setup struct {
	// Script is the scripted model's transcript (YAML); empty for no model.
	Script string
	// Files are written into the workspace before the session starts.
	Files map[string]string
	// Caps are the client's capabilities.
	Caps sdk.ClientCapabilities
	// UserConfig is the user's config.yaml (trusted, unlike the workspace's).
	UserConfig string
	// Env overrides the agent's environment (XDG_CONFIG_HOME,
	// XDG_STATE_HOME and HOME are folders of the test's own).
	Env map[string]string
	// Permit answers a permission request (nil: cancelled).
	Permit func(context.Context, sdk.RequestPermissionRequest) sdk.RequestPermissionOutcome
	// AnswerAtOnce has Permit's answer go back the moment the request
	// arrives, as a client that answers by itself (an auto-approve
	// setting) does: agentls takes such an allowing answer as the
	// client's, not a person's (permission.HumanFloor). Without it the
	// client answers as a person does, after PersonReads.
	AnswerAtOnce bool
	// WaitTimeout bounds each Await; zero is DefaultWaitTimeout.
	WaitTimeout time.Duration
	// Rewrite, when set, changes each message the client writes before
	// agentls reads it (a line without its newline; the SDK writes one
	// message per write): a hostile client's answers (`null`, an error,
	// a result of the wrong shape) made from the SDK client's own.
	Rewrite func(line []byte) []byte
}

// Env is one ACP agent driven by an SDK client over real pipes.
type Env struct {
	// T is the test the Env fails.
	T testing.TB
	// Ctx ends with the test (or after two minutes).
	Ctx context.Context
	// Dir is the workspace folder (the sessions' cwd).
	Dir string
	// Conn is the client side of the connection.
	Conn *sdk.ClientSideConnection
	// Client answers the agent's requests.
	Client *Client
	// Model is the scripted model (nil without Setup.Script).
	Model *scripted.Provider

	waitTimeout time.Duration
	wire        *tap
	prompting   sync.WaitGroup

	prompts expect.Log[PromptState] // session/prompt calls made through the Env
}

// Start starts `agentls acp` as s describes, connects a client and runs
// initialize. The agent ends with the test.
func Start(t testing.TB, s Setup) *Env {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), envTimeout)
	t.Cleanup(cancel)
	root := t.TempDir()
	dir := filepath.Join(root, "ws")
	setuptest.WriteFiles(t, dir, s.Files)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	xdg := filepath.Join(root, "xdg")
	if s.UserConfig != "" {
		setuptest.WriteFiles(t, xdg, map[string]string{"agentls/config.yaml": s.UserConfig})
	}
	env := map[string]string{"XDG_CONFIG_HOME": xdg, "XDG_STATE_HOME": filepath.Join(root, "state"), "HOME": root}
	for k, v := range s.Env {
		env[k] = v
	}
	model := setuptest.Model(t, s.Script)
	var provider llm.Provider // nil without a script (not a nil *scripted.Provider)
	if model != nil {
		provider = model
	}
	// Registered before Serve's cleanup, so run after it: once agentls
	// stopped after its input ended.
	var e *Env
	t.Cleanup(func() {
		cancel() // ends a prompt still waiting on the connection
		if e != nil {
			e.prompting.Wait()
		}
	})
	wire := &tap{}
	c2aW, a2cR, _ := Serve(t, ctx, ServeOptions(env, provider), func(w io.Writer) io.Writer { return io.MultiWriter(w, wire) })
	client := &Client{permit: s.Permit, readFor: PersonReads}
	if s.AnswerAtOnce {
		client.readFor = 0
	}
	e = &Env{T: t, Ctx: ctx, Dir: dir, Client: client, Model: model, wire: wire, waitTimeout: s.WaitTimeout}
	if e.waitTimeout <= 0 {
		e.waitTimeout = DefaultWaitTimeout
	}
	var toAgent io.Writer = c2aW
	if s.Rewrite != nil {
		toAgent = rewriter{w: c2aW, rewrite: s.Rewrite}
	}
	e.Conn = sdk.NewClientSideConnection(client, toAgent, a2cR)
	Initialize(t, ctx, e.Conn, "acptest", s.Caps)
	return e
}

// NewSession starts a session in the workspace.
func (e *Env) NewSession() sdk.SessionId {
	e.T.Helper()
	res, err := e.Conn.NewSession(e.Ctx, sdk.NewSessionRequest{Cwd: e.Dir, McpServers: []sdk.McpServer{}})
	if err != nil {
		e.T.Fatalf("session/new: %v", err)
	}
	return res.SessionId
}

// PromptState is one session/prompt call made through the Env.
type PromptState struct {
	SessionID sdk.SessionId
	// Returned: the agent answered (the turn ended) or the call failed.
	Returned bool
	// Stop is the stop reason of a returned call without an error.
	Stop sdk.StopReason
	// Err is the returned call's error.
	Err error
}

// Prompt sends a text prompt and waits for the turn to end: its stop
// reason and error. The call is part of the State (TurnEnded).
func (e *Env) Prompt(sid sdk.SessionId, text string) (sdk.StopReason, error) {
	i := e.startPrompt(sid)
	return e.runPrompt(i, sid, text)
}

// PromptAsync sends a text prompt without waiting: await TurnEnded (or
// TurnEndedWith) for its end.
func (e *Env) PromptAsync(sid sdk.SessionId, text string) {
	i := e.startPrompt(sid)
	e.prompting.Add(1)
	go func() {
		defer e.prompting.Done()
		_, _ = e.runPrompt(i, sid, text)
	}()
}

// PromptAsyncCtx is PromptAsync under ctx: when ctx ends first, the SDK
// client withdraws the call ($/cancel_request with its id) and the call
// returns ctx's error at once; what agentls answers to it is in the
// messages (a response whose id is the call's).
func (e *Env) PromptAsyncCtx(ctx context.Context, sid sdk.SessionId, text string) {
	i := e.startPrompt(sid)
	e.prompting.Add(1)
	go func() {
		defer e.prompting.Done()
		res, err := e.Conn.Prompt(ctx, sdk.PromptRequest{SessionId: sid, Prompt: []sdk.ContentBlock{sdk.TextBlock(text)}})
		e.prompts.Set(i, PromptState{SessionID: sid, Returned: true, Stop: res.StopReason, Err: err})
	}()
}

// MustPrompt is Prompt that fails the test on an error.
func (e *Env) MustPrompt(sid sdk.SessionId, text string) sdk.StopReason {
	e.T.Helper()
	stop, err := e.Prompt(sid, text)
	if err != nil {
		e.T.Fatalf("session/prompt: %v", err)
	}
	return stop
}

func (e *Env) startPrompt(sid sdk.SessionId) int {
	return e.prompts.Add(PromptState{SessionID: sid})
}

func (e *Env) runPrompt(i int, sid sdk.SessionId, text string) (sdk.StopReason, error) {
	res, err := e.Conn.Prompt(e.Ctx, sdk.PromptRequest{SessionId: sid, Prompt: []sdk.ContentBlock{sdk.TextBlock(text)}})
	e.prompts.Set(i, PromptState{SessionID: sid, Returned: true, Stop: res.StopReason, Err: err})
	return res.StopReason, err
}

// Cancel sends session/cancel for sid.
func (e *Env) Cancel(sid sdk.SessionId) {
	e.T.Helper()
	if err := e.Conn.Cancel(e.Ctx, sdk.CancelNotification{SessionId: sid}); err != nil {
		e.T.Fatal(err)
	}
}

// Read returns a workspace file's content (name is slash-separated,
// relative to Dir).
func (e *Env) Read(name string) string {
	e.T.Helper()
	return setuptest.ReadFile(e.T, e.Dir, name)
}

// Exists reports whether a workspace file exists.
func (e *Env) Exists(name string) bool {
	_, err := os.Stat(filepath.Join(e.Dir, filepath.FromSlash(name)))
	return err == nil
}

// rewriter passes each message the client writes through rewrite.
type rewriter struct {
	w       io.Writer
	rewrite func([]byte) []byte
}

func (r rewriter) Write(p []byte) (int, error) {
	line := bytes.TrimSuffix(p, []byte("\n"))
	if _, err := r.w.Write(append(r.rewrite(bytes.Clone(line)), '\n')); err != nil {
		return 0, err
	}
	return len(p), nil
}
