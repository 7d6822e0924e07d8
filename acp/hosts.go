package acp

import (
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/agentls/agentls/agent"
	"github.com/agentls/agentls/agent/llm"
	"github.com/agentls/agentls/config"
	"github.com/agentls/agentls/workspace"
)

// host is one workspace this process serves: its configuration, files,
// guard and sessions. The first session/new's cwd makes the first host; a
// cwd outside every served workspace gets a host of its own.
type host struct {
	root string
	ws   *workspace.Workspace
	mgr  *agent.Manager
	ed   *editor

	// models are the model names configured when the host opened (the
	// choices of the model options).
	models []string
	// newProvider builds the model of a configuration.
	newProvider func(config.Config) (llm.Provider, error)

	mu  sync.Mutex
	cfg config.Config // the configuration in force (model options change it)
}

// config is the configuration in force.
func (h *host) config() config.Config {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.cfg
}

// hostFor returns the host serving cwd, opening one when no served
// workspace holds it. cwd must be an absolute path to a folder.
func (a *Agent) hostFor(cwd string) (*host, error) {
	if cwd == "" || !filepath.IsAbs(cwd) {
		return nil, invalidParams("cwd must be an absolute path to the project folder, not %q", cwd)
	}
	real, err := filepath.EvalSymlinks(filepath.Clean(cwd))
	if err != nil {
		return nil, invalidParams("cwd %s: %v", cwd, err)
	}
	if fi, err := os.Stat(real); err != nil || !fi.IsDir() {
		return nil, invalidParams("cwd %s is not a folder", cwd)
	}
	a.opening.Lock() // one opening at a time: a workspace is opened once
	defer a.opening.Unlock()
	if h, ok := a.servedHost(real); ok {
		return h, nil
	}
	h, err := a.openHost(real)
	if err != nil {
		return nil, err
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.closed {
		h.mgr.Close()
		return nil, errors.New("agentls is shutting down")
	}
	a.hosts = append(a.hosts, h)
	return h, nil
}

// servedHost finds the host whose workspace holds path.
func (a *Agent) servedHost(path string) (*host, bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	for _, h := range a.hosts {
		if within(h.root, path) {
			return h, true
		}
	}
	return nil, false
}

// within reports whether path is root or inside it.
func within(root, path string) bool {
	rel, err := filepath.Rel(root, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// openHost builds the host of a workspace root.
func (a *Agent) openHost(root string) (*host, error) {
	ws, err := workspace.New(root)
	if err != nil {
		return nil, invalidParams("workspace %s: %v", root, err)
	}
	cfg := a.loadConfig(ws.Root())
	provider, err := a.newProvider(cfg, ws.Root())
	if err != nil {
		slog.Error("model provider", "root", ws.Root(), "err", err)
		provider = agent.BrokenProvider{Err: err}
	}
	h := &host{root: ws.Root(), ws: ws, cfg: cfg, models: modelNames(cfg.Model.Name, cfg.Model.PlanName)}
	h.newProvider = func(c config.Config) (llm.Provider, error) { return a.newProvider(c, ws.Root()) }
	h.ed = &editor{a: a, h: h}
	mgr, err := agent.NewManager(agent.Options{Workspace: ws, Config: cfg, Provider: provider, Editor: h.ed, ConfigPaths: a.protectedConfig()})
	if err != nil {
		return nil, fmt.Errorf("start the agent for %s: %w", root, err)
	}
	h.mgr = mgr
	slog.Info("acp: serving workspace", "root", h.root)
	return h, nil
}

func (a *Agent) newProvider(cfg config.Config, root string) (llm.Provider, error) {
	if a.opts.NewProvider != nil {
		return a.opts.NewProvider(cfg, a.getenv, root)
	}
	return agent.NewProvider(cfg, a.getenv, root)
}

// loadConfig merges the configuration layers: environment, the user's file,
// then the workspace's .agentls.yaml (or --config). Keys of an untrusted
// workspace file that widen permissions are ignored with a log line (this
// face has no trust dialog yet; trust the file from an LSP editor).
func (a *Agent) loadConfig(root string) config.Config {
	layers := []config.Source{config.EnvLayer(a.getenv)}
	if f := config.UserFile(a.getenv); f != "" {
		layers = appendFileLayer(layers, f)
	}
	if a.opts.ConfigFile != "" {
		layers = appendFileLayer(layers, a.opts.ConfigFile)
	} else if f := filepath.Join(root, ".agentls.yaml"); fileExists(f) {
		data, err := os.ReadFile(f)
		if err == nil {
			layer, diags := config.ParseLayer(f, data)
			logDiagnostics(diags)
			base, err := config.Resolve(layers...)
			if err != nil {
				base = config.Default()
			}
			trust := config.NewTrustStore(config.StateDir(a.getenv)).Judge(f, data, layer, base)
			if trust.Pending() {
				slog.Warn(trust.Warning())
			}
			layers = append(layers, trust.Layer)
		}
	}
	cfg, err := config.Resolve(layers...)
	if err != nil {
		slog.Error("config", "err", err)
		return config.Default()
	}
	return cfg
}

func appendFileLayer(layers []config.Source, f string) []config.Source {
	layer, diags, err := config.FileLayer(f)
	logDiagnostics(diags)
	if err != nil {
		slog.Warn("config file", "file", f, "err", err)
		return layers
	}
	return append(layers, layer)
}

func logDiagnostics(diags []config.Diagnostic) {
	for _, d := range diags {
		slog.Warn("config", "file", d.File, "line", d.Line, "msg", d.Message)
	}
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// protectedConfig is agentls's configuration known by path, for the guard.
func (a *Agent) protectedConfig() []string {
	paths := config.UserDirs(a.getenv)
	if a.opts.ConfigFile != "" {
		if abs, err := filepath.Abs(a.opts.ConfigFile); err == nil {
			paths = append(paths, abs)
		}
	}
	return paths
}
