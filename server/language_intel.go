package server

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"

	"github.com/agentls/agentls/agentproto"

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
func (e *editorIntel) Status() []agentproto.LanguageServing {
	var out []agentproto.LanguageServing
	for _, t := range []string{"c", "go", "python", "rust", "typescript"} {
		out = append(out, agentproto.LanguageServing{FileType: t, Source: "editor", Detail: "agent/diagnostics and agent/navigate, answered by the editor"})
	}
	return out
}

// The wire of agent/diagnostics and agent/navigate is agentproto's
// (Diagnostics, Navigate); these convert its ranges to the workspace's.

// wsRange is a wire range as the workspace's.
func wsRange(r agentproto.Range) workspace.Range {
	pos := func(p agentproto.Position) workspace.Position {
		return workspace.Position{Line: uint32(max(p.Line, 0)), Character: uint32(max(p.Character, 0))}
	}
	return workspace.Range{Start: pos(r.Start), End: pos(r.End)}
}

// wirePosition is a workspace position on the wire.
func wirePosition(p workspace.Position) *agentproto.Position {
	return &agentproto.Position{Line: int(p.Line), Character: int(p.Character)}
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
	p := agentproto.DiagnosticsParams{URIs: []string{}}
	byURI := map[string]string{}
	for _, path := range paths {
		u := host.URIOfPath(path)
		p.URIs = append(p.URIs, u)
		byURI[u] = path
	}
	var res agentproto.DiagnosticsResult
	if err := e.ask(ctx, agentproto.Diagnostics.Name(), p, &res); err != nil {
		return intel.Snapshot{}, err
	}
	if res.Diagnostics == nil {
		// null, {} or a null member: the editor said nothing about the
		// files, which is not "no problems".
		return intel.Snapshot{}, fmt.Errorf("%s: the editor's answer has no diagnostics object (null or missing), so it tells nothing about the files", agentproto.Diagnostics.Name())
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
		for _, d := range ds {
			snap.Files[path] = append(snap.Files[path], intel.Diagnostic{Range: wsRange(d.Range), Severity: d.Severity, Code: d.Code, Source: d.Source, Message: d.Message})
		}
		if v, known := res.Versions[u]; known {
			if _, ours, open := e.ws.Overlay().Get(path); open && v < ours {
				snap.Pending = true
			}
		}
	}
	return snap, nil
}

func (e *editorIntel) navigate(ctx context.Context, p agentproto.NavigateParams) (agentproto.NavigateResult, error) {
	var res agentproto.NavigateResult
	err := e.ask(ctx, agentproto.Navigate.Name(), p, &res)
	return res, err
}

func (e *editorIntel) locations(ctx context.Context, op, path string, pos workspace.Position) ([]intel.Location, error) {
	res, err := e.navigate(ctx, agentproto.NavigateParams{Op: op, URI: host.URIOfPath(path), Position: wirePosition(pos), Limit: 50})
	if err != nil {
		return nil, err
	}
	var out []intel.Location
	for _, l := range res.Locations {
		if p, err := host.PathOfURI(l.URI); err == nil {
			out = append(out, intel.Location{Path: p, Range: wsRange(l.Range)})
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
	res, err := e.navigate(ctx, agentproto.NavigateParams{Op: "hover", URI: host.URIOfPath(path), Position: wirePosition(pos)})
	return res.Hover, err
}

// Symbols implements intel.Source.
func (e *editorIntel) Symbols(ctx context.Context, path, query string) ([]intel.Symbol, error) {
	p := agentproto.NavigateParams{Op: "symbols", Query: query, Limit: 50}
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
		out = append(out, intel.Symbol{Name: s.Name, Kind: s.Kind, Container: s.ContainerName, Location: intel.Location{Path: filepath.Clean(loc), Range: wsRange(s.Location.Range)}})
	}
	return out, nil
}

// Rename implements intel.Source: agent/navigate has no rename, so the
// editor's source cannot compute one (lsp.source: pool can).
func (e *editorIntel) Rename(context.Context, string, workspace.Position, string) (intel.FileEdits, error) {
	return nil, errors.New("rename is not available from the editor (agent/navigate has no rename); with lsp.source: pool agentls's own language servers compute it")
}
