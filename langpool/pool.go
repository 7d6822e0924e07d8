// Package langpool is agentls's own pool of language servers: agentls as
// the LSP client of the servers the user configured (lsp.servers, or the
// known ones found on PATH), for the faces whose editor cannot answer
// agent/diagnostics and agent/navigate (plain LSP editors, ACP). It
// implements agent.LanguageIntel. Servers start lazily, at the first
// question about a file of their type, in the sandbox profile `lsp` (the
// workspace read-only, their own cache writable, no network), stop after
// IdleAfter unused and when the pool closes. agentls's view of each file
// (its overlay of editor buffers and applied edits) is forwarded to them
// as didOpen/didChange before every question.
package langpool

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/agentls/agentls/agent/intel"
	"github.com/agentls/agentls/agent/tools"
	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/config"
	"github.com/agentls/agentls/sandbox"
	"github.com/agentls/agentls/workspace"
)

// DefaultIdleAfter is how long a server may stay unused before it stops.
const DefaultIdleAfter = 10 * time.Minute

// Options configure a Pool.
type Options struct {
	Workspace *workspace.Workspace
	Config    config.Config
	// Getenv reads the host's environment (PATH finds the default
	// servers; the servers get it, minus run.env_deny); nil is os.Getenv.
	Getenv func(string) string
	// Launcher is the sandbox launcher ("" is this executable).
	Launcher string
	// IdleAfter stops an unused server (0 is DefaultIdleAfter).
	IdleAfter time.Duration
	// CacheDir is the servers' cache root ("" is the user's cache folder
	// /agentls/lsp); each file type gets a folder of its own in it.
	CacheDir string
	// idleStopped, when set (tests), is told each file type whose server
	// stopped for being idle, once it stopped.
	idleStopped func(fileType string)
	// now, when set (tests), is the clock the servers' publishes are
	// timed by (settled.go); nil is time.Now.
	now func() time.Time
	// restartBackoff, when set (tests), is the first wait before a server
	// that keeps exiting starts again (restart.go); 0 is restartBackoff.
	restartBackoff time.Duration
}

// Pool is the workspace's language servers by file type.
type Pool struct {
	opts Options
	ws   *workspace.Workspace
	stop chan struct{}
	done chan struct{}

	mu       sync.Mutex
	cfg      config.Config
	cmds     map[string]command
	clients  map[string]*client
	starting map[string]chan struct{} // a start in progress, closed when it ends
	failed   map[string]string        // why a type's server could not start
	exits    map[string]*exitRow      // a type's server's exits in a row (restart.go)
	closed   bool
}

var _ intel.Source = (*Pool)(nil)

// New makes a pool; no server starts until a file of its type is asked
// about.
func New(opts Options) *Pool {
	if opts.Getenv == nil {
		opts.Getenv = os.Getenv
	}
	if opts.IdleAfter <= 0 {
		opts.IdleAfter = DefaultIdleAfter
	}
	if opts.now == nil {
		opts.now = time.Now
	}
	if opts.CacheDir == "" {
		if base, err := os.UserCacheDir(); err == nil {
			opts.CacheDir = filepath.Join(base, "agentls", "lsp")
		}
	}
	p := &Pool{opts: opts, ws: opts.Workspace, stop: make(chan struct{}), done: make(chan struct{}),
		clients: map[string]*client{}, starting: map[string]chan struct{}{}, failed: map[string]string{}, exits: map[string]*exitRow{}}
	p.Configure(opts.Config)
	go p.reap()
	return p
}

// Configure takes a new configuration (a workspace file the user
// trusted): servers whose command changed stop, to start anew when asked;
// a server that failed to start or kept exiting is started again.
func (p *Pool) Configure(cfg config.Config) {
	// Never a program of the workspace's: PATH entries at or below its
	// folders (an activated .venv/bin, direnv's bin) are left out, as for
	// run and MCP servers (docs/guard.md).
	cmds := commands(cfg.LSP, sandbox.SearchPath(p.opts.Getenv("PATH"), p.opts.Workspace.Folders()))
	var stale []*client
	p.mu.Lock()
	p.cfg = cfg
	for t, c := range p.clients {
		if strings.Join(cmds[t].argv, "\x00") != strings.Join(c.argv, "\x00") {
			stale = append(stale, c)
			delete(p.clients, t)
		}
	}
	p.cmds = cmds
	p.failed = map[string]string{}
	p.exits = map[string]*exitRow{}
	p.mu.Unlock()
	for _, c := range stale {
		c.stop()
	}
}

// Close stops every server and the idle watch.
func (p *Pool) Close() {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return
	}
	p.closed = true
	clients := p.clients
	p.clients = map[string]*client{}
	p.mu.Unlock()
	close(p.stop)
	<-p.done
	for _, c := range clients {
		c.stop()
	}
}

