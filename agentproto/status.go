package agentproto

// AgentStatus is agent/status's result: the sandbox, each MCP server's
// state and the language intelligence, as agent/checkModel reports them,
// but read without any request to the model (editors ask it after every
// turn; docs/mcp.md, Status).
type AgentStatus struct {
	Sandbox SandboxStatus `json:"sandbox"`
	// MCPServers is each MCP server's state, when there are any.
	MCPServers []MCPServerStatus `json:"mcpServers,omitempty"`
	// LanguageIntel says which source serves each file type
	// (docs/language-intel.md).
	LanguageIntel []LanguageServing `json:"languageIntel,omitempty"`
}
