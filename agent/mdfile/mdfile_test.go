package mdfile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestSplit(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, in, front, body, err string
		noFront                    bool
	}{
		{name: "no frontmatter", in: "just text\n", body: "just text\n", noFront: true},
		{name: "frontmatter", in: "---\na: b\n---\nbody\n", front: "a: b", body: "body\n"},
		{name: "empty frontmatter", in: "---\n---\nbody", front: "", body: "\nbody"},
		{name: "crlf and bom", in: "\uFEFF---\r\na: b\r\n---\r\nbody", front: "a: b", body: "body"},
		{name: "frontmatter only", in: "---\na: b\n---", front: "a: b", body: ""},
		{name: "unclosed", in: "---\na: b\nbody", err: "no closing ---"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			front, body, err := Split([]byte(tc.in))
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil || body != tc.body || (front == nil) != tc.noFront || string(front) != tc.front {
				t.Fatalf("Split = %q (nil %v), %q, %v; want %q, %q", front, front == nil, body, err, tc.front, tc.body)
			}
		})
	}
}

func TestRead(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	secret := write("secret", "hello")
	link := filepath.Join(dir, "link.md")
	if err := os.Symlink(secret, link); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, path, within, err string
	}{
		{"ok", write("ok.md", "hello"), "", ""},
		{"too big", write("big.md", strings.Repeat("x", 2049)), "", "larger than 2 KiB"},
		{"not UTF-8", write("bin.md", "\xff\xfe"), "", "not UTF-8 text"},
		{"a folder", dir, "", "not a regular file"},
		{"missing", filepath.Join(dir, "none.md"), "", "no such file"},
		{"the user's link", link, "", ""},
		{"the repository's file", write("repo.md", "hello"), dir, ""},
		// A repository's file swapped for a link after ReadDir listed it
		// as a regular file (Listed): not followed.
		{"the repository's link", link, dir, "symbolic link is not followed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data, err := Read(tc.path, tc.within, 2048)
			if tc.err == "" {
				if err != nil || string(data) != "hello" {
					t.Fatalf("Read = %q, %v", data, err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Fatalf("Read err %v, want %q", err, tc.err)
			}
		})
	}
}

func TestValidName(t *testing.T) {
	t.Parallel()
	for name, want := range map[string]bool{"review": true, "a.b_c-d": true, "9": true, "": false, ".hidden": false, "-x": false, "a b": false, "a/b": false, strings.Repeat("a", 64): true, strings.Repeat("a", 65): false} {
		if got := ValidName(name); got != want {
			t.Errorf("ValidName(%q) = %v, want %v", name, got, want)
		}
	}
}
