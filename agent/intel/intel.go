// Package intel is the language intelligence the agent reads: the types of
// diagnostics, locations, hovers and symbols, and Source, the interface two
// providers implement (the editor, asked over agent/diagnostics and
// agent/navigate, in server; agentls's own language-server pool, langpool).
// Positions are LSP's: zero-based lines, UTF-16 characters. Paths are
// absolute; the code tool makes them relative for the model.
package intel

import (
	"context"
	"errors"

	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/workspace"
)

// Severities of a Diagnostic (LSP's DiagnosticSeverity).
const (
	SeverityError       = 1
	SeverityWarning     = 2
	SeverityInformation = 3
	SeverityHint        = 4
)

// Diagnostic is one problem a language server reports in a file.
type Diagnostic struct {
	Range    workspace.Range `json:"range"`
	Severity int             `json:"severity,omitempty"`
	Code     string          `json:"code,omitempty"`
	Source   string          `json:"source,omitempty"`
	Message  string          `json:"message"`
}

// Location is a range in a file (Path absolute).
type Location struct {
	Path  string          `json:"path"`
	Range workspace.Range `json:"range"`
}

// Symbol is a named declaration: a document's outline entry or a match of a
// workspace symbol query.
type Symbol struct {
	Name      string   `json:"name"`
	Kind      string   `json:"kind"`
	Container string   `json:"container,omitempty"`
	Location  Location `json:"location"`
}

// Snapshot is the diagnostics of some files at one instant.
type Snapshot struct {
	// Files maps each asked file (absolute) to its problems; a file the
	// source has nothing about maps to none.
	Files map[string][]Diagnostic
	// Pending: the source knows that some file's diagnostics are not yet
	// computed for its current text (a pool server has not published for
	// the version it was sent). Settle keeps waiting while it is set.
	Pending bool
}

// FileEdits are a rename's text edits by file (absolute path).
type FileEdits map[string][]workspace.TextEdit

// Source is language intelligence for the workspace's files. Every call
// honours ctx; a file type no server handles is ErrNotServed.
type Source interface {
	// Serves reports whether the source serves the file's type.
	Serves(path string) bool
	// Diagnostics returns the files' current problems, at once.
	Diagnostics(ctx context.Context, paths []string) (Snapshot, error)
	// Definition is where the symbol at pos is declared.
	Definition(ctx context.Context, path string, pos workspace.Position) ([]Location, error)
	// References are the uses of the symbol at pos (its declaration too).
	References(ctx context.Context, path string, pos workspace.Position) ([]Location, error)
	// Hover is the hover text (type, doc) of the symbol at pos.
	Hover(ctx context.Context, path string, pos workspace.Position) (string, error)
	// Symbols is the outline of path, or with path "" the workspace's
	// symbols matching query.
	Symbols(ctx context.Context, path, query string) ([]Symbol, error)
	// Rename computes (never applies) the edits renaming the symbol at pos.
	Rename(ctx context.Context, path string, pos workspace.Position, newName string) (FileEdits, error)
	// Status says which source serves each file type it knows (FileType,
	// the language id: go, typescript, python…): "editor", "pool" or
	// "none", with Detail saying more (the server's command, or why none
	// serves it).
	Status() []agentproto.LanguageServing
}

// ErrNotServed is the error of a call on a file type no source serves.
var ErrNotServed = errors.New("no language server serves this file type")
