package mcpclient

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/sandbox"
)

// Limits of a server's connection.
const (
	// startTimeout bounds starting a server and its initialize handshake.
	startTimeout = 30 * time.Second
	// listTimeout bounds listing a server's tools.
	listTimeout = 30 * time.Second
	// closeGrace is how long a server may take to exit once its stdin is
	// closed before its process group is killed.
	closeGrace = 2 * time.Second
	// maxFrameBytes bounds one JSON-RPC message from a server: a larger one
	// ends the connection (the call fails, agentls's memory stays bounded).
	maxFrameBytes = 64 << 20
	// exitGrace is how long a failed call waits to learn whether the
	// server exited.
	exitGrace = 2 * time.Second
	// maxTools is the most tools one server may offer.
	maxTools = 256
)

// Restarts: a server that exited or failed to start is started again at
// its next use once its backoff passed (1 s, doubling to 30 s); after
// maxCrashes within crashWindow it stays failed.
var (
	backoffBase = time.Second
	backoffMax  = 30 * time.Second
	maxCrashes  = 5
	crashWindow = 10 * time.Minute
)

// State is a server's lifecycle state.
type State string

// The states of a server.
const (
	StateIdle    State = "idle"    // not started yet (lazy)
	StateRunning State = "running" // connected
	StateFailed  State = "failed"  // could not start, or exited
	StateSkipped State = "skipped" // not started on purpose (Spec.Skip)
	StateStopped State = "stopped" // closed by agentls
)

// Server is one MCP server's connection, started lazily and kept until
// Close. It is safe for concurrent use.
type Server struct {
	spec ServerSpec
	dir  string   // the working folder
	env  []string // the whole environment it starts with
	// roots are the workspace folders, advertised as the client's roots.
	roots []string

	stderr *tail

	mu       sync.Mutex
	state    State
	reason   string
	starting chan struct{} // closed when a start attempt ended
	cs       *mcp.ClientSession
	proc     *os.Process
	prep     *sandbox.Prepared // the running process's sandbox and watchdog
	exited   chan struct{}     // closed when the process exited
	// ended is closed when the running connection ended (cs.Wait);
	// broke says why, when the server's output broke the protocol.
	ended chan struct{}
	broke string
	gen   int // the start attempt the process belongs to
	// crashes are the recent exits and failed starts (within crashWindow);
	// retryAt is when the next start may be tried; gaveUp is set after
	// maxCrashes of them: the server stays failed.
	crashes  []time.Time
	retryAt  time.Time
	gaveUp   bool
	tools    []*mcp.Tool
	defBytes int // the offered definitions' size (Status.DefinitionBytes)
	// listed is closed and replaced each time the tool list is read again
	// after the server said it changed (tools/list_changed).
	listed chan struct{}
	// relistingPrompts: a prompt listing after prompts/list_changed is
	// under way (later notifications meanwhile are dropped).
	relistingPrompts bool
	// relisting: a listing after tools/list_changed is under way;
	// relistAgain: another notification came meanwhile.
	relisting, relistAgain bool
	closed                 bool
	wg                     sync.WaitGroup // the start, waiter and stderr goroutines
	// policy is the sandbox of the server's process (Pool.newServer).
	policy sandbox.Policy
	// calls are the running calls whose caller lent hooks (elicitation,
	// progress).
	calls calls
	// asking holds a token while one of the server's elicitations is put
	// to the user: its questions are asked one at a time.
	asking chan struct{}
	// prompts are the server's prompts (when it offers prompts), read at
	// start and again after prompts/list_changed; resources says it offers
	// resources.
	prompts   []*mcp.Prompt
	resources bool
}

// newServer returns the idle server of spec; env is its environment
// (already scrubbed), dir its working folder, pol the sandbox its process
// starts in.
func newServer(spec ServerSpec, dir string, env, roots []string, pol sandbox.Policy) *Server {
	s := &Server{spec: spec, dir: dir, env: env, roots: roots, policy: pol, stderr: newTail(2048), state: StateIdle, listed: make(chan struct{}), asking: make(chan struct{}, 1)}
	if spec.Skip != "" {
		s.state, s.reason = StateSkipped, spec.Skip
	} else if err := spec.check(); err != nil {
		s.state, s.reason = StateSkipped, err.Error()
	}
	return s
}

