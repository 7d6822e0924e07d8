package langpool

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/agentls/agentls/internal/lspwire"
	"github.com/agentls/agentls/sandbox"
)

// startTimeout bounds a server's start and initialize; stopTimeout its
// shutdown before it is killed.
const (
	startTimeout = 60 * time.Second
	stopTimeout  = 3 * time.Second
)

// client is agentls as the LSP client of one language server process,
// started in the sandbox.
type client struct {
	fileType string
	argv     []string
	initOpts map[string]any      // initialize's initializationOptions (tsserver.go)
	folders  []map[string]string // the workspace folders, as workspace/workspaceFolders answers them
	conn     jsonrpc2.Conn
	cmd      *exec.Cmd
	prep     *sandbox.Prepared
	stderr   *tail
	// pull: the server offers pull diagnostics (textDocument/diagnostic);
	// pulled: it has answered one (its later pulls are bounded by the
	// settle budget: documents.go).
	pull   bool
	pulled atomic.Bool
	// checksClean: the server offers tsserverCommand (clean.go); checks
	// are the checks under way, which stop waits for (none starts once
	// stopping is set, under mu).
	checksClean bool
	checks      sync.WaitGroup
	// started is when the process started; exited is closed when it has
	// ended, waitErr and exitedAt are then how and when (restart.go).
	started  time.Time
	exited   chan struct{}
	waitErr  error
	exitedAt time.Time

	// syncMu orders the document notifications (documents.go): a didChange
	// must reach the server after its didOpen.
	syncMu sync.Mutex

	mu        sync.Mutex
	docs      map[string]*document     // by URI: what the server was sent, open in it (at most maxOpenDocs)
	tick      uint64                   // counts the pool's questions, to date each document's use
	versions  int                      // the last version sent, of any document
	published map[string]publishParams // by URI: the last publishDiagnostics (published.go bounds it)
	// publishedAt is by URI when the last publish came, kept only while
	// no change was sent since (settled.go judges it).
	publishedAt map[string]time.Time
	// now is the clock publishes are timed by (time.Now; a test's own).
	now func() time.Time
	// unopenedSize is the size of each kept publish of a file agentls did
	// not open, unopenedBytes their sum (within maxUnopenedBytes);
	// overBudget: a publish was dropped (logged once).
	unopenedSize  map[string]int
	unopenedBytes int
	overBudget    bool
	lastUse       time.Time
	inFlight      int // calls under way: the client is in use, not idle
	stopping      bool
}

// startClient starts argv under pol in root and initializes it with the
// workspace folders and initOpts; now times its publishes.
func startClient(ctx context.Context, fileType string, argv []string, initOpts map[string]any, root string, folders []string, pol sandbox.Policy, launcher string, environ []string, now func() time.Time) (*client, error) {
	c, err := startProcess(fileType, argv, initOpts, root, pol, launcher, environ, now)
	if errors.Is(err, sandbox.ErrPrepareAgain) { // nothing ran: once more, the sandbox made anew
		c, err = startProcess(fileType, argv, initOpts, root, pol, launcher, environ, now)
	}
	if err != nil {
		return nil, err
	}
	return c.connect(ctx, root, folders)
}

// testHookPrepared, when set (tests), runs between preparing a server's
// sandbox and starting it.
var testHookPrepared func()

