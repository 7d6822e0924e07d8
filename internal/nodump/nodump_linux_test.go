package nodump

import (
	"fmt"
	"os"
	"os/exec"
	"syscall"
	"testing"
)

// TestEnable: the flag is set process-wide (every thread), and the
// process's own /proc files now belong to root. The checks run in a fresh
// copy of the test binary (Enable cannot be undone, so a second run in one
// process, -count=2, would start non-dumpable).
func TestEnable(t *testing.T) {
	if os.Getenv(childEnv) == "" {
		cmd := exec.Command(os.Args[0], "-test.run=^TestEnable$", "-test.count=1")
		cmd.Env = append(os.Environ(), childEnv+"=1")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("the fresh process: %v\n%s", err, out)
		}
		return
	}
	if d, err := dumpable(); err != nil || !d {
		t.Fatalf("before Enable: dumpable = %v, %v; want true", d, err)
	}
	if err := Enable(); err != nil {
		t.Fatal(err)
	}
	if d, err := dumpable(); err != nil || d {
		t.Fatalf("after Enable: dumpable = %v, %v; want false", d, err)
	}
	fi, err := os.Stat("/proc/self/environ")
	if err != nil {
		t.Fatal(err)
	}
	if uid := fileOwner(fi); uid != 0 {
		t.Errorf("/proc/self/environ is owned by uid %d, want root (0)", uid)
	}
}

// childEnv marks the fresh process TestEnable runs its checks in.
const childEnv = "AGENTLS_NODUMP_TEST_CHILD"

// prGetDumpable is prctl's PR_GET_DUMPABLE (linux/prctl.h).
const prGetDumpable = 3

// dumpable reports whether this process is dumpable.
func dumpable() (bool, error) {
	r, _, errno := syscall.RawSyscall(syscall.SYS_PRCTL, prGetDumpable, 0, 0)
	if errno != 0 {
		return false, fmt.Errorf("prctl(PR_GET_DUMPABLE): %w", errno)
	}
	return r != 0, nil
}
