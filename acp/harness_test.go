package acp_test

import (
	"bufio"
	"cmp"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/agentls/agentls/acp/internal/acptest"
	"github.com/agentls/agentls/agent/llm"
	"github.com/agentls/agentls/internal/setuptest"
	"github.com/agentls/agentls/internal/testcache"
	"github.com/agentls/agentls/sandbox"
)

// TestMain keeps agentls's logs out of test output unless AGENTLS_TEST_LOG is set.
func TestMain(m *testing.M) {
	sandbox.Main() // the test binary is the sandbox's launcher (docs/contributing.md)
	if os.Getenv("AGENTLS_TEST_LOG") == "" {
		slog.SetDefault(slog.New(slog.NewTextHandler(io.Discard, nil)))
	}
	os.Exit(testcache.Run(m)) // the commands' caches go to a temporary folder
}

// setup describes one rig: the workspace's files, the scripted model, the
// client's capabilities and the user's configuration.
type setup struct {
	// clientName is the clientInfo name the client gives at initialize
	// (default "acp-go-test").
	clientName string
	// dir is the workspace (default: a new temporary folder).
	dir    string
	files  map[string]string
	script string
	// model, when set, is the model (instead of script).
	model llm.Provider
	// realProvider builds the model from the configuration as agentls does
	// (host.NewProvider), instead of model or script.
	realProvider bool
	caps         sdk.ClientCapabilities
	// userConfig is the user's config.yaml (trusted, unlike the workspace's).
	userConfig string
	// xdgConfig is XDG_CONFIG_HOME (default: a folder outside the workspace).
	xdgConfig string
	client    *testClient
	// env overrides the environment's variables (XDG_STATE_HOME, HOME).
	env map[string]string
	// wrapOut, when set, wraps agentls's output on its way to the client.
	wrapOut func(io.Writer) io.Writer
	// wrapIn, when set, wraps the client's output on its way to agentls.
	wrapIn func(io.Writer) io.Writer
}

// rig is the real ACP face on a real pipe, driven by the SDK's client side.
type rig struct {
	t      testing.TB
	ctx    context.Context
	dir    string
	client *testClient
	conn   *sdk.ClientSideConnection
	wire   *tap
	// toAgent is the client's raw line writer (for malformed input).
	toAgent io.Writer
	served  <-chan struct{}
}

func newRig(t testing.TB, s setup) *rig {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	root := t.TempDir()
	dir := s.dir
	if dir == "" {
		dir = filepath.Join(root, "ws")
	}
	writeFiles(t, dir, s.files)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	xdg := s.xdgConfig
	if xdg == "" {
		xdg = filepath.Join(root, "xdg")
	}
	if s.userConfig != "" {
		writeFiles(t, xdg, map[string]string{"agentls/config.yaml": s.userConfig})
	}
	// The state folder is the workspace's when the rig reuses one (a
	// restart finds the sessions the first agentls made), else the rig's.
	state := filepath.Join(root, "state")
	if s.dir != "" {
		state = s.dir + ".state"
	}
	env := map[string]string{"XDG_CONFIG_HOME": xdg, "XDG_STATE_HOME": state, "HOME": root}
	for k, v := range s.env {
		env[k] = v
	}
	model := s.model
	if s.script != "" {
		model = setuptest.Model(t, s.script)
	}
	opts := acptest.ServeOptions(env, model)
	if s.realProvider {
		opts.NewProvider = nil // host.NewProvider
	}
	tp := &tap{}
	c2aW, a2cR, served := acptest.Serve(t, ctx, opts, func(w io.Writer) io.Writer {
		out := io.MultiWriter(w, tp)
		if s.wrapOut != nil {
			out = s.wrapOut(out)
		}
		return out
	})
	client := s.client
	if client == nil {
		client = &testClient{}
	}
	client.dir = dir
	r := &rig{t: t, ctx: ctx, dir: dir, client: client, wire: tp, toAgent: c2aW, served: served}
	var toAgent io.Writer = c2aW
	if s.wrapIn != nil {
		toAgent = s.wrapIn(c2aW)
	}
	r.conn = sdk.NewClientSideConnection(client, toAgent, a2cR)
	acptest.Initialize(t, ctx, r.conn, cmp.Or(s.clientName, "acp-go-test"), s.caps)
	return r
}

// writeFiles writes files (slash-separated names relative to dir, and
// their content) under dir, creating folders.
func writeFiles(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	setuptest.WriteFiles(t, dir, files)
}

// stop ends the agent's input and waits for it to stop (a restart's first half).
func (r *rig) stop() {
	_ = r.toAgent.(io.Closer).Close()
	<-r.served
}

// newSession starts a session in the rig's workspace.
func (r *rig) newSession() sdk.NewSessionResponse {
	r.t.Helper()
	res, err := r.conn.NewSession(r.ctx, sdk.NewSessionRequest{Cwd: r.dir, McpServers: []sdk.McpServer{}})
	if err != nil {
		r.t.Fatalf("session/new: %v", err)
	}
	return res
}

