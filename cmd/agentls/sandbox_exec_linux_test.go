package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentls/agentls/sandbox"
)

// TestSandboxExecLauncher runs the real binary's hidden subcommand: a
// command confined to one folder writes there and not beside it, and a
// malformed invocation fails with the launcher's own message and 126.
func TestSandboxExecLauncher(t *testing.T) {
	t.Parallel()
	if st := sandbox.Detect().Status(sandbox.ModeLandlock); !st.Confines() {
		t.Skipf("no Landlock here: %s", st.Summary)
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	ws := filepath.Join(dir, "ws")
	if err := os.Mkdir(ws, 0o755); err != nil {
		t.Fatal(err)
	}
	prep, err := sandbox.Prepare(sandbox.Policy{Mode: sandbox.ModeLandlock, Writable: []string{ws}}, exe,
		[]string{"/bin/sh", "-c", `echo in > "$1/in" && echo out > "$2/out"`, "sh", ws, dir})
	if err != nil {
		t.Fatal(err)
	}
	defer prep.Cleanup()
	if prep.Argv[1] != "sandbox-exec" {
		t.Fatalf("argv %q does not go through the launcher", prep.Argv)
	}
	out, err := exec.Command(prep.Argv[0], prep.Argv[1:]...).CombinedOutput()
	if err == nil || !strings.Contains(string(out), "Permission denied") {
		t.Errorf("write beside the workspace: %v %s", err, out)
	}
	if _, err := os.Stat(filepath.Join(ws, "in")); err != nil {
		t.Errorf("write in the workspace: %v", err)
	}
	out, err = exec.Command(exe, "sandbox-exec", "--policy", "!!", "--", "true").CombinedOutput()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != sandbox.LauncherFailed || !strings.Contains(string(out), "agentls sandbox-exec: policy:") {
		t.Errorf("bad policy: %v %s", err, out)
	}
}
