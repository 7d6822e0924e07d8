// Package mcpclient connects agentls to MCP servers (the Model Context
// Protocol) over the official go-sdk, the only package of agentls that
// imports it, and turns each server's tools into declared tools of the
// agent's registry (tools.Tool) under the plan guard: an MCP tool is
// mutating unless the user lists it read-only (mcp.read_only), so plan mode
// refuses it before any byte reaches the server, and build mode asks for
// each call. Servers start lazily, at a session's first tool listing, in a
// process group of their own behind the same watchdog as `run`, with the
// model's key and run.env_deny kept out of their environment.
package mcpclient
