package langpool

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/agentls/agentls/agent/intel"
	"github.com/agentls/agentls/sandbox"
)

// deafServerArg makes the test binary (run with it as its only argument) a
// language server that answers initialize and then never reads its input
// again: alive, stuck in a loop (a single-threaded server indexing on its
// main thread, a server stopped by a debugger, a hostile one). Its stdin
// pipe fills once agentls has written about 64 KiB to it.
const deafServerArg = "deaf-language-server"

func init() { serveAs(deafServerArg, runDeafServer, 0) }

func runDeafServer() {
	id, _, err := newStdinMessages().next()
	if err != nil {
		return
	}
	answerInitialize(id, `{"textDocumentSync":1}`)
	select {} // never reads again
}

// TestQuestionEndsWhenTheServerStopsReading: a running language server
// that stops reading its input (alive, stuck) does not hold agentls's
// question about a file for ever. The file's text goes to the server
// (didOpen/didChange) with a bounded write: once the server's input pipe
// is full, a write it does not take within writeTimeout (or whose
// question was cancelled) fails, the server is ended (a message may be
// half sent), and the question ends with an error well within the settle
// budget's bound; later writes (the next question, the shutdown at Close
// or at the idle stop) never queue behind it for ever.
func TestQuestionEndsWhenTheServerStopsReading(t *testing.T) {
	p, ws, a := binaryServerPool(t, deafServerArg, "package a\n", Options{})
	// Ends the deaf server, so that a write stuck on it fails and Close
	// can end (registered after Close's cleanup: runs before it).
	killServer := func() {
		p.mu.Lock()
		c := p.clients["go"]
		p.mu.Unlock()
		if c != nil {
			sandbox.KillGroup(c.cmd.Process)
		}
	}
	t.Cleanup(p.Close)
	t.Cleanup(killServer)

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	const budget = 500 * time.Millisecond
	// The server starts and takes the small file (it fits in the pipe):
	// unsettled (it never publishes), but the question ends.
	if _, _, err := intel.Settle(ctx, p, []string{a}, budget); err != nil {
		t.Fatalf("rig: the first question: %v", err)
	}
	if p.Running() == nil {
		t.Fatal("rig: the deaf server is not running")
	}

	// The agent's edit makes the file 4 MiB: its didChange fills the pipe.
	big := "package a\n" + strings.Repeat("// "+strings.Repeat("x", 60)+"\n", 4<<20/64)
	ws.Overlay().SetApplied(a, big)
	type result struct {
		settled bool
		err     error
	}
	got := make(chan result, 1)
	qctx, qcancel := context.WithCancel(ctx)
	defer qcancel()
	asked := time.Now()
	go func() {
		_, settled, err := intel.Settle(qctx, p, []string{a}, budget)
		got <- result{settled, err}
	}()
	bound := 20 * budget
	select {
	case r := <-got:
		if r.settled {
			t.Fatalf("Settle over a server that reads nothing said settled")
		}
		t.Logf("ended after %v: %v", time.Since(asked), r.err)
		return
	case <-time.After(bound):
	}
	// The budget did not end it: the turn's cancel, then.
	qcancel()
	select {
	case r := <-got:
		t.Fatalf("the question about the edited file, over a server that stopped reading, still waited after %v (lsp.settle_ms %v); only the turn's cancel ended it (%v)", bound, budget, r.err)
	case <-time.After(5 * time.Second):
	}
	killServer()
	r := <-got
	t.Fatalf("the question about the edited file, over a server that stopped reading, waited %v past lsp.settle_ms (%v) and 5 s past the turn's cancel: it ended only when the server was killed (%v)", bound, budget, r.err)
}
