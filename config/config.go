// Package config loads agentls's configuration: built-in defaults, the
// environment, the user's and the workspace's YAML files and the editor's
// initializationOptions, each layer validated against an embedded JSON
// Schema with diagnostics that point at the offending line.
package config

// Model selects and configures the chat model.
type Model struct {
	Provider  string `json:"provider" yaml:"provider"`       // openai | scripted
	BaseURL   string `json:"base_url" yaml:"base_url"`       // OpenAI-compatible endpoint
	APIKeyEnv string `json:"api_key_env" yaml:"api_key_env"` // environment variable holding the key
	APIKey    string `json:"api_key" yaml:"api_key"`         // discouraged; allowed in initializationOptions
	// APIKeyFile is an absolute path to a file whose first line is the key
	// (`agentls login` writes $XDG_CONFIG_HOME/agentls/credentials, 0600).
	APIKeyFile string `json:"api_key_file" yaml:"api_key_file"`
	Name       string `json:"name" yaml:"name"`             // model name
	PlanName   string `json:"plan_name" yaml:"plan_name"`   // optional model for plan mode
	Script     string `json:"script" yaml:"script"`         // scripted: path to the transcript
	MaxTokens  int    `json:"max_tokens" yaml:"max_tokens"` // 0: provider default
	// ContextWindow and PlanContextWindow are the context windows (tokens)
	// of Name and PlanName; 0 picks them from the model name.
	ContextWindow     int `json:"context_window" yaml:"context_window"`
	PlanContextWindow int `json:"plan_context_window" yaml:"plan_context_window"`
	// ConnectTimeoutSecs bounds connecting to the endpoint (TCP and TLS).
	ConnectTimeoutSecs int `json:"connect_timeout_secs" yaml:"connect_timeout_secs"`
	// FirstByteTimeoutSecs bounds the wait for the response's headers and first
	// streamed event (a slow local model may think for minutes).
	FirstByteTimeoutSecs int `json:"first_byte_timeout_secs" yaml:"first_byte_timeout_secs"`
	// IdleTimeoutSecs bounds the silence between two events of a stream.
	IdleTimeoutSecs int `json:"idle_timeout_secs" yaml:"idle_timeout_secs"`
}

// Compaction configures how long histories are compacted.
type Compaction struct {
	// Threshold is the share of the context window (minus the answer's
	// reserve) a request may fill before compaction.
	Threshold float64 `json:"threshold" yaml:"threshold"`
}

// Instructions configures the project instructions (AGENTS.md and the
// like) put in the model's requests (docs/instructions.md).
type Instructions struct {
	// MaxBytes caps the instructions of one request, all files together;
	// 0 turns them off.
	MaxBytes int `json:"max_bytes" yaml:"max_bytes"`
}

// Editor configures how long agentls waits for the editor.
type Editor struct {
	// RequestTimeoutSecs bounds a request to the editor that needs no human
	// (workspace/applyEdit, window/workDoneProgress/create).
	RequestTimeoutSecs int `json:"request_timeout_secs" yaml:"request_timeout_secs"`
}

// PlanMode configures plan mode and plan approval.
type PlanMode struct {
	DefaultActive       bool   `json:"default_active" yaml:"default_active"`
	RequireApproval     bool   `json:"require_approval" yaml:"require_approval"`
	ApprovalTimeoutSecs int    `json:"approval_timeout_secs" yaml:"approval_timeout_secs"`
	PlansDir            string `json:"plans_dir" yaml:"plans_dir"`
	// AllowNetworkTools are the tools of network reach allowed in plan mode.
	AllowNetworkTools []string `json:"allow_network_tools" yaml:"allow_network_tools"`
}

// Run configures the run tool.
type Run struct {
	Allow          []string `json:"allow" yaml:"allow"`
	TimeoutSecs    int      `json:"timeout_secs" yaml:"timeout_secs"`
	MaxOutputBytes int      `json:"max_output_bytes" yaml:"max_output_bytes"`
	// EnvDeny names the environment variables (names or globs) kept from
	// commands; the model's key variable (Model.APIKeyEnv) is kept out always.
	EnvDeny []string `json:"env_deny" yaml:"env_deny"`
	// Network are allow rules (run.allow's grammar) naming the commands
	// that get the network; every other command runs without it when the
	// sandbox can isolate it (bwrap).
	Network []string `json:"network" yaml:"network"`
}

// Sandbox configures the sandbox every command runs in (docs/guard.md).
type Sandbox struct {
	// Mode is auto (every layer this machine offers), landlock, bwrap or
	// off (unconfined: every command is asked).
	Mode string `json:"mode" yaml:"mode"`
	// DenyRead are paths (absolute or ~/…) no command reads, beside the
	// built-in secret places and agentls's own folders.
	DenyRead []string `json:"deny_read" yaml:"deny_read"`
	// AllowWrite are folders (absolute or ~/…) commands may write beside
	// the workspace folders.
	AllowWrite []string `json:"allow_write" yaml:"allow_write"`
	// AllowGitConfig lets every command the user approved write the
	// repositories' git configuration and create files in their git
	// folders, as git itself may (husky's `prepare`, `npm version`, a
	// Makefile running git); hooks stay read-only where bubblewrap runs.
	AllowGitConfig bool `json:"allow_git_config" yaml:"allow_git_config"`
}

