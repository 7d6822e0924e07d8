package host

import (
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sync"

	"github.com/agentls/agentls/agent"
	"github.com/agentls/agentls/agent/llm"
	"github.com/agentls/agentls/config"
	"github.com/agentls/agentls/mcpclient"
	"github.com/agentls/agentls/workspace"
)

// Options configure a Host. A process may build several (the ACP face
// builds one per session/new cwd).
type Options struct {
	// Folders are the workspace folders, the first one the root; none
	// means the current directory.
	Folders []string
	// InitOptions is the client's own configuration (LSP
	// initializationOptions): the highest layer.
	InitOptions map[string]any
	// ConfigFile, when set, replaces <root>/.agentls.yaml (the --config flag).
	ConfigFile string
	// Getenv reads the environment; nil means os.Getenv.
	Getenv func(string) string
	// NewProvider builds the chat model of a configuration; nil means
	// NewProvider.
	NewProvider ProviderFactory
	// Editor is the face's side of the agent: how it streams updates,
	// applies changes and asks the user. Required.
	Editor agent.Editor
	// TrustStore remembers the trusted workspace configuration files; nil
	// means the store in the user's state folder (config.StateDir).
	TrustStore *config.TrustStore
	// LanguageIntel builds the workspace's language intelligence from the
	// configuration (the face picks the editor or agentls's pool by
	// lsp.source; language_intel.go); nil means none.
	LanguageIntel func(ws *workspace.Workspace, cfg config.Config) agent.LanguageIntel
}

// Host is one workspace hosted for a face: its folders, its configuration,
// the model and the agent's session manager.
type Host struct {
	opts  Options
	ws    *workspace.Workspace
	trust *config.TrustStore
	mgr   *agent.Manager
	diags []config.Diagnostic
	// mcp are the workspace's MCP servers (mcp.go).
	mcp *mcpclient.Pool
	// intel is the language intelligence (Options.LanguageIntel), or nil.
	intel agent.LanguageIntel

	mu  sync.Mutex
	cfg config.Config
	// loadErr is the last configuration load's config.LoadError (nil when
	// it loaded); appliedErr is the one in effect (see Reconfigure).
	loadErr, appliedErr error
}

// WorkspaceError is a workspace folder that cannot be hosted: the client's
// request names it, so a person can fix it.
type WorkspaceError struct{ Err error }

func (e *WorkspaceError) Error() string { return "workspace: " + e.Err.Error() }

// Unwrap returns the reason.
func (e *WorkspaceError) Unwrap() error { return e.Err }

// New hosts the workspace of opts: it loads the configuration layers (a
// file's problems are logged and kept for Diagnostics; a broken file does
// not stop the host), builds the model (a model that cannot be built is a
// BrokenProvider, so every turn says why) and returns a host whose Manager
// is ready.
func New(opts Options) (*Host, error) {
	if opts.Editor == nil {
		return nil, fmt.Errorf("host: an editor is required")
	}
	if opts.Getenv == nil {
		opts.Getenv = os.Getenv
	}
	if opts.NewProvider == nil {
		opts.NewProvider = refuseStrippedEnv(NewProvider, opts.ConfigFile) // home_unset.go
	}
	home := opts.userHome()
	dirs, err := folders(opts.Folders, home)
	if err != nil {
		return nil, &WorkspaceError{Err: err}
	}
	ws, err := workspace.New(dirs...)
	if err != nil {
		return nil, &WorkspaceError{Err: err}
	}
	h := &Host{opts: opts, ws: ws, trust: opts.TrustStore}
	if h.trust == nil {
		h.trust = config.NewTrustStore(config.StateDir(opts.Getenv))
	}
	cfg, diags, _ := h.loadConfig()
	h.cfg, h.diags = cfg, diags
	h.appliedErr = h.loadErr
	h.mcp = mcpclient.NewPool(ws.Root(), ws.Folders(), nil)
	h.mcp.Configure(cfg, h.mcpSpecs(cfg))
	if opts.LanguageIntel != nil {
		h.intel = opts.LanguageIntel(ws, cfg)
	}
	mgr, err := agent.NewManager(agent.Options{
		Workspace: ws, Config: cfg, Provider: h.provider(cfg, h.appliedErr), Editor: opts.Editor, ConfigPaths: opts.ProtectedConfig(),
		StateDir: config.StateDir(opts.Getenv), PlanOnly: homeReason(ws.Root(), home),
		UserInstructions: userInstructions(opts.Getenv), UserHome: home,
		UserCommands: userCommandsDir(opts.Getenv), ToolSource: mcpSource{h.mcp}, LanguageIntel: h.intel,
		UserAgents: userAgentsDir(opts.Getenv), ProjectAgentsTrusted: h.projectAgentsTrusted,
	})
	if err != nil {
		h.mcp.Close()
		h.closeIntel()
		return nil, err
	}
	h.mgr = mgr
	for _, d := range diags {
		slog.Warn("config", "file", d.File, "line", d.Line, "msg", d.Message)
	}
	return h, nil
}

// provider builds cfg's model, or a BrokenProvider that says why it could
// not. A configuration that failed to load (loadErr) gets no model at all:
// cfg then lacks the broken layer, and building it could send the
// conversation to an endpoint the user never chose (a built-in default).
func (h *Host) provider(cfg config.Config, loadErr error) llm.Provider {
	if loadErr != nil {
		slog.Error("configuration did not load: no model requests until it does", "err", loadErr)
		return BrokenProvider{Err: loadErr}
	}
	p, err := h.opts.NewProvider(cfg, h.opts.Getenv, h.ws.Root())
	if err != nil {
		slog.Error("model provider", "err", err)
		return BrokenProvider{Err: err}
	}
	return p
}

// Manager is the agent's session manager of this workspace.
func (h *Host) Manager() *agent.Manager { return h.mgr }

// Workspace is the hosted workspace.
func (h *Host) Workspace() *workspace.Workspace { return h.ws }

// Config is the configuration in effect.
func (h *Host) Config() config.Config {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.cfg
}

// Diagnostics are the configuration files' problems found when the host
// was built, for the face to show.
func (h *Host) Diagnostics() []config.Diagnostic { return h.diags }

// Close ends the sessions' turns and background work (agent.Manager.Close)
// and stops the MCP servers.
func (h *Host) Close() {
	h.mgr.Close()
	h.mcp.Close()
	h.closeIntel()
}

// closeIntel stops the language intelligence's servers, if it has any
// (agentls's pool).
func (h *Host) closeIntel() {
	if c, ok := h.intel.(interface{ Close() }); ok {
		c.Close()
	}
}

// userCommandsDir is the user's slash-commands folder, beside their config
// file ($XDG_CONFIG_HOME/agentls/commands); "" when no home is known.
func userCommandsDir(getenv func(string) string) string {
	f := config.UserFile(getenv)
	if f == "" {
		return ""
	}
	return filepath.Join(filepath.Dir(f), "commands")
}

// userInstructions is the user's own AGENTS.md, beside their config file
// ($XDG_CONFIG_HOME/agentls/AGENTS.md, else ~/.config/agentls/AGENTS.md);
// "" when no home is known. agentls reads it itself: its folder stays out
// of every tool's reach.
func userInstructions(getenv func(string) string) string {
	f := config.UserFile(getenv)
	if f == "" {
		return ""
	}
	return filepath.Join(filepath.Dir(f), "AGENTS.md")
}
