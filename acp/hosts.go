package acp

import (
	"errors"
	"log/slog"
	"slices"

	"github.com/agentls/agentls/config"
	"github.com/agentls/agentls/host"
	"github.com/agentls/agentls/workspace"
)

// hosted is one workspace this process serves (a host.Host) with the
// editor its agent talks to. The first session/new's cwd opens the first;
// every other cwd (a parent, a subfolder, another project) opens one of
// its own: the workspace is always the folder the client names.
type hosted struct {
	*host.Host
	root string
	ws   *workspace.Workspace
	mgr  agentServices
	ed   *editor
	// models are the model names configured when the workspace opened
	// (the choices of the model options).
	models []string
	// trustAsked are the workspace file contents asked about (trust.go).
	trustAsked trustAsked
	// extra are the session/new additionalDirectories this host was opened
	// with (resolved, sorted): more workspace folders after root.
	extra []string
}

// hostFor returns the workspace rooted at cwd, opening it the first time.
// cwd must be an absolute path to a folder.
func (a *Agent) hostFor(cwd string) (*hosted, error) { return a.hostForDirs(cwd, nil) }

// hostForDirs returns the workspace rooted at cwd with the additional
// folders extra (additional_dirs.go), opening it the first time.
func (a *Agent) hostForDirs(cwd string, extra []string) (*hosted, error) {
	real, err := realFolder("cwd", cwd)
	if err != nil {
		return nil, err
	}
	extra, err = realFolders(real, extra, config.Home(a.getenv))
	if err != nil {
		return nil, err
	}
	a.opening.Lock() // one opening at a time: a workspace is opened once
	defer a.opening.Unlock()
	if h, ok := a.servedHost(real, extra); ok {
		return h, nil
	}
	h, err := a.openHost(real, extra)
	if err != nil {
		return nil, err
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.closed {
		h.Close()
		return nil, errors.New("agentls is shutting down")
	}
	a.hosts = append(a.hosts, h)
	return h, nil
}

// servedHost finds the served workspace rooted at root with the
// additional folders extra.
func (a *Agent) servedHost(root string, extra []string) (*hosted, bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	for _, h := range a.hosts {
		if h.root == root && slices.Equal(h.extra, extra) {
			return h, true
		}
	}
	return nil, false
}

// openHost hosts the workspace of root. Keys of an untrusted workspace
// .agentls.yaml that widen permissions are ignored with a log line (trust
// the file from an LSP editor, or move the keys to the user's config).
func (a *Agent) openHost(root string, extra []string) (*hosted, error) {
	ed := &editor{a: a}
	h, err := host.New(host.Options{
		Folders: append([]string{root}, extra...), ConfigFile: a.opts.ConfigFile, Getenv: a.getenv,
		NewProvider: a.opts.NewProvider, Editor: ed, LanguageIntel: a.languageIntel, // language_intel.go
	})
	var wsErr *host.WorkspaceError
	if errors.As(err, &wsErr) {
		return nil, invalidParams("%v", err)
	}
	if err != nil {
		return nil, err
	}
	if _, trust := h.Reload(); trust.Pending() {
		slog.Warn(trust.Warning())
	}
	cfg := h.Config()
	hd := &hosted{Host: h, root: h.Workspace().Root(), ws: h.Workspace(), mgr: h.Manager(), ed: ed,
		models: modelNames(cfg.Model.Name, cfg.Model.PlanName), extra: extra}
	ed.h = hd
	slog.Info("acp: serving workspace", "root", hd.root)
	return hd, nil
}

// modelNames are the configured model names, without blanks or repeats.
func modelNames(names ...string) []string {
	var out []string
	for _, n := range names {
		if n != "" && !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	return out
}
