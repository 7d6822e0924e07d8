package langpool

import "github.com/agentls/agentls/internal/procstat"

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
	for _, pid := range procstat.PIDs() {
		if st, err := procstat.Read(pid); err == nil && groups[st.PGRP] { // else gone meanwhile
			out[st.PGRP] += procstat.RSS(pid)
		}
	}
	return out
}
