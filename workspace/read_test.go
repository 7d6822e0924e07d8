package workspace

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/agentls/agentls/internal/golden"
)

func TestReadGolden(t *testing.T) {
	src, err := os.ReadFile("testdata/read/sample.go.txt")
	if err != nil {
		t.Fatal(err)
	}
	ws := newTestWorkspace(t, map[string]string{"main.go": string(src)})
	res, err := ws.Read(mustResolve(t, ws, "main.go"), 3, 4)
	if err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "testdata/read/sample.offset3.limit4.golden", res.Content)
	if res.StartLine != 3 || res.EndLine != 6 || res.TotalLines != 7 || !res.Truncated || res.Path != "main.go" || res.Hash != Hash(string(src)) {
		t.Errorf("result = %+v", res)
	}
}

func TestRead(t *testing.T) {
	long := strings.Repeat("é", MaxLineLen+10)
	ws := newTestWorkspace(t, map[string]string{
		"three.txt":  "a\nb\nc\n",
		"nonl.txt":   "a\nb",
		"empty.txt":  "",
		"crlf.txt":   "a\r\nb\r\n",
		"long.txt":   "x\n" + long + "\n",
		"binary.bin": "abc\x00def",
		"dir/f.txt":  "",
	})
	tests := []struct {
		name           string
		file           string
		offset, limit  int
		content        string
		start, end, of int
		truncated      bool
	}{
		{"whole file", "three.txt", 0, 0, "     1\ta\n     2\tb\n     3\tc\n", 1, 3, 3, false},
		{"window", "three.txt", 2, 1, "     2\tb\n", 2, 2, 3, true},
		{"limit past the end", "three.txt", 3, 10, "     3\tc\n", 3, 3, 3, false},
		{"no final newline", "nonl.txt", 0, 0, "     1\ta\n     2\tb\n", 1, 2, 2, false},
		{"empty file", "empty.txt", 0, 0, "", 1, 0, 0, false},
		{"CRLF shown without \\r", "crlf.txt", 0, 0, "     1\ta\n     2\tb\n", 1, 2, 2, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := ws.Read(mustResolve(t, ws, tt.file), tt.offset, tt.limit)
			if err != nil {
				t.Fatal(err)
			}
			if res.Content != tt.content || res.StartLine != tt.start || res.EndLine != tt.end || res.TotalLines != tt.of || res.Truncated != tt.truncated {
				t.Errorf("Read = %+v", res)
			}
		})
	}

	res, err := ws.Read(mustResolve(t, ws, "long.txt"), 2, 1)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Truncated || !strings.Contains(res.Content, "line cut at 2000 characters") ||
		strings.Count(res.Content, "é") != MaxLineLen {
		t.Errorf("long line not cut at %d characters: truncated=%v, %d é", MaxLineLen, res.Truncated, strings.Count(res.Content, "é"))
	}
	if res.Hash != Hash("x\n"+long+"\n") {
		t.Error("hash must cover the whole file")
	}

	errTests := []struct {
		file          string
		offset, limit int
		want          string
	}{
		{"three.txt", 5, 0, "past the end"},
		{"three.txt", -1, 0, "negative"},
		{"three.txt", 0, -1, "negative"},
		{"binary.bin", 0, 0, "binary"},
		{"dir", 0, 0, "directory"},
		{"missing.txt", 0, 0, "does not exist"},
	}
	for _, tt := range errTests {
		_, err := ws.Read(mustResolve(t, ws, tt.file), tt.offset, tt.limit)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Read(%s, %d, %d) error = %v, want %q", tt.file, tt.offset, tt.limit, err, tt.want)
		}
	}
}

func TestReadFileOverlayFirst(t *testing.T) {
	ws := newTestWorkspace(t, map[string]string{"a.txt": "disk", "bin": "\x00"})
	p := mustResolve(t, ws, "a.txt")
	if got, _ := ws.ReadFile(p); got != "disk" {
		t.Fatalf("ReadFile = %q", got)
	}
	ws.Overlay().Open(p.Abs, 1, "buffer")
	if got, _ := ws.ReadFile(p); got != "buffer" {
		t.Errorf("ReadFile with an open buffer = %q", got)
	}
	res, err := ws.Read(p, 0, 0)
	if err != nil || res.Hash != Hash("buffer") {
		t.Errorf("Read hashes the overlay text: %+v %v", res, err)
	}
	ws.Overlay().Close(p.Abs)
	if got, _ := ws.ReadFile(p); got != "disk" {
		t.Errorf("after close = %q", got)
	}
	// A file that exists only in the overlay (an applied, unsaved creation).
	q := mustResolve(t, ws, "new.txt")
	ws.Overlay().SetApplied(q.Abs, "fresh")
	if got, err := ws.ReadFile(q); got != "fresh" || err != nil {
		t.Errorf("overlay-only file = %q, %v", got, err)
	}
	_, err = ws.ReadFile(mustResolve(t, ws, "bin"))
	if !errors.Is(err, ErrBinary) {
		t.Errorf("binary error should wrap ErrBinary: %v", err)
	}
}

func TestHash(t *testing.T) {
	// sha256("abc") = ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad
	if got := Hash("abc"); got != "ba7816bf8f01cfea" {
		t.Errorf("Hash(abc) = %s", got)
	}
	if Hash("a") == Hash("b") || len(Hash("")) != 16 {
		t.Error("Hash is not a 16-digit content hash")
	}
}
