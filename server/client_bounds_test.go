package server

import (
	"context"
	"io"
	"net"
	"testing"
	"testing/synctest"
	"time"

	"go.lsp.dev/jsonrpc2"

	"github.com/agentls/agentls/internal/lspwire"
)

// pipedServer is a Server whose only part is its connection to a client on
// a net.Pipe (a write waits until the client reads). With drain the client
// reads everything and answers nothing (a hung editor); without, it reads
// nothing. Cleanup closes both ends.
func pipedServer(t *testing.T, drain bool) *Server {
	ctx, cancel := context.WithCancel(context.Background())
	cli, srv := net.Pipe()
	stream := newFrameStream(srv, 0)
	conn := jsonrpc2.NewConn(stream, jsonrpc2.WithCodec(lspwire.Codec{ProtocolTypes: true}))
	drained := make(chan struct{})
	go func() {
		defer close(drained)
		if drain {
			_, _ = io.Copy(io.Discard, cli)
		}
	}()
	t.Cleanup(func() {
		cancel()
		_ = cli.Close()
		_ = conn.Close()
		<-drained
	})
	return &Server{ctx: ctx, conn: conn}
}

// TestNotificationsToAStalledClientAreBounded: a notification to a client
// that stops reading gives up after 5 s: publishDiagnostics (the document
// worker's send, under the connection's context) and a plain editor's log
// line. In a synctest bubble: the bound costs no real time, and an
// unbounded wait is a deadlock the test reports. (Notifications only:
// jsonrpc2's calls pool channels across bubbles.)
func TestNotificationsToAStalledClientAreBounded(t *testing.T) {
	tests := []struct {
		name string
		send func(*Server)
	}{
		{"publishDiagnostics", func(s *Server) { s.publishDiagnostics("file:///ws/plans/p.plan", nil, []lspDiagnostic{}) }},
		{"plain editor's log line", func(s *Server) { s.logLine(context.Background(), "0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b", "→ ls") }},
		{"turn-end message", func(s *Server) { s.showLine(s.ctx, msgInfo, "done") }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				s := pipedServer(t, false)
				start := time.Now()
				tc.send(s)
				if d := time.Since(start); d != notifyWriteBound {
					t.Errorf("gave up after %s, want %s", d, notifyWriteBound)
				}
			})
		})
	}
}

// TestRequestsToAHungClientAreBounded: window/showDocument and the
// code-lens refresh to a client that stops reading or never answers end
// with their bound, and so does the cancel notice after them (bounds
// shortened here; on the real clock).
// It sets the package's bounds: it does not run in parallel (t.Parallel)
// with the tests that read them.
func TestRequestsToAHungClientAreBounded(t *testing.T) {
	defer func(sd, lr, nw time.Duration) {
		showDocumentBound, lensRefreshBound, notifyWriteBound = sd, lr, nw
	}(showDocumentBound, lensRefreshBound, notifyWriteBound)
	showDocumentBound, lensRefreshBound, notifyWriteBound = 20*time.Millisecond, 20*time.Millisecond, 20*time.Millisecond
	tests := []struct {
		name  string
		drain bool
		send  func(context.Context, *testing.T, *Server)
	}{
		{"showDocument, never answered", true, func(ctx context.Context, t *testing.T, s *Server) {
			s.caps.showDocument = true
			if err := s.ShowDocument(ctx, "/ws/plans/p.plan"); err == nil {
				t.Error("no error")
			}
		}},
		{"showDocument, client not reading", false, func(ctx context.Context, t *testing.T, s *Server) {
			s.caps.showDocument = true
			if err := s.ShowDocument(ctx, "/ws/plans/p.plan"); err == nil {
				t.Error("no error")
			}
		}},
		{"code lens refresh, never answered", true, func(ctx context.Context, _ *testing.T, s *Server) {
			s.ctx = ctx
			s.caps.codeLensRefresh = true
			s.refreshLenses()
			s.bg.Wait()
		}},
		{"code lens refresh, client not reading", false, func(ctx context.Context, _ *testing.T, s *Server) {
			s.ctx = ctx
			s.caps.codeLensRefresh = true
			s.refreshLenses()
			s.bg.Wait()
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := pipedServer(t, tc.drain)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			done := make(chan struct{})
			go func() {
				defer close(done)
				tc.send(ctx, t, s)
			}()
			select {
			case <-done:
			case <-time.After(30 * time.Second):
				t.Error("still waiting on the client after 30s")
				cancel()
				_ = s.conn.Close()
				<-done
			}
		})
	}
}
