package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/agentls/agentls/checkpoint"
)

// byteKind is a file whose bytes are not plain UTF-8 with LF: a row of the
// data-integrity matrix (docs/protocol.md, "Encodings and line endings").
// Each holds the line "TARGET" away from its odd bytes.
type byteKind struct {
	name string
	data string
	// refused, when set, is a fragment of the error every edit and write
	// of the file gets (then read fails with it too when readRefused).
	refused     string
	readRefused bool
	// writeRefused is a fragment of the error write gets (edit applies).
	writeRefused string
	// note is a fragment of read's note ("" for none).
	note string
}

// utf16LE encodes s as UTF-16LE with a BOM.
func utf16LE(s string) string {
	var b strings.Builder
	b.WriteString("\xFF\xFE")
	for _, u := range utf16.Encode([]rune(s)) {
		b.WriteByte(byte(u))
		b.WriteByte(byte(u >> 8))
	}
	return b.String()
}

// byteKinds is the matrix's file kinds.
var byteKinds = []byteKind{
	{name: "utf8 lf", data: "one\ntwo\nTARGET\nfour\n"},
	{name: "latin1", data: "caf\xE9 = 1;\nna\xEFve\nTARGET\nend\n", writeRefused: "not UTF-8", note: "not UTF-8"},
	{name: "cp1252", data: "\x93quoted\x94 \x80\nTARGET\n", writeRefused: "not UTF-8", note: "not UTF-8"},
	{name: "invalid utf8 in one line", data: "ok é\n\xC3\x28 bad \xE2\x82\nTARGET ü\nend\n", writeRefused: "not UTF-8", note: "not UTF-8"},
	{name: "utf16le bom", data: utf16LE("a\r\nTARGET\r\n"), refused: "UTF-16", readRefused: true},
	{name: "utf8 bom", data: "\uFEFFfirst\nTARGET\nlast\n", note: "byte order mark"},
	{name: "crlf", data: "a\r\nb\r\nTARGET\r\nd\r\n", note: "CRLF"},
	{name: "mixed crlf lf", data: "a\r\nb\nTARGET\r\nd\n", note: "mixed"},
	{name: "cr only", data: "a\rb\rTARGET\rd\r", note: "CR"},
	{name: "no final newline", data: "a\nb\nTARGET"},
	{name: "nul early", data: "a\x00b\nTARGET\n", refused: "binary", readRefused: true},
	{name: "nul after 8k", data: "TARGET\n" + strings.Repeat("x", 9000) + "\x00\n", writeRefused: "line cut"},
	{name: "long line", data: strings.Repeat("y", 10000) + "\nTARGET\n", writeRefused: "line cut"},
	{name: "astral and combining", data: "😀😀 e\u0301\nTARGET 😀 e\u0301\n"},
}

// firstBreak is the first line break of s ("\n" if none), found apart
// from package workspace.
func firstBreak(s string) string {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\n':
			return "\n"
		case '\r':
			if i+1 < len(s) && s[i+1] == '\n' {
				return "\r\n"
			}
			return "\r"
		}
	}
	return "\n"
}

// byteOp is a column of the matrix: one tool call and the bytes it must
// leave, given the file's bytes.
type byteOp struct {
	name  string
	write bool // the write tool, else edit
	tool  Tool
	args  func(t *testing.T, env *fakeEnv, data string) string
	want  func(data string) string
}

var byteOps = []byteOp{
	{name: "edit one line", tool: editTool,
		args: func(*testing.T, *fakeEnv, string) string {
			return `{"path":"f.txt","old_string":"TARGET","new_string":"CHANGED"}`
		},
		want: func(d string) string { return strings.Replace(d, "TARGET", "CHANGED", 1) }},
	{name: "edit to two lines", tool: editTool,
		args: func(*testing.T, *fakeEnv, string) string {
			return `{"path":"f.txt","old_string":"TARGET","new_string":"NEW1\nNEW2"}`
		},
		want: func(d string) string { return strings.Replace(d, "TARGET", "NEW1"+firstBreak(d)+"NEW2", 1) }},
	{name: "insert after line 1", tool: editTool,
		args: func(*testing.T, *fakeEnv, string) string {
			return `{"path":"f.txt","insert_line":1,"insert_content":"INS\n"}`
		},
		want: func(d string) string {
			eol := firstBreak(d)
			i := strings.Index(d, eol) + len(eol)
			return d[:i] + "INS" + eol + d[i:]
		}},
	{name: "write what read showed", write: true, tool: writeTool,
		args: func(t *testing.T, env *fakeEnv, data string) string {
			text := strings.Replace(modelView(t, env, data), "TARGET", "CHANGED", 1)
			b, err := json.Marshal(map[string]string{"path": "f.txt", "content": text})
			if err != nil {
				t.Fatal(err)
			}
			return string(b)
		},
		want: func(d string) string { return strings.Replace(d, "TARGET", "CHANGED", 1) }},
}

