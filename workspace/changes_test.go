package workspace

import (
	"math/rand/v2"
	"strings"
	"testing"
)

func intp(n int) *int { return &n }

// checkEdit verifies that a ChangeEdit is self-consistent: its edits turn
// Before into After.
func checkEdit(t *testing.T, c Change) {
	t.Helper()
	if c.Kind != ChangeEdit {
		t.Fatalf("kind = %s, want edit", c.Kind)
	}
	got, err := ApplyEdits(c.Before, c.Edits)
	if err != nil {
		t.Fatalf("edits do not apply to Before: %v", err)
	}
	if got != c.After {
		t.Fatalf("edits give %q, After is %q", got, c.After)
	}
}

func TestComputeEdit(t *testing.T) {
	ws := newTestWorkspace(t, map[string]string{
		"a.go":     "func a() {\n\treturn 1\n}\n",
		"multi.go": "x := 1\ny := 1\nz := 1\n",
		"uni.txt":  helloWorld + "\n日本語テキスト\n",
		"crlf.txt": "one\r\ntwo\r\nthree\r\n",
		"nonl.txt": "a\nb",
		"empty":    "",
	})
	tests := []struct {
		name  string
		file  string
		spec  EditSpec
		after string
		edits []TextEdit
	}{
		{"unique replacement, minimal edit", "a.go",
			EditSpec{OldString: "return 1", NewString: "return 2"},
			"func a() {\n\treturn 2\n}\n",
			[]TextEdit{{rng(1, 8, 1, 9), "2"}}},
		{"replace all: one edit per occurrence", "multi.go",
			EditSpec{OldString: ":= 1", NewString: ":= 42", ReplaceAll: true},
			"x := 42\ny := 42\nz := 42\n",
			[]TextEdit{{rng(0, 5, 0, 6), "42"}, {rng(1, 5, 1, 6), "42"}, {rng(2, 5, 2, 6), "42"}}},
		{"UTF-16 columns", "uni.txt",
			EditSpec{OldString: "🌍", NewString: "🌎"},
			"héllo 🌎\n日本語テキスト\n",
			[]TextEdit{{rng(0, 6, 0, 8), "🌎"}}},
		{"CJK", "uni.txt",
			EditSpec{OldString: "テキスト", NewString: "text"},
			helloWorld + "\n日本語text\n",
			[]TextEdit{{rng(1, 3, 1, 7), "text"}}},
		{"multi-line old_string in a CRLF file", "crlf.txt",
			EditSpec{OldString: "one\ntwo", NewString: "1\n2"},
			"1\r\n2\r\nthree\r\n",
			[]TextEdit{{rng(0, 0, 1, 3), "1\r\n2"}}},
		{"insert before the first line", "a.go",
			EditSpec{InsertLine: intp(0), InsertContent: "// doc"},
			"// doc\nfunc a() {\n\treturn 1\n}\n",
			[]TextEdit{{rng(0, 0, 0, 0), "// doc\n"}}},
		{"insert after a line", "a.go",
			EditSpec{InsertLine: intp(2), InsertContent: "\tx++\n\ty++\n"},
			"func a() {\n\treturn 1\n\tx++\n\ty++\n}\n",
			[]TextEdit{{rng(2, 0, 2, 0), "\tx++\n\ty++\n"}}},
		{"insert after the last line", "a.go",
			EditSpec{InsertLine: intp(3), InsertContent: "// end"},
			"func a() {\n\treturn 1\n}\n// end\n",
			[]TextEdit{{rng(3, 0, 3, 0), "// end\n"}}},
		{"insert after a last line without newline", "nonl.txt",
			EditSpec{InsertLine: intp(2), InsertContent: "c\n"},
			"a\nb\nc",
			[]TextEdit{{rng(1, 1, 1, 1), "\nc"}}},
		{"insert into a CRLF file", "crlf.txt",
			EditSpec{InsertLine: intp(1), InsertContent: "1.5\nmore"},
			"one\r\n1.5\r\nmore\r\ntwo\r\nthree\r\n",
			[]TextEdit{{rng(1, 0, 1, 0), "1.5\r\nmore\r\n"}}},
		{"insert into an empty file", "empty",
			EditSpec{InsertLine: intp(0), InsertContent: "first"},
			"first\n",
			[]TextEdit{{rng(0, 0, 0, 0), "first\n"}}},
		{"matching hash", "a.go",
			EditSpec{OldString: "a()", NewString: "b()", LastReadHash: Hash("func a() {\n\treturn 1\n}\n")},
			"func b() {\n\treturn 1\n}\n",
			[]TextEdit{{rng(0, 5, 0, 6), "b"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := mustResolve(t, ws, tt.file)
			c, err := ws.ComputeEdit(p, tt.spec)
			if err != nil {
				t.Fatal(err)
			}
			checkEdit(t, c)
			if c.After != tt.after {
				t.Errorf("After = %q, want %q", c.After, tt.after)
			}
			if len(c.Edits) != len(tt.edits) {
				t.Fatalf("edits = %+v, want %+v", c.Edits, tt.edits)
			}
			for i := range c.Edits {
				if c.Edits[i] != tt.edits[i] {
					t.Errorf("edit %d = %+v, want %+v", i, c.Edits[i], tt.edits[i])
				}
			}
			if c.Path != p || c.Before != readDiskFile(t, ws, tt.file) {
				t.Errorf("Path/Before wrong: %+v", c)
			}
		})
	}
}

func TestComputeEditErrors(t *testing.T) {
	ws := newTestWorkspace(t, map[string]string{
		"a.txt": "dup dup dup\nonce\n",
		"bin":   "\x00\x01",
		"dir/":  "",
	})
	tests := []struct {
		file string
		spec EditSpec
		want string
	}{
		{"a.txt", EditSpec{OldString: "dup", NewString: "x"}, "old_string occurs 3 times; add context or set replace_all"},
		{"a.txt", EditSpec{OldString: "absent", NewString: "x"}, "old_string not found in a.txt"},
		{"a.txt", EditSpec{OldString: "once", NewString: "once"}, "identical"},
		{"a.txt", EditSpec{OldString: "", NewString: "x"}, "old_string is empty"},
		{"a.txt", EditSpec{OldString: "once", NewString: "x", LastReadHash: "0123456789abcdef"},
			"file changed since you read it (hash 0123456789abcdef, now " + Hash("dup dup dup\nonce\n") + "); read it again"},
		{"a.txt", EditSpec{InsertLine: intp(3), InsertContent: "x"}, "insert_line 3 is out of range"},
		{"a.txt", EditSpec{InsertLine: intp(-1), InsertContent: "x"}, "out of range"},
		{"a.txt", EditSpec{InsertLine: intp(1), InsertContent: ""}, "insert_content is empty"},
		{"a.txt", EditSpec{InsertLine: intp(1), InsertContent: "x", OldString: "once"}, "not both"},
		{"missing.txt", EditSpec{OldString: "a", NewString: "b"}, "does not exist; use write"},
		{"dir", EditSpec{OldString: "a", NewString: "b"}, "folder"},
		{"bin", EditSpec{OldString: "a", NewString: "b"}, "binary"},
	}
	for _, tt := range tests {
		_, err := ws.ComputeEdit(mustResolve(t, ws, tt.file), tt.spec)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("ComputeEdit(%s, %+v) error = %v, want %q", tt.file, tt.spec, err, tt.want)
		}
	}
}

