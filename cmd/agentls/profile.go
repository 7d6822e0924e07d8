package main

import (
	"fmt"
	"log/slog"
	"os"
	"runtime"
	"runtime/pprof"
)

// startCPUProfile writes a CPU profile of the process to path until the
// returned stop runs (--profile-cpu, as gopls's -profile.cpu: for finding
// where the server's time goes, e.g. under bench/requestpath).
func startCPUProfile(path string) (stop func(), err error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("create the profile: %w", err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("start the CPU profile: %w", err)
	}
	return func() {
		pprof.StopCPUProfile()
		if err := f.Close(); err != nil {
			slog.Warn("write the CPU profile", "path", path, "err", err)
		}
	}, nil
}

// allocProfileRate is the sampling rate of --profile-alloc: one sample
// every 4 KiB allocated on average (Go's default, 512 KiB, sees a few
// samples per turn).
const allocProfileRate = 4 << 10

// startAllocProfile samples allocations from now on and returns the func
// that writes them to path (--profile-alloc, as gopls's -profile.mem: for
// finding what a turn allocates, whose garbage and fresh heap pages cost
// CPU). A failure to write is logged.
func startAllocProfile(path string) (write func()) {
	runtime.MemProfileRate = allocProfileRate
	return func() {
		f, err := os.Create(path)
		if err != nil {
			slog.Warn("write the allocation profile", "path", path, "err", err)
			return
		}
		defer f.Close()
		runtime.GC() // the profile is complete as of the last collection
		if err := pprof.Lookup("allocs").WriteTo(f, 0); err != nil {
			slog.Warn("write the allocation profile", "path", path, "err", err)
		}
	}
}
