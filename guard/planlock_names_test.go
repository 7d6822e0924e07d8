package guard

import (
	"os"
	"path/filepath"
	"testing"
)

// TestPlanLockHoldsInAProjectWhoseFolderNameIsNotUTF8: a build session's
// plan lock is what keeps other workspaces (the project's parent opened in
// another window, another agentls) from changing the plan under build. A
// project folder named in Latin-1 ("caf\xe9") is a folder like any other:
// its lock must hold while the session builds the plan, and no reader may
// drop it as "gone". Found while fuzzing the JSON round trips of the state
// files (FuzzSpecRoundTrip, FuzzCheckpointReadsBackWhatItSaved).
func TestPlanLockHoldsInAProjectWhoseFolderNameIsNotUTF8(t *testing.T) {
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	ws := filepath.Join(base, "caf\xe9")
	plan := filepath.Join(ws, "plans", "cache.plan")
	if err := os.MkdirAll(filepath.Dir(plan), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(plan, []byte("---\ntitle: Cache\nstatus: approved\n---\n- [ ] step\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	writeSession(t, ws, "s-build", "build", "plans/cache.plan")
	r := NewLockRegistry(filepath.Join(base, "state"))
	if err := r.Take(PlanLock{Plan: plan, Session: "s-build", Workspace: ws, PID: 1}); err != nil {
		t.Fatal(err)
	}
	live := r.Live()
	if len(live) != 1 || live[0].Plan != plan || live[0].Workspace != ws {
		t.Fatalf("live locks %+v; want the build session's lock on %q", live, plan)
	}
}
