package agentproto

// The editor's language intelligence (docs/language-intel.md): the server
// asks an editor that declared experimental.agent.languageIntel.

// DiagnosticsParams are agent/diagnostics' params.
type DiagnosticsParams struct {
	URIs []string `json:"uris"`
}

// DiagnosticsResult is agent/diagnostics' result: each asked document's
// problems and the version of the text they are for.
type DiagnosticsResult struct {
	Diagnostics map[string][]Diagnostic `json:"diagnostics"`
	Versions    map[string]int32        `json:"versions"`
}

// Diagnostic is a problem a language server reports (LSP's Diagnostic, in
// the parts agentls reads).
type Diagnostic struct {
	Range Range `json:"range"`
	// Severity is 1 error, 2 warning, 3 information, 4 hint.
	Severity int    `json:"severity,omitempty"`
	Code     string `json:"code,omitempty"`
	Source   string `json:"source,omitempty"`
	Message  string `json:"message"`
}

// NavigateParams are agent/navigate's params (UTF-16 positions).
type NavigateParams struct {
	// Op is definition, references, implementation, hover or symbols.
	Op       string    `json:"op" ts:"'definition' | 'references' | 'implementation' | 'hover' | 'symbols'" lua:"'definition'|'references'|'implementation'|'hover'|'symbols'"`
	URI      string    `json:"uri,omitempty"`
	Position *Position `json:"position,omitempty"`
	// Query is a workspace symbol query (symbols without uri).
	Query string `json:"query,omitempty"`
	Limit int    `json:"limit,omitempty"`
}

// NavigateResult is agent/navigate's result.
type NavigateResult struct {
	Locations []Location       `json:"locations,omitempty"`
	Hover     string           `json:"hover,omitempty"`
	Symbols   []SymbolLocation `json:"symbols,omitempty"`
}

// Location is a range of a document.
type Location struct {
	URI   string `json:"uri"`
	Range Range  `json:"range"`
}

// SymbolLocation is a named declaration and where it is.
type SymbolLocation struct {
	Name          string   `json:"name"`
	Kind          string   `json:"kind"`
	ContainerName string   `json:"containerName,omitempty"`
	Location      Location `json:"location"`
}

// LanguageServing says which source serves a file type.
type LanguageServing struct {
	FileType string `json:"fileType"`
	// Source is "editor", "pool" or "none"; Detail says more.
	Source string `json:"source" ts:"'editor' | 'pool' | 'none'" lua:"'editor'|'pool'|'none'"`
	Detail string `json:"detail,omitempty"`
}
