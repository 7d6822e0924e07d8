// Command conformanceclient is an MCP client built on mcpclient for the
// MCP conformance suite (@modelcontextprotocol/conformance, npm): the
// suite starts a test server for a scenario and runs this command with the
// server's URL as its last argument and the scenario's name in
// MCP_CONFORMANCE_SCENARIO. It connects the way agentls does (an HTTP
// server of mcpclient's pool: streamable HTTP, static headers), lists the
// tools, calls each (answering a form elicitation "accept" with no values,
// so that the schema's defaults apply), and exits 0, or 1 with the error.
package main

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"time"

	"github.com/agentls/agentls/agent/tools"
	"github.com/agentls/agentls/config"
	"github.com/agentls/agentls/mcpclient"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: conformanceclient <server-url>")
		os.Exit(2)
	}
	slog.SetDefault(slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelDebug})))
	if err := run(os.Args[len(os.Args)-1], os.Getenv("MCP_CONFORMANCE_SCENARIO")); err != nil {
		fmt.Fprintln(os.Stderr, "conformanceclient:", err)
		os.Exit(1)
	}
}

func run(url, scenario string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	dir, err := os.MkdirTemp("", "conformance")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	p := mcpclient.NewPool(dir, []string{dir}, os.Environ)
	defer p.Close()
	p.Configure(config.Default(), []mcpclient.ServerSpec{{Name: "conformance", Type: "http", URL: url, Network: true, Origin: mcpclient.FromConfig}})
	s := p.Server("", "conformance")
	ts, err := s.Tools(ctx)
	if err != nil {
		return fmt.Errorf("scenario %s: %w", scenario, err)
	}
	hooks := &mcpclient.CallHooks{
		Elicit: func(ctx context.Context, e tools.MCPElicitation) (tools.MCPElicitReply, error) {
			fmt.Fprintf(os.Stderr, "elicitation (%s): %s\n", e.Mode, e.Message)
			return tools.MCPElicitReply{Action: "accept", Content: map[string]any{}}, nil
		},
		Progress: func(m string) { fmt.Fprintln(os.Stderr, "progress:", m) },
	}
	for _, t := range ts {
		args := map[string]any{}
		if t.Name == "add_numbers" {
			args = map[string]any{"a": 2, "b": 3}
		}
		res, err := s.CallWith(ctx, t.Name, args, 30*time.Second, 100000, hooks)
		if err != nil {
			return fmt.Errorf("scenario %s, tool %s: %w", scenario, t.Name, err)
		}
		fmt.Printf("%s: %s\n", t.Name, res.Text)
	}
	return nil
}
