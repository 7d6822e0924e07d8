package sandbox

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"time"
)

// outputWaitDelay bounds how long Output waits for the output of a
// process that has ended to be read (a process it left behind may hold
// the pipe).
const outputWaitDelay = 2 * time.Second

// Output runs argv once in folder dir, confined by pol as Command confines
// it (unconfined when pol.Mode is off or no layer is usable here: see
// Detect), with environ (Environ), no input, in a process group of its
// own, and returns its standard output. When ctx ends first, the process
// and all it started are ended (Terminate) and ctx's error is returned. A
// failure carries the process's standard error.
func Output(ctx context.Context, pol Policy, launcher, dir string, argv, environ []string) ([]byte, error) {
	cmd, p, err := Command(pol, launcher, argv, environ)
	if err != nil {
		return nil, err
	}
	defer p.Cleanup()
	cmd.Dir = dir
	var out, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &stderr
	cmd.WaitDelay = outputWaitDelay
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s: %w", argv[0], err)
	}
	var waitErr error
	exited := make(chan struct{})
	go func() { defer close(exited); waitErr = cmd.Wait() }() // owned: waited for below
	if err := p.Wait(ctx, cmd.Process, exited); err != nil {
		return nil, fmt.Errorf("%s: %w", argv[0], err)
	}
	if waitErr != nil {
		return nil, fmt.Errorf("%s: %w: %s", argv[0], waitErr, strings.TrimSpace(stderr.String()))
	}
	return out.Bytes(), nil
}
