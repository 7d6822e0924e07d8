package mcpclient

import (
	"strings"
	"sync"
	"unicode/utf8"
)

// tail is an io.Writer keeping the last bytes written (a server's stderr).
type tail struct {
	mu    sync.Mutex
	limit int
	buf   []byte
}

func newTail(limit int) *tail { return &tail{limit: limit} }

// Write implements io.Writer; it never fails.
func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if over := len(t.buf) - t.limit; over > 0 {
		t.buf = append(t.buf[:0], t.buf[over:]...)
	}
	return len(p), nil
}

// String is the tail, trimmed, starting at a whole UTF-8 character.
func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	b := t.buf
	for len(b) > 0 && !utf8.RuneStart(b[0]) {
		b = b[1:]
	}
	return strings.TrimSpace(strings.ToValidUTF8(string(b), "?"))
}