// modelView is the whole text of f.txt as a model has it from read (after
// JSON): the lines joined with "\n".
func modelView(t *testing.T, env *fakeEnv, data string) string {
	t.Helper()
	var out ReadOutput
	value(t, call(t, readTool, env, `{"path":"f.txt","limit":100000}`), &out)
	var b strings.Builder
	for _, line := range strings.SplitAfter(out.Content, "\n") {
		if _, text, ok := strings.Cut(line, "\t"); ok {
			b.WriteString(text)
		}
	}
	text := b.String()
	if !strings.HasSuffix(data, "\n") && !strings.HasSuffix(data, "\r") {
		text = strings.TrimSuffix(text, "\n")
	}
	return text
}

// TestBytesMatrix is the data-integrity matrix over the disk path (a) and
// rewind (d): for each file kind, each edit and write either changes only
// the bytes it replaces (line breaks and BOM kept) or is refused with an
// error saying why, leaving the file as it was; read shows every kind it
// does not refuse, with a note saying what the text does not show; and a
// rewind to the checkpoint taken before restores the exact bytes.
func TestBytesMatrix(t *testing.T) {
	t.Parallel()
	for _, k := range byteKinds {
		t.Run(k.name+"/read", func(t *testing.T) {
			t.Parallel()
			env := newFake(t, map[string]string{"f.txt": k.data})
			r := call(t, readTool, env, `{"path":"f.txt"}`)
			if k.readRefused {
				wantFail(t, r, k.refused)
				return
			}
			var out ReadOutput
			value(t, r, &out)
			if !strings.Contains(out.Content, "TARGET") {
				t.Errorf("read does not show the TARGET line: %q", out.Content)
			}
			if k.note == "" && out.Note != "" || !strings.Contains(out.Note, k.note) {
				t.Errorf("note = %q, want one with %q", out.Note, k.note)
			}
		})
		for _, op := range byteOps {
			t.Run(k.name+"/"+op.name, func(t *testing.T) {
				t.Parallel()
				env := newFake(t, map[string]string{"f.txt": k.data})
				abs := filepath.Join(env.ws.Root(), "f.txt")
				store := checkpoint.Open(env.ws, checkpoint.Retention{})
				man, err := store.Save(context.Background(), "s1", "m1")
				if err != nil {
					t.Fatal(err)
				}
				refused := k.refused
				if op.write && refused == "" {
					refused = k.writeRefused
				}
				var args string
				if k.readRefused {
					args = `{"path":"f.txt","content":"x"}`
					if !op.write {
						args = op.args(t, env, k.data)
					}
				} else {
					args = op.args(t, env, k.data)
				}
				r := call(t, op.tool, env, args)
				got := readBytes(t, abs)
				if refused != "" {
					wantFail(t, r, refused)
					if !strings.Contains(r.Error, "f.txt") {
						t.Errorf("error %q does not name the file", r.Error)
					}
					if got != k.data {
						t.Errorf("refused, yet the file changed:\n got %q\nwant %q", got, k.data)
					}
					return
				}
				if !r.Success {
					t.Fatalf("failed: %s", r.Error)
				}
				if want := op.want(k.data); got != want {
					t.Fatalf("(a) disk bytes after %s:\n got %q\nwant %q", op.name, got, want)
				}
				// (d) rewind: the checkpoint's object written back (what
				// agent.rewindChanges computes for a changed file).
				e := man[store.Key(abs)]
				if e.Unrestorable {
					t.Fatalf("checkpoint did not keep f.txt")
				}
				obj, err := store.Object(e.SHA256)
				if err != nil {
					t.Fatal(err)
				}
				p, err := env.ws.Resolve("f.txt")
				if err != nil {
					t.Fatal(err)
				}
				c, err := env.ws.ComputeWrite(p, string(obj))
				if err != nil {
					t.Fatal(err)
				}
				if err := env.ws.ApplyToDisk(c); err != nil {
					t.Fatal(err)
				}
				if got := readBytes(t, abs); got != k.data {
					t.Fatalf("(d) after rewind:\n got %q\nwant %q", got, k.data)
				}
			})
		}
	}
}

func readBytes(t *testing.T, abs string) string {
	t.Helper()
	b, err := os.ReadFile(abs)
	if err != nil {
		t.Fatal(fmt.Errorf("read %s: %w", abs, err))
	}
	return string(b)
}
