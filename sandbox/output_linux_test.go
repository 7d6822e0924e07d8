package sandbox

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestOutput: a one-off confined process (Output) gives its standard
// output, cannot write outside its private TMPDIR, fails with its standard
// error, and ends — with what it started — when its context does, in each
// mode this machine has.
func TestOutput(t *testing.T) {
	for _, mode := range []Mode{ModeOff, ModeLandlock, ModeBwrap, ModeAuto} {
		t.Run(string(mode), func(t *testing.T) {
			st := Detect().Status(mode)
			if mode != ModeOff && !st.Confines() {
				t.Skipf("no %s here: %s", mode, st.Summary)
			}
			dir := t.TempDir()
			pol := Policy{Mode: mode}
			out, err := Output(context.Background(), pol, "", dir, []string{"/bin/sh", "-c", "pwd; echo ok"}, os.Environ())
			if err != nil || string(out) != dir+"\nok\n" {
				t.Fatalf("output %q, %v; want the folder and ok", out, err)
			}
			target := filepath.Join(t.TempDir(), "written")
			_, err = Output(context.Background(), pol, "", dir, []string{"/bin/sh", "-c", "echo x > " + target + " && echo wrote"}, os.Environ())
			if _, statErr := os.Stat(target); (statErr == nil) != (mode == ModeOff) || (err == nil) != (mode == ModeOff) {
				t.Errorf("written outside: %v (err %v)", statErr == nil, err)
			}
			if err != nil && !strings.Contains(err.Error(), target) {
				t.Errorf("the error lacks the command's stderr: %v", err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
			defer cancel()
			start := time.Now()
			_, err = Output(ctx, pol, "", dir, []string{"/bin/sh", "-c", "sleep 60 & sleep 60"}, os.Environ())
			if !errors.Is(err, context.DeadlineExceeded) || time.Since(start) > TerminateGrace+10*time.Second {
				t.Errorf("a process past its context: %v after %s", err, time.Since(start))
			}
		})
	}
}
