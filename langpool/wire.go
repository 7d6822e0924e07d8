package langpool

import (
	"encoding/json"
	"fmt"
	"net/url"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/agentls/agentls/agent/intel"
	"github.com/agentls/agentls/workspace"
)

// The small part of LSP the pool speaks, as plain structs.

type textDocumentID struct {
	URI string `json:"uri"`
}

type positionParams struct {
	TextDocument textDocumentID     `json:"textDocument"`
	Position     workspace.Position `json:"position"`
}

type wireLocation struct {
	URI   string          `json:"uri"`
	Range workspace.Range `json:"range"`
	// A LocationLink's target.
	TargetURI            string           `json:"targetUri"`
	TargetSelectionRange *workspace.Range `json:"targetSelectionRange"`
}

type wireDiagnostic struct {
	Range    workspace.Range `json:"range"`
	Severity int             `json:"severity"`
	Code     json.RawMessage `json:"code"`
	Source   string          `json:"source"`
	Message  string          `json:"message"`
}

type publishParams struct {
	URI         string           `json:"uri"`
	Version     *int             `json:"version"`
	Diagnostics []wireDiagnostic `json:"diagnostics"`
}

type wireSymbol struct {
	Name           string          `json:"name"`
	Kind           int             `json:"kind"`
	ContainerName  string          `json:"containerName"`
	Location       *wireLocation   `json:"location"`
	Range          workspace.Range `json:"range"`
	SelectionRange workspace.Range `json:"selectionRange"`
	Children       []wireSymbol    `json:"children"`
}

type wireTextEdit struct {
	Range   workspace.Range `json:"range"`
	NewText string          `json:"newText"`
}

type wireWorkspaceEdit struct {
	Changes         map[string][]wireTextEdit `json:"changes"`
	DocumentChanges []struct {
		Kind         string          `json:"kind"`
		TextDocument *textDocumentID `json:"textDocument"`
		Edits        []wireTextEdit  `json:"edits"`
	} `json:"documentChanges"`
}

// fileURI is the file: URI of an absolute path.
func fileURI(path string) string {
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(path)}).String()
}

// canonicalURI is a file: URI as fileURI spells it: a server may escape
// what Go's net/url leaves as it is (vscode-uri's file:///w/%2Bpage.ts
// for file:///w/+page.ts), and a publish is matched to the file it names
// whatever the spelling. Any other URI is left as it is.
func canonicalURI(uri string) string {
	p, err := uriPath(uri)
	if err != nil || !filepath.IsAbs(p) {
		return uri
	}
	return fileURI(p)
}

// uriPath is the absolute path of a file: URI.
func uriPath(uri string) (string, error) {
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != "file" {
		return "", fmt.Errorf("not a file URI: %q", uri)
	}
	if u.Opaque != "" || (u.Host != "" && u.Host != "localhost") {
		// file:x (no path at all) or file://host/… (another machine's)
		return "", fmt.Errorf("not a local file URI with an absolute path: %q", uri)
	}
	p := u.Path
	if runtime.GOOS == "windows" && len(p) > 2 && p[0] == '/' && p[2] == ':' {
		p = p[1:] // file:///C:/x
	}
	p = filepath.FromSlash(p)
	if !filepath.IsAbs(p) {
		return "", fmt.Errorf("not a local file URI with an absolute path: %q", uri)
	}
	return p, nil
}

// diagnostic converts a wire diagnostic (its code a number or a string).
func (d wireDiagnostic) diagnostic() intel.Diagnostic {
	code := strings.Trim(string(d.Code), `"`)
	if code == "null" {
		code = ""
	}
	return intel.Diagnostic{Range: d.Range, Severity: d.Severity, Code: code, Source: d.Source, Message: d.Message}
}

// locations decodes a definition or references result: null, a Location,
// Location[] or LocationLink[].
func locations(raw json.RawMessage) ([]intel.Location, error) {
	raw = json.RawMessage(strings.TrimSpace(string(raw)))
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	var list []wireLocation
	if raw[0] == '{' {
		var one wireLocation
		if err := json.Unmarshal(raw, &one); err != nil {
			return nil, fmt.Errorf("location: %w", err)
		}
		list = []wireLocation{one}
	} else if err := json.Unmarshal(raw, &list); err != nil {
		return nil, fmt.Errorf("locations: %w", err)
	}
	out := make([]intel.Location, 0, len(list))
	for _, l := range list {
		uri, rng := l.URI, l.Range
		if l.TargetURI != "" {
			uri = l.TargetURI
			if l.TargetSelectionRange != nil {
				rng = *l.TargetSelectionRange
			}
		}
		p, err := uriPath(uri)
		if err != nil {
			continue
		}
		out = append(out, intel.Location{Path: p, Range: rng})
	}
	return out, nil
}

