package guard

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/agentls/agentls/agentproto"
)

// writeSession writes a session file of ws in the workspace format (its
// .chat frontmatter).
func writeSession(t *testing.T, ws, id, mode, plan string) {
	t.Helper()
	dir := filepath.Join(ws, ".agentls", "chats")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	front := "---\nid: " + id + "\ntitle: t\nmode: " + mode + "\nplan_file: " + plan + "\ncreated_at: 2025-01-01T00:00:00Z\nupdated_at: 2025-01-01T00:00:00Z\n---\n"
	if err := os.WriteFile(filepath.Join(dir, id+".chat"), []byte(front), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestLockRegistryLive: an entry holds only while its session file says
// build mode with that plan and the plan is not finished; unreadable and
// malformed entries hold nothing; Release removes only the session's own.
func TestLockRegistryLive(t *testing.T) {
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	ws := filepath.Join(base, "ws")
	plans := map[string]string{
		"draft.plan":       "---\ntitle: D\nstatus: approved\n---\n",
		"done.plan":        "---\ntitle: D\nstatus: implemented\n---\n",
		"archived.plan":    "---\ntitle: A\nstatus: archived\n---\n",
		"nofront.plan":     "no frontmatter\n",
		"other.plan":       "---\nstatus: approved\n---\n",
		"plan-mode.plan":   "---\nstatus: approved\n---\n",
		"no-session.plan":  "---\nstatus: approved\n---\n",
		"wrong-plan.plan":  "---\nstatus: approved\n---\n",
		"other-proc.plan":  "---\nstatus: approved\n---\n",
		"removed-plan.tmp": "",
	}
	for name, text := range plans {
		p := filepath.Join(ws, "plans", name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	abs := func(name string) string { return filepath.Join(ws, "plans", name) }
	writeSession(t, ws, "s-draft", "build", "plans/draft.plan")
	writeSession(t, ws, "s-done", "build", "plans/done.plan")
	writeSession(t, ws, "s-arch", "build", "plans/archived.plan")
	writeSession(t, ws, "s-nofront", "build", "plans/nofront.plan")
	writeSession(t, ws, "s-plan", "plan", "plans/plan-mode.plan")
	writeSession(t, ws, "s-wrong", "build", "plans/other.plan")
	writeSession(t, ws, "s-gone-plan", "build", "plans/gone.plan")
	r := NewLockRegistry(filepath.Join(base, "state"))
	for _, l := range []PlanLock{
		{abs("draft.plan"), "s-draft", ws, 1},
		{abs("done.plan"), "s-done", ws, 1},
		{abs("archived.plan"), "s-arch", ws, 1},
		{abs("nofront.plan"), "s-nofront", ws, 1},
		{abs("plan-mode.plan"), "s-plan", ws, 1},
		{abs("no-session.plan"), "s-missing", ws, 1},
		{abs("wrong-plan.plan"), "s-wrong", ws, 1},
		{abs("gone.plan"), "s-gone-plan", ws, 1},
	} {
		if err := r.Take(l); err != nil {
			t.Fatal(err)
		}
	}
	for name, data := range map[string]string{"bad.json": "{", "rel.json": `{"plan":"plans/x.plan","session":"s-draft","workspace":"` + ws + `"}`} {
		if err := os.WriteFile(filepath.Join(base, "state", "planlocks", name), []byte(data), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	live := map[string]bool{}
	for _, l := range r.Live() {
		live[filepath.Base(l.Plan)] = true
	}
	want := map[string]bool{"draft.plan": true, "nofront.plan": true}
	if len(live) != len(want) || !live["draft.plan"] || !live["nofront.plan"] {
		b, _ := json.Marshal(live)
		t.Fatalf("live entries %s, want only draft.plan (building) and nofront.plan (status unreadable: fail closed)", b)
	}
	// Live forgot the entry whose session file is gone, and only it: the
	// others may hold again (a switch back to build, a plan written anew).
	kept := map[string]bool{}
	entries, err := os.ReadDir(filepath.Join(base, "state", "planlocks"))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		kept[e.Name()] = true
	}
	if kept[filepath.Base(r.entryPath(abs("no-session.plan"), ws, "s-missing"))] || len(kept) != 9 {
		t.Fatalf("after Live the folder holds %v; want the 7 entries of existing sessions and the 2 malformed files, not the entry of the missing session", kept)
	}

	// Release: another session's entry stays; the own one goes.
	if err := r.Release(abs("draft.plan"), "someone-else", ws); err != nil {
		t.Fatal(err)
	}
	if err := r.Release(abs("draft.plan"), "s-draft", filepath.Join(base, "other-ws")); err != nil {
		t.Fatal(err)
	}
	if _, ok := r.read(r.entryPath(abs("draft.plan"), ws, "s-draft")); !ok {
		t.Fatal("Release removed another session's entry")
	}
	if err := r.Release(abs("draft.plan"), "s-draft", ws); err != nil {
		t.Fatal(err)
	}
	if _, ok := r.read(r.entryPath(abs("draft.plan"), ws, "s-draft")); ok {
		t.Fatal("Release left the session's own entry")
	}
	if NewLockRegistry("") != nil || (*LockRegistry)(nil).Live() != nil || (*LockRegistry)(nil).Take(PlanLock{}) != nil {
		t.Fatal("the registry without a state folder must know and keep nothing")
	}
}

// TestRegistryLockInGuard: a plan another workspace builds (BuiltPlan with
// Abs and Workspace) is refused to this workspace's sessions, even one
// whose id equals the builder's (ids are the builder workspace's).
func TestRegistryLockInGuard(t *testing.T) {
	sb := newSandbox(t, setupDefault)
	elsewhere := testLocks{{Rel: "plans/notes.plan", Abs: sb.expand("$WS/plans/notes.plan"), Workspace: sb.dir, Builders: []string{"b"}}}
	for _, who := range []string{"b", "other"} {
		st := stateOf(agentproto.ModePlan)
		st.Session, st.Plans = who, elsewhere
		r := sb.g.CheckCall(st, "write", json.RawMessage(`{"path":"plans/notes.plan","content":"x"}`))
		if r == nil || r.Reason != ReasonPlanBuilt || r.Error() != PlanBuiltMessage("plans/notes.plan") {
			t.Fatalf("session %s writes a plan another workspace builds: %v", who, r)
		}
	}
	st := stateOf(agentproto.ModeBuild)
	st.Session, st.Plans = "b", testLocks{{Rel: "plans/notes.plan", Abs: sb.expand("$WS/plans/notes.plan"), Workspace: sb.ws, Builders: []string{"b"}}}
	if r := sb.g.CheckCall(st, "write", json.RawMessage(`{"path":"plans/notes.plan","content":"x"}`)); r != nil {
		t.Fatalf("the builder of this workspace is held back by its own entry: %v", r)
	}
}

// TestLockRegistryForgetsDeadEntries: entries whose session can never hold
// again (its file deleted, its workspace removed) leave the folder at the
// next Live; forget leaves an entry a Take replaced meanwhile in place.
func TestLockRegistryForgetsDeadEntries(t *testing.T) {
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	ws := filepath.Join(base, "ws")
	gone := filepath.Join(base, "gone-ws")
	plan := func(ws, name string) string { return filepath.Join(ws, "plans", name) }
	if err := os.MkdirAll(filepath.Join(ws, "plans"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(plan(ws, "live.plan"), []byte("---\nstatus: approved\n---\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	writeSession(t, ws, "s-live", "build", "plans/live.plan")
	writeSession(t, ws, "s-deleted", "build", "plans/deleted.plan")
	writeSession(t, gone, "s-gone", "build", "plans/g.plan")
	r := NewLockRegistry(filepath.Join(base, "state"))
	locks := []PlanLock{
		{plan(ws, "live.plan"), "s-live", ws, 1},
		{plan(ws, "deleted.plan"), "s-deleted", ws, 1},
		{plan(gone, "g.plan"), "s-gone", gone, 1},
	}
	for _, l := range locks {
		if err := r.Take(l); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Remove(filepath.Join(ws, ".agentls", "chats", "s-deleted.chat")); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(gone); err != nil {
		t.Fatal(err)
	}
	if got := r.Live(); len(got) != 1 || got[0] != locks[0] {
		t.Fatalf("Live = %v, want only %v", got, locks[0])
	}
	names := func() []string {
		entries, err := os.ReadDir(r.dir)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, e := range entries {
			out = append(out, e.Name())
		}
		return out
	}
	if got := names(); len(got) != 1 || got[0] != filepath.Base(r.entryPath(locks[0].Plan, ws, "s-live")) {
		t.Fatalf("the folder holds %v after Live, want only the live entry", got)
	}

	// A Take (the same builder, from a new process) replaced the dead
	// entry between Live's read and forget: the new entry stays, and no
	// file is left aside.
	newer := PlanLock{locks[1].Plan, locks[1].Session, ws, 2}
	if err := r.Take(newer); err != nil {
		t.Fatal(err)
	}
	at := r.entryPath(newer.Plan, newer.Workspace, newer.Session)
	r.forget(at, locks[1])
	if l, ok := r.read(at); !ok || l != newer {
		t.Fatalf("forget of a replaced entry left %v (%v), want %v", l, ok, newer)
	}
	r.forget(at, newer)
	if got := names(); len(got) != 1 {
		t.Fatalf("the folder holds %v after forget, want only the live entry", got)
	}
}

// TestLockRegistryKeepsEveryBuilder: two workspaces build one plan (the
// project and its parent folder): each keeps its own entry, and one's
// release leaves the other's. An entry in the one-per-plan file of older
// versions is still read and released by its own builder only.
func TestLockRegistryKeepsEveryBuilder(t *testing.T) {
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	proj := filepath.Join(base, "p", "proj")
	parent := filepath.Join(base, "p")
	plan := filepath.Join(proj, "plans", "x.plan")
	if err := os.MkdirAll(filepath.Dir(plan), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(plan, []byte("---\nstatus: approved\n---\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	writeSession(t, proj, "s-proj", "build", "plans/x.plan")
	writeSession(t, parent, "s-parent", "build", "proj/plans/x.plan")
	r := NewLockRegistry(filepath.Join(base, "state"))
	first, second := PlanLock{plan, "s-proj", proj, 1}, PlanLock{plan, "s-parent", parent, 2}
	for _, l := range []PlanLock{first, second} {
		if err := r.Take(l); err != nil {
			t.Fatal(err)
		}
	}
	if got := r.Live(); len(got) != 2 {
		t.Fatalf("Live = %v, want both builders", got)
	}
	if err := r.Release(plan, "s-parent", parent); err != nil {
		t.Fatal(err)
	}
	if got := r.Live(); len(got) != 1 || got[0] != first {
		t.Fatalf("Live after the parent's release = %v, want the project's entry %v", got, first)
	}

	// The one-per-plan file of older versions.
	if err := r.Release(plan, "s-proj", proj); err != nil {
		t.Fatal(err)
	}
	legacy, _ := json.Marshal(first)
	if err := os.WriteFile(r.legacyPath(plan), legacy, 0o600); err != nil {
		t.Fatal(err)
	}
	if got := r.Entries(plan); len(got) != 1 || got[0] != first {
		t.Fatalf("Entries with an old-format entry = %v, want %v", got, first)
	}
	if err := r.Release(plan, "s-parent", parent); err != nil {
		t.Fatal(err)
	}
	if got := r.Live(); len(got) != 1 {
		t.Fatalf("another builder's release removed the old-format entry: Live = %v", got)
	}
	if err := r.Release(plan, "s-proj", proj); err != nil {
		t.Fatal(err)
	}
	if got := r.Entries(plan); len(got) != 0 {
		t.Fatalf("Entries after its builder's release = %v, want none", got)
	}
}
