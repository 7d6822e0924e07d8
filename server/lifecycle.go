package server

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"

	"go.lsp.dev/jsonrpc2"

	"github.com/agentls/agentls/agent"
	"github.com/agentls/agentls/config"
	"github.com/agentls/agentls/workspace"
)

var lspHandlers = map[string]handlerFunc{
	"initialize":                     (*Server).initialize,
	"initialized":                    (*Server).initializedNote,
	"shutdown":                       (*Server).shutdownReq,
	"textDocument/didSave":           (*Server).didSave,
	"workspace/executeCommand":       (*Server).executeCommand,
	"textDocument/codeLens":          (*Server).codeLens,
	"window/workDoneProgress/cancel": (*Server).cancelProgress,
	"workspace/didChangeConfiguration": func(*Server, context.Context, jsonrpc2.RawMessage) (any, error) {
		return nil, nil
	},
}

// clientCaps is what the editor said it can do, in the parts agentls uses.
type clientCaps struct {
	applyEdit          bool
	documentChanges    bool
	resourceOps        map[string]bool // create, rename, delete
	showDocument       bool
	workDoneProgress   bool
	messageActionProps bool // additionalPropertiesSupport on message action items
	askUser            bool // experimental.agent.askUser
	modeIndicator      bool // experimental.agent.modeIndicator
	agentClient        bool // experimental.agent was declared (our plugins)
	savesEdits         bool // experimental.agent.savesEdits
	codeLensRefresh    bool // workspace.codeLens.refreshSupport
}

// initializeParams is the part of LSP's InitializeParams agentls reads.
type initializeParams struct {
	RootURI          *string `json:"rootUri"`
	RootPath         *string `json:"rootPath"`
	WorkspaceFolders []struct {
		URI  string `json:"uri"`
		Name string `json:"name"`
	} `json:"workspaceFolders"`
	InitializationOptions map[string]any `json:"initializationOptions"`
	Capabilities          struct {
		Workspace struct {
			ApplyEdit     bool `json:"applyEdit"`
			WorkspaceEdit struct {
				DocumentChanges    bool     `json:"documentChanges"`
				ResourceOperations []string `json:"resourceOperations"`
			} `json:"workspaceEdit"`
			CodeLens struct {
				RefreshSupport bool `json:"refreshSupport"`
			} `json:"codeLens"`
		} `json:"workspace"`
		Window struct {
			WorkDoneProgress bool `json:"workDoneProgress"`
			ShowDocument     struct {
				Support bool `json:"support"`
			} `json:"showDocument"`
			ShowMessage struct {
				MessageActionItem struct {
					AdditionalPropertiesSupport bool `json:"additionalPropertiesSupport"`
				} `json:"messageActionItem"`
			} `json:"showMessage"`
		} `json:"window"`
		Experimental struct {
			Agent *struct {
				AskUser       bool `json:"askUser"`
				ModeIndicator bool `json:"modeIndicator"`
				SavesEdits    bool `json:"savesEdits"`
			} `json:"agent"`
		} `json:"experimental"`
	} `json:"capabilities"`
}

