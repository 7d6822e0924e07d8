package lspwire

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"reflect"
	"strconv"
	"testing"
)

// FuzzReadFrameHeader reads arbitrary bytes as an LSP header block (a
// peer's bytes: the editor's, a language server's) and holds: a header
// is accepted only with a Content-Length, and then with that length,
// never a negative one; consumed is exactly what was taken from the
// reader and ends the block with an empty line; a broken header is a
// FrameError, io.EOF or io.ErrUnexpectedEOF, nothing else. And any extra
// header lines the peer adds around a Content-Length keep its value.
func FuzzReadFrameHeader(f *testing.F) {
	for _, s := range []string{
		"Content-Length: 12\r\n\r\n{\"a\":1}",
		"Content-Type: application/vscode-jsonrpc; charset=utf-8\r\nContent-Length: 0\r\n\r\n",
		"content-length:  3 \nX: y\n\n{}}",
		"Content-Length: -1\r\n\r\n", "Content-Length: 99999999999999999999\r\n\r\n",
		"Content-Length 4\r\n\r\n", "\r\n", "", "Content-Length: 1\r\n",
	} {
		f.Add([]byte(s), "X-Extra: 1", uint32(7))
	}
	f.Fuzz(func(t *testing.T, in []byte, extra string, n uint32) {
		r := bufio.NewReaderSize(bytes.NewReader(in), 4096)
		length, consumed, err := ReadFrameHeader(r)
		var fe *FrameError
		switch {
		case err == nil:
			if length < 0 || consumed <= 0 || consumed > len(in) {
				t.Fatalf("length %d, consumed %d of %d bytes", length, consumed, len(in))
			}
			rest, _ := io.ReadAll(r)
			if consumed != len(in)-len(rest) {
				t.Fatalf("consumed %d, but the reader gave up %d bytes", consumed, len(in)-len(rest))
			}
			if !bytes.HasSuffix(in[:consumed], []byte("\n")) || len(bytes.TrimRight(lastLine(in[:consumed]), "\r\n")) != 0 {
				t.Fatalf("the header block %q does not end with an empty line", in[:consumed])
			}
		case errors.As(err, &fe), errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
			if length != 0 || consumed != 0 {
				t.Fatalf("an error (%v) with length %d, consumed %d", err, length, consumed)
			}
		default:
			t.Fatalf("unexpected error kind %T: %v", err, err)
		}
		// A well-formed header with one of the peer's extra lines.
		if bytes.ContainsAny([]byte(extra), "\r\n") || !bytes.Contains([]byte(extra), []byte(":")) ||
			bytes.Contains(bytes.ToLower([]byte(extra)), []byte("content-length")) || len(extra) > 1000 {
			return
		}
		hdr := extra + "\r\nContent-Length: " + strconv.FormatUint(uint64(n), 10) + "\r\n" + extra + "\r\n\r\n"
		got, used, err := ReadFrameHeader(bufio.NewReader(bytes.NewReader([]byte(hdr + "body"))))
		if err != nil || got != int(n) || used != len(hdr) {
			t.Fatalf("header %q read as length %d, consumed %d, err %v; want %d, %d", hdr, got, used, err, n, len(hdr))
		}
	})
}

func lastLine(b []byte) []byte {
	b = bytes.TrimSuffix(b, []byte("\n"))
	if i := bytes.LastIndexByte(b, '\n'); i >= 0 {
		return b[i+1:]
	}
	return b
}

// FuzzWorkspaceEditFixedPoint decodes arbitrary JSON as a WorkspaceEdit
// (the shape both ends speak; the guard checks the one that leaves) and
// holds that one encoding settles it: encoding what was decoded, decoding
// and encoding again gives the same bytes and the same value, so what is
// checked names the same files and edits as what arrives.
func FuzzWorkspaceEditFixedPoint(f *testing.F) {
	for _, s := range []string{
		`{"changes":{"file:///a":[{"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":1}},"newText":"x"}]}}`,
		`{"documentChanges":[{"textDocument":{"uri":"file:///a","version":null},"edits":[{"range":{"start":{"line":1,"character":0},"end":{"line":1,"character":0}},"newText":"y","annotationId":"n1"},{"range":{"start":{"line":2,"character":0},"end":{"line":2,"character":0}},"newText":"z","annotationId":"n2"}]},{"kind":"rename","oldUri":"file:///a","newUri":"file:///b","options":{"overwrite":true}},{"kind":"delete","uri":"file:///c","annotationId":"n1"}],"changeAnnotations":{"n1":{"label":"a","needsConfirmation":true}}}`,
		`{"documentChanges":[{"kind":"create","uri":"file:///d","textDocument":{"uri":"file:///e"}}]}`,
		`{"documentChanges":[{"kind":"rename","uri":"file:///x","oldUri":"file:///a"}]}`,
		`{"documentChanges":[null,{}]}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var first WorkspaceEdit
		if json.Unmarshal([]byte(s), &first) != nil {
			return
		}
		enc1, err := json.Marshal(first)
		if err != nil {
			t.Fatalf("encode %+v: %v", first, err)
		}
		var second WorkspaceEdit
		if err := json.Unmarshal(enc1, &second); err != nil {
			t.Fatalf("our own encoding %s does not decode: %v", enc1, err)
		}
		enc2, err := json.Marshal(second)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(enc1, enc2) {
			t.Fatalf("encoding does not settle:\n%s\n%s", enc1, enc2)
		}
		var third WorkspaceEdit
		_ = json.Unmarshal(enc2, &third)
		if !reflect.DeepEqual(second, third) {
			t.Fatalf("decoding does not settle:\n%+v\n%+v", second, third)
		}
	})
}