// prompt sends a text prompt and returns the stop reason.
func (r *rig) prompt(sid sdk.SessionId, text string) (sdk.StopReason, error) {
	res, err := r.conn.Prompt(r.ctx, sdk.PromptRequest{SessionId: sid, Prompt: []sdk.ContentBlock{sdk.TextBlock(text)}})
	return res.StopReason, err
}

// promptResult is how a prompt sent with promptAsync ended.
type promptResult struct {
	stop sdk.StopReason
	err  error
}

// promptAsync sends a prompt without waiting: its result arrives on the
// channel once the turn ends (for a test that acts while the turn runs).
func (r *rig) promptAsync(sid sdk.SessionId, text string) <-chan promptResult {
	done := make(chan promptResult, 1)
	go func() {
		stop, err := r.prompt(sid, text)
		done <- promptResult{stop, err}
	}()
	return done
}

// cancel sends session/cancel for sid.
func (r *rig) cancel(sid sdk.SessionId) {
	r.t.Helper()
	if err := r.conn.Cancel(r.ctx, sdk.CancelNotification{SessionId: sid}); err != nil {
		r.t.Fatal(err)
	}
}

// mustPrompt is prompt that fails the test on an error.
func (r *rig) mustPrompt(sid sdk.SessionId, text string) sdk.StopReason {
	r.t.Helper()
	stop, err := r.prompt(sid, text)
	if err != nil {
		r.t.Fatalf("session/prompt: %v", err)
	}
	return stop
}

func (r *rig) read(name string) string {
	r.t.Helper()
	b, err := os.ReadFile(filepath.Join(r.dir, filepath.FromSlash(name)))
	if err != nil {
		r.t.Fatalf("read %s: %v", name, err)
	}
	return string(b)
}

// tap records every line agentls wrote, as the client received it.
type tap struct {
	mu   sync.Mutex
	buf  []byte
	msgs []map[string]any
}

func (t *tap) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	for {
		i := strings.IndexByte(string(t.buf), '\n')
		if i < 0 {
			break
		}
		var m map[string]any
		if err := json.Unmarshal(t.buf[:i], &m); err != nil {
			m = map[string]any{"unparsable": string(t.buf[:i])}
		}
		t.msgs = append(t.msgs, m)
		t.buf = t.buf[i+1:]
	}
	return len(p), nil
}

// requests returns the params of every request (or notification) of method.
func (t *tap) requests(method string) []map[string]any {
	t.mu.Lock()
	defer t.mu.Unlock()
	var out []map[string]any
	for _, m := range t.msgs {
		if m["method"] == method {
			p, _ := m["params"].(map[string]any)
			out = append(out, p)
		}
	}
	return out
}

// all returns every message recorded.
func (t *tap) all() []map[string]any {
	t.mu.Lock()
	defer t.mu.Unlock()
	return append([]map[string]any(nil), t.msgs...)
}

// testClient is an ACP client: it records what it is sent and writes files
// to disk like a simple editor. Hooks decide permissions and elicitations.
type testClient struct {
	dir string

	mu          sync.Mutex
	updates     []sdk.SessionNotification
	writes      []sdk.WriteTextFileRequest
	reads       []string
	permissions []sdk.RequestPermissionRequest
	// buffers are the client's unsaved texts by absolute path: reads return them.
	buffers map[string]string
	// failReads makes every fs/read_text_file fail.
	failReads bool
	// permit answers a permission request (nil: cancelled), as a person
	// does: its answer goes back acptest.PersonReads after the request
	// came (agentls takes a sooner allowing answer as the client's own,
	// permission.HumanFloor) unless answerAtOnce.
	permit func(context.Context, sdk.RequestPermissionRequest) sdk.RequestPermissionOutcome
	// answerAtOnce sends permit's answer the moment the request came, as a
	// client that answers by itself (an auto-approve setting) does.
	answerAtOnce bool
	// elicit answers an elicitation (nil: decline).
	elicit func(sdk.UnstableCreateElicitationRequest) sdk.UnstableCreateElicitationResponse
	// keepWrites keeps written text in buffers instead of the disk.
	keepWrites bool
	// hangWrites, when set, holds every fs/write_text_file unanswered
	// until it is closed (a hung editor).
	hangWrites chan struct{}
	// hangReads, when set, holds every fs/read_text_file unanswered until
	// it is closed.
	hangReads chan struct{}
	terms     terminals
	// createErr, when set, makes terminal/create fail with its message.
	createErr string
	// beforeCreate, when set, is called at each terminal/create before the
	// client starts the command.
	beforeCreate func()
	// onTerminal, when set, is called with each terminal the client starts.
	onTerminal func(*clientTerminal)
}

var _ sdk.Client = (*testClient)(nil)

func (c *testClient) SessionUpdate(_ context.Context, n sdk.SessionNotification) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.updates = append(c.updates, n)
	return nil
}

