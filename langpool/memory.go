package langpool

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// MemoryBytes is the resident memory of every running server, each with
// the processes of its process group (the sandbox's launcher and bwrap
// exec or wait; gopls may start go list): the sum of VmRSS read from
// /proc, 0 where /proc is missing.
func (p *Pool) MemoryBytes() int64 {
	groups := p.processGroups()
	var total int64
	for _, n := range groupMemory(groups) {
		total += n
	}
	return total
}

// processGroups are the process groups of the running servers (their
// leaders' pids).
func (p *Pool) processGroups() map[int]bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	groups := map[int]bool{}
	for _, c := range p.clients {
		if c.cmd.Process != nil {
			groups[c.cmd.Process.Pid] = true
		}
	}
	return groups
}

// groupMemory is the resident memory of each process group of groups.
func groupMemory(groups map[int]bool) map[int]int64 {
	out := map[int]int64{}
	if len(groups) == 0 {
		return out
	}
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	for _, stat := range stats {
		b, err := os.ReadFile(stat)
		if err != nil {
			continue
		}
		// pid (comm) state ppid pgrp …: comm may hold spaces, so split after ')'.
		s := string(b)
		i := strings.LastIndexByte(s, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(s[i+1:])
		if len(f) < 3 {
			continue
		}
		pgrp, _ := strconv.Atoi(f[2])
		if !groups[pgrp] {
			continue
		}
		out[pgrp] += rss(filepath.Join(filepath.Dir(stat), "status"))
	}
	return out
}

// rss is the VmRSS of a /proc/<pid>/status file, in bytes.
func rss(status string) int64 {
	b, err := os.ReadFile(status)
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return kb * 1024
		}
	}
	return 0
}
