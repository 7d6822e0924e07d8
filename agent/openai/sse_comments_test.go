package openai

import (
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

// TestSSECommentFilter: comment lines and the events they leave empty go;
// every other line and each kept event's end stay, byte for byte.
func TestSSECommentFilter(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, in, want string }{
		{"comments only", ": a\n\n: b\n\n", ""},
		{"comments before data", ": PROCESSING\n\n: PROCESSING\r\n\r\ndata: {}\n\ndata: [DONE]\n\n", "data: {}\n\ndata: [DONE]\n\n"},
		{"a comment inside an event", "event: x\n: note\ndata: 1\n\n", "event: x\ndata: 1\n\n"},
		{"blank runs", "\n\n\ndata: 1\n\n\n", "data: 1\n\n"},
		{"no final newline", "data: 1", "data: 1"},
		{"colon inside data", "data: {\"a\":\":b\"}\n\n", "data: {\"a\":\":b\"}\n\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := io.ReadAll(iotest.OneByteReader(newSSECommentFilter(strings.NewReader(tc.in), nil, nil)))
			if err != nil || string(got) != tc.want {
				t.Fatalf("filtered %q = %q (%v), want %q", tc.in, got, err, tc.want)
			}
		})
	}
}

// TestSSECommentFilterSeesDone: the [DONE] event is noted, a cut stream's
// end is not.
func TestSSECommentFilterSeesDone(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]bool{"data: {}\n\ndata: [DONE]\n\n": true, "data: {}\n\n": false, "data: {\"a\":\"data: [DONE]\"}\n\n": false} {
		var done bool
		if _, err := io.ReadAll(newSSECommentFilter(strings.NewReader(in), &done, nil)); err != nil || done != want {
			t.Errorf("%q: done %v (%v), want %v", in, done, err, want)
		}
	}
}
