//go:build linux && (amd64 || arm64)

package main

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestCommandsGetNoInheritedDescriptor: a descriptor the editor leaked
// into agentls (open on exec: a terminal, an IPC socket, a file open for
// writing) does not reach a command, in each mode. Before, the run tool's
// commands got it, past the sandbox.
func TestCommandsGetNoInheritedDescriptor(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("starts agentls processes")
	}
	for _, mode := range []string{"auto", "landlock", "off"} {
		t.Run(mode, func(t *testing.T) {
			marker, err := os.CreateTemp(t.TempDir(), "leaked-marker-")
			if err != nil {
				t.Fatal(err)
			}
			defer marker.Close()
			dir := t.TempDir()
			opts := map[string]any{"sandbox": map[string]any{"mode": mode}}
			r := startRunSession(t, dir, []string{"ls -l /proc/self/fd/"}, opts, func(cmd *exec.Cmd) {
				// fd 10, open on exec (above the descriptors agentls hands a
				// command on purpose, which would take 3 and up).
				cmd.ExtraFiles = append(make([]*os.File, 7), marker)
			})
			if err := <-r.prompt(); err != nil {
				t.Fatal(err)
			}
			code, out := r.runResult(t, "r0")
			if code != 0 {
				t.Fatalf("ls: exit %d %q", code, out)
			}
			if !strings.Contains(out, "/proc/") && !strings.Contains(out, "pipe:") {
				t.Fatalf("ls does not name its descriptors' files: the test proves nothing: %q", out)
			}
			if strings.Contains(out, "leaked-marker-") {
				t.Errorf("the command got agentls's inherited descriptor:\n%s", out)
			}
		})
	}
}
