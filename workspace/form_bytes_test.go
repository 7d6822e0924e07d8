package workspace_test

import (
	"testing"

	"github.com/agentls/agentls/workspace"
)

// TestEditBytes: an edit of a buffer an editor decoded from a file's bytes
// lands on those bytes: only the replaced ones change, new lines get the
// file's first break, new text is Latin-1 in a file shown as Latin-1; a
// buffer that is not the file decoded (unsaved typing), or new text whose
// bytes are unknown, is not written.
func TestEditBytes(t *testing.T) {
	for _, tc := range []struct {
		name, disk, before, after string
		want                      string // "" when not written
	}{
		{"latin1 shown as U+FFFD", "caf\xE9\nONE \xE9\n", "caf\uFFFD\nONE \uFFFD\n", "caf\uFFFD\nTWO\nNEW \uFFFD\n", "caf\xE9\nTWO\nNEW \xE9\n"},
		{"latin1 shown as latin1", "caf\xE9\nONE\n", "caf\u00E9\nONE\n", "caf\u00E9\nN\u00C9W\n", "caf\xE9\nN\xC9W\n"},
		{"a character latin1 has not", "caf\xE9\nONE\n", "caf\u00E9\nONE\n", "caf\u00E9\n\u20AC\n", ""},
		{"truncated sequence is one U+FFFD", "\xE2\x82 ONE\n", "\uFFFD ONE\n", "\uFFFD TWO\n", "\xE2\x82 TWO\n"},
		{"lone cr", "a\rONE\rb\r", "a\nONE\nb\n", "a\nTWO\nNEW\nb\n", "a\rTWO\rNEW\rb\r"},
		{"mixed, new lines get the first break", "a\r\nONE\nb\r\n", "a\nONE\nb\n", "a\nX\nY\nb\n", "a\r\nX\r\nY\nb\r\n"},
		{"bom stays first", "\uFEFFONE\n", "ONE\n", "NEW ONE\n", "\uFEFFNEW ONE\n"},
		{"the user's unsaved typing", "a\rONE\r", "mine a\nONE\n", "mine a\nTWO\n", ""},
		{"U+FFFD in new text of a file not UTF-8", "caf\xE9\nONE\n", "caf\uFFFD\nONE\n", "caf\uFFFD\n\uFFFD\n", ""},
		{"a new line after a lone cr, which the first break is not", "a\rb\nc\n", "a\nb\nc\n", "a\n\nb\nc\n", "a\r\rb\nc\n"},
		// "\r" then a new "\n" would be one CRLF: the new break goes before the "\r".
		{"a new break would join a lone cr", "a\nb\rc\n", "a\nb\nc\n", "a\nb\n\nc\n", "a\nb\n\rc\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := workspace.EditBytes([]byte(tc.disk), tc.before, tc.after)
			if tc.want == "" {
				if ok {
					t.Fatalf("written %q, want not written", got)
				}
				return
			}
			if !ok || string(got) != tc.want {
				t.Fatalf("got %q (ok %v), want %q", got, ok, tc.want)
			}
		})
	}
}
