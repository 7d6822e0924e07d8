package host

import (
	"log/slog"
	"os"
	"path/filepath"
	"reflect"

	"github.com/agentls/agentls/config"
)

// loadConfig merges the configuration layers, lowest first: environment
// (over the defaults), the user's config file, the workspace's
// .agentls.yaml (or --config instead), the client's options (PROTOCOL.md §1
// precedence). The workspace's .agentls.yaml applies whole only when the
// user trusted its content; trust says which of its keys wait for that
// (trust.go).
func (h *Host) loadConfig() (cfg config.Config, diags []config.Diagnostic, trust config.WorkspaceTrust) {
	root := h.ws.Root()
	layers := []config.Source{config.EnvLayer(h.opts.Getenv)}
	trustFile := h.opts.TrustFile(root)
	for _, f := range h.opts.configFilePaths(root) {
		if f == trustFile {
			var d []config.Diagnostic
			trust, d = h.judgeWorkspaceFile(f, layers)
			diags = append(diags, d...)
			layers = append(layers, trust.Layer)
			continue
		}
		layer, d, err := config.FileLayer(f)
		diags = append(diags, d...)
		if err != nil {
			slog.Warn("config file", "file", f, "err", err)
			continue
		}
		layers = append(layers, layer)
	}
	if len(h.opts.InitOptions) > 0 {
		layer, d := config.MapLayer("initializationOptions", h.opts.InitOptions)
		diags = append(diags, d...)
		layers = append(layers, layer)
	}
	cfg, err := config.Resolve(layers...)
	if err != nil {
		slog.Error("config", "err", err)
		cfg = config.Default()
	}
	return cfg, diags, trust
}

// Reload loads the configuration layers again (after a config file
// changed or the user trusted the workspace's), without applying them: the
// configuration that would apply and the workspace file's trust.
func (h *Host) Reload() (config.Config, config.WorkspaceTrust) {
	cfg, _, trust := h.loadConfig()
	return cfg, trust
}

// Reconfigure makes cfg the configuration of the host and of the agent
// (from each session's next step), with a new model when its settings
// changed. It reports whether anything changed.
func (h *Host) Reconfigure(cfg config.Config) bool {
	h.mu.Lock()
	old := h.cfg
	if reflect.DeepEqual(old, cfg) {
		h.mu.Unlock()
		return false
	}
	h.cfg = cfg
	h.mu.Unlock()
	provider := h.mgr.Provider()
	if !reflect.DeepEqual(old.Model, cfg.Model) {
		provider = h.provider(cfg)
	}
	h.mgr.Reconfigure(cfg, provider)
	h.mcp.Configure(cfg, h.mcpSpecs(cfg))
	slog.Info("configuration applied")
	return true
}

// configFilePaths are the config files, lowest layer first: the user's
// (when there is a config folder), then the workspace's .agentls.yaml, or
// ConfigFile instead of it. root "" means no workspace yet.
func (o Options) configFilePaths(root string) []string {
	var files []string
	if f := config.UserFile(o.getenv()); f != "" {
		files = append(files, f)
	}
	switch {
	case o.ConfigFile != "":
		files = append(files, o.ConfigFile)
	case root != "":
		files = append(files, filepath.Join(root, ".agentls.yaml"))
	}
	return files
}

// ConfigFiles are the config files a host of root reads, lowest layer
// first, as absolute paths (root "": before a workspace is known).
func (o Options) ConfigFiles(root string) []string {
	var out []string
	for _, f := range o.configFilePaths(root) {
		if abs, err := filepath.Abs(f); err == nil {
			out = append(out, abs)
		}
	}
	return out
}

// ProtectedConfig is agentls's configuration known by path, for the guard
// to protect: the user's config folders (as these options' environment
// names them) and ConfigFile (absolute). The workspace's .agentls.yaml is
// protected by name.
func (o Options) ProtectedConfig() []string {
	paths := config.UserDirs(o.getenv())
	if o.ConfigFile != "" {
		if abs, err := filepath.Abs(o.ConfigFile); err == nil {
			paths = append(paths, abs)
		}
	}
	return paths
}

func (o Options) getenv() func(string) string {
	if o.Getenv != nil {
		return o.Getenv
	}
	return os.Getenv
}