func TestComputeEditUsesOverlay(t *testing.T) {
	ws := newTestWorkspace(t, map[string]string{"a.txt": "disk\n"})
	p := mustResolve(t, ws, "a.txt")
	ws.Overlay().Open(p.Abs, 1, "buffer\n")
	c, err := ws.ComputeEdit(p, EditSpec{OldString: "buffer", NewString: "edited"})
	if err != nil {
		t.Fatal(err)
	}
	if c.Before != "buffer\n" || c.After != "edited\n" {
		t.Errorf("edit against the overlay: %+v", c)
	}
	if _, err := ws.ComputeEdit(p, EditSpec{OldString: "disk", NewString: "x"}); err == nil {
		t.Error("the disk text must not be edited when a buffer is open")
	}
}

// TestComputeEditRandom checks on random texts that the edits always turn
// Before into After, for replacements whose ends fall next to multi-byte
// runes and line breaks.
func TestComputeEditRandom(t *testing.T) {
	pieces := []string{"a", "b", "é", "🌍", "日", "\n", "\r\n", " "}
	r := rand.New(rand.NewPCG(3, 4))
	ws := newTestWorkspace(t, map[string]string{"f": ""})
	p := mustResolve(t, ws, "f")
	gen := func(n int) string {
		var b strings.Builder
		for range n {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		return b.String()
	}
	applied := 0
	for range 2000 {
		text := gen(r.IntN(20) + 1)
		ws.Overlay().Open(p.Abs, 1, text)
		oldS := gen(r.IntN(3) + 1)
		newS := gen(r.IntN(3))
		c, err := ws.ComputeEdit(p, EditSpec{OldString: oldS, NewString: newS, ReplaceAll: true})
		if err != nil {
			continue // not found, identical: covered elsewhere
		}
		got, err := ApplyEdits(c.Before, c.Edits)
		if err != nil || got != c.After {
			t.Fatalf("text %q old %q new %q: edits give %q (%v), After %q", text, oldS, newS, got, err, c.After)
		}
		applied++
		w, err := ws.ComputeWrite(p, newS+text)
		if err != nil {
			t.Fatal(err)
		}
		if got, err := ApplyEdits(w.Before, w.Edits); err != nil || got != w.After {
			t.Fatalf("write over %q with %q: %q %v", text, newS+text, got, err)
		}
	}
	if applied < 500 {
		t.Fatalf("only %d random edits applied: the generator is too weak", applied)
	}
}

func TestComputeWrite(t *testing.T) {
	ws := newTestWorkspace(t, map[string]string{"a.txt": "one\ntwo\nthree\n", "bin": "\x00", "d/": ""})
	c, err := ws.ComputeWrite(mustResolve(t, ws, "new/file.txt"), "hello")
	if err != nil || c.Kind != ChangeCreate || c.After != "hello" || c.Path.Rel != "new/file.txt" {
		t.Fatalf("new file: %+v %v", c, err)
	}
	c, err = ws.ComputeWrite(mustResolve(t, ws, "a.txt"), "one\n2\nthree\n")
	if err != nil {
		t.Fatal(err)
	}
	checkEdit(t, c)
	if len(c.Edits) != 1 || c.Edits[0] != (TextEdit{rng(1, 0, 1, 3), "2"}) {
		t.Errorf("minimal edit: %+v", c.Edits)
	}
	c, err = ws.ComputeWrite(mustResolve(t, ws, "a.txt"), "one\ntwo\nthree\n")
	if err != nil || len(c.Edits) != 0 || c.Before != c.After {
		t.Errorf("identical write: %+v %v", c, err)
	}
	if _, err := ws.ComputeWrite(mustResolve(t, ws, "d"), "x"); err == nil || !strings.Contains(err.Error(), "folder") {
		t.Errorf("write to a folder: %v", err)
	}
	if _, err := ws.ComputeWrite(mustResolve(t, ws, "bin"), "x"); err == nil || !strings.Contains(err.Error(), "binary") {
		t.Errorf("write over a binary file: %v", err)
	}
}

func TestComputeFileOps(t *testing.T) {
	ws := newTestWorkspace(t, map[string]string{"a.txt": "x", "full/f": "", "empty/": "", "bin": "\x00z"})
	r := func(p string) Path { return mustResolve(t, ws, p) }
	root := r(".")

	if c, err := ws.ComputeMove(r("a.txt"), r("b/c.txt")); err != nil || c.Kind != ChangeRename || c.From.Rel != "a.txt" || c.Path.Rel != "b/c.txt" {
		t.Errorf("move: %+v %v", c, err)
	}
	if got := (Change{Kind: ChangeRename, From: r("a.txt"), Path: r("z")}).Targets(); len(got) != 2 {
		t.Errorf("rename targets: %v", got)
	}
	if c, err := ws.ComputeRemove(r("full"), true); err != nil || c.Kind != ChangeDelete || !c.Recursive {
		t.Errorf("rm -r: %+v %v", c, err)
	}
	if c, err := ws.ComputeRemove(r("empty"), false); err != nil || c.Kind != ChangeDelete {
		t.Errorf("rm empty folder: %+v %v", c, err)
	}
	if c, err := ws.ComputeMkdir(r("x/y")); err != nil || c.Kind != ChangeMkdir {
		t.Errorf("mkdir: %+v %v", c, err)
	}
	if c, err := ws.ComputeMkdir(r("empty")); err != nil || c.Kind != ChangeMkdir {
		t.Errorf("mkdir of an existing folder: %+v %v", c, err)
	}
	if c, err := ws.ComputeTouch(r("new.txt")); err != nil || c.Kind != ChangeCreate || c.After != "" {
		t.Errorf("touch new: %+v %v", c, err)
	}
	if c, err := ws.ComputeTouch(r("a.txt")); err != nil || c.Kind != ChangeEdit || len(c.Edits) != 0 || c.Before != "x" || c.After != "x" {
		t.Errorf("touch existing: %+v %v", c, err)
	}
	if c, err := ws.ComputeTouch(r("bin")); err != nil || c.After != "\x00z" {
		t.Errorf("touch binary: %+v %v", c, err)
	}

	errTests := []struct {
		name string
		f    func() (Change, error)
		want string
	}{
		{"move missing", func() (Change, error) { return ws.ComputeMove(r("nope"), r("b")) }, "does not exist"},
		{"move onto existing", func() (Change, error) { return ws.ComputeMove(r("a.txt"), r("bin")) }, "already exists"},
		{"move into itself", func() (Change, error) { return ws.ComputeMove(r("full"), r("full/sub")) }, "into itself"},
		{"move the root", func() (Change, error) { return ws.ComputeMove(root, r("elsewhere")) }, "workspace folder"},
		{"rm missing", func() (Change, error) { return ws.ComputeRemove(r("nope"), false) }, "does not exist"},
		{"rm non-empty", func() (Change, error) { return ws.ComputeRemove(r("full"), false) }, "not empty; set recursive"},
		{"rm root", func() (Change, error) { return ws.ComputeRemove(root, true) }, "workspace folder"},
		{"mkdir over a file", func() (Change, error) { return ws.ComputeMkdir(r("a.txt")) }, "a file with that name exists"},
		{"touch a folder", func() (Change, error) { return ws.ComputeTouch(r("empty")) }, "folder"},
	}
	for _, tt := range errTests {
		if _, err := tt.f(); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error = %v, want %q", tt.name, err, tt.want)
		}
	}
}
