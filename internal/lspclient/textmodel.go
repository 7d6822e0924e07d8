package lspclient

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/agentls/agentls/workspace"
)

// This file is the fake editor's text model, written apart from the
// server's (package workspace) so that a wrong conversion on either side
// shows: a document is held as UTF-16 code units, as VS Code holds it, and
// positions count those units.

// fileModel is a file as VS Code opens it from disk: a UTF-8 BOM dropped
// (and written again on save); each maximal invalid UTF-8 subpart one
// U+FFFD (the WHATWG decoder, VS Code's); line breaks made one kind, CRLF
// when more than half are CRLF, else LF ("\r" alone ends a line too).
type fileModel struct {
	bom  bool
	eol  string
	text []uint16
}

// openFile decodes data as VS Code does.
func openFile(data []byte) fileModel {
	m := fileModel{bom: bytes.HasPrefix(data, []byte("\xEF\xBB\xBF")), eol: "\n"}
	if m.bom {
		data = data[3:]
	}
	s := string(decodeWHATWG(data))
	crlf := strings.Count(s, "\r\n")
	total := crlf + strings.Count(strings.ReplaceAll(s, "\r\n", ""), "\n") + strings.Count(strings.ReplaceAll(s, "\r\n", ""), "\r")
	if crlf > total/2 {
		m.eol = "\r\n"
	}
	m.text = utf16.Encode([]rune(normalizeEOL(s, m.eol)))
	return m
}

// save is the file's bytes as VS Code writes them.
func (m fileModel) save() []byte {
	s := string(utf16.Decode(m.text))
	if m.bom {
		s = "\uFEFF" + s
	}
	return []byte(s)
}

// apply applies edits to the model; their new text takes the model's line
// breaks (VS Code's TextModel does so).
func (m *fileModel) apply(edits []workspace.TextEdit) error {
	norm := slices.Clone(edits)
	for i := range norm {
		norm[i].NewText = normalizeEOL(norm[i].NewText, m.eol)
	}
	text, err := applyUTF16(m.text, norm)
	if err != nil {
		return err
	}
	m.text = text
	return nil
}

// applyText applies edits to an open buffer's text by UTF-16 positions.
func applyText(text string, edits []workspace.TextEdit) (string, error) {
	out, err := applyUTF16(utf16.Encode([]rune(text)), edits)
	if err != nil {
		return "", err
	}
	return string(utf16.Decode(out)), nil
}

// applyUTF16 applies edits (ranges in the original text, not overlapping)
// to text held as UTF-16 code units; a character past a line's end clamps
// to it.
func applyUTF16(text []uint16, edits []workspace.TextEdit) ([]uint16, error) {
	// starts[l] and ends[l]: line l's first unit and the unit after its
	// content (before its break).
	var starts, ends []int
	for i, start := 0, 0; ; {
		if i == len(text) {
			starts, ends = append(starts, start), append(ends, i)
			break
		}
		if c := text[i]; c == '\n' || c == '\r' {
			starts, ends = append(starts, start), append(ends, i)
			if c == '\r' && i+1 < len(text) && text[i+1] == '\n' {
				i++
			}
			i++
			start = i
			continue
		}
		i++
	}
	offset := func(p workspace.Position) (int, error) {
		l := int(p.Line)
		if l >= len(starts) {
			return 0, fmt.Errorf("line %d is past the end (%d lines)", l, len(starts))
		}
		return min(starts[l]+int(p.Character), ends[l]), nil
	}
	type span struct {
		start, end int
		text       []uint16
	}
	spans := make([]span, 0, len(edits))
	for _, e := range edits {
		s, err := offset(e.Range.Start)
		if err != nil {
			return nil, err
		}
		en, err := offset(e.Range.End)
		if err != nil {
			return nil, err
		}
		if en < s {
			return nil, fmt.Errorf("range end before its start")
		}
		spans = append(spans, span{s, en, utf16.Encode([]rune(e.NewText))})
	}
	slices.SortStableFunc(spans, func(a, b span) int { return a.start - b.start })
	out := make([]uint16, 0, len(text))
	last := 0
	for _, s := range spans {
		if s.start < last {
			return nil, fmt.Errorf("edits overlap")
		}
		out = append(append(out, text[last:s.start]...), s.text...)
		last = s.end
	}
	return append(out, text[last:]...), nil
}

// normalizeEOL makes every line break of s eol.
func normalizeEOL(s, eol string) string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	s = strings.ReplaceAll(s, "\r", "\n")
	if eol != "\n" {
		s = strings.ReplaceAll(s, "\n", eol)
	}
	return s
}

// decodeWHATWG decodes data as UTF-8 the way the WHATWG decoder does: each
// maximal subpart of an invalid sequence becomes one U+FFFD.
func decodeWHATWG(data []byte) []rune {
	out := make([]rune, 0, len(data))
	for i := 0; i < len(data); {
		r, size := utf8.DecodeRune(data[i:])
		if r != utf8.RuneError || size > 1 {
			out = append(out, r)
			i += size
			continue
		}
		out = append(out, utf8.RuneError)
		i += maximalSubpart(data[i:])
	}
	return out
}

// maximalSubpart is the length of the longest start of b (whose first byte
// does not begin a valid sequence) that could begin one: at least 1.
func maximalSubpart(b []byte) int {
	lo, hi := byte(0x80), byte(0xBF)
	need := 0
	switch c := b[0]; {
	case c >= 0xC2 && c <= 0xDF:
		need = 1
	case c == 0xE0:
		need, lo = 2, 0xA0
	case c == 0xED:
		need, hi = 2, 0x9F
	case c >= 0xE1 && c <= 0xEF:
		need = 2
	case c == 0xF0:
		need, lo = 3, 0x90
	case c >= 0xF1 && c <= 0xF3:
		need = 3
	case c == 0xF4:
		need, hi = 3, 0x8F
	default:
		return 1
	}
	n := 1
	for ; n <= need && n < len(b) && b[n] >= lo && b[n] <= hi; n++ {
		lo, hi = 0x80, 0xBF
	}
	return n
}

// EditorText is the text VS Code's buffer holds for a file of these bytes
// (what it sends in didOpen): the BOM dropped, invalid UTF-8 as U+FFFD,
// line breaks made one kind.
func EditorText(data []byte) string {
	return string(utf16.Decode(openFile(data).text))
}
