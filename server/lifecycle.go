package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"go.lsp.dev/jsonrpc2"

	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/config"
	"github.com/agentls/agentls/host"
)

var lspHandlers = map[string]handlerFunc{
	"initialize":                     (*Server).initialize,
	"initialized":                    (*Server).initializedNote,
	"shutdown":                       (*Server).shutdownReq,
	"textDocument/didSave":           (*Server).didSave,
	"workspace/executeCommand":       (*Server).executeCommand,
	"textDocument/codeLens":          (*Server).codeLens,
	"textDocument/codeAction":        (*Server).codeAction, // plan_comment_action.go
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
	changeAnnotations  bool // workspace.workspaceEdit.changeAnnotationSupport (review mode)
	languageIntel      bool // experimental.agent.languageIntel: answers agent/diagnostics, agent/navigate
	toolCallProgress   bool // experimental.agent.toolCallProgress: shows a running call's progress (tool_progress.go)
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
				DocumentChanges         bool     `json:"documentChanges"`
				ResourceOperations      []string `json:"resourceOperations"`
				ChangeAnnotationSupport *struct {
					GroupsOnLabel bool `json:"groupsOnLabel"`
				} `json:"changeAnnotationSupport"`
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
			Agent *agentproto.AgentClientCapabilities `json:"agent"`
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
	already := s.host != nil || s.initializing
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
	caps := clientCaps{
		applyEdit:          p.Capabilities.Workspace.ApplyEdit,
		documentChanges:    p.Capabilities.Workspace.WorkspaceEdit.DocumentChanges,
		resourceOps:        map[string]bool{},
		showDocument:       p.Capabilities.Window.ShowDocument.Support,
		workDoneProgress:   p.Capabilities.Window.WorkDoneProgress,
		messageActionProps: p.Capabilities.Window.ShowMessage.MessageActionItem.AdditionalPropertiesSupport,
		codeLensRefresh:    p.Capabilities.Workspace.CodeLens.RefreshSupport,
		changeAnnotations:  p.Capabilities.Workspace.WorkspaceEdit.ChangeAnnotationSupport != nil,
	}
	if a := p.Capabilities.Experimental.Agent; a != nil {
		caps.agentClient, caps.askUser, caps.modeIndicator, caps.savesEdits = true, a.AskUser, a.ModeIndicator, a.SavesEdits
		caps.languageIntel, caps.toolCallProgress = a.LanguageIntel, a.ToolCallProgress
	}
	for _, k := range p.Capabilities.Workspace.WorkspaceEdit.ResourceOperations {
		caps.resourceOps[k] = true
	}
	s.mu.Lock()
	s.caps = caps
	s.mu.Unlock()
	s.unanswered.ourClient.Store(caps.agentClient) // reply_order.go
	h, err := host.New(s.hostOptions(folders, p.InitializationOptions))
	if errors.As(err, new(*host.WorkspaceError)) {
		return nil, invalidParams("%v", err)
	}
	if err != nil {
		return nil, jsonrpc2.NewError(jsonrpc2.InternalError, err.Error())
	}
	s.mu.Lock()
	s.host, s.configDiagnostics = h, h.Diagnostics()
	s.mu.Unlock()
	built = true
	return initializeResult(s.opts.Version), nil
}

// workspaceFolders reads the folders from workspaceFolders, rootUri or
// rootPath; none means the current directory (host.New).
func workspaceFolders(p initializeParams) ([]string, error) {
	var out []string
	for _, f := range p.WorkspaceFolders {
		path, err := host.PathOfURI(f.URI)
		if err != nil {
			return nil, err
		}
		out = append(out, path)
	}
	if len(out) == 0 && p.RootURI != nil && *p.RootURI != "" {
		path, err := host.PathOfURI(*p.RootURI)
		if err != nil {
			return nil, err
		}
		out = append(out, path)
	}
	if len(out) == 0 && p.RootPath != nil && *p.RootPath != "" {
		out = append(out, *p.RootPath)
	}
	return out, nil
}

func (s *Server) initializedNote(ctx context.Context, _ jsonrpc2.RawMessage) (any, error) {
	s.mu.Lock()
	diags := s.configDiagnostics
	s.mu.Unlock()
	for _, d := range diags {
		typ, what := 1, "the file is not used, and agentls sends no request to the model until it loads: fix it"
		if d.Severity != config.SeverityError {
			typ, what = 3, "used as it is"
		}
		where := d.File
		if d.Line > 0 {
			where = fmt.Sprintf("%s:%d:%d", d.File, d.Line, d.Column)
		}
		s.notifyClient(ctx, "window/showMessage", map[string]any{"type": typ, "message": fmt.Sprintf("agentls config %s: %s (%s)", where, d.Message, what)})
		if d.Severity == config.SeverityError {
			break // one error is enough: model requests stop until it is fixed
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
	switch method {
	case "shutdown":
		defer s.mu.Unlock()
		if s.shutdown {
			return nil, jsonrpc2.NewError(jsonrpc2.InvalidRequest, "the server is shut down: only exit is accepted")
		}
		s.shutdown = true
		return nil, jsonrpc2.ErrNotHandled
	default: // exit
		s.exitReceived = true
		s.mu.Unlock()
		s.halt() // server.go: the turns end before the connection does
		return nil, nil
	}
}

func (s *Server) shutdownReq(context.Context, jsonrpc2.RawMessage) (any, error) {
	s.mu.Lock()
	s.shutdown = true
	s.mu.Unlock()
	if mgr := s.manager(); mgr != nil {
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
			"codeActionProvider":     map[string]any{"codeActionKinds": []string{"refactor.rewrite"}},
			"experimental": map[string]any{
				"agent": map[string]any{"protocolVersion": agentproto.ProtocolVersion, "modes": []string{"plan", "build"}},
			},
		},
		"serverInfo": map[string]any{"name": "agentls", "version": version},
	}
}