// Spec is the server's definition.
func (s *Server) Spec() ServerSpec { return s.spec }

// Status is what a face shows of the server now (agent/status,
// agent/checkModel): its State is a State, its Origin an Origin; Reason
// says why it failed or was skipped, StderrTail is the end of a failed
// server's stderr, ToolNames the tools it listed as it calls them (a long
// name cut, shownName), and DefinitionBytes the size of the tool
// definitions the model is sent for it (names, descriptions, schemas),
// reported apart from the built-in tools' budget.
func (s *Server) Status() agentproto.MCPServerStatus {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := agentproto.MCPServerStatus{Name: s.spec.Name, State: string(s.state), Origin: string(s.spec.Origin), Command: s.spec.CommandLine(), Reason: s.reason, Tools: len(s.tools), DefinitionBytes: s.defBytes}
	for _, t := range s.tools {
		st.ToolNames = append(st.ToolNames, shownName(t.Name))
	}
	if s.state == StateFailed {
		st.StderrTail = s.stderr.String()
	}
	return st
}

// session returns the connected session, starting the server on first use.
func (s *Server) session(ctx context.Context) (*mcp.ClientSession, error) {
	s.mu.Lock()
	switch {
	case s.state == StateRunning:
		cs := s.cs
		s.mu.Unlock()
		return cs, nil
	case s.closed:
		s.mu.Unlock()
		return nil, fmt.Errorf("MCP server %q is stopped", s.spec.Name)
	case s.state == StateFailed && !s.gaveUp && !time.Now().Before(s.retryAt):
		s.state, s.starting = StateIdle, nil // restart
		slog.Info("mcp: restarting server", "server", s.spec.Name, "crashes", len(s.crashes))
	case s.state == StateSkipped || s.state == StateFailed:
		err := s.failure()
		s.mu.Unlock()
		return nil, err
	}
	if s.starting == nil {
		s.starting = make(chan struct{})
		s.wg.Add(1)
		go s.start(s.starting)
	}
	ch := s.starting
	s.mu.Unlock()
	if err := await(ctx, ch); err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.state != StateRunning {
		return nil, s.failure()
	}
	return s.cs, nil
}

// failure is the error of a server that is not running (s.mu held).
func (s *Server) failure() error {
	msg := fmt.Sprintf("MCP server %q is %s: %s", s.spec.Name, s.state, s.reason)
	if t := s.stderr.String(); t != "" && s.state == StateFailed {
		msg += "; its stderr ends with: " + t
	}
	return errors.New(msg)
}

// start starts the process and connects (one attempt), then closes done.
func (s *Server) start(done chan struct{}) {
	defer s.wg.Done()
	defer close(done)
	ctx, cancel := context.WithTimeout(context.Background(), startTimeout)
	defer cancel()
	connect := s.connect
	if s.spec.Type == "http" {
		connect = s.connectHTTP
	}
	cs, tools, err := connect(ctx)
	var prompts []*mcp.Prompt
	if err == nil {
		prompts = listPrompts(ctx, cs)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if err != nil {
		if s.state != StateFailed { // the waiter may have said it exited
			s.crashed(err.Error())
		}
		slog.Warn("mcp: server failed to start", "server", s.spec.Name, "err", err, "stderr", s.stderr.String())
		return
	}
	if s.closed || s.state == StateFailed {
		_ = cs.Close()
		return
	}
	s.cs, s.tools, s.state, s.reason = cs, tools, StateRunning, ""
	s.prompts, s.resources = prompts, offersResources(cs)
	s.ended = make(chan struct{})
	s.wg.Add(1)
	go s.watchConnection(cs, s.ended, s.exited)
	slog.Info("mcp: server running", "server", s.spec.Name, "tools", len(tools))
}

// watchConnection waits for the connection cs to end and closes ended. A
// connection that ends while the server runs (bad JSON, a frame over
// maxFrameBytes, a broken HTTP session) leaves nothing to talk to: the
// server is marked crashed (restarted at its next use, with backoff) and
// its process group killed; a process that exits is its waiter's to
// record.
func (s *Server) watchConnection(cs *mcp.ClientSession, ended, exited chan struct{}) {
	defer s.wg.Done()
	err := cs.Wait()
	close(ended)
	s.mu.Lock()
	if s.closed || s.cs != cs || s.state != StateRunning {
		s.mu.Unlock()
		return
	}
	processGone := exited == nil
	if !processGone {
		select {
		case <-exited:
			processGone = true
		default:
		}
	}
	why := "its connection ended"
	// A write into a pipe the server no longer reads (EPIPE) is a server
	// that exited, as EOF is: its waiter says how, with its stderr.
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrClosedPipe) && !errors.Is(err, os.ErrClosed) && !errors.Is(err, syscall.EPIPE) {
		why = "its connection broke: " + err.Error()
		s.broke = why
	}
	if exited == nil { // an HTTP server: no process to wait for
		s.cs = nil
		s.crashed(why)
		slog.Warn("mcp: server connection ended", "server", s.spec.Name, "err", err)
		s.mu.Unlock()
		_ = cs.Close()
		return
	}
	s.mu.Unlock()
	if !processGone {
		slog.Warn("mcp: server connection ended; stopping the server", "server", s.spec.Name, "err", err)
		s.kill() // its waiter records the crash
	}
}