// MCPServer is one MCP server of mcp.servers (the shape of .mcp.json's
// mcpServers entries).
type MCPServer struct {
	// Type is stdio (the default) or http.
	Type    string            `json:"type,omitempty" yaml:"type,omitempty"`
	Command string            `json:"command,omitempty" yaml:"command,omitempty"`
	Args    []string          `json:"args,omitempty" yaml:"args,omitempty"`
	Env     map[string]string `json:"env,omitempty" yaml:"env,omitempty"`
	Cwd     string            `json:"cwd,omitempty" yaml:"cwd,omitempty"`
	URL     string            `json:"url,omitempty" yaml:"url,omitempty"`
	Headers map[string]string `json:"headers,omitempty" yaml:"headers,omitempty"`
	// Disabled keeps the server from starting.
	Disabled bool `json:"disabled,omitempty" yaml:"disabled,omitempty"`
	// Network says whether the server may reach the network; unset is yes
	// for servers of this configuration.
	Network *bool `json:"network,omitempty" yaml:"network,omitempty"`
}

// MCP configures the MCP servers whose tools the agent gets (docs/mcp.md).
type MCP struct {
	Servers map[string]MCPServer `json:"servers,omitempty" yaml:"servers,omitempty"`
	// ReadOnly lists the tools that count as read-only: "server/tool" or
	// "server/*". Every other MCP tool is mutating.
	ReadOnly []string `json:"read_only" yaml:"read_only"`
	// TrustHints lists the servers whose readOnlyHint counts.
	TrustHints      []string `json:"trust_hints" yaml:"trust_hints"`
	CallTimeoutSecs int      `json:"call_timeout_secs" yaml:"call_timeout_secs"`
}

// Subagents bounds the sub-agents the task tool starts.
type Subagents struct {
	// MaxParallel is how many explore children of one session may run at
	// once (build children run one at a time).
	MaxParallel int `json:"max_parallel" yaml:"max_parallel"`
	// MaxDepth is how many levels of sub-agents may exist below a session
	// (1: children, but no grandchildren).
	MaxDepth int `json:"max_depth" yaml:"max_depth"`
	// MaxTurns and MaxTokens are each child's budget: model requests, and
	// input plus output tokens.
	MaxTurns  int `json:"max_turns" yaml:"max_turns"`
	MaxTokens int `json:"max_tokens" yaml:"max_tokens"`
}

// Config is the resolved configuration.
type Config struct {
	Model    Model    `json:"model" yaml:"model"`
	PlanMode PlanMode `json:"plan_mode" yaml:"plan_mode"`
	Edits    string   `json:"edits" yaml:"edits"` // auto | client | disk
	// Review is off or edits: each BUILD edit is reviewed in the editor
	// before it applies (docs/review.md); a session may switch it.
	Review          string     `json:"review" yaml:"review"`
	Run             Run        `json:"run" yaml:"run"`
	Editor          Editor     `json:"editor" yaml:"editor"`
	MaxTurnRequests int        `json:"max_turn_requests" yaml:"max_turn_requests"`
	Compaction      Compaction `json:"compaction" yaml:"compaction"`
	Sandbox         Sandbox    `json:"sandbox" yaml:"sandbox"`

	Instructions Instructions `json:"instructions" yaml:"instructions"`
	MCP          MCP          `json:"mcp" yaml:"mcp"`
	// Subagents bounds the task tool's sub-agents (docs/subagents.md).
	Subagents Subagents `json:"subagents" yaml:"subagents"`
	// ACP configures the ACP face (`agentls acp`).
	ACP ACP `json:"acp" yaml:"acp"`
	// LSP configures the language intelligence (config/lsp.go).
	LSP LSP `json:"lsp" yaml:"lsp"`
}

// ACP configures the ACP face.
type ACP struct {
	// ClientFS is auto (read and write through the client's fs/* methods
	// when it offers them) or off (agentls reads and writes the disk
	// itself, through the guarded path, and reports each change as a
	// diff: ACP v2 drops the client's fs/*).
	ClientFS string `json:"client_fs" yaml:"client_fs"`
}

// Default is the built-in configuration, the lowest layer.
func Default() Config {
	return Config{
		Model: Model{
			Provider:  "openai",
			BaseURL:   "https://api.openai.com/v1",
			APIKeyEnv: "OPENAI_API_KEY",
			Name:      "gpt-4.1",

			ConnectTimeoutSecs:   30,
			FirstByteTimeoutSecs: 600,
			IdleTimeoutSecs:      120,
		},
		Editor: Editor{RequestTimeoutSecs: 60},
		ACP:    ACP{ClientFS: "auto"},
		PlanMode: PlanMode{
			DefaultActive:       true,
			RequireApproval:     true,
			ApprovalTimeoutSecs: 86400,
			PlansDir:            DefaultPlansDir,
			AllowNetworkTools:   []string{},
		},
		Edits:  "auto",
		Review: "off",
		Run: Run{
			Allow: []string{}, TimeoutSecs: 120, MaxOutputBytes: 30000,
			EnvDeny: []string{"*_API_KEY", "*_TOKEN", "*_SECRET", "AWS_*"},
			Network: []string{},
		},
		Sandbox:         Sandbox{Mode: "auto", DenyRead: []string{}, AllowWrite: []string{}},
		MaxTurnRequests: 50,
		Compaction:      Compaction{Threshold: 0.85},
		MCP:             MCP{ReadOnly: []string{}, TrustHints: []string{}, CallTimeoutSecs: 60},

		Instructions: Instructions{MaxBytes: 32 << 10},
		Subagents:    Subagents{MaxParallel: 3, MaxDepth: 1, MaxTurns: 20, MaxTokens: 200000},
		LSP:          LSP{Source: "auto", SettleMs: 1500},
	}
}

// APIKey returns the model's API key: Model.APIKey if set, else the
// environment variable named by Model.APIKeyEnv (empty when neither is).
func (c Config) APIKey(getenv func(string) string) string {
	if c.Model.APIKey != "" {
		return c.Model.APIKey
	}
	if c.Model.APIKeyEnv == "" {
		return ""
	}
	return getenv(c.Model.APIKeyEnv)
}
