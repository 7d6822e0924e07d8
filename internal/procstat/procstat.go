// Package procstat reads what Linux's /proc says of a process: its parent,
// process group and start time (/proc/<pid>/stat), its resident memory
// (/proc/<pid>/status), and which processes there are. The sandbox's
// reaper and supervisor and the language server pool's memory count read
// it here. Where there is no /proc every read fails (PIDs: none).
package procstat

import (
	"bytes"
	"fmt"
	"os"
	"strconv"
	"sync"
)

// Stat is what /proc/<pid>/stat says of a process.
type Stat struct {
	// PPID is its parent's pid, PGRP its process group's.
	PPID, PGRP int
	// Start is when it started, in clock ticks (UserHZ) since boot.
	Start uint64
}

// UserHZ is the clock tick /proc reports times in (USER_HZ).
const UserHZ = 100

// Read reads pid's /proc/<pid>/stat.
func Read(pid int) (Stat, error) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return Stat{}, err
	}
	st, err := Parse(b)
	if err != nil {
		return Stat{}, fmt.Errorf("/proc/%d/stat: %w", pid, err)
	}
	return st, nil
}

// Parse parses a /proc/<pid>/stat line: "pid (comm) state ppid pgrp …",
// where comm may hold spaces and parentheses (so the fields count from
// the last ')').
func Parse(b []byte) (Stat, error) {
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return Stat{}, fmt.Errorf("no command name")
	}
	f := bytes.Fields(b[i+1:])
	if len(f) < 20 {
		return Stat{}, fmt.Errorf("%d fields after the command name, want 20 or more", len(f))
	}
	var st Stat
	var err error
	if st.PPID, err = strconv.Atoi(string(f[1])); err != nil {
		return Stat{}, fmt.Errorf("ppid: %w", err)
	}
	if st.PGRP, err = strconv.Atoi(string(f[2])); err != nil {
		return Stat{}, fmt.Errorf("pgrp: %w", err)
	}
	if st.Start, err = strconv.ParseUint(string(f[19]), 10, 64); err != nil {
		return Stat{}, fmt.Errorf("start time: %w", err)
	}
	return st, nil
}

// PIDs lists every process's pid in /proc.
func PIDs() []int {
	d, err := os.Open("/proc")
	if err != nil {
		return nil
	}
	names, _ := d.Readdirnames(-1)
	d.Close()
	out := make([]int, 0, len(names))
	for _, name := range names {
		if pid, err := strconv.Atoi(name); err == nil {
			out = append(out, pid)
		}
	}
	return out
}

// RSS is pid's resident memory (VmRSS of /proc/<pid>/status) in bytes; 0
// when it cannot be read (gone meanwhile, no /proc, a kernel thread).
func RSS(pid int) int64 {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0
	}
	for _, line := range bytes.Split(b, []byte("\n")) {
		if v, ok := bytes.CutPrefix(line, []byte("VmRSS:")); ok {
			kb, _ := strconv.ParseInt(string(bytes.TrimSpace(bytes.TrimSuffix(bytes.TrimSpace(v), []byte("kB")))), 10, 64)
			return kb * 1024
		}
	}
	return 0
}

// BootTime is when the machine booted, in seconds since the epoch
// (/proc/stat's btime); 0 when unknown.
var BootTime = sync.OnceValue(func() int64 {
	b, err := os.ReadFile("/proc/stat")
	if err != nil {
		return 0
	}
	for _, line := range bytes.Split(b, []byte("\n")) {
		if v, ok := bytes.CutPrefix(line, []byte("btime ")); ok {
			t, _ := strconv.ParseInt(string(bytes.TrimSpace(v)), 10, 64)
			return t
		}
	}
	return 0
})
