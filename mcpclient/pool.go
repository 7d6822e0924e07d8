package mcpclient

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"sync"

	"github.com/agentls/agentls/agent/tools"
	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/config"
)

// Pool is the MCP servers of one workspace: those of the configuration
// and of the workspace's files (shared by its sessions) and those an ACP
// client gave a session. It implements agent.ToolSource. It is safe for
// concurrent use.
type Pool struct {
	root    string
	folders []string
	environ func() []string

	mu       sync.Mutex
	cfg      config.Config
	shared   map[string]*Server
	sessions map[string]map[string]*Server
	closed   bool
}

// NewPool returns the pool of a workspace (root and folders absolute);
// environ is agentls's environment (nil: os.Environ).
func NewPool(root string, folders []string, environ func() []string) *Pool {
	if environ == nil {
		environ = os.Environ
	}
	return &Pool{root: root, folders: folders, environ: environ, shared: map[string]*Server{}, sessions: map[string]map[string]*Server{}}
}

// SpecsFromConfig are the servers of mcp.servers, sorted by name.
func SpecsFromConfig(cfg config.Config) []ServerSpec {
	var out []ServerSpec
	for name, s := range cfg.MCP.Servers {
		spec := ServerSpec{Name: name, Type: s.Type, Command: s.Command, Args: s.Args, Env: s.Env, Cwd: s.Cwd,
			URL: s.URL, Headers: s.Headers, Network: s.Network == nil || *s.Network, Origin: FromConfig, Source: "mcp.servers"}
		if s.Disabled {
			spec.Skip = "disabled in the configuration"
		}
		out = append(out, spec)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Configure makes cfg the configuration and specs the shared servers (the
// configuration's, then the workspace files'; a name given twice keeps the
// first). A server whose definition changed is stopped and replaced (it
// starts again on the next listing); one no longer defined is stopped.
func (p *Pool) Configure(cfg config.Config, specs []ServerSpec) {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return
	}
	// A server whose entry is unchanged is kept only when it would also
	// start with the same environment and sandbox: a change of
	// model.api_key_env, run.env_deny or the sandbox's settings replaces
	// it, so that no server keeps a variable the user has just denied.
	sandboxSame := reflect.DeepEqual(p.cfg.Sandbox, cfg.Sandbox)
	p.cfg = cfg
	next := map[string]*Server{}
	var stop []*Server
	for _, spec := range specs {
		if _, dup := next[spec.Name]; dup {
			slog.Warn("mcp: server defined twice; the first definition is used", "server", spec.Name, "source", spec.Source)
			continue
		}
		if old := p.shared[spec.Name]; old != nil && reflect.DeepEqual(old.spec, spec) && sandboxSame && slices.Equal(old.env, p.envOf(spec, cfg)) {
			next[spec.Name] = old
			continue
		}
		next[spec.Name] = p.newServer(spec, cfg)
	}
	for name, old := range p.shared {
		if next[name] != old {
			stop = append(stop, old)
		}
	}
	p.shared = next
	p.mu.Unlock()
	for _, s := range stop {
		s.Close()
	}
}

// SetSessionServers gives a session its own servers (an ACP client's
// mcpServers), replacing those it had.
func (p *Pool) SetSessionServers(sessionID string, specs []ServerSpec) {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return
	}
	old := p.sessions[sessionID]
	next := map[string]*Server{}
	for _, spec := range specs {
		if _, dup := next[spec.Name]; dup {
			continue
		}
		next[spec.Name] = p.newServer(spec, p.cfg)
	}
	p.sessions[sessionID] = next
	p.mu.Unlock()
	for _, s := range old {
		s.Close()
	}
}

// envOf is the whole environment a server of spec starts with under cfg.
func (p *Pool) envOf(spec ServerSpec, cfg config.Config) []string {
	env := tools.CommandEnv(p.environ(), cfg)
	for _, k := range spec.EnvNames() {
		env = append(env, k+"="+spec.Env[k])
	}
	return env
}

// Denied reports, under cfg, whether a variable is one no server gets from
// agentls's environment (the model's key, run.env_deny): a workspace file
// may not pass it on either (ReadWorkspaceFiles).
func Denied(cfg config.Config) func(name string) bool {
	return func(name string) bool { return tools.CommandEnvDenied(name, cfg) }
}

// DropSession stops the servers a session had of its own (SetSessionServers)
// and forgets them: the session closed or went. A later session/load
// names its servers anew.
func (p *Pool) DropSession(sessionID string) {
	p.mu.Lock()
	old := p.sessions[sessionID]
	delete(p.sessions, sessionID)
	p.mu.Unlock()
	for _, s := range old {
		s.Close()
	}
}

// newServer makes a server of spec under cfg (p.mu held).
func (p *Pool) newServer(spec ServerSpec, cfg config.Config) *Server {
	env := p.envOf(spec, cfg)
	dir := p.root
	if spec.Cwd != "" {
		dir = spec.Cwd
		if !filepath.IsAbs(dir) {
			dir = filepath.Join(p.root, dir)
		}
	}
	// The profile `mcp`: run's sandbox, .git read-only (nobody is asked
	// about what a server does), the network as its origin allows, caches
	// of its own out of run's reach.
	pol := tools.MCPPolicy(cfg, p.folders, spec.Network)
	return newServer(spec, dir, env, p.folders, pol)
}

// servers are the servers a session has: the shared ones, then its own
// (a name of both is the session's).
func (p *Pool) servers(sessionID string) []*Server {
	p.mu.Lock()
	defer p.mu.Unlock()
	own := p.sessions[sessionID]
	var out []*Server
	for _, name := range sortedNames(p.shared) {
		if own[name] == nil {
			out = append(out, p.shared[name])
		}
	}
	for _, name := range sortedNames(own) {
		out = append(out, own[name])
	}
	return out
}

func sortedNames(m map[string]*Server) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// SessionTools starts the session's servers that have not started (in
// parallel, each within its start timeout or ctx) and returns their tools,
// classified by mcp.read_only and mcp.trust_hints. A server that fails is
// left out (Status says why); a tool whose schema is over the limits or
// whose name repeats is left out with a log line.
func (p *Pool) SessionTools(ctx context.Context, sessionID string) []tools.Tool {
	servers := p.servers(sessionID)
	p.mu.Lock()
	c := Classifier{ReadOnly: p.cfg.MCP.ReadOnly, TrustHints: p.cfg.MCP.TrustHints}
	p.mu.Unlock()
	lists := make([][]*Tool, len(servers))
	var wg sync.WaitGroup
	for i, s := range servers {
		if st := State(s.Status().State); st == StateSkipped || st == StateStopped {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			ts, err := s.Tools(ctx)
			if err != nil {
				slog.Warn("mcp: server's tools left out", "server", s.spec.Name, "err", err)
				return
			}
			size := 0
			for _, t := range ts {
				tool, err := newTool(s, t, c)
				if err != nil {
					slog.Warn("mcp: tool left out", "err", err)
					continue
				}
				size += len(tool.name) + len(tool.desc) + len(tool.params)
				lists[i] = append(lists[i], tool)
			}
			s.mu.Lock()
			s.defBytes = size
			s.mu.Unlock()
		}()
	}
	wg.Wait()
	seen := map[string]bool{}
	var out []tools.Tool
	for _, l := range lists {
		for _, t := range l {
			if seen[t.name] {
				slog.Warn("mcp: tool name taken; left out", "tool", t.name, "server", t.server.spec.Name)
				continue
			}
			seen[t.name] = true
			out = append(out, t)
		}
	}
	return out
}

// Status is every server's status: the shared ones, then each session's.
func (p *Pool) Status() []agentproto.MCPServerStatus {
	p.mu.Lock()
	var servers []*Server
	for _, name := range sortedNames(p.shared) {
		servers = append(servers, p.shared[name])
	}
	for _, own := range p.sessions {
		for _, name := range sortedNames(own) {
			servers = append(servers, own[name])
		}
	}
	p.mu.Unlock()
	out := make([]agentproto.MCPServerStatus, 0, len(servers))
	for _, s := range servers {
		out = append(out, s.Status())
	}
	return out
}

// Close stops every server and waits for them.
func (p *Pool) Close() {
	p.mu.Lock()
	p.closed = true
	var all []*Server
	for _, s := range p.shared {
		all = append(all, s)
	}
	for _, own := range p.sessions {
		for _, s := range own {
			all = append(all, s)
		}
	}
	p.shared, p.sessions = map[string]*Server{}, map[string]map[string]*Server{}
	p.mu.Unlock()
	var wg sync.WaitGroup
	for _, s := range all {
		wg.Add(1)
		go func() { defer wg.Done(); s.Close() }()
	}
	wg.Wait()
}
