package main

import (
	"bufio"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agentls/agentls/agent/tools"
)

// sweepWait bounds the wait for a start-up sweep's log line.
const sweepWait = 30 * time.Second

// startLogged starts this test binary as agentls with args, TMPDIR=tmp
// and info logs on stderr, and returns the process, its stdin and a
// channel of its stderr lines (closed at EOF).
func startLogged(t *testing.T, tmp string, args ...string) (*exec.Cmd, io.WriteCloser, <-chan string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], append([]string{"--log-level", "info"}, args...)...)
	cmd.Env = append(os.Environ(), "AGENTLS_TEST_MAIN=1", "OPENAI_API_KEY=", "TMPDIR="+tmp)
	cmd.Stdout = io.Discard
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := make(chan string, 64)
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			lines <- sc.Text()
		}
	}()
	t.Cleanup(func() {
		stdin.Close()
		_ = cmd.Process.Kill()
		for range lines { // drained: the reader ends at EOF
		}
		_ = cmd.Wait()
	})
	return cmd, stdin, lines
}

// awaitLine waits (at most sweepWait) for a line holding each of parts,
// and reports whether it came.
func awaitLine(lines <-chan string, parts ...string) bool {
	timeout := time.NewTimer(sweepWait)
	defer timeout.Stop()
	for {
		select {
		case l, ok := <-lines:
			if !ok {
				return false
			}
			if !slices.ContainsFunc(parts, func(p string) bool { return !strings.Contains(l, p) }) {
				return true
			}
		case <-timeout.C:
			return false
		}
	}
}

// awaitSwept waits for the log line saying the sweep removed dir.
func awaitSwept(lines <-chan string, dir string) bool {
	return awaitLine(lines, "removed the private TMPDIRs", "dir="+dir)
}

// agedFolder makes dir (0711, with a command's TMPDIR in it, as a killed
// agentls leaves its folder), dated past the minute a sweep leaves an
// unlocked folder alone unless young.
func agedFolder(t *testing.T, dir string, young bool) {
	t.Helper()
	if err := os.MkdirAll(filepath.Join(dir, "agentls-run-1", "go-build1"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o711); err != nil {
		t.Fatal(err)
	}
	if young {
		return
	}
	past := time.Now().Add(-2 * time.Minute)
	if err := os.Chtimes(dir, past, past); err != nil {
		t.Fatal(err)
	}
}

// TestStartSweepsKilledServersTemp: `serve` and `acp` remove a killed
// agentls's folder of private TMPDIRs as they start, with no command run
// (so whatever the sandbox mode, and with no sandbox layer): before, only
// the first confined command of a later agentls swept, and a server with
// the sandbox off never did. The sweep makes no folder of its own, and
// keeps a folder a live process holds locked, a young one and a link.
func TestStartSweepsKilledServersTemp(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("starts agentls processes")
	}
	for _, face := range []string{"serve", "acp"} {
		t.Run(face, func(t *testing.T) {
			t.Parallel()
			tmp := t.TempDir()
			stale := filepath.Join(tmp, "agentls-tmp-killed")
			agedFolder(t, stale, false)
			held := filepath.Join(tmp, "agentls-tmp-live")
			agedFolder(t, held, false)
			f, err := os.Open(held)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
				t.Fatal(err)
			}
			agedFolder(t, filepath.Join(tmp, "agentls-tmp-young"), true)
			target := filepath.Join(t.TempDir(), "agentls-tmp-target")
			agedFolder(t, target, false)
			if err := os.Symlink(target, filepath.Join(tmp, "agentls-tmp-link")); err != nil {
				t.Fatal(err)
			}

			cmd, stdin, lines := startLogged(t, tmp, face)
			if !awaitSwept(lines, stale) {
				t.Errorf("no sweep of %s within %v of agentls %s starting", stale, sweepWait, face)
			}
			stdin.Close()
			for range lines {
			}
			if err := cmd.Wait(); err != nil {
				t.Errorf("agentls %s: %v", face, err)
			}
			if _, err := os.Lstat(stale); !os.IsNotExist(err) {
				t.Errorf("the killed agentls's folder stays (%v)", err)
			}
			entries, err := os.ReadDir(tmp)
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, e := range entries {
				names = append(names, e.Name())
			}
			if want := []string{"agentls-tmp-link", "agentls-tmp-live", "agentls-tmp-young"}; !slices.Equal(names, want) {
				t.Errorf("TMPDIR holds %v after agentls %s, want %v (the live, young and linked ones kept, none made)", names, face, want)
			}
			if _, err := os.Stat(filepath.Join(target, "agentls-run-1")); err != nil {
				t.Errorf("the link's target lost its content: %v", err)
			}
		})
	}
}

