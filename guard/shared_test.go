package guard

import (
	"os"
	"path/filepath"
	"sync"
	"testing"
)

// The fuzz targets share one default sandbox per test process, rebuilt at the
// same place whenever an allowed operation changed it: building a fresh tree
// for every input (most of which are refused and change nothing) would cost
// most of the fuzzing time.
var shared struct {
	mu       sync.Mutex
	sb       *sandbox
	pristine map[string]entry
}

func TestMain(m *testing.M) {
	code := m.Run()
	if shared.sb != nil {
		os.RemoveAll(shared.sb.dir)
	}
	os.Exit(code)
}

// sharedSandbox returns the process's default sandbox, pristine. The caller
// holds it until release.
func sharedSandbox(t *testing.T) (sb *sandbox, release func()) {
	t.Helper()
	shared.mu.Lock()
	if shared.sb == nil {
		tmp, err := os.MkdirTemp("", "agentls-guard-fuzz-")
		if err == nil {
			tmp, err = filepath.EvalSymlinks(tmp)
		}
		if err == nil {
			shared.sb, err = buildSandbox(tmp, setupDefault)
		}
		if err != nil {
			shared.mu.Unlock()
			t.Fatalf("shared sandbox: %v", err)
		}
		shared.pristine = snapshot(t, shared.sb.dir)
	}
	return shared.sb, func() {
		defer shared.mu.Unlock()
		if sameTree(shared.pristine, snapshot(t, shared.sb.dir)) {
			return
		}
		dir := shared.sb.dir
		if err := os.RemoveAll(dir); err != nil {
			t.Fatalf("reset sandbox: %v", err)
		}
		if err := os.Mkdir(dir, 0o700); err != nil {
			t.Fatalf("reset sandbox: %v", err)
		}
		sb, err := buildSandbox(dir, setupDefault)
		if err != nil {
			t.Fatalf("reset sandbox: %v", err)
		}
		shared.sb = sb
	}
}

func sameTree(a, b map[string]entry) bool {
	added, removed, modified := changed(a, b)
	return len(added)+len(removed)+len(modified) == 0
}
