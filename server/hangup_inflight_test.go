package server_test

import (
	"bufio"
	"context"
	"errors"
	"net"
	"path/filepath"
	"testing"
	"testing/synctest"
	"time"

	"github.com/agentls/agentls/agent/llm"
	"github.com/agentls/agentls/config"
	"github.com/agentls/agentls/server"
	"github.com/agentls/agentls/sessionstore"
)

// gatedCheck is a model whose check (agent/checkModel) holds its handler
// until release is closed, whatever the request's context says: a handler
// still winding down when the client hangs up.
type gatedCheck struct{ entered, release chan struct{} }

func (m *gatedCheck) Complete(context.Context, llm.Request, func(llm.Event)) (llm.Response, error) {
	return llm.Response{}, errors.New("no completions here")
}

func (m *gatedCheck) Check(context.Context) error {
	close(m.entered)
	<-m.release
	return nil
}

// TestServeWaitsForHandlersOfAHungUpClient: a client sends a request and
// hangs up at once. Serve must not close the session manager, which
// releases the sessions' locks, while that request's handler still runs:
// the handler could create, load or write a session after the release.
// Before, the manager closed at once (the session's lock was free while
// the handler ran); now it closes once the handler returned.
func TestServeWaitsForHandlersOfAHungUpClient(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		model := &gatedCheck{entered: make(chan struct{}), release: make(chan struct{})}
		dir := t.TempDir()
		cli, srv := net.Pipe()
		served := make(chan struct{})
		go func() {
			defer close(served)
			_ = server.Serve(context.Background(), srv, server.Options{
				Getenv:      homeOnly(t),
				NewProvider: func(config.Config, func(string) string, string) (llm.Provider, error) { return model, nil },
			})
		}()
		c := &rawClient{t: t, in: cli, out: bufio.NewReader(cli)}
		c.send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"rootUri":"file://` + dir + `","capabilities":{}}}`)
		c.next()
		c.send(`{"jsonrpc":"2.0","method":"initialized","params":{}}`)
		c.send(`{"jsonrpc":"2.0","id":2,"method":"agent/newSession","params":{"mode":"plan"}}`)
		sid := c.next()["result"].(map[string]any)["sessionId"].(string)
		c.send(`{"jsonrpc":"2.0","id":3,"method":"agent/checkModel","params":{}}`)
		// Bounded (the bubble's clock: at once in real time when nothing
		// else can run): a model check that never reaches the model (a
		// configuration that did not load) fails here, not at the test
		// binary's timeout.
		select {
		case <-model.entered:
		case <-time.After(time.Minute):
			t.Fatal("agent/checkModel did not reach the model")
		}
		_ = cli.Close() // the client hangs up with its request in flight
		synctest.Wait()

		// ownable reports whether another process could take the
		// session's lock now.
		ownable := func() bool {
			probe := sessionstore.NewStore(filepath.Join(dir, ".agentls", "chats"))
			defer probe.Release()
			err := probe.Own(sid)
			if err != nil && !errors.Is(err, sessionstore.ErrSessionOwned) {
				t.Fatalf("probe the session's lock: %v", err)
			}
			return err == nil
		}
		for _, step := range []struct {
			name    string
			act     func()
			ownable bool
		}{
			{"while the handler runs", func() {}, false},
			{"once the handler and Serve returned", func() {
				close(model.release)
				select {
				case <-served:
				case <-time.After(time.Minute):
					t.Fatal("Serve did not return after the handler did")
				}
			}, true},
		} {
			step.act()
			if got := ownable(); got != step.ownable {
				t.Errorf("%s: the session's lock is free = %v, want %v", step.name, got, step.ownable)
			}
		}
	})
}