func (s *Server) initialize(ctx context.Context, raw jsonrpc2.RawMessage) (any, error) {
	var p initializeParams
	if err := json.Unmarshal(raw, &p); err != nil {
		return nil, invalidParams("initialize params: %v", err)
	}
	// One initialize builds the manager: a second one, also while the first
	// is still under way, is refused.
	s.mu.Lock()
	already := s.mgr != nil || s.initializing
	s.initializing = true
	s.mu.Unlock()
	if already {
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidRequest, "initialize was already called")
	}
	built := false
	defer func() {
		if !built { // a failed initialize may be retried
			s.mu.Lock()
			s.initializing = false
			s.mu.Unlock()
		}
	}()
	folders, err := workspaceFolders(p)
	if err != nil {
		return nil, invalidParams("%v", err)
	}
	ws, err := workspace.New(folders...)
	if err != nil {
		return nil, invalidParams("workspace: %v", err)
	}
	caps := clientCaps{
		applyEdit:          p.Capabilities.Workspace.ApplyEdit,
		documentChanges:    p.Capabilities.Workspace.WorkspaceEdit.DocumentChanges,
		resourceOps:        map[string]bool{},
		showDocument:       p.Capabilities.Window.ShowDocument.Support,
		workDoneProgress:   p.Capabilities.Window.WorkDoneProgress,
		messageActionProps: p.Capabilities.Window.ShowMessage.MessageActionItem.AdditionalPropertiesSupport,
		codeLensRefresh:    p.Capabilities.Workspace.CodeLens.RefreshSupport,
	}
	if a := p.Capabilities.Experimental.Agent; a != nil {
		caps.agentClient, caps.askUser, caps.modeIndicator, caps.savesEdits = true, a.AskUser, a.ModeIndicator, a.SavesEdits
	}
	for _, k := range p.Capabilities.Workspace.WorkspaceEdit.ResourceOperations {
		caps.resourceOps[k] = true
	}
	s.mu.Lock()
	s.trust = config.NewTrustStore(config.StateDir(s.getenv()))
	s.initOptions = p.InitializationOptions
	s.mu.Unlock()
	cfg, diags, _ := s.loadConfig(ws.Root(), p.InitializationOptions)
	provider, err := s.newProvider(cfg, ws.Root())
	if err != nil {
		slog.Error("model provider", "err", err)
		provider = agent.BrokenProvider{Err: err}
	}
	s.mu.Lock()
	s.ws, s.cfg, s.caps, s.configDiagnostics = ws, cfg, caps, diags
	s.mu.Unlock()
	mgr, err := agent.NewManager(agent.Options{Workspace: ws, Config: cfg, Provider: provider, Editor: s, ConfigPaths: s.protectedConfig()})
	if err != nil {
		return nil, jsonrpc2.NewError(jsonrpc2.InternalError, err.Error())
	}
	s.mu.Lock()
	s.mgr = mgr
	s.mu.Unlock()
	built = true
	for _, d := range diags {
		slog.Warn("config", "file", d.File, "line", d.Line, "msg", d.Message)
	}
	return initializeResult(s.opts.Version), nil
}

// workspaceFolders reads the folders from workspaceFolders, rootUri or
// rootPath, falling back to the current directory.
func workspaceFolders(p initializeParams) ([]string, error) {
	var out []string
	for _, f := range p.WorkspaceFolders {
		path, err := uriToPath(f.URI)
		if err != nil {
			return nil, err
		}
		out = append(out, path)
	}
	if len(out) == 0 && p.RootURI != nil && *p.RootURI != "" {
		path, err := uriToPath(*p.RootURI)
		if err != nil {
			return nil, err
		}
		out = append(out, path)
	}
	if len(out) == 0 && p.RootPath != nil && *p.RootPath != "" {
		out = append(out, *p.RootPath)
	}
	if len(out) == 0 {
		wd, err := os.Getwd()
		if err != nil {
			return nil, fmt.Errorf("no workspace folder and no working directory: %w", err)
		}
		out = append(out, wd)
	}
	return out, nil
}

// uriToPath converts a file:// URI to a cleaned local path.
func uriToPath(u string) (string, error) {
	parsed, err := url.Parse(u)
	if err != nil {
		return "", fmt.Errorf("bad URI %q: %w", u, err)
	}
	if parsed.Scheme != "file" {
		return "", fmt.Errorf("not a file URI: %q", u)
	}
	if parsed.Host != "" && parsed.Host != "localhost" {
		return "", fmt.Errorf("not a local file URI: %q", u)
	}
	return filepath.Clean(filepath.FromSlash(parsed.Path)), nil
}

// pathToURI converts an absolute path to a file:// URI.
func pathToURI(path string) string {
	u := url.URL{Scheme: "file", Path: filepath.ToSlash(path)}
	return u.String()
}

