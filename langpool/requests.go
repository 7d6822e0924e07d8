package langpool

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"time"

	"github.com/agentls/agentls/agent/intel"
	"github.com/agentls/agentls/workspace"
)

// synced is the client of file's server, with file synchronised to it
// (opened, or its changes sent), and file's URI.
func (p *Pool) synced(ctx context.Context, file string) (*client, string, error) {
	c, err := p.client(ctx, file)
	if err != nil {
		return nil, "", err
	}
	uri, err := c.sync(ctx, p.ws, file)
	if err != nil {
		return nil, "", err
	}
	return c, uri, nil
}

// Diagnostics implements intel.Source: the files' problems as their
// servers see agentls's current text of them; with no paths, every
// problem the running servers published.
func (p *Pool) Diagnostics(ctx context.Context, paths []string) (intel.Snapshot, error) {
	snap := intel.Snapshot{Files: map[string][]intel.Diagnostic{}}
	if len(paths) == 0 {
		p.mu.Lock()
		var cs []*client
		for _, c := range p.clients {
			cs = append(cs, c)
		}
		p.mu.Unlock()
		for _, c := range cs {
			for f, ds := range c.knownDiagnostics() {
				snap.Files[f] = ds
			}
		}
		return snap, nil
	}
	for _, f := range paths {
		c, uri, err := p.synced(ctx, f)
		if err != nil {
			return snap, err
		}
		ds, pending, err := c.diagnostics(ctx, uri, p.settleBudget())
		if err != nil {
			return snap, err
		}
		snap.Files[f] = ds
		snap.Pending = snap.Pending || pending
	}
	return snap, nil
}

// settleBudget is lsp.settle_ms in force.
func (p *Pool) settleBudget() time.Duration {
	p.mu.Lock()
	defer p.mu.Unlock()
	return intel.Budget(p.cfg.LSP.SettleMs)
}

// at syncs file to its server and returns the server and the position
// params of pos in it.
func (p *Pool) at(ctx context.Context, file string, pos workspace.Position) (*client, positionParams, error) {
	c, uri, err := p.synced(ctx, file)
	if err != nil {
		return nil, positionParams{}, err
	}
	return c, positionParams{TextDocument: textDocumentID{URI: uri}, Position: pos}, nil
}

// Definition implements intel.Source.
func (p *Pool) Definition(ctx context.Context, file string, pos workspace.Position) ([]intel.Location, error) {
	c, params, err := p.at(ctx, file, pos)
	if err != nil {
		return nil, err
	}
	var raw json.RawMessage
	if err := c.call(ctx, "textDocument/definition", params, &raw); err != nil {
		return nil, err
	}
	return locations(raw)
}

// References implements intel.Source (the declaration included).
func (p *Pool) References(ctx context.Context, file string, pos workspace.Position) ([]intel.Location, error) {
	c, params, err := p.at(ctx, file, pos)
	if err != nil {
		return nil, err
	}
	var raw json.RawMessage
	req := map[string]any{"textDocument": params.TextDocument, "position": params.Position, "context": map[string]bool{"includeDeclaration": true}}
	if err := c.call(ctx, "textDocument/references", req, &raw); err != nil {
		return nil, err
	}
	locs, err := locations(raw)
	sort.SliceStable(locs, func(i, j int) bool {
		if locs[i].Path != locs[j].Path {
			return locs[i].Path < locs[j].Path
		}
		return locs[i].Range.Start.Line < locs[j].Range.Start.Line
	})
	return locs, err
}

// Hover implements intel.Source.
func (p *Pool) Hover(ctx context.Context, file string, pos workspace.Position) (string, error) {
	c, params, err := p.at(ctx, file, pos)
	if err != nil {
		return "", err
	}
	var raw json.RawMessage
	if err := c.call(ctx, "textDocument/hover", params, &raw); err != nil {
		return "", err
	}
	return hoverText(raw), nil
}

// Symbols implements intel.Source: file's outline, or with file "" the
// workspace symbols matching query, from every server that runs (the Go
// server is started for a workspace query when none runs and it serves).
func (p *Pool) Symbols(ctx context.Context, file, query string) ([]intel.Symbol, error) {
	if file != "" {
		c, uri, err := p.synced(ctx, file)
		if err != nil {
			return nil, err
		}
		var raw json.RawMessage
		if err := c.call(ctx, "textDocument/documentSymbol", map[string]any{"textDocument": textDocumentID{URI: uri}}, &raw); err != nil {
			return nil, err
		}
		return symbols(raw, file)
	}
	cs, err := p.projectClients(ctx)
	if err != nil {
		return nil, err
	}
	var out []intel.Symbol
	for _, c := range cs {
		var raw json.RawMessage
		if err := c.call(ctx, "workspace/symbol", map[string]string{"query": query}, &raw); err != nil {
			return out, err
		}
		syms, err := symbols(raw, "")
		if err != nil {
			return out, err
		}
		out = append(out, syms...)
	}
	return out, nil
}

// Rename implements intel.Source: the edits, never applied here.
func (p *Pool) Rename(ctx context.Context, file string, pos workspace.Position, newName string) (intel.FileEdits, error) {
	c, params, err := p.at(ctx, file, pos)
	if err != nil {
		return nil, err
	}
	var raw json.RawMessage
	req := map[string]any{"textDocument": params.TextDocument, "position": params.Position, "newName": newName}
	if err := c.call(ctx, "textDocument/rename", req, &raw); err != nil {
		return nil, err
	}
	return fileEdits(raw)
}

// projectMarkers are files at a workspace folder's top that say a
// project of a file type is there: a workspace query starts its server.
var projectMarkers = map[string][]string{
	"go":         {"go.mod", "go.work"},
	"typescript": {"tsconfig.json", "jsconfig.json", "package.json"},
	"python":     {"pyproject.toml", "setup.py", "requirements.txt"},
	"rust":       {"Cargo.toml"},
	"c":          {"compile_commands.json", "CMakeLists.txt"},
}

// anyFile is a file name of each type, to pick its server.
var anyFile = map[string]string{"go": "x.go", "typescript": "x.ts", "python": "x.py", "rust": "x.rs", "c": "x.c"}

// projectClients are the running servers, or, when none runs, those of
// the served file types whose project markers the workspace folders hold
// (started now).
func (p *Pool) projectClients(ctx context.Context) ([]*client, error) {
	p.mu.Lock()
	var cs []*client
	for _, t := range sortedTypes(p.clients) {
		cs = append(cs, p.clients[t])
	}
	p.mu.Unlock()
	if len(cs) > 0 {
		return cs, nil
	}
	for _, t := range sortedTypes(projectMarkers) {
		for _, folder := range p.ws.Folders() {
			found := false
			for _, m := range projectMarkers[t] {
				if _, err := os.Stat(filepath.Join(folder, m)); err == nil {
					found = true
				}
			}
			probe := filepath.Join(folder, anyFile[t])
			if !found || !p.Serves(probe) {
				continue
			}
			c, err := p.client(ctx, probe)
			if err != nil {
				return nil, err
			}
			cs = append(cs, c)
			break
		}
	}
	if len(cs) == 0 {
		return nil, intel.ErrNotServed
	}
	return cs, nil
}
