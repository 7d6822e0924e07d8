package acp

import (
	"log/slog"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/agentls/agentls/mcpclient"
)

// mcpSpecs are the client's MCP servers of session/new, session/load or
// session/resume as agentls's server definitions: stdio servers start
// (lazily, at the session's first tool listing) with the client's command,
// arguments and variables, HTTP servers are reached with the client's
// static headers, network allowed (the client chose them); SSE and ACP
// servers are not supported (mcpCapabilities says so) and are skipped with
// a log line.
func mcpSpecs(servers []sdk.McpServer) []mcpclient.ServerSpec {
	var out []mcpclient.ServerSpec
	for _, s := range servers {
		switch {
		case s.Stdio != nil:
			env := map[string]string{}
			for _, v := range s.Stdio.Env {
				env[v.Name] = v.Value
			}
			out = append(out, mcpclient.ServerSpec{Name: s.Stdio.Name, Type: "stdio", Command: s.Stdio.Command, Args: s.Stdio.Args,
				Env: env, Network: true, Origin: mcpclient.FromClient, Source: "ACP client"})
		case s.Http != nil:
			headers := map[string]string{}
			for _, h := range s.Http.Headers {
				headers[h.Name] = h.Value
			}
			out = append(out, mcpclient.ServerSpec{Name: s.Http.Name, Type: "http", URL: s.Http.Url, Headers: headers,
				Network: true, Origin: mcpclient.FromClient, Source: "ACP client"})
		case s.Sse != nil:
			slog.Warn("acp: SSE MCP servers are not supported (mcpCapabilities.sse is false); not used", "server", s.Sse.Name)
		case s.Acp != nil:
			slog.Warn("acp: ACP MCP servers are not supported; not used", "server", s.Acp.Name)
		}
	}
	return out
}
