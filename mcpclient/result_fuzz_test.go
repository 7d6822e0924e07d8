package mcpclient

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// FuzzRenderToolResult decodes arbitrary JSON as an MCP server's tool
// result and renders it for the model, holding: no panic; the text is
// valid UTF-8; Bytes is the size before any cut; an uncut text is all of
// it; a cut keeps at most maxBytes of it, a prefix cut at a character,
// and says how much was left out; IsError is the server's own.
func FuzzRenderToolResult(f *testing.F) {
	for _, s := range []string{
		`{"content":[{"type":"text","text":"hello"}]}`,
		`{"content":[{"type":"text","text":"héllo wörld"},{"type":"image","data":"AAAA","mimeType":"image/png"}],"isError":true}`,
		`{"content":[{"type":"resource_link","uri":"file:///a","name":"a"},{"type":"resource","resource":{"uri":"file:///b","text":"b"}},{"type":"resource","resource":{"uri":"file:///c","blob":"AAAA"}}]}`,
		`{"content":[],"structuredContent":{"a":[1,2,"é"]}}`,
		`{"content":[{"type":"audio","data":"AAAA","mimeType":"audio/wav"}]}`,
	} {
		f.Add(s, 8)
	}
	f.Fuzz(func(t *testing.T, raw string, max int) {
		var res mcp.CallToolResult
		if json.Unmarshal([]byte(raw), &res) != nil {
			return
		}
		full := render(&res, 0)
		if full.Truncated || full.Bytes != len(full.Text) || !utf8.ValidString(full.Text) {
			t.Fatalf("uncapped render: truncated %v, bytes %d of a %d-byte text, valid %v", full.Truncated, full.Bytes, len(full.Text), utf8.ValidString(full.Text))
		}
		if full.IsError != res.IsError {
			t.Fatalf("IsError %v, the server said %v", full.IsError, res.IsError)
		}
		got := render(&res, max)
		if !utf8.ValidString(got.Text) || got.Bytes != full.Bytes {
			t.Fatalf("capped at %d: valid %v, bytes %d (uncapped %d)", max, utf8.ValidString(got.Text), got.Bytes, full.Bytes)
		}
		if !got.Truncated {
			if got.Text != full.Text {
				t.Fatalf("not cut at %d, yet the text differs: %q vs %q", max, got.Text, full.Text)
			}
			return
		}
		kept, note, ok := strings.Cut(got.Text, "\n…[cut: ")
		for ok && strings.Contains(note, "\n…[cut: ") { // the kept part may itself hold the marker
			var more string
			more, note, _ = strings.Cut(note, "\n…[cut: ")
			kept += "\n…[cut: " + more
		}
		if !ok || len(kept) > max || !strings.HasPrefix(full.Text, kept) || !strings.Contains(note, "more bytes of") {
			t.Fatalf("cut at %d: kept %d bytes (%q), prefix %v, note %q", max, len(kept), kept, strings.HasPrefix(full.Text, kept), note)
		}
	})
}

// FuzzCommandLineIsFaithful holds that the command line a trust question
// and the status show for a server reads back, with shell quoting, as
// exactly the command and arguments that would run: two different
// servers never look the same.
func FuzzCommandLineIsFaithful(f *testing.F) {
	f.Add("npx", "-y\x00@modelcontextprotocol/server-filesystem\x00/w")
	f.Add("node", "a b\x00it's\x00$HOME\x00\x00x\\y")
	f.Add("/bin/sh", "-c\x00echo 'hi'; rm -rf ~")
	f.Fuzz(func(t *testing.T, command, args string) {
		if command == "" {
			return
		}
		s := ServerSpec{Name: "x", Command: command}
		if args != "" {
			s.Args = strings.Split(args, "\x00")
		}
		line := s.CommandLine()
		words, ok := shellWords(line)
		want := append([]string{command}, s.Args...)
		if !ok || strings.Join(words, "\x00") != strings.Join(want, "\x00") || len(words) != len(want) {
			t.Fatalf("%q shown as %s, which reads back as %q", want, line, words)
		}
	})
}

// shellWords splits a POSIX shell line of plain words and single-quoted
// parts (the quoting quoteArg writes); ok is false for anything else.
func shellWords(line string) ([]string, bool) {
	var words []string
	var cur strings.Builder
	inWord := false
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		case c == '\'':
			j := strings.IndexByte(line[i+1:], '\'')
			if j < 0 {
				return nil, false
			}
			cur.WriteString(line[i+1 : i+1+j])
			i += j + 1
			inWord = true
		case c == '\\':
			if i+1 >= len(line) {
				return nil, false
			}
			cur.WriteByte(line[i+1])
			i++
			inWord = true
		case c == '"' || c == '$':
			return nil, false // never unquoted in what quoteArg writes
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words, true
}
