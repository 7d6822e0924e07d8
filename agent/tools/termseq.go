package tools

import (
	"regexp"
	"strings"
)

// termSeq matches a terminal's control sequences, which tools print even
// into a pipe (a forced colour, a progress bar's cursor moves, a title):
// CSI (colours, cursor and erase commands), OSC (titles, hyperlinks; ended
// by BEL or ST), DCS/SOS/PM/APC strings (ended by ST) — each also when cut
// off at the end of the output by its size limit — and the escapes of a
// character set or keypad (ESC, intermediates, a final byte). Alternatives
// are tried in this order.
var termSeq = regexp.MustCompile(`\x1b\[[0-?]*[ -/]*(?:[@-~]|$)` +
	`|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\|$)` +
	`|\x1b[PX^_][^\x1b]*(?:\x1b\\|$)` +
	`|\x1b[ -/]*[0-~]`)

// plainText is a command's output as text: terminal control sequences
// dropped, then any escape character left (one that began no sequence, or
// a sequence the pattern does not know) dropped as well, so that nothing of
// the output can act on the terminal or the chat it is shown in, and the
// model does not pay for colour codes ("\u001b[32m" in JSON). Text with no
// escape character is returned as it is.
func plainText(s string) string {
	if !strings.Contains(s, "\x1b") {
		return s
	}
	return strings.ReplaceAll(termSeq.ReplaceAllString(s, ""), "\x1b", "")
}
