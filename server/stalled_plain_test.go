package server_test

import (
	"bufio"
	"context"
	"net"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/agentls/agentls/agent/llm"
	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/config"
	"github.com/agentls/agentls/server"
)

// serveNetPipe starts a server in-process on a net.Pipe (unbuffered: a
// write waits until the client reads it) with a raw client on the other
// end. The server stops when the test's cleanup closes the client's side.
func serveNetPipe(t *testing.T, ctx context.Context, opts server.Options) *rawClient {
	cli, srv := net.Pipe()
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		_ = server.Serve(ctx, srv, opts)
	}()
	t.Cleanup(func() {
		_ = cli.Close() // the client is gone: the server's input ends, a blocked write fails
		<-finished
	})
	return &rawClient{t: t, in: cli, out: bufio.NewReader(cli)}
}

// lsModel answers the first call with text and an `ls` tool call (a plain
// editor gets log lines for both), and reports each later call's last
// message on later.
type lsModel struct {
	calls atomic.Int32
	first chan struct{}
	later chan string
}

func (m *lsModel) Complete(ctx context.Context, req llm.Request, _ func(llm.Event)) (llm.Response, error) {
	if m.calls.Add(1) == 1 {
		close(m.first)
		return llm.Response{Message: llm.Message{Role: llm.RoleAssistant, Content: "Looking around.",
			ToolCalls: []agentproto.ToolCall{{ID: "c1", Name: "ls", Arguments: `{}`}}}, FinishReason: "tool_calls"}, nil
	}
	m.later <- req.Messages[len(req.Messages)-1].Content
	return llm.Response{Message: llm.Message{Role: llm.RoleAssistant, Content: "ok"}, FinishReason: "stop"}, nil
}

// TestPlainEditorThatStopsReadingDoesNotHoldCancelledTurn: an editor
// without experimental.agent gets the turn's words as window/logMessage
// lines. When it stops reading, the turn's first line waits; agent/cancel
// must still end the turn (the lines go under the turn's context), and the
// next prompt then reaches the model within the notification bound (the
// turn's last message waits at most 5 s) — all while the editor still
// reads nothing. In a synctest bubble: the bound costs no real time, and a
// send that waits forever is a deadlock the test reports. The session must
// make no server→client request (a plain editor in plan mode with `ls`
// gets none): jsonrpc2 pools its calls' channels, and one made in a bubble
// would break a later test outside it.
func TestPlainEditorThatStopsReadingDoesNotHoldCancelledTurn(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		model := &lsModel{first: make(chan struct{}), later: make(chan string, 4)}
		dir := t.TempDir()
		c := serveNetPipe(t, ctx, server.Options{
			Getenv: homeOnly(t),
			NewProvider: func(config.Config, func(string) string, string) (llm.Provider, error) {
				return model, nil
			},
		})
		c.send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"rootUri":"file://` + dir + `","capabilities":{}}}`)
		c.next()
		c.send(`{"jsonrpc":"2.0","id":2,"method":"agent/newSession","params":{"mode":"plan"}}`)
		sid := c.next()["result"].(map[string]any)["sessionId"].(string)

		// From here on the editor reads nothing.
		c.send(`{"jsonrpc":"2.0","id":3,"method":"agent/prompt","params":{"sessionId":"` + sid + `","text":"look"}}`)
		<-model.first
		synctest.Wait() // the turn waits on its first log line
		start := time.Now()
		c.send(`{"jsonrpc":"2.0","method":"agent/cancel","params":{"sessionId":"` + sid + `"}}`)
		// The cancel is handled before the next prompt arrives (handlers run
		// concurrently: sent back to back, the prompt could find the
		// cancelled turn still winding down and be refused as busy). Wait
		// returns once every goroutine waits: the bounded writes on their
		// timers, which only the fake clock can end.
		synctest.Wait()
		c.send(`{"jsonrpc":"2.0","id":4,"method":"agent/prompt","params":{"sessionId":"` + sid + `","text":"again"}}`)
		if got := <-model.later; got != "again" {
			t.Fatalf("the model was called on %q after the cancel, want the next prompt", got)
		}
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("the next prompt reached the model %s after agent/cancel, want at most 5s", d)
		}
	})
}
