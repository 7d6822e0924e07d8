package sessionstore

import (
	"io/fs"
	"testing"
	"time"

	"github.com/agentls/agentls/workspace"
)

// TestModeChangeSyncedAfterAnotherProcessSavedIt: docs/sessions.md
// promises that the .meta file "is synced at each change of mode, plan,
// review or model". A store decides by what it last saved durably itself
// (Store.synced), which another process's saves make stale: VS Code's
// agentls switches a session to build and closes it, the terminal's
// agentls takes it and switches it back to plan (the human stops the
// build) and closes it, and VS Code's takes it again and switches it to
// build: the plan→build change (or, the other way round, build→plan) is
// replaced without fsync, because that process's cache still holds the
// mode it saved two owners ago. A power failure can then bring back the
// other process's mode (build, after the human stopped the build).
func TestModeChangeSyncedAfterAnotherProcessSavedIt(t *testing.T) {
	syncs := 0
	replaceDurable = func(path string, data []byte, perm fs.FileMode) error {
		syncs++
		return workspace.WriteAtomic(path, data, perm)
	}
	t.Cleanup(func() { replaceDurable = workspace.WriteAtomic })
	dir := t.TempDir()
	vscode, terminal := NewStore(dir), NewStore(dir) // two agentls processes
	meta := Meta{ID: "s1", Title: "Fix the parser", Mode: "plan", CreatedAt: time.Unix(100, 0), UpdatedAt: time.Unix(100, 0)}
	if err := vscode.Create(meta); err != nil {
		t.Fatal(err)
	}
	steps := []struct {
		who  *Store
		name string
		mode string
	}{
		{vscode, "VS Code: plan → build", "build"},
		{terminal, "terminal: build → plan", "plan"},
		{vscode, "VS Code again: plan → build", "build"},
		{terminal, "terminal again: build → plan", "plan"},
	}
	for _, st := range steps {
		if err := st.who.Own(meta.ID); err != nil {
			t.Fatalf("%s: %v", st.name, err)
		}
		meta.Mode = st.mode
		meta.UpdatedAt = meta.UpdatedAt.Add(time.Minute)
		before := syncs
		if err := st.who.SaveMeta(meta); err != nil {
			t.Fatalf("%s: %v", st.name, err)
		}
		if syncs == before {
			t.Errorf("%s: the mode change was replaced without fsync (the store's record of its own last durable save is stale: another process saved since)", st.name)
		}
		st.who.Disown(meta.ID)
	}
}
