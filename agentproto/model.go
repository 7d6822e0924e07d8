package agentproto

// ModelCheck is agent/checkModel's result: can the configured model
// answer, and what confines commands here.
type ModelCheck struct {
	OK       bool   `json:"ok"`
	Provider string `json:"provider"`
	Model    string `json:"model"`
	BaseURL  string `json:"baseUrl"`
	// Message says why the model cannot answer.
	Message string        `json:"message,omitempty"`
	Sandbox SandboxStatus `json:"sandbox"`
	// MCPServers is each MCP server's state, when there are any.
	MCPServers []MCPServerStatus `json:"mcpServers,omitempty"`
	// LanguageIntel says which source serves each file type
	// (docs/language-intel.md).
	LanguageIntel []LanguageServing `json:"languageIntel,omitempty"`
	// ContextWindow is the context window (tokens) the model's requests
	// are budgeted by, when the model answers; ContextWindowSource says
	// where it comes from: "model.context_window", the server's report
	// (e.g. "llama.cpp /props"), "known for the model's family" or
	// "assumed: a model agentls does not know" (docs/sessions.md).
	ContextWindow       int    `json:"contextWindow,omitempty"`
	ContextWindowSource string `json:"contextWindowSource,omitempty"`
}

// SandboxStatus is what confines the commands agentls runs.
type SandboxStatus struct {
	// Mode is "landlock+bwrap", "landlock", "bwrap", "none" or "off".
	Mode string `json:"mode"`
	// Landlock is "ABI <n>" or why Landlock is not used.
	Landlock string `json:"landlock"`
	// Bwrap is "ok" or why bubblewrap is not used.
	Bwrap string `json:"bwrap"`
	// Network is true when commands get a network of their own.
	Network bool   `json:"network"`
	Summary string `json:"summary"`
}

// MCPServerStatus is one MCP server's state (docs/mcp.md).
type MCPServerStatus struct {
	Name string `json:"name"`
	// State is running, idle, failed or disabled.
	State      string `json:"state"`
	Origin     string `json:"origin"`
	Command    string `json:"command"`
	Reason     string `json:"reason,omitempty"`
	StderrTail string `json:"stderrTail,omitempty"`
	Tools      int    `json:"tools"`
	// ToolNames are the tools' names as the server calls them (the
	// editors' tooltips list them).
	ToolNames []string `json:"toolNames,omitempty"`
	// DefinitionBytes is the size of the server's tool definitions.
	DefinitionBytes int `json:"definitionBytes"`
}

// ListModelsParams are agent/listModels's params.
type ListModelsParams struct {
	// SessionID, when set, makes current the session's models.
	SessionID string `json:"sessionId,omitempty"`
}

// ModelList is agent/listModels's (and agent/setModel's) result.
type ModelList struct {
	Models  []ModelInfo   `json:"models"`
	Current CurrentModels `json:"current"`
}

// ModelInfo is a model to choose from.
type ModelInfo struct {
	ID       string `json:"id"`
	Provider string `json:"provider"`
}

// CurrentModels are the models of each mode.
type CurrentModels struct {
	Plan  string `json:"plan"`
	Build string `json:"build"`
}

// SetModelParams are agent/setModel's params.
type SetModelParams struct {
	SessionID string `json:"sessionId"`
	// Mode is the mode whose model changes; empty for the session's
	// current mode.
	Mode  Mode   `json:"mode,omitempty"`
	Model string `json:"model"`
}
