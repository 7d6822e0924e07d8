package workspace

import (
	"path/filepath"
	"testing"
)

// TestKey: a path of the root is named relative, one of another folder
// absolutely, and Resolve takes each key back to the same file.
func TestKey(t *testing.T) {
	w, err := New(t.TempDir(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		abs, want string
	}{
		{filepath.Join(w.Folders()[0], "plans", "x.plan"), "plans/x.plan"},
		{filepath.Join(w.Folders()[1], "plans", "x.plan"), filepath.ToSlash(filepath.Join(w.Folders()[1], "plans", "x.plan"))},
	} {
		p, err := w.Resolve(tc.abs)
		if err != nil {
			t.Fatal(err)
		}
		key := w.Key(p)
		if key != tc.want {
			t.Errorf("Key(%s) = %q, want %q", tc.abs, key, tc.want)
		}
		if back, err := w.Resolve(key); err != nil || back.Abs != p.Abs {
			t.Errorf("Resolve(Key(%s)) = %s, %v", tc.abs, back.Abs, err)
		}
	}
}
