package scripted

import (
	"strings"
	"unicode"
)

// wordsPerChunk is how many words each streamed text chunk holds.
const wordsPerChunk = 3

// chunks splits s on word boundaries into pieces of up to wordsPerChunk words
// each; the pieces concatenate back to s exactly. Empty s gives no pieces.
func chunks(s string) []string {
	var out []string
	start, words, inWord := 0, 0, false
	for i, r := range s {
		if !unicode.IsSpace(r) {
			inWord = true
			continue
		}
		if inWord {
			inWord = false
			words++
			if words == wordsPerChunk {
				out = append(out, s[start:i])
				start, words = i, 0
			}
		}
	}
	if start < len(s) {
		out = append(out, s[start:])
	}
	return out
}

// countWords counts whitespace-separated words: the scripted provider's
// estimate of tokens.
func countWords(parts ...string) int {
	n := 0
	for _, p := range parts {
		n += len(strings.Fields(p))
	}
	return n
}
