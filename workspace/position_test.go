package workspace

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"
)

func pos(line, char uint32) Position { return Position{Line: line, Character: char} }

func rng(sl, sc, el, ec uint32) Range { return Range{Start: pos(sl, sc), End: pos(el, ec)} }

// "héllo 🌍": h é l l o ␠ 🌍 — bytes 0 1(2) 3 4 5 6 7(4) 11; UTF-16 0 1 2 3 4 5 6(2) 8.
const helloWorld = "héllo 🌍"

func TestOffsetOf(t *testing.T) {
	text := helloWorld + "\n日本語テキスト\r\nend\rx"
	tests := []struct {
		name    string
		text    string
		pos     Position
		want    int
		wantErr bool
	}{
		{"start", text, pos(0, 0), 0, false},
		{"after é", text, pos(0, 2), 3, false},
		{"before 🌍", text, pos(0, 6), 7, false},
		{"inside the surrogate pair rounds down", text, pos(0, 7), 7, false},
		{"after 🌍 = end of line", text, pos(0, 8), 11, false},
		{"past end of line clamps", text, pos(0, 100), 11, false},
		{"CJK line start", text, pos(1, 0), 12, false},
		{"CJK third char", text, pos(1, 3), 12 + 9, false},
		{"CJK end", text, pos(1, 7), 12 + 21, false},
		{"CRLF line clamps before \\r", text, pos(1, 8), 12 + 21, false},
		{"after CRLF", text, pos(2, 0), 35, false},
		{"lone CR ends a line", text, pos(2, 9), 38, false},
		{"after lone CR", text, pos(3, 0), 39, false},
		{"last line end", text, pos(3, 1), 40, false},
		{"just after the last line is the end", text, pos(4, 0), 40, false},
		{"past the last line", text, pos(4, 1), 0, true},
		{"far past the last line", text, pos(9, 0), 0, true},
		{"empty text", "", pos(0, 0), 0, false},
		{"empty text clamps", "", pos(0, 5), 0, false},
		{"empty text line 1", "", pos(1, 0), 0, false},
		{"empty text line 2", "", pos(2, 0), 0, true},
		{"trailing newline: last empty line", "a\n", pos(1, 0), 2, false},
		{"trailing newline: one past", "a\n", pos(2, 0), 2, false},
		{"trailing newline: two past", "a\n", pos(3, 0), 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := OffsetOf(tt.text, tt.pos)
			if (err != nil) != tt.wantErr {
				t.Fatalf("OffsetOf(%v) error = %v, want error %v", tt.pos, err, tt.wantErr)
			}
			if err == nil && got != tt.want {
				t.Errorf("OffsetOf(%v) = %d, want %d", tt.pos, got, tt.want)
			}
		})
	}
}

func TestPositionOf(t *testing.T) {
	text := helloWorld + "\n日本語\r\nx"
	tests := []struct {
		offset int
		want   Position
	}{
		{0, pos(0, 0)},
		{1, pos(0, 1)},
		{2, pos(0, 1)}, // inside é: back to its start
		{3, pos(0, 2)},
		{7, pos(0, 6)},
		{9, pos(0, 6)}, // inside 🌍
		{11, pos(0, 8)},
		{12, pos(1, 0)},
		{15, pos(1, 1)},
		{21, pos(1, 3)},
		{22, pos(1, 3)}, // between \r and \n: back to the \r
		{23, pos(2, 0)},
		{24, pos(2, 1)},
		{99, pos(2, 1)}, // clamped
		{-5, pos(0, 0)},
	}
	for _, tt := range tests {
		if got := PositionOf(text, tt.offset); got != tt.want {
			t.Errorf("PositionOf(%d) = %v, want %v", tt.offset, got, tt.want)
		}
	}
}

