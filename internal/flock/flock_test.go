//go:build unix

package flock

import (
	"os"
	"path/filepath"
	"testing"
)

// TestTry: shared locks share, an exclusive one excludes both ways, and
// Unlock frees the lock while the file stays open.
func TestTry(t *testing.T) {
	path := filepath.Join(t.TempDir(), "lock")
	open := func() *os.File {
		f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o644)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { f.Close() })
		return f
	}
	a, b, c := open(), open(), open()
	steps := []struct {
		name      string
		f         *os.File
		exclusive bool
		want      bool
	}{
		{"a shared", a, false, true},
		{"b shared beside a", b, false, true},
		{"c exclusive while a and b share", c, true, false},
	}
	for _, st := range steps {
		if ok, err := Try(st.f, st.exclusive); err != nil || ok != st.want {
			t.Fatalf("%s: ok=%v err=%v, want ok=%v", st.name, ok, err, st.want)
		}
	}
	for _, f := range []*os.File{a, b} {
		if err := Unlock(f); err != nil {
			t.Fatal(err)
		}
	}
	if ok, err := Try(c, true); err != nil || !ok {
		t.Fatalf("c exclusive once a and b unlocked: ok=%v err=%v", ok, err)
	}
	if ok, err := Try(a, false); err != nil || ok {
		t.Fatalf("a shared while c holds it exclusively: ok=%v err=%v, want refused", ok, err)
	}
}