// testHookPrepared, when set (tests), runs between preparing a server's
// sandbox and starting it.
var testHookPrepared func()

// connect starts the process, runs the handshake and lists the tools.
func (s *Server) connect(ctx context.Context) (*mcp.ClientSession, []*mcp.Tool, error) {
	cmd, prep, err := serverCmd(s.spec, s.dir, s.env, s.policy)
	if err != nil {
		return nil, nil, fmt.Errorf("prepare %s: %w", s.spec.CommandLine(), err)
	}
	if testHookPrepared != nil {
		testHookPrepared()
	}
	inR, inW, err := os.Pipe()
	if err != nil {
		prep.Cleanup()
		return nil, nil, err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		prep.Cleanup()
		closeAll(inR, inW)
		return nil, nil, err
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		prep.Cleanup()
		closeAll(inR, inW, outR, outW)
		return nil, nil, err
	}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, errW
	if err := prep.Start(cmd); err != nil {
		prep.Cleanup()
		closeAll(inR, inW, outR, outW, errR, errW)
		return nil, nil, fmt.Errorf("start %s: %w", s.spec.CommandLine(), err)
	}
	closeAll(inR, outW, errW)
	exited := make(chan struct{})
	s.mu.Lock()
	s.gen++
	gen := s.gen
	s.proc, s.prep, s.exited = cmd.Process, prep, exited
	closed := s.closed
	s.mu.Unlock()
	s.wg.Add(2)
	errPipe := newStderrPipe()
	go s.readStderr(errR, errPipe)
	go s.wait(cmd, exited, gen, prep, errPipe)
	if closed {
		closeAll(inW, outR)
		return nil, nil, errors.New("stopped")
	}

	client := s.newClient()
	// A server that exits during the handshake ends it at once.
	hctx, hcancel := context.WithCancel(ctx)
	defer hcancel()
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		select {
		case <-exited:
			hcancel()
		case <-hctx.Done():
		}
	}()
	cs, err := client.Connect(hctx, &mcp.IOTransport{Reader: outR, Writer: inW, MaxLineLength: maxFrameBytes}, nil)
	if err != nil {
		closeAll(inW, outR)
		s.kill()
		settle(exited)
		return nil, nil, fmt.Errorf("connect to %s: %w", s.spec.CommandLine(), s.exitedErr(exited, err))
	}
	tools, err := listTools(hctx, cs)
	if err != nil {
		_ = cs.Close()
		s.kill()
		settle(exited)
		return nil, nil, fmt.Errorf("list the tools of %q: %w", s.spec.Name, s.exitedErr(exited, err))
	}
	return cs, tools, nil
}

// listTools lists every tool, page by page, at most maxTools.
func listTools(ctx context.Context, cs *mcp.ClientSession) ([]*mcp.Tool, error) {
	ctx, cancel := context.WithTimeout(ctx, listTimeout)
	defer cancel()
	var out []*mcp.Tool
	for t, err := range cs.Tools(ctx, nil) {
		if err != nil {
			return nil, err
		}
		if len(out) == maxTools {
			slog.Warn("mcp: server offers too many tools; the rest are left out", "max", maxTools)
			break
		}
		out = append(out, t)
	}
	return out, nil
}

