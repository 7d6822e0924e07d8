package server

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"

	"github.com/agentls/agentls/agent"
	"github.com/agentls/agentls/agent/intel"
	"github.com/agentls/agentls/config"
	"github.com/agentls/agentls/host"
	"github.com/agentls/agentls/langpool"
	"github.com/agentls/agentls/workspace"
)

// languageIntel builds the workspace's language intelligence by lsp.source
// (docs/language-intel.md): the editor when it declared
// experimental.agent.languageIntel (auto: with agentls's pool for rename,
// and instead of an editor that does not know the methods; editor: the
// editor alone), else agentls's own pool (auto, pool). lsp.source off is
// read at every use by the agent.
func (s *Server) languageIntel(ws *workspace.Workspace, cfg config.Config) agent.LanguageIntel {
	s.mu.Lock()
	editor := s.caps.languageIntel
	s.mu.Unlock()
	switch cfg.LSP.Source {
	case "editor":
		if !editor {
			return nil
		}
		return &editorIntel{s: s, ws: ws}
	}
	newPool := func(cfg config.Config) *langpool.Pool {
		return langpool.New(langpool.Options{Workspace: ws, Config: cfg, Getenv: s.opts.Getenv})
	}
	if editor && cfg.LSP.Source != "pool" {
		return &editorFirst{editor: &editorIntel{s: s, ws: ws}, newPool: newPool, cfg: cfg} // language_intel_fallback.go
	}
	return newPool(cfg)
}

// editorIntel is the editor's language intelligence, asked with the
// server→client requests agent/diagnostics and agent/navigate
// (docs/protocol.md), each bounded by editor.request_timeout_secs and the
// turn's context.
type editorIntel struct {
	s  *Server
	ws *workspace.Workspace
}

var _ intel.Source = (*editorIntel)(nil)

// Serves implements intel.Source: the editor is asked about every file
// type agentls knows.
func (e *editorIntel) Serves(path string) bool { return intel.FileType(path) != "" }

// Status implements intel.Source.
func (e *editorIntel) Status() []intel.Serving {
	var out []intel.Serving
	for _, t := range []string{"c", "go", "python", "rust", "typescript"} {
		out = append(out, intel.Serving{FileType: t, Source: "editor", Detail: "agent/diagnostics and agent/navigate, answered by the editor"})
	}
	return out
}

// DiagnosticsParams are agent/diagnostics' params.
type DiagnosticsParams struct {
	URIs []string `json:"uris"`
}

// DiagnosticsResult is agent/diagnostics' result: each asked document's
// problems (LSP Diagnostics) and the version of the text they are for.
type DiagnosticsResult struct {
	Diagnostics map[string][]intel.Diagnostic `json:"diagnostics"`
	Versions    map[string]int32              `json:"versions"`
}

// NavigateParams are agent/navigate's params (UTF-16 positions).
type NavigateParams struct {
	Op       string              `json:"op"`
	URI      string              `json:"uri,omitempty"`
	Position *workspace.Position `json:"position,omitempty"`
	Query    string              `json:"query,omitempty"`
	Limit    int                 `json:"limit,omitempty"`
}

// navLocation is a location on the wire.
type navLocation struct {
	URI   string          `json:"uri"`
	Range workspace.Range `json:"range"`
}

// NavigateResult is agent/navigate's result.
type NavigateResult struct {
	Locations []navLocation `json:"locations,omitempty"`
	Hover     string        `json:"hover,omitempty"`
	Symbols   []struct {
		Name          string      `json:"name"`
		Kind          string      `json:"kind"`
		ContainerName string      `json:"containerName,omitempty"`
		Location      navLocation `json:"location"`
	} `json:"symbols,omitempty"`
}

// ask sends a request to the editor, bounded by editor.request_timeout_secs.
func (e *editorIntel) ask(ctx context.Context, method string, params, result any) error {
	timeout := e.s.requestTimeout()
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	if err := e.s.callClient(ctx, method, params, result); err != nil {
		if ctx.Err() == context.DeadlineExceeded {
			return editorSilentError{method: method, timeout: timeout}
		}
		return fmt.Errorf("%s: %w", method, err)
	}
	return nil
}

