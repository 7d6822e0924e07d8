package main

import (
	"fmt"
	"log/slog"
	"os"
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
