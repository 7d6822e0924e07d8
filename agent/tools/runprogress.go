package tools

import (
	"bytes"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
)

// progressEvery is how often a running command's newest output line is
// reported (shellJob.progress): the turn's progress on the LSP face, the
// run call's in-progress content on ACP (ProgressReporter).
const progressEvery = time.Second

// maxProgressLine bounds the reported line, in bytes.
const maxProgressLine = 200

// lastLine is an io.Writer that keeps the newest non-blank line written to
// it, a carriage return ending a line as a newline does (a progress bar
// redrawing itself), and counts the changes.
type lastLine struct {
	mu      sync.Mutex
	partial []byte // the line being written, at most maxProgressLine*4 bytes
	line    string
	version int
}

func (l *lastLine) Write(p []byte) (int, error) {
	n := len(p)
	l.mu.Lock()
	defer l.mu.Unlock()
	for {
		i := bytes.IndexAny(p, "\r\n")
		if i < 0 {
			l.partial = appendCapped(l.partial, p)
			return n, nil
		}
		l.partial = appendCapped(l.partial, p[:i])
		if s := progressText(l.partial); s != "" && s != l.line {
			l.line = s
			l.version++
		}
		l.partial = l.partial[:0]
		p = p[i+1:]
	}
}

// latest is the newest line and its version (0: none yet).
func (l *lastLine) latest() (string, int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.line, l.version
}

// appendCapped appends p to b up to a bound that leaves room for control
// sequences around a line of maxProgressLine bytes.
func appendCapped(b, p []byte) []byte {
	room := maxProgressLine*4 - len(b)
	if room <= 0 {
		return b
	}
	return append(b, p[:min(len(p), room)]...)
}

// progressText is a raw output line as shown: control sequences and other
// control characters dropped, spaces trimmed, at most maxProgressLine bytes
// cut at a character's boundary.
func progressText(raw []byte) string {
	s := plainText(string(raw))
	s = strings.Map(func(r rune) rune {
		if r == '\t' {
			return ' '
		}
		if r < 0x20 || r == 0x7f {
			return -1
		}
		return r
	}, s)
	s = strings.TrimSpace(s)
	if len(s) > maxProgressLine {
		cut := maxProgressLine
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + "…"
	}
	return s
}

// reportLines calls report with l's newest line every progressEvery while
// it changes, until the returned stop is called; stop waits for a report
// under way (its send is bounded by the face).
func reportLines(report func(string), l *lastLine) (stop func()) {
	if report == nil {
		return func() {}
	}
	done, finished := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(finished)
		t := time.NewTicker(progressEvery)
		defer t.Stop()
		seen := 0
		for {
			select {
			case <-done:
				return
			case <-t.C:
				if line, v := l.latest(); v != seen {
					seen = v
					report(line)
				}
			}
		}
	}()
	return func() {
		close(done)
		<-finished
	}
}
