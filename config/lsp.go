package config

// LSP configures the language intelligence (docs/language-intel.md): which
// source serves the code tool and the diagnostics after edits, how long an
// edit waits for them, and the pool's language servers by file type. Every
// key needs trust in a workspace file.
type LSP struct {
	// Source is auto (the editor when it answers, else the pool), editor,
	// pool or off.
	Source string `json:"source" yaml:"source"`
	// SettleMs bounds the wait for diagnostics after an edit.
	SettleMs int `json:"settle_ms" yaml:"settle_ms"`
	// Servers are the pool's language servers by file type, over the
	// defaults found on PATH; an empty command turns a type off.
	Servers map[string]LSPServer `json:"servers,omitempty" yaml:"servers,omitempty"`
}

// LSPServer is one language server of the pool.
type LSPServer struct {
	Command []string `json:"command" yaml:"command"`
}
