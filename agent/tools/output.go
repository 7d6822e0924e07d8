package tools

import (
	"fmt"
	"sync"
	"unicode/utf8"
)

// headTail is an io.Writer that keeps the first and the last bytes of a
// stream within a budget and counts the bytes it dropped in between.
type headTail struct {
	mu    sync.Mutex
	limit int    // total bytes kept
	head  []byte // the first limit/2 bytes
	tail  []byte // ring buffer of the last limit-limit/2 bytes
	pos   int    // next write position in tail once it is full
	full  bool   // tail has wrapped
	total int64  // bytes written
}

// newHeadTail returns a writer keeping at most limit bytes (at least 2).
func newHeadTail(limit int) *headTail {
	limit = max(limit, 2)
	return &headTail{limit: limit, head: make([]byte, 0, limit/2), tail: make([]byte, 0, limit-limit/2)}
}

// Write implements io.Writer; it never fails.
func (h *headTail) Write(p []byte) (int, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	n := len(p)
	h.total += int64(n)
	if room := cap(h.head) - len(h.head); room > 0 {
		k := min(room, len(p))
		h.head = append(h.head, p[:k]...)
		p = p[k:]
	}
	tcap := cap(h.tail)
	if len(p) >= tcap {
		h.tail = append(h.tail[:0], p[len(p)-tcap:]...)
		h.pos, h.full = 0, true
		return n, nil
	}
	for len(p) > 0 {
		if !h.full {
			k := min(tcap-len(h.tail), len(p))
			h.tail = append(h.tail, p[:k]...)
			p = p[k:]
			if len(h.tail) == tcap {
				h.full = true
			}
			continue
		}
		k := copy(h.tail[h.pos:], p)
		h.pos = (h.pos + k) % tcap
		p = p[k:]
	}
	return n, nil
}

// String is the kept output: everything if it fitted, else the head, a marker
// "… N bytes omitted …" and the tail, cut at UTF-8 boundaries.
func (h *headTail) String() string {
	h.mu.Lock()
	defer h.mu.Unlock()
	tail := h.tail
	if h.full && h.pos > 0 {
		tail = append(append([]byte(nil), h.tail[h.pos:]...), h.tail[:h.pos]...)
	}
	if h.total <= int64(h.limit) {
		return string(h.head) + string(tail)
	}
	head := trimPartialRuneEnd(h.head)
	for len(tail) > 0 && !utf8.RuneStart(tail[0]) {
		tail = tail[1:]
	}
	omitted := h.total - int64(len(head)) - int64(len(tail))
	return fmt.Sprintf("%s\n… %d bytes omitted …\n%s", head, omitted, tail)
}

// trimPartialRuneEnd drops an incomplete UTF-8 sequence at the end of b.
func trimPartialRuneEnd(b []byte) []byte {
	for i := 1; i <= utf8.UTFMax && i <= len(b); i++ {
		c := b[len(b)-i]
		if !utf8.RuneStart(c) {
			continue
		}
		if !utf8.FullRune(b[len(b)-i:]) {
			return b[:len(b)-i]
		}
		return b
	}
	return b
}
