package proctest

import (
	"net"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
)

// VanishingSocket is a listening unix socket in a folder of its own
// outside any workspace (bubblewrap covers such a socket), for tests of a
// socket that goes away, with its folder, while a confined command starts.
type VanishingSocket struct {
	// Path is the socket's path.
	Path string
	l    net.Listener
	once sync.Once
	gone atomic.Bool
}

// NewVanishingSocket listens on a socket in a new folder of t's.
func NewVanishingSocket(t testing.TB) *VanishingSocket {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "ipc")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	s := &VanishingSocket{Path: filepath.Join(dir, "daemon.sock")}
	l, err := net.Listen("unix", s.Path)
	if err != nil {
		t.Fatal(err)
	}
	s.l = l
	t.Cleanup(func() { l.Close() })
	return s
}

// Vanish closes the socket and removes its folder, the first time it is
// called (from any goroutine).
func (s *VanishingSocket) Vanish() {
	s.once.Do(func() {
		s.l.Close()
		s.gone.Store(os.RemoveAll(filepath.Dir(s.Path)) == nil)
	})
}

// Gone reports whether Vanish removed the socket's folder.
func (s *VanishingSocket) Gone() bool { return s.gone.Load() }
