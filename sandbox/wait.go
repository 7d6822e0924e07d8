package sandbox

import (
	"context"
	"os"
)

// Wait waits until proc, started from p's command, has exited (exited is
// closed once proc has been waited for) and returns nil; if ctx ends
// first, it ends the command (Terminate: with all it started), waits for
// exited and returns ctx's error.
func (p *Prepared) Wait(ctx context.Context, proc *os.Process, exited <-chan struct{}) error {
	select {
	case <-exited:
		return nil
	case <-ctx.Done():
		p.Terminate(proc, exited)
		<-exited
		return ctx.Err()
	}
}