// exitedErr says "the server exited" instead of a transport error when the
// process is gone.
func (s *Server) exitedErr(exited chan struct{}, err error) error {
	select {
	case <-exited:
		s.mu.Lock()
		defer s.mu.Unlock()
		return fmt.Errorf("the server exited (%s)", s.reason)
	default:
		return err
	}
}

// wait waits for the process of start attempt gen to exit, kills what is
// left of its group, lets its stderr drain (bounded), then marks the
// server failed (unless agentls stopped it, or a later attempt runs).
func (s *Server) wait(cmd *exec.Cmd, exited chan struct{}, gen int, prep *sandbox.Prepared, errPipe stderrPipe) {
	defer s.wg.Done()
	err := cmd.Wait()
	sandbox.KillGroup(cmd.Process) // what the server left in its group
	s.drain(errPipe)
	s.mu.Lock()
	var dead *mcp.ClientSession
	if !s.closed && gen == s.gen && s.state != StateFailed {
		reason := "exited"
		if err != nil {
			reason = "exited: " + err.Error()
		}
		if s.broke != "" { // agentls killed it: its output broke the protocol
			reason, s.broke = s.broke+"; the server was stopped", ""
		}
		slog.Warn("mcp: server exited", "server", s.spec.Name, "err", err, "stderr", s.stderr.String())
		dead = s.cs
		s.cs = nil
		s.crashed(reason)
	}
	s.mu.Unlock()
	prep.Cleanup() // the watchdog fires, the private TMPDIR goes
	close(exited)
	if dead != nil {
		_ = dead.Close()
	}
}

// crashed marks the server failed after an exit or a failed start, and
// says when it restarts (s.mu held).
func (s *Server) crashed(reason string) {
	now := time.Now()
	kept := s.crashes[:0]
	for _, c := range s.crashes {
		if now.Sub(c) < crashWindow {
			kept = append(kept, c)
		}
	}
	s.crashes = append(kept, now)
	s.state = StateFailed
	if len(s.crashes) >= maxCrashes {
		s.gaveUp = true
		s.reason = fmt.Sprintf("%s; %d crashes within %s: not restarted", reason, len(s.crashes), crashWindow)
		return
	}
	d := backoffBase << (len(s.crashes) - 1)
	if d > backoffMax || d < 0 {
		d = backoffMax
	}
	s.retryAt = now.Add(d)
	s.reason = fmt.Sprintf("%s; restarts at its next use after %s", reason, d)
}

// kill ends the server: its reaper kills everything it started, then its
// process group is killed (Terminate ends with sandbox.KillGroup), and its
// watchdog fires.
func (s *Server) kill() {
	s.mu.Lock()
	p, prep, exited := s.proc, s.prep, s.exited
	s.mu.Unlock()
	prep.Terminate(p, exited)
	prep.Cleanup()
}

