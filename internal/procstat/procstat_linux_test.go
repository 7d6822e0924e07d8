package procstat

import (
	"os"
	"slices"
	"syscall"
	"testing"
	"time"
)

// TestThisProcess reads this test's own process from the real /proc.
func TestThisProcess(t *testing.T) {
	st, err := Read(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	if st.PPID != os.Getppid() || st.PGRP != syscall.Getpgrp() {
		t.Errorf("Read = %+v; want ppid %d, pgrp %d", st, os.Getppid(), syscall.Getpgrp())
	}
	boot := BootTime()
	now := time.Now().Unix()
	if started := boot + int64(st.Start/UserHZ); boot <= 0 || started > now+1 || started < now-3600 {
		t.Errorf("started at %d (boot %d, start %d ticks); now is %d", started, boot, st.Start, now)
	}
	if !slices.Contains(PIDs(), os.Getpid()) {
		t.Error("PIDs does not list this process")
	}
	if n := RSS(os.Getpid()); n < 1<<20 {
		t.Errorf("RSS = %d bytes; a Go test holds more than 1 MiB", n)
	}
	if _, err := Read(-1); err == nil {
		t.Error("Read(-1) succeeded")
	}
	if RSS(-1) != 0 {
		t.Error("RSS(-1) is not 0")
	}
}
