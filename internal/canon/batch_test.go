package canon

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// richTree is tree with more symlinks for the batch's checks:
//
//	root/a/flink   -> g           symlink to a file
//	root/a/b/loop2 -> ../loop3    a loop of two symlinks
//	root/a/loop3   -> b/loop2
//	root/a/upabs   -> root        absolute symlink to the tree's top
//	root/a/gone    -> new/x       dangling through a missing folder
func richTree(t testing.TB) string {
	t.Helper()
	root := tree(t)
	for link, target := range map[string]string{
		"a/flink":   "g",
		"a/b/loop2": "../loop3",
		"a/loop3":   "b/loop2",
		"a/upabs":   root,
		"a/gone":    "new/x",
	} {
		if err := os.Symlink(target, filepath.Join(root, link)); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// richAlphabet is alphabet with richTree's names.
var richAlphabet = append(alphabet[:len(alphabet):len(alphabet)], "flink", "loop2", "loop3", "upabs", "gone")

// same fails unless the batch's answer for p is byte for byte the
// oracle's, error text included.
func same(t *testing.T, b *Batch, p string) {
	t.Helper()
	want, wantErr := oldPath(p)
	got, err := b.Path(p)
	if got != want || errText(err) != errText(wantErr) {
		t.Fatalf("Batch.Path(%q) = %q, %v; the old Path says %q, %v", p, got, err, want, wantErr)
	}
}

func errText(err error) string {
	if err == nil {
		return "<nil>"
	}
	return err.Error()
}

func TestBatchSameAsPath(t *testing.T) {
	root := richTree(t)
	r := func(s string) string { return root + s }
	tests := []struct {
		name  string
		paths []string // canonicalised in this order, in one batch
	}{
		{"shared prefixes", []string{r("/a/b/f"), r("/a/g"), r("/a/b"), r("/a/new/x"), r("/out/o")}},
		{"symlink mid-path, then its target plainly", []string{r("/a/outlink/o"), r("/out/o"), r("/a/outlink")}},
		{"dotdot after a symlink, then lexical", []string{r("/a/outlink/../g"), r("/a/b/../g"), r("/a/outlink/../a/g")}},
		{"symlink chains and through dotdot", []string{r("/a/chain/o"), r("/a/deep/f"), r("/a/b/up/g"), r("/a/deep/up/up/out")}},
		{"missing components", []string{r("/a/new/../g"), r("/a/new/dir/x"), r("/a/outlink/new"), r("/a/new/../outlink/o")}},
		{"dangling, twice", []string{r("/a/dangling"), r("/a/dangling/x"), r("/a/gone"), r("/a/gone")}},
		{"loops, twice", []string{r("/a/loop"), r("/a/loop3/x"), r("/a/loop"), r("/a/b/loop2")}},
		{"names below files", []string{r("/a/g/x"), r("/a/flink/x"), r("/a/g/.."), r("/a/flink"), r("/a/abs/x")}},
		{"absolute symlink back to the top", []string{r("/a/upabs/a/upabs/a/b/f"), r("/a/upabs/out/../a/g")}},
		{"the same path again", []string{r("/a/outlink/o"), r("/a/outlink/o")}},
		{"empty and NUL among others", []string{"", r("/a/g"), r("/a/\x00"), r("/a/g")}},
		{"dot and double slashes", []string{r("/a/./b//f"), r("//a/../a/g"), "/", r("")}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := NewBatch()
			for _, p := range tc.paths {
				same(t, b, p)
			}
			b = NewBatch()
			for i := len(tc.paths) - 1; i >= 0; i-- {
				same(t, b, tc.paths[i])
			}
		})
	}
}

// counting replaces the file system's calls with ones that count, per
// path, for the test's duration.
func counting(t *testing.T) map[string]int {
	t.Helper()
	n := map[string]int{}
	lstat, readlink, stat := osLstat, osReadlink, osStat
	t.Cleanup(func() { osLstat, osReadlink, osStat = lstat, readlink, stat })
	osLstat = func(p string) (fs.FileInfo, error) { n["lstat "+p]++; return lstat(p) }
	osReadlink = func(p string) (string, error) { n["readlink "+p]++; return readlink(p) }
	osStat = func(p string) (fs.FileInfo, error) { n["stat "+p]++; return stat(p) }
	return n
}

// total is the sum of counts.
func total(n map[string]int) int {
	s := 0
	for _, v := range n {
		s += v
	}
	return s
}

// TestBatchLooksOnce counts the file system calls: a batch looks at each
// path once, Path (and a new batch) as often as it meets it.
func TestBatchLooksOnce(t *testing.T) {
	root := richTree(t)
	depth := strings.Count(root, string(filepath.Separator)) // lstats to reach root
	r := func(s string) string { return root + s }
	tests := []struct {
		name       string
		paths      []string
		path       int // calls Path makes for all of them
		batch      int // calls one batch makes
		batchPaths int // distinct places the batch looks at
	}{
		{"siblings share their folder", []string{r("/a/b/f"), r("/a/g")}, 2*depth + 3 + 2, depth + 4, depth + 4},
		// a, outlink (lstat, readlink, stat), out, o
		{"a symlink is read once", []string{r("/a/outlink/o"), r("/a/outlink/o")}, 2 * (depth + 6), depth + 6, depth + 4},
		// a, loop (lstat, readlink, stat: ELOOP)
		{"a loop is looked at once", []string{r("/a/loop"), r("/a/loop")}, 2 * (depth + 4), depth + 4, depth + 2},
		// a, b, up (lstat, readlink, stat), then b and up twice more, g
		{"a symlink met again in one path", []string{r("/a/b/up/b/up/b/up/g")}, depth + 14, depth + 6, depth + 4},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			n := counting(t)
			for _, p := range tc.paths {
				_, _ = Path(p)
			}
			if got := total(n); got != tc.path {
				t.Errorf("Path made %d calls, want %d: %v", got, tc.path, n)
			}
			clear(n)
			b := NewBatch()
			for _, p := range tc.paths {
				_, _ = b.Path(p)
			}
			if got := total(n); got != tc.batch {
				t.Errorf("a batch made %d calls, want %d: %v", got, tc.batch, n)
			}
			for k, v := range n {
				if v != 1 {
					t.Errorf("a batch made %q %d times", k, v)
				}
			}
			if got := len(b.looks); got != tc.batchPaths {
				t.Errorf("a batch looked at %d places, want %d", got, tc.batchPaths)
			}
		})
	}
}

