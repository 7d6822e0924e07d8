package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// processCPU is the CPU time a process's threads have used so far: the sum
// of the first field of /proc/PID/task/*/schedstat (nanoseconds on the CPU;
// /proc/PID/stat's 10 ms ticks are too coarse for a turn). It fails where
// there is no schedstat (not Linux, or a kernel without it).
func processCPU(pid int) (time.Duration, error) {
	tasks, err := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/schedstat", pid))
	if err != nil || len(tasks) == 0 {
		return 0, fmt.Errorf("no /proc/%d/task/*/schedstat: the benchmark needs Linux with schedstat", pid)
	}
	var sum time.Duration
	for _, t := range tasks {
		data, err := os.ReadFile(t)
		if err != nil {
			continue // the thread ended
		}
		if f := strings.Fields(string(data)); len(f) > 0 {
			ns, err := strconv.ParseInt(f[0], 10, 64)
			if err != nil {
				return 0, fmt.Errorf("%s: %w", t, err)
			}
			sum += time.Duration(ns)
		}
	}
	return sum, nil
}

// peakRSS is a process's peak resident memory (VmHWM of /proc/PID/status)
// in bytes, 0 when unknown.
func peakRSS(pid int) int64 {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			if err == nil {
				return kb << 10
			}
		}
	}
	return 0
}

// minorFaults is the minor page faults a process has taken so far (field
// 10 of /proc/PID/stat): each is a page the kernel had to map (a fresh heap
// page, a stack's), counted in the turn's CPU as kernel time. 0 when
// unknown.
func minorFaults(pid int) int64 {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	// The command name (field 2) is in parentheses and may hold spaces.
	_, rest, ok := strings.Cut(string(data), ") ")
	if !ok {
		return 0
	}
	f := strings.Fields(rest)
	if len(f) < 8 {
		return 0
	}
	n, err := strconv.ParseInt(f[7], 10, 64)
	if err != nil {
		return 0
	}
	return n
}