// Tools lists the server's tools, starting it if needed. While the list
// is being read again after tools/list_changed, it waits for that listing
// (bounded by listTimeout and ctx): a listing taken after the server said
// its tools changed must not offer the old ones.
func (s *Server) Tools(ctx context.Context) ([]*mcp.Tool, error) {
	if _, err := s.session(ctx); err != nil {
		return nil, err
	}
	s.mu.Lock()
	relisting, listed := s.relisting, s.listed
	s.mu.Unlock()
	if relisting {
		if err := await(ctx, listed); err != nil {
			return nil, err
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.tools, nil
}

// Call calls tool with args (a JSON object) within timeout; the result is
// rendered as text of at most maxBytes. A server that exits during the
// call ends it with an error.
func (s *Server) Call(ctx context.Context, tool string, args map[string]any, timeout time.Duration, maxBytes int) (CallResult, error) {
	return s.CallWith(ctx, tool, args, timeout, maxBytes, nil)
}

// CallWith is Call with hooks: the server's elicitations during the call
// go to hooks.Elicit (one at a time), its progress notifications to
// hooks.Progress. A server's error answer is cut to maxBytes like a result.
func (s *Server) CallWith(ctx context.Context, tool string, args map[string]any, timeout time.Duration, maxBytes int, hooks *CallHooks) (CallResult, error) {
	cs, err := s.session(ctx)
	if err != nil {
		return CallResult{}, err
	}
	s.mu.Lock()
	exited := s.exited
	s.mu.Unlock()
	ctx, cancel := context.WithTimeoutCause(ctx, timeout, fmt.Errorf("no answer within %s (mcp.call_timeout_secs)", timeout))
	defer cancel()
	ctx, cancelExit := context.WithCancelCause(ctx)
	defer cancelExit(nil)
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		select {
		case <-exited:
			cancelExit(errors.New("the server exited during the call"))
		case <-ctx.Done():
		}
	}()
	params := &mcp.CallToolParams{Name: tool, Arguments: args}
	if hooks != nil {
		token, done := s.calls.add(ctx, hooks)
		defer done()
		params.SetProgressToken(token)
	}
	res, err := cs.CallTool(ctx, params)
	if err != nil {
		// A connection that ended is most often a server that exited: give
		// its waiter a moment to say so, with its stderr. An error the
		// server answered with is no such thing: it is returned at once.
		if exited != nil && !serverAnswered(err) { // a process (not an HTTP server)
			select {
			case <-exited:
				s.mu.Lock()
				why := s.failureIfExited(exited)
				s.mu.Unlock()
				if strings.HasPrefix(why, "its connection broke") {
					return CallResult{}, fmt.Errorf("MCP server %q: %s", s.spec.Name, why)
				}
				return CallResult{}, fmt.Errorf("MCP server %q exited during the call (%s)", s.spec.Name, why)
			case <-time.After(exitGrace):
			case <-ctx.Done():
			}
		}
		if cause := context.Cause(ctx); cause != nil && ctx.Err() != nil {
			s.mu.Lock()
			failed := s.failureIfExited(exited)
			s.mu.Unlock()
			if failed != "" {
				return CallResult{}, fmt.Errorf("MCP server %q: %v (%s)", s.spec.Name, cause, failed)
			}
			return CallResult{}, fmt.Errorf("MCP server %q: %v", s.spec.Name, cause)
		}
		// A JSON-RPC error's message is the server's to choose: cut like a
		// result.
		return CallResult{}, fmt.Errorf("MCP server %q: %w", s.spec.Name, cutError(err, maxBytes))
	}
	return render(res, maxBytes), nil
}

// serverAnswered reports whether err is a JSON-RPC error the server sent,
// not one the SDK made of a connection that closed (client or server
// closing, rejected by the transport: -32003 to -32005).
func serverAnswered(err error) bool {
	var e *jsonrpc.Error
	return errors.As(err, &e) && (e.Code < -32005 || e.Code > -32003)
}

// cutErr is an error whose text is cut to a call's result cap; it
// unwraps to the whole error.
type cutErr struct {
	text string
	err  error
}

func (e *cutErr) Error() string { return e.text }
func (e *cutErr) Unwrap() error { return e.err }

// cutError is err with its text cut to maxBytes (capText), or err itself
// when it is short enough.
func cutError(err error, maxBytes int) error {
	text, cut := capText(err.Error(), maxBytes)
	if !cut {
		return err
	}
	return &cutErr{text: text, err: err}
}

// failureIfExited describes the exit of a server whose process is gone
// (s.mu held), or "".
func (s *Server) failureIfExited(exited chan struct{}) string {
	select {
	case <-exited:
		r := s.reason
		if t := strings.TrimSpace(s.stderr.String()); t != "" {
			r += "; its stderr ends with: " + t
		}
		return r
	default:
		return ""
	}
}

// Close stops the server: its stdin is closed, and its process group is
// killed if it has not exited within closeGrace. It waits for the
// server's goroutines.
func (s *Server) Close() {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return
	}
	s.closed = true
	cs, exited := s.cs, s.exited
	if s.state == StateRunning || s.state == StateIdle {
		s.state, s.reason = StateStopped, "stopped by agentls"
	}
	s.mu.Unlock()
	if cs != nil {
		done := make(chan struct{})
		go func() { defer close(done); _ = cs.Close() }()
		select {
		case <-done:
		case <-time.After(closeGrace):
		}
	}
	if exited != nil {
		select {
		case <-exited:
		case <-time.After(closeGrace):
		}
	}
	s.kill()
	s.wg.Wait()
}

