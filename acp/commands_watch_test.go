package acp

import (
	"bytes"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

// TestRequestWatcher: the session requests are noted whatever the reads'
// sizes, a line longer than maxWatchedLine is skipped (and its buffer not
// kept), and the bytes reach the SDK unchanged.
func TestRequestWatcher(t *testing.T) {
	t.Parallel()
	c := newCommandAnnouncer(nil)
	huge := `{"jsonrpc":"2.0","id":9,"method":"session/prompt","params":{"text":"` + strings.Repeat("x", maxWatchedLine) + `"}}`
	in := strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"/w"}}`,
		huge,
		`{"jsonrpc":"2.0","id":"a","method":"session/load","params":{"sessionId":"s-load"}}`,
		`{"jsonrpc":"2.0","method":"session/cancel","params":{"sessionId":"s-x"}}`,
		`{"jsonrpc":"2.0","id": 3 ,"method":"session/resume","params":{"sessionId":"s-res"}}`,
		`{"jsonrpc":"2.0","id":4,"method":"session/prompt","params":{"sessionId":"s-p"}}`,
	}, "\n") + "\n"
	// One byte at a time through the first lines, then large reads.
	src := io.MultiReader(iotest.OneByteReader(strings.NewReader(in[:200])), strings.NewReader(in[200:]))
	w := c.watchRequests(src).(*requestWatcher)
	got, err := io.ReadAll(w)
	if err != nil || !bytes.Equal(got, []byte(in)) {
		t.Fatalf("read %d bytes (%v), want the input unchanged", len(got), err)
	}
	// session/load is not watched: LoadSession announces before its answer.
	want := map[string]string{"1": "", "3": "s-res"}
	if len(c.waiting) != len(want) {
		t.Fatalf("waiting %v, want %v", c.waiting, want)
	}
	for k, v := range want {
		if c.waiting[k] != v {
			t.Fatalf("waiting %v, want %v", c.waiting, want)
		}
	}
	if cap(w.line) > keptLineBytes {
		t.Fatalf("the watcher keeps a %d-byte buffer", cap(w.line))
	}
}