// TestKilledDemoSwept: the workspace of a demo killed before it could
// remove it stands in the demo's own swept folder, so the next agentls
// removes it, and its cache folders with it (another workspace's stay);
// one kept (--keep) stands in TMPDIR itself, where no sweep looks.
// Before, the killed demo's workspace stayed in TMPDIR for good, and then
// its cache folders (about 100 MB after its go test).
func TestKilledDemoSwept(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("starts agentls processes")
	}
	for _, keep := range []bool{false, true} {
		name := "removed"
		args := []string{"demo", "--color=false"}
		if keep {
			name = "kept"
			args = append(args, "--keep")
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			tmp := t.TempDir()
			demo, _, lines := startLogged(t, tmp, args...)
			// The session starts (plan mode entered) once the workspace is
			// copied and the server runs in it.
			if !awaitLine(lines, "[plan-mode] entered") {
				t.Fatalf("the demo's session did not start within %v", sweepWait)
			}
			if err := demo.Process.Kill(); err != nil {
				t.Fatal(err)
			}
			for range lines {
			}
			_ = demo.Wait()

			found := append(glob(t, filepath.Join(tmp, "agentls-demo-*")), glob(t, filepath.Join(tmp, "agentls-tmp-*", "agentls-demo-*"))...)
			if len(found) != 1 {
				t.Fatalf("the demo's workspaces in TMPDIR: %v, want one", found)
			}
			ws := found[0]
			parent := filepath.Dir(ws)
			if keep {
				if parent != tmp {
					t.Errorf("the kept workspace %s is not in TMPDIR itself: a sweep would take it", ws)
				}
				return
			}
			if parent == tmp {
				t.Fatalf("the killed demo's workspace %s stands in TMPDIR, where no sweep takes it", ws)
			}
			// The cache folders the sandbox gave the demo's commands (the
			// kill came before its go test: made here as it would have).
			caches := tools.CacheFolders(ws)
			if real, err := filepath.EvalSymlinks(ws); err == nil && real != ws {
				caches = append(caches, tools.CacheFolders(real)...)
			}
			if len(caches) == 0 {
				t.Fatal("no cache folder for the demo's workspace")
			}
			for _, c := range caches {
				if err := os.MkdirAll(filepath.Join(c, "go-build"), 0o700); err != nil {
					t.Fatal(err)
				}
			}
			other := tools.CacheFolders(filepath.Join(tmp, "another-workspace"))[0]
			if err := os.MkdirAll(other, 0o700); err != nil {
				t.Fatal(err)
			}
			past := time.Now().Add(-2 * time.Minute) // as if the next agentls came later
			if err := os.Chtimes(parent, past, past); err != nil {
				t.Fatal(err)
			}
			cmd, stdin, lines := startLogged(t, tmp, "serve")
			if !awaitSwept(lines, parent) {
				t.Errorf("no sweep of %s within %v of agentls starting", parent, sweepWait)
			}
			stdin.Close()
			for range lines {
			}
			_ = cmd.Wait()
			if _, err := os.Lstat(ws); !os.IsNotExist(err) {
				t.Errorf("the killed demo's workspace %s stays (%v)", ws, err)
			}
			for _, c := range caches {
				if _, err := os.Lstat(c); !os.IsNotExist(err) {
					t.Errorf("the killed demo's cache folder %s stays (%v)", c, err)
				}
			}
			if _, err := os.Lstat(other); err != nil {
				t.Errorf("another workspace's cache folder went too: %v", err)
			}
		})
	}
}

func glob(t *testing.T, pattern string) []string {
	t.Helper()
	m, err := filepath.Glob(pattern)
	if err != nil {
		t.Fatal(err)
	}
	return m
}