func closeAll(fs ...*os.File) {
	for _, f := range fs {
		_ = f.Close()
	}
}

// newClient is the MCP client of a server's connection: it reads the tool
// list again when the server says it changed (tools/list_changed); the
// session's next tool listing offers the new list.
func (s *Server) newClient() *mcp.Client {
	c := mcp.NewClient(&mcp.Implementation{Name: "agentls", Version: "dev"}, &mcp.ClientOptions{
		// roots (the workspace folders, ACP additionalDirectories among
		// them) and elicitation, form and URL; no sampling.
		Capabilities: &mcp.ClientCapabilities{
			// Roots are deprecated from the 2026-07-28 revision on but still
			// read by the servers of older ones (issue 18 asks for them).
			//lint:ignore SA1019 roots stay advertised during the deprecation window
			RootsV2:     &mcp.RootCapabilities{},
			Elicitation: &mcp.ElicitationCapabilities{Form: &mcp.FormElicitationCapabilities{}, URL: &mcp.URLElicitationCapabilities{}},
		},
		ElicitationHandler:          s.elicit,
		ProgressNotificationHandler: s.progress,
		PromptListChangedHandler: func(_ context.Context, req *mcp.PromptListChangedRequest) {
			s.mu.Lock()
			defer s.mu.Unlock()
			if s.closed || s.relistingPrompts {
				return
			}
			s.relistingPrompts = true
			s.wg.Add(1)
			go s.relistPrompts(req.Session)
		},
		ToolListChangedHandler: func(_ context.Context, req *mcp.ToolListChangedRequest) {
			s.mu.Lock()
			defer s.mu.Unlock()
			if s.closed {
				return
			}
			// A flood of notifications costs one listing in flight and at
			// most one more after it.
			if s.relisting {
				s.relistAgain = true
				return
			}
			s.relisting = true
			s.wg.Add(1)
			// Not on the connection's own goroutine: listing waits for
			// answers that goroutine reads.
			go s.relist(req.Session)
		},
	})
	// The workspace folders are the client's roots (issue 18's settled
	// capabilities), though the 2026-07-28 revision deprecates roots.
	var roots []*mcp.Root //lint:ignore SA1019 roots are advertised on purpose (see above)
	for _, r := range s.roots {
		uri := (&url.URL{Scheme: "file", Path: filepath.ToSlash(r)}).String() // escaped: a folder named C# or 50% stays itself
		roots = append(roots, &mcp.Root{URI: uri, Name: r})                   //lint:ignore SA1019 see above
	}
	if len(roots) > 0 {
		c.AddRoots(roots...) //lint:ignore SA1019 see above
	}
	return c
}

// relist reads the tool list of cs again (after tools/list_changed), once
// more for each burst of notifications that came during a listing.
func (s *Server) relist(cs *mcp.ClientSession) {
	defer s.wg.Done()
	for {
		ctx, cancel := context.WithTimeout(context.Background(), listTimeout)
		tools, err := listTools(ctx, cs)
		cancel()
		s.mu.Lock()
		if err != nil {
			slog.Warn("mcp: tools changed but could not be listed", "server", s.spec.Name, "err", err)
		} else if s.state == StateRunning && s.cs == cs {
			s.tools = tools
			slog.Debug("mcp: tool list changed", "server", s.spec.Name, "tools", len(tools))
		}
		close(s.listed)
		s.listed = make(chan struct{})
		if s.relistAgain && err == nil && !s.closed {
			s.relistAgain = false
			s.mu.Unlock()
			continue
		}
		s.relisting, s.relistAgain = false, false
		s.mu.Unlock()
		return
	}
}

// toolsListed is closed when the tool list is next read again after a
// tools/list_changed.
func (s *Server) toolsListed() <-chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.listed
}

// await waits until ch is closed or ctx ends (then its error).
func await(ctx context.Context, ch <-chan struct{}) error {
	select {
	case <-ch:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
