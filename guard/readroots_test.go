package guard

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/agentls/agentls/agentproto"
)

// TestWithStateAndConfigDropDuplicates: a path given twice (the user's
// config folder comes from the environment and from the manager's list) is
// kept once, and still protected.
func TestWithStateAndConfigDropDuplicates(t *testing.T) {
	sb := newSandbox(t, setupDefault)
	state := filepath.Join(sb.ws, "home", ".local", "state", "agentls")
	conf := filepath.Join(sb.ws, "home", ".config", "agentls")
	g := New(sb.w, "plans", declaredTools).
		WithState(state, state+"/", state).WithState(state).
		WithConfig(conf, conf).WithConfig(conf + "/.")
	if len(g.state) != 1 || len(g.config) != 1 {
		t.Fatalf("state %q, config %q: want each path once", g.state, g.config)
	}
	for _, path := range []string{"home/.local/state/agentls/trust/t.json", "statelink/trust/t.json", "home/.config/agentls/config.yaml"} {
		if r := g.CheckCall(stateOf(agentproto.ModeBuild), "read", []byte(`{"path":"`+path+`"}`)); r == nil || r.Reason != ReasonAgentState {
			t.Errorf("read %s: %+v, want refused as agentls's state or configuration", path, r)
		}
	}
}

// TestReadRefusalSeesRootsChangedBetweenCalls: a read-only call does not
// list the workspace folders (their symlinked protected names may be read),
// but the state and configuration paths are still resolved from scratch at
// every call: when the state folder's path is made to lead somewhere else
// between two calls (a folder swapped for a symlink), the next read there is
// refused, and a read where it led before is allowed again.
func TestReadRefusalSeesRootsChangedBetweenCalls(t *testing.T) {
	sb := newSandbox(t, setupDefault)
	build := stateOf(agentproto.ModeBuild)
	// The state folder is given as outside/st, a symlink to outside/a.
	for _, d := range []string{"a", "b"} {
		if err := os.MkdirAll(filepath.Join(sb.out, d), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(sb.out, d, "f.json"), []byte("{}"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	link := filepath.Join(sb.out, "st")
	if err := os.Symlink(filepath.Join(sb.out, "a"), link); err != nil {
		t.Fatal(err)
	}
	g := New(sb.w, "plans", declaredTools).WithState(link)
	read := func(path string) *Refusal {
		return g.CheckCall(build, "read", []byte(`{"path":"`+path+`"}`))
	}
	inA, inB := filepath.Join(sb.out, "a", "f.json"), filepath.Join(sb.out, "b", "f.json")
	if r := read(inA); r == nil || r.Reason != ReasonAgentState {
		t.Fatalf("read where the state folder leads: %+v, want refused", r)
	}
	if r := read(inB); r != nil {
		t.Fatalf("read beside the state folder: %+v, want allowed", r)
	}
	// Between calls, the state folder's path now leads to outside/b.
	if err := os.Remove(link); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(sb.out, "b"), link); err != nil {
		t.Fatal(err)
	}
	if r := read(inB); r == nil || r.Reason != ReasonAgentState {
		t.Fatalf("read where the state folder leads now: %+v, want refused", r)
	}
	if r := read(inA); r != nil {
		t.Fatalf("read where the state folder led before: %+v, want allowed", r)
	}
	// A workspace's top-level protected symlink (.jj -> jjstore) protects
	// its target from changes, not from reads.
	if r := read("jjstore/repo/op"); r != nil {
		t.Fatalf("read below a protected symlink's target: %+v, want allowed", r)
	}
	if r := g.CheckCall(build, "write", []byte(`{"path":"jjstore/repo/op","content":"x"}`)); r == nil || r.Reason != ReasonProtected {
		t.Fatalf("write below a protected symlink's target: %+v, want refused", r)
	}
}
