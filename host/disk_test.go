package host

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/agentls/agentls/agent"
	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/guard"
	"github.com/agentls/agentls/workspace"
)

// TestDiskApplier: the guard's last check runs on each change right before
// it is written, with the mode read then: a refused change leaves the file
// as it was (and the changes after it unwritten); an allowed one is written
// and an open buffer of the file learns its new text.
func TestDiskApplier(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	h, err := New(e.options(&models{}))
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	ws := h.Workspace()
	root := ws.Root()
	writeFile(t, filepath.Join(root, "main.go"), "package main\n")
	writeFile(t, filepath.Join(root, "plans", "a.plan"), "# A\n")
	plan, err := ws.Resolve("plans/a.plan")
	if err != nil {
		t.Fatal(err)
	}
	src, err := ws.Resolve("main.go")
	if err != nil {
		t.Fatal(err)
	}
	ws.Overlay().Open(plan.Abs, 1, "# A\n")
	planEdit, err := ws.ComputeWrite(plan, "# A\n- [ ] step\n")
	if err != nil {
		t.Fatal(err)
	}
	srcEdit, err := ws.ComputeWrite(src, "package main // changed\n")
	if err != nil {
		t.Fatal(err)
	}
	mode := agentproto.ModePlan
	checked := 0
	check := func(ops []guard.Op) error {
		checked++
		if r := h.Manager().Guard().CheckOps(guard.State{Mode: mode}, "write", ops); r != nil {
			return r
		}
		return nil
	}
	req := agent.ApplyRequest{SessionID: "s", Label: "write", Changes: []workspace.Change{planEdit, srcEdit}, Check: check}
	err = DiskApplier{Workspace: ws}.Apply(context.Background(), req)
	if _, refused := err.(*guard.Refusal); !refused {
		t.Fatalf("Apply in plan mode = %v, want the guard's refusal", err)
	}
	if got := read(t, src.Abs); got != "package main\n" {
		t.Fatalf("the refused change was written: %q", got)
	}
	if got := read(t, plan.Abs); got != "# A\n- [ ] step\n" {
		t.Fatalf("the plan was not written: %q", got)
	}
	if text, _, _ := ws.Overlay().Get(plan.Abs); text != "# A\n- [ ] step\n" {
		t.Fatalf("the open plan's buffer does not know its new text: %q", text)
	}
	mode = agentproto.ModeBuild // the mode is read at the check, not before
	if err := (DiskApplier{Workspace: ws}).Apply(context.Background(), agent.ApplyRequest{Changes: []workspace.Change{srcEdit}, Check: check}); err != nil {
		t.Fatal(err)
	}
	if got := read(t, src.Abs); got != "package main // changed\n" {
		t.Fatalf("build mode: %q", got)
	}
	if checked != 3 {
		t.Fatalf("%d checks, want one per change (3)", checked)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := (DiskApplier{Workspace: ws}).Apply(ctx, req); err == nil {
		t.Fatal("Apply with a cancelled context wrote")
	}
}

// TestOpsOfChange: a rename is checked at both ends.
func TestOpsOfChange(t *testing.T) {
	t.Parallel()
	c := workspace.Change{Kind: workspace.ChangeRename, From: workspace.Path{Abs: "/w/a.plan"}, Path: workspace.Path{Abs: "/w/b.go"}}
	ops := OpsOfChange(c)
	if len(ops) != 1 || ops[0].From != "/w/a.plan" || ops[0].Path != "/w/b.go" || ops[0].Kind != workspace.ChangeRename {
		t.Fatalf("OpsOfChange = %+v", ops)
	}
}

func read(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
