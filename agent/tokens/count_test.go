package tokens

import (
	"strings"
	"testing"
)

// branchyCount is countTokens as it was before the byte-class table (the
// reference the table must agree with).
func branchyCount(s string) float64 {
	var alnum, space, punct, other int
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 0x80:
			if c >= 0xC0 {
				other++
			}
		case c == ' ' || c == '\n' || c == '\t' || c == '\r':
			space++
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '_':
			alnum++
		default:
			punct++
		}
	}
	return float64(alnum)/4 + float64(space)/8 + float64(punct)/2 + float64(other)
}

// TestCountTokensByteClasses: the table counts every byte value as the
// comparisons did, and whole texts (ASCII, accents, CJK, emoji, invalid
// UTF-8, control bytes) alike, as strings and as bytes.
func TestCountTokensByteClasses(t *testing.T) {
	for c := range 256 {
		s := string([]byte{byte(c)})
		if got, want := countTokens(s), branchyCount(s); got != want {
			t.Errorf("byte %#x: %v, want %v", c, got, want)
		}
	}
	for _, s := range []string{
		"", "func main() { fmt.Println(\"hi\") }\n", "naïve café", "日本語のテキスト", "emoji 🙂🚀",
		"\xff\xfe\x80 broken", "tabs\tand\r\nlines\x00\x01", strings.Repeat("a_b-9 ", 100),
	} {
		if got, want := countTokens(s), branchyCount(s); got != want {
			t.Errorf("%q: %v, want %v", s, got, want)
		}
		if got, want := countTokens([]byte(s)), branchyCount(s); got != want {
			t.Errorf("%q as bytes: %v, want %v", s, got, want)
		}
	}
}

// FuzzCountTokens: any input counts as the comparisons counted it.
func FuzzCountTokens(f *testing.F) {
	for _, s := range []string{"", "ascii text_1", "naïve 日本 🙂", "\xff\x80\xc0"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := countTokens(s), branchyCount(s); got != want {
			t.Fatalf("%q: %v, want %v", s, got, want)
		}
	})
}

// BenchmarkCountTokens counts the short strings of a history (a tool
// call's arguments, a short answer), which are not memoized.
func BenchmarkCountTokens(b *testing.B) {
	s := `{"pattern":"Handler17\\b","path":"."} Each file holds small HTTP handlers that call serve; naïve.`
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		countTokens(s)
	}
}

// BenchmarkBranchyCount is BenchmarkCountTokens's reference, for comparison.
func BenchmarkBranchyCount(b *testing.B) {
	s := `{"pattern":"Handler17\\b","path":"."} Each file holds small HTTP handlers that call serve; naïve.`
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		branchyCount(s)
	}
}
