package acp

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"testing"
)

// TestLineWriterOnStalledOutput: with the output blocked (a pipe nobody
// reads) and the queue full, a send and the wire's own request (as
// elicitation/create sends it) return at their context's end instead of
// waiting; once the client reads, the queued lines come out whole and in
// order, and close ends the writer after them.
func TestLineWriterOnStalledOutput(t *testing.T) {
	t.Parallel()
	pr, pw := io.Pipe()
	w := newWire(eofReader{}, pw)
	go w.out.run()
	ended, cancel := context.WithCancel(context.Background())
	cancel()

	// Queue lines until the queue is full: a send whose context has ended
	// still queues while there is room, and gives up when there is none.
	var sent int
	for ; ; sent++ {
		err := w.writeMessage(ended, map[string]any{"jsonrpc": "2.0", "method": "n", "params": sent})
		if errors.Is(err, context.Canceled) {
			break
		}
		if err != nil {
			t.Fatalf("send %d: %v", sent, err)
		}
		if sent > 10*outQueueLen {
			t.Fatalf("%d lines queued on a stalled output; the queue holds %d", sent, outQueueLen)
		}
	}
	if sent < outQueueLen {
		t.Fatalf("a send gave up after %d lines; the queue holds %d", sent, outQueueLen)
	}
	if err := w.call(ended, "elicitation/create", map[string]any{}, nil); !errors.Is(err, context.Canceled) {
		t.Fatalf("an own request on a stalled output with its context ended: %v, want context.Canceled", err)
	}

	// The client reads again.
	sc := bufio.NewScanner(pr)
	for i := 0; i < sent; i++ {
		if !sc.Scan() {
			t.Fatalf("line %d: %v", i, sc.Err())
		}
		var m struct {
			Params int `json:"params"`
		}
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil || m.Params != i {
			t.Fatalf("line %d is %q, want message %d whole", i, sc.Text(), i)
		}
	}
	drained := make(chan struct{})
	go func() { // what the own request may have queued; then the end
		defer close(drained)
		for sc.Scan() {
		}
	}()
	w.out.close()
	<-w.out.ran
	_ = pr.Close()
	<-drained

	// After close no sender waits, not even one without a deadline: what
	// finds no room is refused.
	for i := 0; ; i++ {
		err := w.writeMessage(context.Background(), map[string]any{"late": i})
		if errors.Is(err, errWriterStopped) {
			break
		}
		if err != nil || i > outQueueLen {
			t.Fatalf("late send %d after close: %v", i, err)
		}
	}
}

type eofReader struct{}

func (eofReader) Read([]byte) (int, error) { return 0, io.EOF }
