package openai

import (
	"bufio"
	"bytes"
	"io"
)

// sseCommentFilter drops what the SSE format says a client ignores before
// go-openai's stream reader sees it: comment lines (": keep-alive", which
// proxies such as OpenRouter send while a model has not produced its first
// token) and the events left empty by them. go-openai counts every line
// that is not data as an "empty message" and fails the stream after 300 of
// them, and keeps them all in memory for its error text. It also notes the
// [DONE] event, which go-openai reports as the same io.EOF as a body that
// was cut, and renames a data line's "reasoning" field to the
// "reasoning_content" go-openai reads (reasoning_field.go).
type sseCommentFilter struct {
	in      *bufio.Reader
	pending []byte // kept bytes not yet read
	kept    bool   // the current event has a kept line
	err     error
	// sawDone, when set, is told of the stream's end event (data: [DONE]);
	// renamed, when set, of a "reasoning" field renamed.
	sawDone, renamed *bool
}

func newSSECommentFilter(r io.Reader, sawDone, renamed *bool) *sseCommentFilter {
	return &sseCommentFilter{in: bufio.NewReader(r), sawDone: sawDone, renamed: renamed}
}

var doneLine = []byte("data: [DONE]")

func (f *sseCommentFilter) Read(p []byte) (int, error) {
	for len(f.pending) == 0 {
		if f.err != nil {
			return 0, f.err
		}
		line, err := f.in.ReadBytes('\n')
		f.err = err
		if len(line) == 0 {
			continue
		}
		switch blank := len(bytes.TrimRight(line, "\r\n")) == 0; {
		case blank && !f.kept: // the end of an empty (or comments-only) event
		case blank:
			f.kept = false
			f.pending = line
		case line[0] == ':':
		default:
			f.kept = true
			f.pending = reasoningAsContent(line)
			if f.renamed != nil && len(f.pending) != len(line) {
				*f.renamed = true
			}
			if f.sawDone != nil && bytes.Equal(bytes.TrimSpace(line), doneLine) {
				*f.sawDone = true
			}
		}
	}
	n := copy(p, f.pending)
	f.pending = f.pending[n:]
	return n, nil
}
