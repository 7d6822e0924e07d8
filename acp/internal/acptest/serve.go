package acptest

import (
	"context"
	"errors"
	"io"
	"testing"
	"time"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/agentls/agentls/acp"
	"github.com/agentls/agentls/agent/llm"
	"github.com/agentls/agentls/config"
)

// What Start and the acp package's own rig (acp/harness_test.go) share in
// running an agentls acp for a test.

// ServeOptions are acp.Serve's options for a test: version "test", the
// environment env (no other variable), and model as every session's model
// (nil: making one fails, "no scripted model in this test").
func ServeOptions(env map[string]string, model llm.Provider) acp.Options {
	return acp.Options{
		Version: "test",
		Getenv:  func(k string) string { return env[k] },
		NewProvider: func(config.Config, func(string) string, string) (llm.Provider, error) {
			if model == nil {
				return nil, errors.New("no scripted model in this test")
			}
			return model, nil
		},
	}
}

// Serve runs acp.Serve under ctx with opts over pipes, its output going
// to the client through wrap (nil: as it is). It returns the client's ends
// (agentls's input, and its output) and served, closed once acp.Serve has
// returned. At the test's cleanup agentls's input ends, and agentls must
// stop within 30 s.
func Serve(t testing.TB, ctx context.Context, opts acp.Options, wrap func(io.Writer) io.Writer) (toAgent *io.PipeWriter, fromAgent *io.PipeReader, served <-chan struct{}) {
	c2aR, c2aW := io.Pipe()
	a2cR, a2cW := io.Pipe()
	var out io.Writer = a2cW
	if wrap != nil {
		out = wrap(out)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		acp.Serve(ctx, c2aR, out, opts)
		_ = a2cW.Close()
	}()
	t.Cleanup(func() {
		_ = c2aW.Close()
		select {
		case <-done:
		case <-time.After(30 * time.Second):
			t.Error("agentls acp did not stop after its input ended")
		}
	})
	return c2aW, a2cR, done
}

// Initialize runs initialize as the client name with caps; the agent must
// answer the protocol version the SDK speaks.
func Initialize(t testing.TB, ctx context.Context, conn *sdk.ClientSideConnection, name string, caps sdk.ClientCapabilities) {
	t.Helper()
	res, err := conn.Initialize(ctx, sdk.InitializeRequest{ProtocolVersion: sdk.ProtocolVersionNumber, ClientCapabilities: caps,
		ClientInfo: &sdk.Implementation{Name: name, Version: "1"}})
	if err != nil {
		t.Fatalf("initialize: %v", err)
	}
	if res.ProtocolVersion != sdk.ProtocolVersionNumber {
		t.Fatalf("protocol version %d, want %d", res.ProtocolVersion, sdk.ProtocolVersionNumber)
	}
}
