//go:build unix

package sessionstore

import (
	"syscall"
	"testing"
)

// TestGiveUpWhileAChildHoldsACopy: a child process forked while a session
// is owned holds a copy of its lock file's descriptor until it execs (every
// goroutine's exec.Cmd does: the run tool, a language server, the sandbox
// probe). Giving the session up in that window must free it at once: the
// next Own, here or in the next agentls (an editor window reloaded), must
// not find it "open in another agentls process". The copy is made by dup,
// which shares the open file description as a fork's copy does.
func TestGiveUpWhileAChildHoldsACopy(t *testing.T) {
	for _, tc := range []struct {
		name   string
		giveUp func(s *Store, id string)
	}{
		{"Release", func(s *Store, _ string) { s.Release() }},
		{"Disown", func(s *Store, id string) { s.Disown(id) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			a, b := NewStore(dir), NewStore(dir)
			if err := a.Own("s1"); err != nil {
				t.Fatal(err)
			}
			a.mu.Lock()
			child, err := syscall.Dup(int(a.owned["s1"].Fd()))
			a.mu.Unlock()
			if err != nil {
				t.Fatal(err)
			}
			defer syscall.Close(child) // the child's exec
			tc.giveUp(a, "s1")
			if err := b.Own("s1"); err != nil {
				t.Fatalf("Own after %s while a forked child holds a copy of the lock file: %v", tc.name, err)
			}
			b.Release()
		})
	}
}
