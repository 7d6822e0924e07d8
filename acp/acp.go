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
	"time"

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
// what is queued. A client that reads nothing does not hold it: from the
// input's end every wait on the output is bounded by exitDrainBound (then
// senders give up), and Serve returns at the latest exitDrainBound after
// the agent stopped. One goroutine writes out (the wire's lineWriter); it
// ends with Serve, unless a write is blocked on a client that does not read
// (then it ends when its write does; for stdio, with the process).
func Serve(ctx context.Context, in io.Reader, out io.Writer, opts Options) {
	w := newWire(in, out)
	if wireServed != nil {
		wireServed(w) // tests only (export_test.go)
	}
	go w.out.run()
	// Once ctx ends, a sender waiting on a client that does not read gives
	// up.
	defer context.AfterFunc(ctx, w.out.stop)()
	a := newAgent(opts, w)
	ownCtx, cancelOwn := context.WithCancel(ctx)
	defer cancelOwn()
	w.own, w.ownCtx = a.ownMethods(), ownCtx
	w.prompts.withdrawn = a.promptWithdrawn // prompt_withdrawn.go
	conn := sdk.NewAgentSideConnection(a, w.prompts.watchAnswers(a.commands.watchAnswers(w.out)), a.commands.watchRequests(w.sdkIn))
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
	// The input ended: the client may still read what is queued, for
	// exitDrainBound; then every sender stops waiting for it.
	drainEnd := time.Now().Add(exitDrainBound)
	drain := time.AfterFunc(exitDrainBound, w.out.stop)
	defer drain.Stop()
	cancelOwn()
	a.close()
	_ = w.sdkIn.Close()
	select {
	case <-pumped:
	case <-ctx.Done(): // the input may never end (a terminal): do not wait on it
	}
	w.serving.Wait() // their answers wait for room at most until drain stops them
	w.out.close()
	bound := time.NewTimer(max(time.Until(drainEnd), lastLinesBound))
	defer bound.Stop()
	select {
	case <-w.out.ran: // the last lines are out
	case <-ctx.Done(): // the client may never read them: do not wait on it
	case <-bound.C:
		slog.Warn("acp: the client did not read the last messages; exiting without them")
	}
}

// exitDrainBound is how long, once the input ended, the face waits for a
// client that reads nothing: for room in the output queue, and for the
// last lines to be written.
const exitDrainBound = 2 * time.Second

// lastLinesBound is the least time the last lines get once the agent has
// stopped.
const lastLinesBound = 250 * time.Millisecond

func getenvOf(opts Options) func(string) string {
	if opts.Getenv != nil {
		return opts.Getenv
	}
	return os.Getenv
}

// wireServed, when set (only by a test, before it starts a connection),
// is told of each connection's wire as Serve begins.
var wireServed func(*wire)
