package agentproto

// AgentClientCapabilities is initialize's capabilities.experimental.agent:
// what the editor can show or answer (docs/protocol.md, "Client
// capabilities read"). A client that declares the object at all gets
// agent/update instead of log lines; each member turns on one more thing.
type AgentClientCapabilities struct {
	// AskUser: the editor answers agent/askUser (a form UI).
	AskUser bool `json:"askUser,omitempty"`
	// ModeIndicator: the editor listens to agent/modeChanged.
	ModeIndicator bool `json:"modeIndicator,omitempty"`
	// SavesEdits: the editor saves the documents the agent edited.
	SavesEdits bool `json:"savesEdits,omitempty"`
	// LanguageIntel: the editor answers agent/diagnostics and
	// agent/navigate (docs/language-intel.md).
	LanguageIntel bool `json:"languageIntel,omitempty"`
	// ToolCallProgress: the editor shows a running call's progress, a
	// tool_call_update with status in_progress whose content is the
	// newest line (a run command's output, an MCP server's progress);
	// the call's end (completed or failed) follows it.
	ToolCallProgress bool `json:"toolCallProgress,omitempty"`
}
