package langpool

import (
	"context"
	"encoding/json"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"

	"github.com/agentls/agentls/agent/intel"
	"github.com/agentls/agentls/internal/lspwire"
)

// stuckServerArg makes the test binary (run with it as its only argument)
// a language server that offers pull diagnostics and answers them, except
// for a document whose text holds HANG: that question it never answers (a
// server stuck in a loop or a deadlock, alive and reading its input). A
// change to a text holding HUGE is answered with the header of a message
// of almost a GiB and a few bytes of its body.
const stuckServerArg = "stuck-language-server"

func init() { serveAs(stuckServerArg, runStuckServer, 0) }

func runStuckServer() {
	docs := map[string]string{}
	done := make(chan struct{})
	conn := jsonrpc2.NewConn(jsonrpc2.NewStream(stdioRWC{}), jsonrpc2.WithCodec(lspwire.Codec{}))
	conn.Go(context.Background(), func(ctx context.Context, req *jsonrpc2.Request) (any, error) {
		var p struct {
			TextDocument struct {
				URI, Text string
			} `json:"textDocument"`
			ContentChanges []struct{ Text string } `json:"contentChanges"`
		}
		_ = json.Unmarshal(req.Params(), &p)
		switch req.Method() {
		case "initialize":
			return map[string]any{"capabilities": map[string]any{"textDocumentSync": 1,
				"diagnosticProvider": map[string]any{"interFileDependencies": false, "workspaceDiagnostics": false}}}, nil
		case "textDocument/didOpen":
			docs[p.TextDocument.URI] = p.TextDocument.Text
		case "textDocument/didChange":
			if n := len(p.ContentChanges); n > 0 {
				docs[p.TextDocument.URI] = p.ContentChanges[n-1].Text
			}
			if strings.Contains(docs[p.TextDocument.URI], "HUGE") {
				// A message declaring almost a GiB, whose body never comes.
				_, _ = os.Stdout.WriteString("Content-Length: 1073741000\r\n\r\n{\"jsonrpc\":\"2.0\"")
			}
		case "textDocument/diagnostic":
			if strings.Contains(docs[p.TextDocument.URI], "HANG") {
				select {} // never answers
			}
			return map[string]any{"kind": "full", "items": badLines(docs[p.TextDocument.URI])}, nil
		case "exit":
			close(done)
		}
		return nil, nil
	})
	select {
	case <-done:
	case <-conn.Done():
	}
}

// TestSettleIsBoundedWhenARunningServerStopsAnswering: after an edit
// agentls settles the file's diagnostics "at most lsp.settle_ms counted
// from the first answer (a server that is starting is not charged to it)"
// (docs/language-intel.md); the editor's agent/diagnostics is bounded by
// editor.request_timeout_secs. A pool server that is already running and
// answered before, but never answers the question about the edited text,
// holds Settle's first poll, which has no bound but the turn's context:
// the edit tool's result (and the baseline before the next edit, and a
// plan tick's check) wait for ever, until the user cancels the turn. It
// must end within a bound, unsettled or with an error.
func TestSettleIsBoundedWhenARunningServerStopsAnswering(t *testing.T) {
	p, ws, a := binaryServerPool(t, stuckServerArg, "package a\n// BAD\n", Options{})

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	const budget = 500 * time.Millisecond
	snap, settled, err := intel.Settle(ctx, p, []string{a}, budget)
	if err != nil || !settled || len(snap.Files[a]) != 1 {
		t.Fatalf("rig: the running server's first answer = %+v (settled %v, %v), want the BAD line's", snap.Files, settled, err)
	}

	ws.Overlay().SetApplied(a, "package a\n// BAD HANG\n") // the agent's edit
	type result struct {
		settled bool
		err     error
	}
	got := make(chan result, 1)
	asked := time.Now()
	qctx, qcancel := context.WithCancel(ctx)
	defer qcancel()
	go func() {
		_, settled, err := intel.Settle(qctx, p, []string{a}, budget)
		got <- result{settled, err}
	}()
	// Generous: twenty budgets, where the docs allow one (plus the quiet
	// and a poll).
	bound := 20 * budget
	select {
	case r := <-got:
		if r.settled {
			t.Fatalf("Settle over a server that never answered said settled")
		}
		t.Logf("ended after %v: settled %v, %v", time.Since(asked), r.settled, r.err)
	case <-time.After(bound):
		qcancel() // the turn's cancel is all that ends it
		r := <-got
		t.Fatalf("Settle after an edit, over a running server that does not answer, still waited after %v (ended only by the turn's cancel: %v); lsp.settle_ms is %v", bound, r.err, budget)
	}
}

// TestServerMessageOverTheCap: a language server's message declaring
// almost a GiB is not read (agentls allocated what it claimed and waited
// for the body for ever, the server's answers stuck behind it): the
// connection ends, the server is ended, and the next question starts it
// again and is answered.
func TestServerMessageOverTheCap(t *testing.T) {
	p, ws, a := binaryServerPool(t, stuckServerArg, "package a\n// BAD\n", Options{})
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	const budget = 500 * time.Millisecond
	if snap, settled, err := intel.Settle(ctx, p, []string{a}, budget); err != nil || !settled || len(snap.Files[a]) != 1 {
		t.Fatalf("rig: the server's first answer = %+v (settled %v, %v)", snap.Files, settled, err)
	}
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	ws.Overlay().SetApplied(a, "package a\n// HUGE\n")
	_, _, _ = intel.Settle(ctx, p, []string{a}, budget) // over the broken message: unsettled or an error
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 256<<20 {
		t.Errorf("reading the server's message allocated %d MiB, the size it declared", grew>>20)
	}
	ws.Overlay().SetApplied(a, "package a\n// BAD\n// BAD\n")
	deadline := time.Now().Add(20 * time.Second)
	for {
		snap, settled, err := intel.Settle(ctx, p, []string{a}, budget)
		if err == nil && settled && len(snap.Files[a]) == 2 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("after the broken message the server answers nothing: %+v (settled %v, %v), want the two BAD lines from a restarted server", snap.Files, settled, err)
		}
	}
}