// TestBatchIsNotKept: a symlink swapped between two checks is judged by
// its new form in the second one's batch (a batch is never reused).
func TestBatchIsNotKept(t *testing.T) {
	root := richTree(t)
	link := filepath.Join(root, "a", "swap")
	if err := os.Symlink("b", link); err != nil {
		t.Fatal(err)
	}
	if got, err := NewBatch().Path(link + "/f"); err != nil || got != filepath.Join(root, "a", "b", "f") {
		t.Fatalf("before the swap: %q, %v", got, err)
	}
	if err := os.Remove(link); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../out", link); err != nil {
		t.Fatal(err)
	}
	if got, err := NewBatch().Path(link + "/f"); err != nil || got != filepath.Join(root, "out", "f") {
		t.Fatalf("after the swap: %q, %v", got, err)
	}
}

// FuzzBatch checks a batch over up to four paths against the old Path,
// byte for byte, errors included: the fuzzer's bytes pick the components
// (0xff separates the paths).
func FuzzBatch(f *testing.F) {
	for _, s := range []string{
		"\x00\x06\x0e\x00\xff\x00\x06\x0e\x0e\x00",
		"\x00\x12\xff\x00\x13\x05\xff\x00\x14\x00\x01\x02",
		"\x00\x0c\xff\x00\x0c\xff\x00\x10",
		"\x00\x11\xff\x00\x15\x0e\x0e\x04",
		"\x00\x07\x0e\x03\xff\x00\x0f\x0e\x04\x05",
	} {
		f.Add([]byte(s))
	}
	root := richTree(f)
	f.Fuzz(func(t *testing.T, picks []byte) {
		var paths []string
		for i, seg := range strings.SplitN(string(picks), "\xff", 4) {
			var parts []string
			for _, c := range []byte(seg) {
				parts = append(parts, richAlphabet[int(c)%len(richAlphabet)])
			}
			p := root + "/" + strings.Join(parts, "/")
			if i == 3 {
				p = seg // the rest, raw: relative, odd bytes, NUL
			}
			paths = append(paths, p)
		}
		b := NewBatch()
		for _, p := range paths {
			same(t, b, p)
		}
	})
}
