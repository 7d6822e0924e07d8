package canon

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// tree builds, in a temporary folder (itself canonical):
//
//	root/a/b/f                     file
//	root/a/g                       file
//	root/out/o                     file (outside "a")
//	root/a/outlink  -> ../out      relative symlink to a folder
//	root/a/b/up     -> ..          symlink to its parent folder
//	root/a/abs      -> root/out/o  absolute symlink to a file
//	root/a/chain    -> outlink     symlink to a symlink
//	root/a/dangling -> nowhere     dangling symlink
//	root/a/loop     -> loop        symlink loop
//	root/a/deep     -> b/up/b      symlink through a symlink and `..`
func tree(t testing.TB) string {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.MkdirAll(filepath.Join(root, "a", "b"), 0o755))
	must(os.MkdirAll(filepath.Join(root, "out"), 0o755))
	for _, f := range []string{"a/b/f", "a/g", "out/o"} {
		must(os.WriteFile(filepath.Join(root, f), []byte(f), 0o644))
	}
	for link, target := range map[string]string{
		"a/outlink":  "../out",
		"a/b/up":     "..",
		"a/abs":      filepath.Join(root, "out", "o"),
		"a/chain":    "outlink",
		"a/dangling": "nowhere",
		"a/loop":     "loop",
		"a/deep":     "b/up/b",
	} {
		must(os.Symlink(target, filepath.Join(root, link)))
	}
	return root
}

func TestPath(t *testing.T) {
	root := tree(t)
	j := func(s string) string { return filepath.Join(root, s) }
	tests := []struct {
		name, in, want string // want "" means an error
	}{
		{"plain file", "/a/b/f", j("a/b/f")},
		{"plain folder", "/a/b", j("a/b")},
		{"lexical dotdot", "/a/b/../g", j("a/g")},
		{"dotdot after a symlink goes from its target", "/a/outlink/../a/g", j("a/g")},
		{"dotdot after a symlink is not lexical", "/a/outlink/../g", j("g")},
		{"symlink to a folder", "/a/outlink/o", j("out/o")},
		{"symlink to its parent", "/a/b/up/g", j("a/g")},
		{"absolute symlink", "/a/abs", j("out/o")},
		{"chained symlinks", "/a/chain/o", j("out/o")},
		{"symlink through symlink and dotdot", "/a/deep/f", j("a/b/f")},
		{"missing tail is lexical", "/a/new/dir/x", j("a/new/dir/x")},
		{"missing tail under a symlink", "/a/outlink/new", j("out/new")},
		{"dotdot pops a missing name", "/a/new/../g", j("a/g")},
		{"dotdot pops a missing name then walks", "/a/new/../outlink/o", j("out/o")},
		{"dot and double slashes", "/a/./b//f", j("a/b/f")},
		{"dangling symlink", "/a/dangling", ""},
		{"below a dangling symlink", "/a/dangling/x", ""},
		{"symlink loop", "/a/loop", ""},
		{"name below a file", "/a/g/x", ""},
		{"dotdot below a file", "/a/g/..", ""},
		{"empty", "", ""},
		{"NUL", "/a/\x00", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := tc.in
			if in != "" {
				in = root + in
			}
			got, err := Path(in)
			if tc.want == "" {
				if err == nil {
					t.Fatalf("Path(%q) = %q, want an error", in, got)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Fatalf("Path(%q) = %q, %v; want %q", in, got, err, tc.want)
			}
		})
	}
}

func TestPathRelative(t *testing.T) {
	root := tree(t)
	t.Chdir(filepath.Join(root, "a"))
	got, err := Path("outlink/../a/b")
	if want := filepath.Join(root, "a", "b"); err != nil || got != want {
		t.Fatalf("Path = %q, %v; want %q", got, err, want)
	}
}

// alphabet are the components the fuzzer's bytes pick from: names of the
// tree, its symlinks, `..`, `.`, missing names and empty components.
var alphabet = []string{"a", "b", "f", "g", "out", "o", "outlink", "up", "abs", "chain", "dangling", "loop", "deep", "..", ".", "new", ""}

// FuzzPath checks Path against the operating system on a tree with
// symlinks: for a path the kernel reaches, Path names the same file; the
// result is clean, absolute, has no `..` and no symlink among its existing
// components, agrees with filepath.EvalSymlinks when that succeeds, and is
// its own canonical form.
func FuzzPath(f *testing.F) {
	for _, s := range []string{"\x00\x06\x0e\x00", "\x00\x07\x0e\x03", "\x00\x0c", "\x00\x10\x0d\x01\x07\x02", "\x0e\x0e\x0e\x00"} {
		f.Add([]byte(s), "")
	}
	f.Add([]byte{}, "a/outlink/../a/b/f")
	root := tree(f)
	f.Fuzz(func(t *testing.T, picks []byte, raw string) {
		var parts []string
		for _, b := range picks {
			parts = append(parts, alphabet[int(b)%len(alphabet)])
		}
		p := root + "/" + strings.Join(parts, "/")
		if raw != "" {
			p = root + "/" + raw
		}
		got, err := Path(p)
		fi, statErr := os.Stat(p)
		if statErr == nil {
			if err != nil {
				t.Fatalf("the kernel reaches %q but Path fails: %v", p, err)
			}
			gi, err := os.Stat(got)
			if err != nil || !os.SameFile(fi, gi) {
				t.Fatalf("Path(%q) = %q, which is not the file the kernel reaches (%v)", p, got, err)
			}
		}
		if err != nil {
			return
		}
		if !filepath.IsAbs(got) || filepath.Clean(got) != got {
			t.Fatalf("Path(%q) = %q: not clean and absolute", p, got)
		}
		for _, part := range strings.Split(got, string(filepath.Separator)) {
			if part == ".." {
				t.Fatalf("Path(%q) = %q has a '..'", p, got)
			}
		}
		for prefix := got; prefix != filepath.Dir(prefix); prefix = filepath.Dir(prefix) {
			li, err := os.Lstat(prefix)
			if errors.Is(err, fs.ErrNotExist) {
				continue
			}
			if err != nil {
				t.Fatalf("Path(%q) = %q: lstat %s: %v", p, got, prefix, err)
			}
			if li.Mode()&fs.ModeSymlink != 0 {
				t.Fatalf("Path(%q) = %q has a symlink component %s", p, got, prefix)
			}
		}
		if real, err := filepath.EvalSymlinks(p); err == nil && real != got {
			t.Fatalf("Path(%q) = %q, filepath.EvalSymlinks says %q", p, got, real)
		}
		again, err := Path(got)
		if err != nil || again != got {
			t.Fatalf("Path is not idempotent: Path(%q) = %q, Path(%q) = %q, %v", p, got, got, again, err)
		}
	})
}
