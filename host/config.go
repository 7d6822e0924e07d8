package host

import (
	"errors"
	"fmt"
	"io/fs"
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
// (trust.go). A layer that fails to load makes the configuration fail
// closed: the host remembers the config.LoadError and its model refuses
// every request with it until a reload succeeds (see provider).
func (h *Host) loadConfig() (cfg config.Config, diags []config.Diagnostic, trust config.WorkspaceTrust) {
	defer func() {
		err := config.LoadErrorOf(diags)
		h.mu.Lock()
		h.loadErr = err
		h.mu.Unlock()
	}()
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
		if f == h.opts.ConfigFile {
			if _, err := os.Stat(f); errors.Is(err, fs.ErrNotExist) {
				// --config names the file to use: without it, no other
				// layer (or built-in endpoint) stands in.
				diags = append(diags, config.Diagnostic{File: f, Severity: config.SeverityError, Message: "does not exist (named by --config)"})
				continue
			}
		}
		layer, d, err := config.FileLayer(f)
		diags = append(diags, d...)
		if err != nil {
			slog.Warn("config file", "file", f, "err", err)
			diags = append(diags, unreadable(f, err))
			continue
		}
		layers = append(layers, layer)
	}
	if len(h.opts.InitOptions) > 0 {
		layer, d := config.MapLayer(config.InitOptionsName, h.opts.InitOptions)
		diags = append(diags, d...)
		layers = append(layers, layer)
	}
	cfg, err := config.Resolve(layers...)
	if err != nil {
		slog.Error("config", "err", err)
		cfg = config.Default()
		diags = append(diags, config.Diagnostic{File: "configuration", Severity: config.SeverityError, Message: err.Error()})
	}
	return withOwnDefaults(cfg), diags, trust
}

// unreadable is the diagnostic of a config file that exists but cannot be
// read: like a broken file, it stops model requests until it loads.
func unreadable(path string, err error) config.Diagnostic {
	return config.Diagnostic{File: path, Severity: config.SeverityError, Message: fmt.Sprintf("cannot be read: %v", err)}
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
// changed or the last load's error did (a configuration that failed to load
// has a model that refuses every request). It reports whether anything
// changed.
func (h *Host) Reconfigure(cfg config.Config) bool {
	h.mu.Lock()
	old, oldErr, loadErr := h.cfg, h.appliedErr, h.loadErr
	if reflect.DeepEqual(old, cfg) && sameError(oldErr, loadErr) {
		h.mu.Unlock()
		return false
	}
	h.cfg, h.appliedErr = cfg, loadErr
	h.mu.Unlock()
	provider := h.mgr.Provider()
	if !reflect.DeepEqual(old.Model, cfg.Model) || !sameError(oldErr, loadErr) {
		provider = h.provider(cfg, loadErr)
	}
	h.mgr.Reconfigure(cfg, provider)
	h.mcp.Configure(cfg, h.mcpSpecs(cfg))
	if c, ok := h.intel.(interface{ Configure(config.Config) }); ok {
		c.Configure(cfg) // agentls's pool: servers whose command changed restart
	}
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

// sameError reports whether two load errors say the same.
func sameError(a, b error) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Error() == b.Error()
}

// LoadError is the error of the last configuration load (nil when every
// layer loaded): while it stands the model refuses every request with it.
func (h *Host) LoadError() error {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.loadErr
}

// BlockedBy is the load error in effect: while it is not nil the model
// refuses every request with it (see Reconfigure).
func (h *Host) BlockedBy() error {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.appliedErr
}