// startProcess starts the server's process for a client.
func startProcess(fileType string, argv []string, initOpts map[string]any, root string, pol sandbox.Policy, launcher string, environ []string, now func() time.Time) (*client, error) {
	// In a process group of its own behind the sandbox's watchdog (what is
	// left in the group dies with agentls, however agentls ends), PATH
	// never into the workspace.
	cmd, prep, err := sandbox.WatchedCommand(pol, launcher, argv, environ)
	if err != nil {
		return nil, fmt.Errorf("sandbox: %w", err)
	}
	cmd.Dir = root
	if testHookPrepared != nil {
		testHookPrepared()
	}
	// A child that left the server's process group (setsid: the group's kill
	// misses it; the server's reaper or bubblewrap's PID namespace ends it,
	// unless it escaped them) may hold the server's stderr open: once the
	// server exited, Wait waits that long for its pipes, then closes them,
	// so exited and stop stay bounded.
	cmd.WaitDelay = stopTimeout
	stdin, err := cmd.StdinPipe()
	if err != nil {
		prep.Cleanup()
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		prep.Cleanup()
		return nil, err
	}
	c := &client{fileType: fileType, argv: argv, initOpts: initOpts, cmd: cmd, prep: prep, stderr: &tail{max: 4096}, exited: make(chan struct{}),
		docs: map[string]*document{}, published: map[string]publishParams{}, publishedAt: map[string]time.Time{}, now: now, unopenedSize: map[string]int{}, lastUse: time.Now()}
	cmd.Stderr = c.stderr
	if err := prep.Start(cmd); err != nil {
		prep.Cleanup()
		return nil, fmt.Errorf("start %s: %w", argv[0], err)
	}
	c.started = time.Now()
	go func() {
		c.waitErr = cmd.Wait()
		c.exitedAt = time.Now()
		close(c.exited)
	}()
	// A write the server does not take in time, or cut short, may leave a
	// message half sent: the connection is lost, the server is ended.
	out, _ := stdin.(deadliner) // os/exec's pipe: an *os.File
	stalled := func(err error) {
		slog.Warn("language server not reading its input; stopping the server", "fileType", fileType, "argv", argv, "err", err)
		sandbox.KillGroup(cmd.Process)
	}
	c.conn = jsonrpc2.NewConn(newServerStream(stdio{r: stdout, w: stdin}, out, stalled), jsonrpc2.WithCodec(lspwire.Codec{}))
	c.conn.Go(context.Background(), c.handle)
	go func() { // ends with the connection: at stop, or when the server broke it
		<-c.conn.Done()
		select {
		case <-c.exited: // stopped, or it crashed (its output ended)
			return
		case <-time.After(time.Second):
		}
		if c.alive() {
			// A server still running whose connection broke (a message over
			// the cap, bytes that are not LSP) answers nothing more: end it,
			// and the next request starts it again like a crashed one.
			slog.Warn("language server connection broken; stopping the server", "fileType", fileType, "argv", argv, "err", c.conn.Err())
			sandbox.KillGroup(c.cmd.Process)
		}
	}()
	return c, nil
}

// connect runs the handshake with a started server (startProcess).
func (c *client) connect(ctx context.Context, root string, folders []string) (*client, error) {
	ictx, cancel := context.WithTimeout(ctx, startTimeout)
	defer cancel()
	if err := c.initialize(ictx, root, folders); err != nil {
		c.stop()
		return nil, fmt.Errorf("%s: initialize: %w (stderr: %s)", c.argv[0], err, c.stderr.String())
	}
	slog.Info("language server started", "fileType", c.fileType, "argv", c.argv, "sandbox", c.prep.Status.Mode, "pull", c.pull)
	return c, nil
}

// parentPID is the processId initialize names: agentls's pid when the
// server runs unconfined, else null. A server that watches its parent
// (typescript-language-server sends it signal 0 every three seconds)
// exits with status 1 mid-request when it cannot: in a PID namespace of
// its own (bwrap's --unshare-pid) the pid names no process or another
// one, and where Landlock scopes signals (ABI 6 on, Landlock alone) the
// signal is refused. A confined server ends with agentls all the same
// (bwrap's --die-with-parent, or its reaper and watchdog).
func (c *client) parentPID() any {
	if c.prep != nil && c.prep.Status.Confines() {
		return nil
	}
	return os.Getpid()
}

