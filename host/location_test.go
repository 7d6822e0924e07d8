package host

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/guard"
)

// TestWorkspaceLocation: the file system root and every folder that holds
// the home folder (as given or through a symlink) are refused as workspace
// folders with an error naming the folder and why; the home folder itself
// is opened in plan mode only; a project below it builds.
func TestWorkspaceLocation(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	base := filepath.Dir(e.workspace)
	home := e.vars["HOME"]
	proj := filepath.Join(home, "proj")
	if err := os.MkdirAll(proj, 0o755); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(e.workspace, "up")
	if err := os.Symlink(base, link); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ folder, want string }{
		{"/", "root folder"},
		{base, "holds your home folder " + home},
		{link, "holds your home folder"},
		{filepath.Dir(base), "holds your home folder"},
	} {
		opts := e.options(&models{})
		opts.Folders = []string{e.workspace, c.folder} // a second folder too
		_, err := New(opts)
		var wsErr *WorkspaceError
		if !errors.As(err, &wsErr) || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "open the project's own folder") {
			t.Errorf("workspace folder %s: %v, want a WorkspaceError saying %q", c.folder, err, c.want)
		}
	}

	// HOME unset: the password database's home counts (not checked here
	// beyond not failing: config.Home has its own test).

	ctx := context.Background()
	opts := e.options(&models{})
	opts.Folders = []string{home}
	h, err := New(opts)
	if err != nil {
		t.Fatalf("the home folder as workspace: %v", err)
	}
	defer h.Close()
	mgr := h.Manager()
	if _, err := mgr.NewSession(ctx, "build", ""); err == nil || !strings.Contains(err.Error(), "open a project folder") {
		t.Errorf("a build session at home: %v, want refused", err)
	}
	info, err := mgr.NewSession(ctx, "", "")
	if err != nil || info.Mode != agentproto.ModePlan {
		t.Fatalf("default session at home: %+v %v, want plan mode", info, err)
	}
	if got, err := mgr.SetMode(ctx, info.SessionID, "build"); err == nil || got.Mode != agentproto.ModePlan || !strings.Contains(err.Error(), "your home folder") {
		t.Errorf("setMode build at home: %+v %v, want refused, still plan", got, err)
	}
	if _, err := mgr.BuildPlan(ctx, "plans/x.plan"); err == nil || !strings.Contains(err.Error(), "open a project folder") {
		t.Errorf("buildPlan at home: %v, want refused", err)
	}
	st := guard.State{Mode: agentproto.ModeBuild, Session: info.SessionID}
	if r := mgr.Guard().CheckCall(st, "write", json.RawMessage(`{"path":".bashrc","content":"x"}`)); r == nil || r.Reason != guard.ReasonPlanMode {
		t.Errorf("a write to .bashrc from a build state at home: %v, want the plan-mode refusal", r)
	}

	opts.Folders = []string{proj}
	h2, err := New(opts)
	if err != nil {
		t.Fatalf("a project below home: %v", err)
	}
	defer h2.Close()
	if info, err := h2.Manager().NewSession(ctx, "build", ""); err != nil || info.Mode != agentproto.ModeBuild {
		t.Errorf("a build session in a project below home: %+v %v", info, err)
	}
}
