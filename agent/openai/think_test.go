package openai

import (
	"strings"
	"testing"
)

// splitAll feeds pieces to a thinkSplitter and returns all the reasoning
// and all the text it gave.
func splitAll(pieces ...string) (thought, text string) { return splitAllFrom(false, pieces...) }

// splitAllFrom is splitAll with a splitter that assumes the reasoning
// open (thinkSplitter.assumeOpen) or not.
func splitAllFrom(assumeOpen bool, pieces ...string) (thought, text string) {
	t := thinkSplitter{assumeOpen: assumeOpen}
	var th, tx strings.Builder
	for _, p := range append(pieces, "") {
		a, b := t.feed(p)
		th.WriteString(a)
		tx.WriteString(b)
	}
	a, b := t.flush()
	th.WriteString(a)
	tx.WriteString(b)
	return th.String(), tx.String()
}

// TestThinkSplitter: inline reasoning at the start moves out of the text,
// however the answer is cut into pieces; anything else stays text.
func TestThinkSplitter(t *testing.T) {
	tests := []struct {
		name, answer, thought, text string
	}{
		{"inline reasoning", "<think>Plan: read a.go.</think>\n\nIt is in a.go.", "Plan: read a.go.", "It is in a.go."},
		{"white space before the tag", "\n \t<think>x</think>y", "x", "y"},
		{"empty reasoning", "<think></think>Answer.", "", "Answer."},
		{"no tag", "Just an answer.", "", "Just an answer."},
		{"a tag later is text", "See <think>here</think>.", "", "See <think>here</think>."},
		{"the tag's start alone", "<thin", "", "<thin"},
		{"not closed", "<think>still thinking", "still thinking", ""},
		{"a closing tag's start inside", "<think>a </b> and </thin k></think>b", "a </b> and </thin k>", "b"},
		{"white space only", "  \n", "", "  \n"},
		{"empty", "", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// Whole, then cut at every place, then a byte at a time.
			cuts := [][]string{{tt.answer}}
			for i := 1; i < len(tt.answer); i++ {
				cuts = append(cuts, []string{tt.answer[:i], tt.answer[i:]})
			}
			cuts = append(cuts, strings.Split(tt.answer, ""))
			for _, pieces := range cuts {
				thought, text := splitAll(pieces...)
				if thought != tt.thought || text != tt.text {
					t.Fatalf("pieces %q: thought %q, text %q; want %q, %q", pieces, thought, text, tt.thought, tt.text)
				}
			}
		})
	}
}

// FuzzThinkSplitter: however an answer is cut into pieces, the split is the
// same as of the whole answer, and nothing is lost but the tags and the
// white space around them.
func FuzzThinkSplitter(f *testing.F) {
	for _, s := range []string{"<think>a</think>b", " <think>", "</think>", "<think>x</thi", "plain"} {
		f.Add(s, uint8(3))
	}
	f.Fuzz(func(t *testing.T, answer string, step uint8) {
		open := step >= 128 // the reasoning assumed open (a close-only model: think_close.go)
		wantThought, wantText := splitAllFrom(open, answer)
		n := int(step%16) + 1
		var pieces []string
		for i := 0; i < len(answer); i += n {
			pieces = append(pieces, answer[i:min(i+n, len(answer))])
		}
		thought, text := splitAllFrom(open, pieces...)
		if thought != wantThought || text != wantText {
			t.Fatalf("%q in pieces of %d (assumed open %v): %q, %q; whole: %q, %q", answer, n, open, thought, text, wantThought, wantText)
		}
		if len(thought)+len(text) > len(answer) {
			t.Fatalf("%q: the split %q, %q is longer than the answer", answer, thought, text)
		}
	})
}