// reap stops servers unused for IdleAfter, checking every tenth of it.
func (p *Pool) reap() {
	defer close(p.done)
	t := time.NewTicker(max(p.opts.IdleAfter/10, 10*time.Millisecond))
	defer t.Stop()
	for {
		select {
		case <-p.stop:
			return
		case <-t.C:
		}
		var idle []*client
		p.mu.Lock()
		now := time.Now()
		for ft, c := range p.clients {
			switch {
			case !c.alive():
				p.noteExitLocked(ft, c)
			case c.idleFor(now) >= p.opts.IdleAfter:
				delete(p.exits, ft) // it ran until unused: no crash loop
			default:
				continue
			}
			idle = append(idle, c)
			delete(p.clients, ft)
		}
		p.mu.Unlock()
		for _, c := range idle {
			c.stop()
			if p.opts.idleStopped != nil {
				p.opts.idleStopped(c.fileType)
			}
		}
	}
}

// Running lists the file types whose server runs now.
func (p *Pool) Running() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return sortedTypes(p.clients)
}

// Serves implements intel.Source: a server is configured or found for the
// file's type.
func (p *Pool) Serves(file string) bool {
	t := intel.Family(intel.FileType(file))
	p.mu.Lock()
	defer p.mu.Unlock()
	return t != "" && p.cmds[t].argv != nil && !p.closed
}

// ServedTypes implements intel.TypeLister: the file types with a server
// that did not fail to start or keep exiting (the agent offers the code tools for them,
// and names them in the tools' descriptions).
func (p *Pool) ServedTypes() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	var out []string
	for _, t := range sortedTypes(p.cmds) {
		if c := p.cmds[t]; c.argv != nil && p.failed[t] == "" && (p.exits[t] == nil || p.exits[t].broken == "") && !p.closed {
			out = append(out, t)
		}
	}
	return out
}

// Status implements intel.Source: each known file type, its server and
// state, or why none serves it.
func (p *Pool) Status() []agentproto.LanguageServing {
	mem := groupMemory(p.processGroups()) // reads /proc: not under the lock
	p.mu.Lock()
	defer p.mu.Unlock()
	var out []agentproto.LanguageServing
	for _, t := range sortedTypes(p.cmds) {
		c := p.cmds[t]
		switch {
		case c.argv == nil:
			out = append(out, agentproto.LanguageServing{FileType: t, Source: "none", Detail: c.why})
		case p.failed[t] != "":
			out = append(out, agentproto.LanguageServing{FileType: t, Source: "none", Detail: "failed: " + p.failed[t]})
		case p.exits[t] != nil && p.exits[t].broken != "":
			out = append(out, agentproto.LanguageServing{FileType: t, Source: "none", Detail: "failed: " + p.exits[t].broken})
		default:
			state := "starts when needed"
			if c := p.clients[t]; c != nil {
				state = "running"
				if c.cmd.Process != nil && mem[c.cmd.Process.Pid] > 0 {
					state = fmt.Sprintf("running, %d MB", mem[c.cmd.Process.Pid]>>20)
				}
			}
			out = append(out, agentproto.LanguageServing{FileType: t, Source: "pool", Detail: strings.Join(c.argv, " ") + " (" + c.origin + ", " + state + ")"})
		}
	}
	return out
}