// hoverText decodes a hover result's contents: MarkupContent, a
// MarkedString or a list of them.
func hoverText(raw json.RawMessage) string {
	var h struct {
		Contents json.RawMessage `json:"contents"`
	}
	if json.Unmarshal(raw, &h) != nil || len(h.Contents) == 0 {
		return ""
	}
	var s string
	if json.Unmarshal(h.Contents, &s) == nil {
		return s
	}
	var mc struct {
		Value string `json:"value"`
	}
	if json.Unmarshal(h.Contents, &mc) == nil && mc.Value != "" {
		return mc.Value
	}
	var list []json.RawMessage
	if json.Unmarshal(h.Contents, &list) == nil {
		var parts []string
		for _, item := range list {
			if json.Unmarshal(item, &s) == nil {
				parts = append(parts, s)
			} else if json.Unmarshal(item, &mc) == nil {
				parts = append(parts, mc.Value)
			}
		}
		return strings.Join(parts, "\n")
	}
	return ""
}

// symbols decodes a documentSymbol or workspace/symbol result; path is the
// document's (for hierarchical DocumentSymbols, which carry no URI).
func symbols(raw json.RawMessage, path string) ([]intel.Symbol, error) {
	var list []wireSymbol
	if s := strings.TrimSpace(string(raw)); s == "" || s == "null" {
		return nil, nil
	}
	if err := json.Unmarshal(raw, &list); err != nil {
		return nil, fmt.Errorf("symbols: %w", err)
	}
	var out []intel.Symbol
	var walk func(list []wireSymbol, container string)
	walk = func(list []wireSymbol, container string) {
		for _, s := range list {
			sym := intel.Symbol{Name: s.Name, Kind: symbolKind(s.Kind), Container: s.ContainerName}
			if s.Location != nil {
				p, err := uriPath(s.Location.URI)
				if err != nil {
					continue
				}
				sym.Location = intel.Location{Path: p, Range: s.Location.Range}
			} else {
				sym.Location = intel.Location{Path: path, Range: s.SelectionRange}
				sym.Container = container
			}
			out = append(out, sym)
			walk(s.Children, s.Name)
		}
	}
	walk(list, "")
	return out, nil
}

// fileEdits decodes a rename's WorkspaceEdit; file creations, renames and
// deletions are refused (a rename of a symbol changes text only).
func fileEdits(raw json.RawMessage) (intel.FileEdits, error) {
	if s := strings.TrimSpace(string(raw)); s == "" || s == "null" {
		return nil, nil
	}
	var we wireWorkspaceEdit
	if err := json.Unmarshal(raw, &we); err != nil {
		return nil, fmt.Errorf("rename: %w", err)
	}
	out := intel.FileEdits{}
	add := func(uri string, edits []wireTextEdit) error {
		p, err := uriPath(uri)
		if err != nil {
			return err
		}
		for _, e := range edits {
			out[p] = append(out[p], workspace.TextEdit{Range: e.Range, NewText: e.NewText})
		}
		return nil
	}
	for uri, edits := range we.Changes {
		if err := add(uri, edits); err != nil {
			return nil, err
		}
	}
	for _, dc := range we.DocumentChanges {
		if dc.Kind != "" || dc.TextDocument == nil {
			return nil, fmt.Errorf("the rename would %s a file; only text changes are taken", dc.Kind)
		}
		if err := add(dc.TextDocument.URI, dc.Edits); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// symbolKinds are LSP's SymbolKind names, from 1.
var symbolKinds = []string{"file", "module", "namespace", "package", "class", "method", "property", "field", "constructor",
	"enum", "interface", "function", "variable", "constant", "string", "number", "boolean", "array", "object", "key",
	"null", "enum member", "struct", "event", "operator", "type parameter"}

func symbolKind(k int) string {
	if k >= 1 && k <= len(symbolKinds) {
		return symbolKinds[k-1]
	}
	return "symbol"
}