// initialize runs the LSP handshake.
func (c *client) initialize(ctx context.Context, root string, folders []string) error {
	wf := make([]map[string]string, len(folders))
	for i, f := range folders {
		wf[i] = map[string]string{"uri": fileURI(f), "name": f}
	}
	c.mu.Lock()
	c.folders = wf
	c.mu.Unlock()
	params := map[string]any{
		"processId":        c.parentPID(),
		"rootUri":          fileURI(root),
		"clientInfo":       map[string]string{"name": "agentls"},
		"workspaceFolders": wf,
		"capabilities": map[string]any{
			"general": map[string]any{"positionEncodings": []string{"utf-16"}},
			"workspace": map[string]any{
				"configuration": true, "workspaceFolders": true,
				"symbol":      map[string]any{},
				"diagnostics": map[string]any{"refreshSupport": false},
			},
			"textDocument": map[string]any{
				"synchronization":    map[string]any{"didSave": false},
				"publishDiagnostics": map[string]any{"versionSupport": true},
				"diagnostic":         map[string]any{"dynamicRegistration": false},
				"hover":              map[string]any{"contentFormat": []string{"plaintext", "markdown"}},
				"definition":         map[string]any{"linkSupport": true},
				"references":         map[string]any{},
				"documentSymbol":     map[string]any{"hierarchicalDocumentSymbolSupport": true},
				"rename":             map[string]any{"prepareSupport": false},
			},
		},
	}
	if c.initOpts != nil {
		params["initializationOptions"] = c.initOpts
	}
	var res struct {
		Capabilities struct {
			DiagnosticProvider     json.RawMessage `json:"diagnosticProvider"`
			ExecuteCommandProvider struct {
				Commands []string `json:"commands"`
			} `json:"executeCommandProvider"`
		} `json:"capabilities"`
	}
	if err := protocol.Call(ctx, c.conn, "initialize", params, &res); err != nil {
		return err
	}
	p := string(res.Capabilities.DiagnosticProvider)
	c.pull = p != "" && p != "null" && p != "false"
	c.checksClean = slices.Contains(res.Capabilities.ExecuteCommandProvider.Commands, tsserverCommand)
	return c.conn.Notify(ctx, "initialized", map[string]any{})
}

// handle answers the server's requests and notifications: diagnostics are
// kept; configuration is empty but for the server's own section
// (configSection: its initializationOptions); edits the server would make are refused
// (the pool never lets a server change the workspace).
func (c *client) handle(ctx context.Context, req *jsonrpc2.Request) (any, error) {
	switch req.Method() {
	case "textDocument/publishDiagnostics":
		var p publishParams
		if err := json.Unmarshal(req.Params(), &p); err == nil {
			p.Diagnostics = boundDiagnostics(p.Diagnostics)
			c.mu.Lock()
			c.keepPublished(p)
			c.mu.Unlock()
		}
		return nil, nil
	case "workspace/configuration":
		var p struct {
			Items []struct {
				Section string `json:"section"`
			} `json:"items"`
		}
		_ = json.Unmarshal(req.Params(), &p)
		out := make([]any, len(p.Items))
		for i, item := range p.Items {
			if s := configSection[c.fileType]; s != "" && item.Section == s && c.initOpts != nil {
				out[i] = c.initOpts // the same settings as at initialize
			}
		}
		return out, nil
	case "workspace/applyEdit":
		return map[string]any{"applied": false, "failureReason": "agentls's language servers do not edit the workspace"}, nil
	case "workspace/workspaceFolders":
		c.mu.Lock()
		defer c.mu.Unlock()
		return c.folders, nil
	}
	if req.IsCall() {
		return nil, nil // registerCapability, workDoneProgress/create, refreshes, showMessageRequest: accepted, ignored
	}
	return nil, nil
}