// TestPositionRoundTrip checks OffsetOf(PositionOf(o)) == o for every
// boundary offset of random texts mixing ASCII, 2-, 3- and 4-byte runes and
// every kind of line break.
func TestPositionRoundTrip(t *testing.T) {
	pieces := []string{"a", "é", "日", "🌍", "\n", "\r\n", "\r", " ", "z"}
	r := rand.New(rand.NewPCG(1, 2))
	for range 300 {
		var b strings.Builder
		for range r.IntN(30) {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		text := b.String()
		for o := 0; o <= len(text); o++ {
			if !boundary(text, o) {
				continue
			}
			p := PositionOf(text, o)
			got, err := OffsetOf(text, p)
			if err != nil || got != o {
				t.Fatalf("text %q: offset %d → %v → %d, %v", text, o, p, got, err)
			}
		}
	}
}

func TestApplyEdits(t *testing.T) {
	tests := []struct {
		name    string
		text    string
		edits   []TextEdit
		want    string
		wantErr string
	}{
		{"no edits", "abc", nil, "abc", ""},
		{"replace in the middle of unicode", helloWorld, []TextEdit{{rng(0, 1, 0, 2), "e"}}, "hello 🌍", ""},
		{"replace the emoji", helloWorld, []TextEdit{{rng(0, 6, 0, 8), "🌎!"}}, "héllo 🌎!", ""},
		{"insert at end of line", "ab\ncd\n", []TextEdit{{rng(0, 2, 0, 2), "X"}, {rng(1, 2, 1, 2), "Y"}}, "abX\ncdY\n", ""},
		{"insert at end of line, clamped", "ab\ncd", []TextEdit{{rng(0, 99, 0, 99), "X"}}, "abX\ncd", ""},
		{"delete a line break", "ab\ncd", []TextEdit{{rng(0, 2, 1, 0), ""}}, "abcd", ""},
		{"append past the last line", "ab\ncd", []TextEdit{{rng(2, 0, 2, 0), "\nef"}}, "ab\ncd\nef", ""},
		{"replace whole text ending past last line", "ab\ncd\n", []TextEdit{{rng(0, 0, 2, 0), "new"}}, "new", ""},
		{"line out of range", "ab", []TextEdit{{rng(3, 0, 3, 0), "x"}}, "", "out of range"},
		{"end before start", "abc", []TextEdit{{rng(0, 2, 0, 1), "x"}}, "", "before its start"},
		{"overlap", "abcdef", []TextEdit{{rng(0, 0, 0, 3), "x"}, {rng(0, 2, 0, 4), "y"}}, "", "overlap"},
		{"any order", "abcdef", []TextEdit{{rng(0, 4, 0, 5), "E"}, {rng(0, 0, 0, 1), "A"}, {rng(0, 2, 0, 3), "C"}}, "AbCdEf", ""},
		{"same-position inserts keep their order", "ab", []TextEdit{{rng(0, 1, 0, 1), "1"}, {rng(0, 1, 0, 1), "2"}}, "a12b", ""},
		{"adjacent edits", "abc", []TextEdit{{rng(0, 0, 0, 1), "X"}, {rng(0, 1, 0, 2), "Y"}}, "XYc", ""},
		{"CRLF: end of line stays before \\r\\n", "ab\r\ncd\r\n", []TextEdit{{rng(0, 2, 0, 2), "!"}, {rng(1, 9, 1, 9), "?"}}, "ab!\r\ncd?\r\n", ""},
		{"CRLF: join lines", "ab\r\ncd", []TextEdit{{rng(0, 2, 1, 0), " "}}, "ab cd", ""},
		{"CJK", "日本語テキスト", []TextEdit{{rng(0, 3, 0, 7), "です"}}, "日本語です", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ApplyEdits(tt.text, tt.edits)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("ApplyEdits error = %v, want it to mention %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("ApplyEdits: %v", err)
			}
			if got != tt.want {
				t.Errorf("ApplyEdits = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestUTF16Len(t *testing.T) {
	for s, want := range map[string]int{"": 0, "abc": 3, helloWorld: 8, "日本語": 3, "\xff": 1, "𝄞x": 3} {
		if got := utf16Len(s); got != want {
			t.Errorf("utf16Len(%q) = %d, want %d", s, got, want)
		}
	}
	if !utf8.ValidString(helloWorld) {
		t.Fatal("test text is not UTF-8")
	}
}
