// Package acp is agentls's Agent Client Protocol face (`agentls acp`): ACP
// v1 over stdio (newline-delimited JSON-RPC) for Zed, JetBrains IDEs,
// CodeCompanion, avante.nvim, agent-shell and other ACP clients, over the
// same sessions, tools, guard and plans as the LSP face. It is a thin
// adapter over github.com/coder/acp-go-sdk: the SDK's types appear only in
// this package, its unstable ones (elicitation, usage) only in unstable.go.
// docs/acp.md holds the mapping.
package acp

import (
	"context"
	"io"
	"log/slog"
	"os"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/agentls/agentls/host"
)

// Options configure the ACP face.
type Options struct {
	// Version is agentls's version, sent as agentInfo.version.
	Version string
	// ConfigFile, when set, replaces <workspace>/.agentls.yaml (--config).
	ConfigFile string
	// Getenv reads the environment; nil means os.Getenv.
	Getenv func(string) string
	// NewProvider builds the chat model of a workspace; nil means
	// host.NewProvider.
	NewProvider host.ProviderFactory
}

// Serve speaks ACP with one client on in/out until in ends or ctx is
// cancelled; then it cancels every turn, releases the sessions and writes
// what is queued (until ctx ends). One goroutine writes out (the wire's
// lineWriter); it ends with Serve, unless ctx ended while a write is
// blocked on a client that does not read (then it ends when its writes do;
// for stdio, with the process).
func Serve(ctx context.Context, in io.Reader, out io.Writer, opts Options) {
	w := newWire(in, out)
	go w.out.run()
	// Once ctx ends, a sender waiting on a client that does not read gives
	// up (after the input ended, senders still wait: the client may read on).
	defer context.AfterFunc(ctx, w.out.stop)()
	a := newAgent(opts, w)
	conn := sdk.NewAgentSideConnection(a, a.commands.watchAnswers(w.out), a.commands.watchRequests(w.sdkIn))
	conn.SetLogger(slog.Default())
	a.conn = conn
	pumped := make(chan struct{})
	go func() {
		defer close(pumped)
		w.pump()
	}()
	select {
	case <-conn.Done():
	case <-ctx.Done():
	}
	a.close()
	_ = w.sdkIn.Close()
	select {
	case <-pumped:
	case <-ctx.Done(): // the input may never end (a terminal): do not wait on it
	}
	w.out.close()
	select {
	case <-w.out.ran: // the last lines are out
	case <-ctx.Done(): // the client may never read them: do not wait on it
	}
}

func getenvOf(opts Options) func(string) string {
	if opts.Getenv != nil {
		return opts.Getenv
	}
	return os.Getenv
}