func (c *testClient) ReadTextFile(_ context.Context, p sdk.ReadTextFileRequest) (sdk.ReadTextFileResponse, error) {
	c.mu.Lock()
	c.reads = append(c.reads, p.Path)
	text, ok := c.buffers[p.Path]
	fail, hang := c.failReads, c.hangReads
	c.mu.Unlock()
	if hang != nil {
		<-hang
	}
	if fail {
		return sdk.ReadTextFileResponse{}, sdk.NewInternalError(map[string]any{"error": "the editor cannot read it now"})
	}
	if ok {
		return sdk.ReadTextFileResponse{Content: text}, nil
	}
	b, err := os.ReadFile(p.Path)
	if err != nil {
		return sdk.ReadTextFileResponse{}, sdk.NewInternalError(map[string]any{"error": err.Error()})
	}
	return sdk.ReadTextFileResponse{Content: string(b)}, nil
}

func (c *testClient) WriteTextFile(_ context.Context, p sdk.WriteTextFileRequest) (sdk.WriteTextFileResponse, error) {
	c.mu.Lock()
	c.writes = append(c.writes, p)
	keep, hang := c.keepWrites, c.hangWrites
	if keep {
		if c.buffers == nil {
			c.buffers = map[string]string{}
		}
		c.buffers[p.Path] = p.Content
	}
	c.mu.Unlock()
	if hang != nil {
		<-hang
		return sdk.WriteTextFileResponse{}, sdk.NewInternalError(map[string]any{"error": "too late"})
	}
	if keep {
		return sdk.WriteTextFileResponse{}, nil
	}
	if err := os.WriteFile(p.Path, []byte(p.Content), 0o644); err != nil {
		return sdk.WriteTextFileResponse{}, sdk.NewInternalError(map[string]any{"error": err.Error()})
	}
	return sdk.WriteTextFileResponse{}, nil
}

func (c *testClient) RequestPermission(ctx context.Context, p sdk.RequestPermissionRequest) (sdk.RequestPermissionResponse, error) {
	c.mu.Lock()
	c.permissions = append(c.permissions, p)
	permit, readFor := c.permit, acptest.PersonReads
	if c.answerAtOnce {
		readFor = 0
	}
	c.mu.Unlock()
	return acptest.AnswerAsPerson(ctx, p, permit, readFor), nil
}

func (c *testClient) UnstableCreateElicitation(_ context.Context, p sdk.UnstableCreateElicitationRequest) (sdk.UnstableCreateElicitationResponse, error) {
	c.mu.Lock()
	elicit := c.elicit
	c.mu.Unlock()
	if elicit == nil {
		return sdk.UnstableCreateElicitationResponse{Decline: &sdk.UnstableCreateElicitationDecline{}}, nil
	}
	return elicit(p), nil
}

// choose answers a permission request with the option of id.
func choose(id string) func(context.Context, sdk.RequestPermissionRequest) sdk.RequestPermissionOutcome {
	return func(context.Context, sdk.RequestPermissionRequest) sdk.RequestPermissionOutcome {
		return sdk.RequestPermissionOutcome{Selected: &sdk.RequestPermissionOutcomeSelected{OptionId: sdk.PermissionOptionId(id)}}
	}
}

// kinds lists the sessionUpdate kinds received, in order.
func (c *testClient) kinds() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make([]string, 0, len(c.updates))
	for _, u := range c.updates {
		out = append(out, updateKind(u.Update))
	}
	return out
}

func updateKind(u sdk.SessionUpdate) string {
	b, _ := json.Marshal(u)
	var m struct {
		SessionUpdate string `json:"sessionUpdate"`
	}
	_ = json.Unmarshal(b, &m)
	return m.SessionUpdate
}

// agentText is the concatenated agent_message_chunk text.
func (c *testClient) agentText() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	var b strings.Builder
	for _, u := range c.updates {
		if u.Update.AgentMessageChunk != nil && u.Update.AgentMessageChunk.Content.Text != nil {
			b.WriteString(u.Update.AgentMessageChunk.Content.Text.Text)
		}
	}
	return b.String()
}

// toolUpdates returns the tool_call_update updates of one tool call.
func (c *testClient) toolUpdates(id string) []*sdk.SessionToolCallUpdate {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []*sdk.SessionToolCallUpdate
	for _, u := range c.updates {
		if u.Update.ToolCallUpdate != nil && string(u.Update.ToolCallUpdate.ToolCallId) == id {
			out = append(out, u.Update.ToolCallUpdate)
		}
	}
	return out
}

// finalStatus is the last status a tool call was reported with.
func (c *testClient) finalStatus(id string) sdk.ToolCallStatus {
	var st sdk.ToolCallStatus
	for _, u := range c.toolUpdates(id) {
		if u.Status != nil {
			st = *u.Status
		}
	}
	return st
}

// lines reads agentls's raw output lines from r (for raw-wire tests).
func lines(r io.Reader) <-chan map[string]any {
	ch := make(chan map[string]any, 64)
	go func() {
		defer close(ch)
		sc := bufio.NewScanner(r)
		sc.Buffer(nil, 16<<20)
		for sc.Scan() {
			var m map[string]any
			if json.Unmarshal(sc.Bytes(), &m) != nil {
				m = map[string]any{"unparsable": sc.Text()}
			}
			ch <- m
		}
	}()
	return ch
}
