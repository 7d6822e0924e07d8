//go:build unix

package inheritedfd

import (
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
)

// TestCloseOnExec: a descriptor inherited open on exec (made so here) is
// not handed to a process started afterwards; before CloseOnExec it is.
func TestCloseOnExec(t *testing.T) {
	marker, err := os.CreateTemp(t.TempDir(), "leaked-marker-")
	if err != nil {
		t.Fatal(err)
	}
	defer marker.Close()
	fd := int(marker.Fd())
	if _, _, errno := syscall.Syscall(syscall.SYS_FCNTL, uintptr(fd), syscall.F_SETFD, 0); errno != 0 {
		t.Fatal(errno)
	}
	// ls lists its own descriptors: /proc/self/fd, or /dev/fd elsewhere.
	list := func() string {
		out, err := exec.Command("ls", "-l", fdDir()+"/").CombinedOutput()
		if err != nil {
			t.Fatalf("ls: %v: %s", err, out)
		}
		return string(out)
	}
	if !strings.Contains(list(), "leaked-marker-") {
		t.Skip("ls does not name its descriptors' files here: the test proves nothing")
	}
	if err := CloseOnExec(); err != nil {
		t.Fatal(err)
	}
	if out := list(); strings.Contains(out, "leaked-marker-") {
		t.Fatalf("the inherited descriptor reached a new process:\n%s", out)
	}
}