// loadConfig merges the configuration layers (PROTOCOL.md §1 precedence).
// The workspace's .agentls.yaml applies whole only when the user trusted
// its content; trust says which of its keys wait for that (trust.go).
func (s *Server) loadConfig(root string, initOptions map[string]any) (cfg config.Config, diags []config.Diagnostic, trust config.WorkspaceTrust) {
	getenv := s.getenv()
	layers := []config.Source{config.EnvLayer(getenv)}
	trustFile := s.trustFile(root)
	for _, f := range s.configFilePaths(root) {
		if f == trustFile {
			var d []config.Diagnostic
			trust, d = s.judgeWorkspaceFile(f, layers)
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
	if len(initOptions) > 0 {
		layer, d := config.MapLayer("initializationOptions", initOptions)
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

// configFilePaths are the config files, lowest layer first: the user's
// (when there is a config folder), then the workspace's .agentls.yaml, or
// --config instead of it. root "" means no workspace yet.
func (s *Server) configFilePaths(root string) []string {
	var files []string
	if f := config.UserFile(s.getenv()); f != "" {
		files = append(files, f)
	}
	switch {
	case s.opts.ConfigFile != "":
		files = append(files, s.opts.ConfigFile)
	case root != "":
		files = append(files, filepath.Join(root, ".agentls.yaml"))
	}
	return files
}

// protectedConfig is agentls's configuration known by path, for the guard
// to protect: the user's config folders (as this server's environment names
// them) and the --config file (absolute). The workspace's .agentls.yaml is
// protected by name.
func (s *Server) protectedConfig() []string {
	paths := config.UserDirs(s.getenv())
	if s.opts.ConfigFile != "" {
		if abs, err := filepath.Abs(s.opts.ConfigFile); err == nil {
			paths = append(paths, abs)
		}
	}
	return paths
}

func (s *Server) getenv() func(string) string {
	if s.opts.Getenv != nil {
		return s.opts.Getenv
	}
	return os.Getenv
}

func (s *Server) initializedNote(ctx context.Context, _ jsonrpc2.RawMessage) (any, error) {
	s.mu.Lock()
	s.initialized = true
	diags := s.configDiagnostics
	s.mu.Unlock()
	for _, d := range diags {
		typ, what := 2, "ignored, defaults and the other layers apply"
		if d.Severity != config.SeverityError {
			typ, what = 3, "used as it is"
		}
		where := d.File
		if d.Line > 0 {
			where = fmt.Sprintf("%s:%d:%d", d.File, d.Line, d.Column)
		}
		s.notifyClient(ctx, "window/showMessage", map[string]any{"type": typ, "message": fmt.Sprintf("agentls config %s: %s (%s)", where, d.Message, what)})
		if d.Severity == config.SeverityError {
			break // one error is enough: the whole file is ignored
		}
	}
	s.publishConfigDiagnostics()                   // diagnostics.go: on the files themselves too
	s.docWork.config.put(configReview, struct{}{}) // trust.go: ask to trust the workspace file
	return nil, nil
}

// preemptLifecycle records `shutdown` and `exit` on the read loop, in wire
// order: the handlers run concurrently, so an `exit` sent right behind
// `shutdown` (without waiting for its reply) could otherwise be seen first
// and end the process with code 1. `shutdown` then goes on to its handler,
// which cancels the turns and replies; a second one is refused.
func (s *Server) preemptLifecycle(method string) (any, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch method {
	case "shutdown":
		if s.shutdown {
			return nil, jsonrpc2.NewError(jsonrpc2.InvalidRequest, "the server is shut down: only exit is accepted")
		}
		s.shutdown = true
		return nil, jsonrpc2.ErrNotHandled
	default: // exit
		s.exitReceived = true
		s.stop()
		return nil, nil
	}
}

func (s *Server) shutdownReq(context.Context, jsonrpc2.RawMessage) (any, error) {
	s.mu.Lock()
	s.shutdown = true
	mgr := s.mgr
	s.mu.Unlock()
	if mgr != nil {
		mgr.CancelAll()
	}
	return nil, nil
}

// initializeResult is the server's capabilities (PROTOCOL.md §1).
func initializeResult(version string) map[string]any {
	if version == "" {
		version = "dev"
	}
	return map[string]any{
		"capabilities": map[string]any{
			"textDocumentSync": map[string]any{
				"openClose": true,
				"change":    2, // incremental
				"save":      map[string]any{"includeText": true},
			},
			"executeCommandProvider": map[string]any{"commands": commandNames()},
			"codeLensProvider":       map[string]any{"resolveProvider": false},
			"experimental": map[string]any{
				"agent": map[string]any{"protocolVersion": ProtocolVersion, "modes": []string{"plan", "build"}},
			},
		},
		"serverInfo": map[string]any{"name": "agentls", "version": version},
	}
}
