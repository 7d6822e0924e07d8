package server

import (
	"context"
	"errors"
	"log/slog"
	"sync"

	"go.lsp.dev/jsonrpc2"

	"github.com/agentls/agentls/agent/intel"
	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/config"
	"github.com/agentls/agentls/langpool"
	"github.com/agentls/agentls/workspace"
)

// editorFirst is the editor's language intelligence (lsp.source auto), and
// agentls's pool from the first time the editor answers "method not found"
// (a client that declared experimental.agent.languageIntel without the
// methods): the session goes on with the pool instead of losing its
// diagnostics.
type editorFirst struct {
	editor  *editorIntel
	newPool func(config.Config) *langpool.Pool

	mu   sync.Mutex
	cfg  config.Config
	pool *langpool.Pool
	// renamer serves rename alone (agent/navigate has none) while the
	// editor serves the rest.
	renamer *langpool.Pool
}

var _ intel.Source = (*editorFirst)(nil)

// current is the source in use.
func (e *editorFirst) current() intel.Source {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.pool != nil {
		return e.pool
	}
	return e.editor
}

// fallBack returns the pool (started now if needed) when err is the
// editor's "method not found".
func (e *editorFirst) fallBack(err error) (intel.Source, bool) {
	if !errors.Is(err, jsonrpc2.ErrMethodNotFound) {
		return nil, false
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.pool == nil {
		slog.Warn("the editor declared experimental.agent.languageIntel but does not answer its methods: agentls's own language servers serve instead", "err", err)
		e.pool = e.newPool(e.cfg)
	}
	return e.pool, true
}

// use runs f on the current source, and once more on the pool when the
// editor does not know the method.
func use[T any](e *editorFirst, f func(intel.Source) (T, error)) (T, error) {
	v, err := f(e.current())
	if alt, ok := e.fallBack(err); ok {
		return f(alt)
	}
	return v, err
}

// Configure follows a trusted configuration (the pool's servers).
func (e *editorFirst) Configure(cfg config.Config) {
	e.mu.Lock()
	e.cfg = cfg
	pools := []*langpool.Pool{e.pool, e.renamer}
	e.mu.Unlock()
	for _, p := range pools {
		if p != nil {
			p.Configure(cfg)
		}
	}
}

// Close stops the pool's servers, if it started.
func (e *editorFirst) Close() {
	e.mu.Lock()
	pools := []*langpool.Pool{e.pool, e.renamer}
	e.mu.Unlock()
	for _, p := range pools {
		if p != nil {
			p.Close()
		}
	}
}

// Serves implements intel.Source.
func (e *editorFirst) Serves(path string) bool { return e.current().Serves(path) }

// Status implements intel.Source.
func (e *editorFirst) Status() []agentproto.LanguageServing { return e.current().Status() }

// Diagnostics implements intel.Source.
func (e *editorFirst) Diagnostics(ctx context.Context, paths []string) (intel.Snapshot, error) {
	return use(e, func(s intel.Source) (intel.Snapshot, error) { return s.Diagnostics(ctx, paths) })
}

// Definition implements intel.Source.
func (e *editorFirst) Definition(ctx context.Context, path string, pos workspace.Position) ([]intel.Location, error) {
	return use(e, func(s intel.Source) ([]intel.Location, error) { return s.Definition(ctx, path, pos) })
}

// References implements intel.Source.
func (e *editorFirst) References(ctx context.Context, path string, pos workspace.Position) ([]intel.Location, error) {
	return use(e, func(s intel.Source) ([]intel.Location, error) { return s.References(ctx, path, pos) })
}

// Hover implements intel.Source.
func (e *editorFirst) Hover(ctx context.Context, path string, pos workspace.Position) (string, error) {
	return use(e, func(s intel.Source) (string, error) { return s.Hover(ctx, path, pos) })
}

// Symbols implements intel.Source.
func (e *editorFirst) Symbols(ctx context.Context, path, query string) ([]intel.Symbol, error) {
	return use(e, func(s intel.Source) ([]intel.Symbol, error) { return s.Symbols(ctx, path, query) })
}

// Rename implements intel.Source: the editor has no rename, so under
// lsp.source auto agentls's own servers compute it (a pool started for it).
func (e *editorFirst) Rename(ctx context.Context, path string, pos workspace.Position, newName string) (intel.FileEdits, error) {
	e.mu.Lock()
	pool := e.pool
	if pool == nil {
		if e.renamer == nil {
			e.renamer = e.newPool(e.cfg)
		}
		pool = e.renamer
	}
	e.mu.Unlock()
	return pool.Rename(ctx, path, pos, newName)
}

// ServedTypes implements intel.TypeLister: the current source's.
func (e *editorFirst) ServedTypes() []string { return intel.ServedTypes(e.current()) }