// call sends a request, cancelled with $/cancelRequest when ctx ends.
func (c *client) call(ctx context.Context, method string, params, result any) error {
	c.begin()
	defer c.end()
	select {
	case <-c.exited:
		return fmt.Errorf("%s has exited (stderr: %s)", c.argv[0], c.stderr.String())
	default:
	}
	// No question waits on a server for ever: one that is alive but stuck
	// (a loop, a deadlock) fails the call after requestTimeout.
	rctx, cancel := context.WithTimeout(ctx, requestTimeout)
	defer cancel()
	err := protocol.Call(rctx, c.conn, method, params, result)
	if err != nil && ctx.Err() == nil && rctx.Err() != nil {
		return fmt.Errorf("%s did not answer %s within %v: %w", c.argv[0], method, requestTimeout, errStuck)
	}
	if err != nil && ctx.Err() == nil {
		// A server that died under the call: say so, with its stderr's tail
		// (the connection only says EOF); bounded, the process is reaped.
		select {
		case <-c.exited:
			return fmt.Errorf("%s exited during %s (%v): %w (stderr: %s)", c.argv[0], method, c.waitErr, err, c.stderr.String())
		case <-time.After(200 * time.Millisecond):
		}
	}
	return err
}

// requestTimeout bounds every request to a language server: its start's
// initialize, its first diagnostics, a definition or rename question.
const requestTimeout = 60 * time.Second

// errStuck is a request the server did not answer in time.
var errStuck = errors.New("the language server is not answering")

func (c *client) touch() {
	c.mu.Lock()
	c.lastUse = time.Now()
	c.mu.Unlock()
}

// begin marks a call under way: until its end the client is not idle,
// however long the server takes to answer.
func (c *client) begin() {
	c.mu.Lock()
	c.inFlight++
	c.lastUse = time.Now()
	c.mu.Unlock()
}

// end marks a call's end: the idle time counts from here.
func (c *client) end() {
	c.mu.Lock()
	c.inFlight--
	c.lastUse = time.Now()
	c.mu.Unlock()
}

// idleFor is how long the client has been unused at now (0 while a call
// is under way).
func (c *client) idleFor(now time.Time) time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.inFlight > 0 {
		return 0
	}
	return now.Sub(c.lastUse)
}

// alive reports whether the process still runs.
func (c *client) alive() bool {
	select {
	case <-c.exited:
		return false
	default:
		return true
	}
}

// stop asks the server to shut down and exit, then ends it (its reaper
// kills what it started, or its process group is killed; then its
// watchdog kills the server's own group, also when the reaper is gone) if
// it has not exited within stopTimeout.
func (c *client) stop() {
	if c.alive() {
		ctx, cancel := context.WithTimeout(context.Background(), stopTimeout)
		if err := protocol.Call(ctx, c.conn, "shutdown", nil, nil); err == nil {
			_ = c.conn.Notify(ctx, "exit", nil)
		}
		cancel()
		select {
		case <-c.exited:
		case <-time.After(stopTimeout):
		}
	}
	c.prep.Terminate(c.cmd.Process, c.exited) // then kills the group and fires the watchdog, whatever the reaper did
	<-c.exited
	_ = c.conn.Close()
	c.mu.Lock()
	c.stopping = true
	c.mu.Unlock()
	c.checks.Wait() // the server exited: they end
	c.prep.Cleanup()
	slog.Info("language server stopped", "fileType", c.fileType, "argv", c.argv)
}

// stdio joins the server's stdout and stdin.
type stdio struct {
	r io.ReadCloser
	w io.WriteCloser
}

func (s stdio) Read(b []byte) (int, error)  { return s.r.Read(b) }
func (s stdio) Write(b []byte) (int, error) { return s.w.Write(b) }
func (s stdio) Close() error                { return errors.Join(s.w.Close(), s.r.Close()) }

// tail keeps the last max bytes written to it (a server's stderr).
type tail struct {
	mu  sync.Mutex
	max int
	buf []byte
}

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if len(t.buf) > t.max {
		t.buf = append([]byte(nil), t.buf[len(t.buf)-t.max:]...)
	}
	return len(p), nil
}

func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.buf)
}