// client is the running server of file's type, started now if needed.
func (p *Pool) client(ctx context.Context, file string) (*client, error) {
	t := intel.Family(intel.FileType(file))
	if t == "rust" {
		if err := p.refuseRust(file); err != nil {
			return nil, err
		}
	}
	for {
		p.mu.Lock()
		if p.closed {
			p.mu.Unlock()
			return nil, fmt.Errorf("language servers: closed")
		}
		cmd := p.cmds[t]
		if t == "" || cmd.argv == nil {
			p.mu.Unlock()
			return nil, fmt.Errorf("%w (%s)", intel.ErrNotServed, filepath.Base(file))
		}
		if c := p.clients[t]; c != nil && c.alive() {
			// Touched under the pool's lock, which the idle watch holds
			// while it judges: a client handed out now is not stopped
			// before its caller uses it.
			c.touch()
			p.mu.Unlock()
			return c, nil
		} else if c != nil { // it exited on its own
			delete(p.clients, t)
			p.noteExitLocked(t, c)
			p.mu.Unlock()
			c.stop() // its process is gone: cleans up at once
			continue
		}
		if why := p.failed[t]; why != "" {
			p.mu.Unlock()
			return nil, fmt.Errorf("the %s language server could not start: %s", t, why)
		}
		if err := p.restartErrLocked(t, time.Now()); err != nil {
			p.mu.Unlock()
			return nil, err
		}
		if wait, ok := p.starting[t]; ok {
			p.mu.Unlock()
			select {
			case <-wait:
				continue
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		}
		wait := make(chan struct{})
		p.starting[t] = wait
		cfg := p.cfg
		p.mu.Unlock()

		environ, why := p.serverEnviron(cfg, t, cmd.origin) // reads the workspace: not under the lock
		var c *client
		var err error
		if why == "" {
			c, err = startClient(ctx, t, cmd.argv, cmd.init, p.ws.Root(), p.ws.Folders(), p.policy(cfg, t), p.opts.Launcher, environ, p.opts.now)
		}
		p.mu.Lock()
		delete(p.starting, t)
		close(wait)
		if why != "" {
			// Never started: Status says why, the code tools drop the type
			// (until Configure looks again).
			if strings.Join(p.cmds[t].argv, "\x00") == strings.Join(cmd.argv, "\x00") {
				p.cmds[t] = command{why: why}
			}
			p.mu.Unlock()
			return nil, fmt.Errorf("%w (%s): %s", intel.ErrNotServed, filepath.Base(file), why)
		}
		if err != nil {
			if ctx.Err() == nil {
				p.failed[t] = err.Error()
			}
			p.mu.Unlock()
			return nil, err
		}
		if p.closed {
			p.mu.Unlock()
			c.stop()
			return nil, fmt.Errorf("language servers: closed")
		}
		p.clients[t] = c
		p.mu.Unlock()
		return c, nil
	}
}

// policy is the sandbox profile `lsp` of a file type's server: its cache
// folder (per workspace and type) is the only place it writes.
func (p *Pool) policy(cfg config.Config, fileType string) sandbox.Policy {
	cache := ""
	if p.opts.CacheDir != "" {
		sum := sha256.Sum256([]byte(p.ws.Root()))
		cache = filepath.Join(p.opts.CacheDir, hex.EncodeToString(sum[:8]), fileType)
	}
	return tools.LSPPolicy(cfg, p.ws.Folders(), cache)
}

// refuseRust stops a running rust-analyzer found on PATH, and refuses the
// question about file, once the workspace gained while it ran what
// rustRefusal names (a `git checkout` of another branch): it would read
// those settings and run what they say. A start checks this itself
// (serverEnviron). The check reads the workspace: not under the lock.
func (p *Pool) refuseRust(file string) error {
	p.mu.Lock()
	watch := p.cmds["rust"].origin == "PATH" && p.clients["rust"] != nil
	p.mu.Unlock()
	if !watch {
		return nil
	}
	why := rustRefusal(p.ws.Folders())
	if why == "" {
		return nil
	}
	p.mu.Lock()
	c := p.clients["rust"]
	delete(p.clients, "rust")
	if p.cmds["rust"].origin == "PATH" {
		p.cmds["rust"] = command{why: why}
	}
	p.mu.Unlock()
	if c != nil {
		c.stop()
	}
	return fmt.Errorf("%w (%s): %s", intel.ErrNotServed, filepath.Base(file), why)
}

// serverEnviron is environ for a file type's server, or why the server
// must not start: rust-analyzer gets rustEnv, and one found on PATH (not
// named in lsp.servers) does not start where the repository could still
// choose what it runs (rustRefusal).
func (p *Pool) serverEnviron(cfg config.Config, fileType, origin string) ([]string, string) {
	environ := p.environ(cfg)
	if fileType != "rust" {
		return environ, ""
	}
	folders := p.ws.Folders()
	if why := rustRefusal(folders); why != "" && origin == "PATH" {
		return nil, why
	}
	pathVar := ""
	for _, kv := range environ {
		if v, ok := strings.CutPrefix(kv, "PATH="); ok {
			pathVar = v
		}
	}
	out, ok := rustEnv(environ, sandbox.SearchPath(pathVar, folders))
	if !ok && origin == "PATH" {
		return nil, "rustc not found on PATH (cargo would run the one the repository's .cargo/config.toml names)"
	}
	return out, ""
}

// environ is the servers' environment: the host's, without the variables
// run.env_deny names (API keys, tokens) and the model's key variable.
func (p *Pool) environ(cfg config.Config) []string {
	var out []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if k == "PATH" {
			continue
		}
		denied := k == cfg.Model.APIKeyEnv
		for _, pat := range cfg.Run.EnvDeny {
			if ok, _ := path.Match(pat, k); ok {
				denied = true
			}
		}
		if !denied {
			out = append(out, kv)
		}
	}
	pathVar := p.opts.Getenv("PATH")
	if pathVar == "" {
		pathVar = os.Getenv("PATH") // a server still needs its tools (gopls runs go)
	}
	return append(out, "PATH="+pathVar)
}
