// Package release holds what scripts/release publishes besides the
// binaries: the ACP Registry's agent.json schema (agent.schema.json,
// vendored from github.com/agentclientprotocol/registry at commit
// 172d5034b0aa7f91b24622ce4ee4459414e0e07e) and the registry icon
// (icon.svg, 16×16, currentColor). Its test runs the script for this
// machine's platform and validates the agent.json it writes.
package release