// Diagnostics implements intel.Source: the editor's problems of the
// files. A file whose answer is for an older version of the text than
// agentls knows is pending (Settle waits for it).
func (e *editorIntel) Diagnostics(ctx context.Context, paths []string) (intel.Snapshot, error) {
	p := DiagnosticsParams{URIs: []string{}}
	byURI := map[string]string{}
	for _, path := range paths {
		u := host.URIOfPath(path)
		p.URIs = append(p.URIs, u)
		byURI[u] = path
	}
	var res DiagnosticsResult
	if err := e.ask(ctx, "agent/diagnostics", p, &res); err != nil {
		return intel.Snapshot{}, err
	}
	snap := intel.Snapshot{Files: map[string][]intel.Diagnostic{}}
	for _, path := range paths {
		snap.Files[path] = nil
	}
	for u, ds := range res.Diagnostics {
		path, ok := byURI[u]
		if !ok {
			var err error
			if path, err = host.PathOfURI(u); err != nil {
				continue
			}
		}
		snap.Files[path] = ds
		if v, known := res.Versions[u]; known {
			if _, ours, open := e.ws.Overlay().Get(path); open && v < ours {
				snap.Pending = true
			}
		}
	}
	return snap, nil
}

func (e *editorIntel) navigate(ctx context.Context, p NavigateParams) (NavigateResult, error) {
	var res NavigateResult
	err := e.ask(ctx, "agent/navigate", p, &res)
	return res, err
}

func (e *editorIntel) locations(ctx context.Context, op, path string, pos workspace.Position) ([]intel.Location, error) {
	res, err := e.navigate(ctx, NavigateParams{Op: op, URI: host.URIOfPath(path), Position: &pos, Limit: 50})
	if err != nil {
		return nil, err
	}
	var out []intel.Location
	for _, l := range res.Locations {
		if p, err := host.PathOfURI(l.URI); err == nil {
			out = append(out, intel.Location{Path: p, Range: l.Range})
		}
	}
	return out, nil
}

// Definition implements intel.Source.
func (e *editorIntel) Definition(ctx context.Context, path string, pos workspace.Position) ([]intel.Location, error) {
	return e.locations(ctx, "definition", path, pos)
}

// References implements intel.Source.
func (e *editorIntel) References(ctx context.Context, path string, pos workspace.Position) ([]intel.Location, error) {
	return e.locations(ctx, "references", path, pos)
}

// Hover implements intel.Source.
func (e *editorIntel) Hover(ctx context.Context, path string, pos workspace.Position) (string, error) {
	res, err := e.navigate(ctx, NavigateParams{Op: "hover", URI: host.URIOfPath(path), Position: &pos})
	return res.Hover, err
}

// Symbols implements intel.Source.
func (e *editorIntel) Symbols(ctx context.Context, path, query string) ([]intel.Symbol, error) {
	p := NavigateParams{Op: "symbols", Query: query, Limit: 50}
	if path != "" {
		p.URI = host.URIOfPath(path)
	}
	res, err := e.navigate(ctx, p)
	if err != nil {
		return nil, err
	}
	var out []intel.Symbol
	for _, s := range res.Symbols {
		loc, err := host.PathOfURI(s.Location.URI)
		if err != nil {
			loc = path
		}
		out = append(out, intel.Symbol{Name: s.Name, Kind: s.Kind, Container: s.ContainerName, Location: intel.Location{Path: filepath.Clean(loc), Range: s.Location.Range}})
	}
	return out, nil
}

// Rename implements intel.Source: agent/navigate has no rename, so the
// editor's source cannot compute one (lsp.source: pool can).
func (e *editorIntel) Rename(context.Context, string, workspace.Position, string) (intel.FileEdits, error) {
	return nil, errors.New("rename is not available from the editor (agent/navigate has no rename); with lsp.source: pool agentls's own language servers compute it")
}
