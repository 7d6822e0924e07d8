package main

import (
	"context"
	"log/slog"
	"time"

	"github.com/agentls/agentls/sandbox"
)

// sweepStopWait bounds how long agentls, when it exits, waits for its
// start-up sweep to finish the folder it is removing (the sweep stops
// before the next one): whatever is left, the next agentls removes.
const sweepStopWait = 5 * time.Second

// startTempSweep removes, in the background, the private TMPDIR folders
// of agentls processes that were killed (sandbox.SweepStaleTemp): at every
// start of `serve` and `acp`, not only when this process first starts a
// confined command — with the sandbox off or unusable, or with no command
// run, nothing else would. It returns the function that ends the sweep:
// call it before exiting.
func startTempSweep(ctx context.Context) (stop func()) {
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		sandbox.SweepStaleTemp(ctx)
	}()
	return func() {
		cancel()
		t := time.NewTimer(sweepStopWait)
		defer t.Stop()
		select {
		case <-done:
		case <-t.C:
			slog.Warn("sandbox: exiting while removing a killed agentls's TMPDIR folder; the next agentls removes the rest")
		}
	}
}
