package workspace

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The child process of TestKillMidWriteLeavesOldOrNew reads what to write
// and where to stop from these variables.
const (
	killStepEnv = "AGENTLS_TEST_KILL_AT_STEP"  // the step to stop at
	killFileEnv = "AGENTLS_TEST_KILL_FILE"     // the file to write
	killHowEnv  = "AGENTLS_TEST_KILL_WRITE_BY" // plan-edit, plan-create or state-file
)

// The steps of an atomic write a kill can land after, in order.
const (
	stepWritten  = "written"  // the temporary file holds the data (not yet synced)
	stepSynced   = "synced"   // synced and closed, not yet renamed
	stepRenamed  = "renamed"  // renamed over the target, the folder not yet synced
	stepReturned = "returned" // the write returned
)

var (
	oldKillContent = "---\ntitle: Old\n---\n" + strings.Repeat("- [ ] old step\n", 20000)
	newKillContent = "---\ntitle: New\n---\n" + strings.Repeat("- [x] new step, longer\n", 30000)
)

// TestKillMidWriteLeavesOldOrNew: agentls killed with SIGKILL at each step
// of a plan's write (an edit and a new plan, ApplyToDisk) and of a write of
// its own state (ReplaceFile: checkpoint manifests, known.json, the digest
// cache) leaves the file wholly old (or absent, for a new one) before the
// rename and wholly new after it, never a part; the temporary file the kill
// left is swept once its owner is dead.
func TestKillMidWriteLeavesOldOrNew(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a process per step")
	}
	t.Parallel()
	for _, how := range []string{"plan-edit", "plan-create", "state-file"} {
		for _, step := range []string{stepWritten, stepSynced, stepRenamed, stepReturned} {
			if how == "state-file" && step == stepWritten {
				continue // not synced: written and synced are one step
			}
			t.Run(how+"/"+step, func(t *testing.T) {
				t.Parallel()
				dir, err := filepath.EvalSymlinks(t.TempDir())
				if err != nil {
					t.Fatal(err)
				}
				file := filepath.Join(dir, "x.plan")
				if how != "plan-create" {
					if err := os.WriteFile(file, []byte(oldKillContent), 0o644); err != nil {
						t.Fatal(err)
					}
				}
				killChildAt(t, how, step, file)

				data, err := os.ReadFile(file)
				switch got := string(data); {
				case step == stepRenamed || step == stepReturned:
					if got != newKillContent {
						t.Fatalf("after the rename the file is not the new content (%d bytes, err %v)", len(got), err)
					}
				case how == "plan-create":
					if !os.IsNotExist(err) {
						t.Fatalf("a new plan killed before its rename exists (%d bytes, err %v)", len(got), err)
					}
				default:
					if got != oldKillContent {
						t.Fatalf("before the rename the file is not the old content (%d bytes, err %v)", len(got), err)
					}
				}
				SweepTemps(dir)
				if left := tempFiles(t, dir); len(left) > 0 {
					t.Fatalf("the killed write's temporary file was not swept: %v", left)
				}
			})
		}
	}
}

// killChildAt runs the child write in a new process, waits until it says
// it stopped at step, and kills it with SIGKILL.
func killChildAt(t *testing.T, how, step, file string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestKillMidWriteChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), killStepEnv+"="+step, killFileEnv+"="+file, killHowEnv+"="+how)
	stdin, err := cmd.StdinPipe() // held open: the child blocks reading it until killed
	if err != nil {
		t.Fatal(err)
	}
	defer stdin.Close()
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	stopped := false
	sc := bufio.NewScanner(stdout)
	for sc.Scan() {
		if sc.Text() == "stopped at "+step {
			stopped = true
			break
		}
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	if !stopped {
		t.Fatalf("the child did not reach step %s (ctx %v)", step, ctx.Err())
	}
}

// TestKillMidWriteChild is the child process of
// TestKillMidWriteLeavesOldOrNew, not a test of its own: it writes the file
// and stops at the step named, until it is killed.
func TestKillMidWriteChild(t *testing.T) {
	step, file, how := os.Getenv(killStepEnv), os.Getenv(killFileEnv), os.Getenv(killHowEnv)
	if step == "" {
		t.Skip("the child of TestKillMidWriteLeavesOldOrNew")
	}
	stop := func(at string) {
		if at != step {
			return
		}
		fmt.Println("stopped at " + at)
		_, _ = io.Copy(io.Discard, os.Stdin) // until the parent kills this process
		os.Exit(3)
	}
	syncs := 0
	fsync = func(f *os.File) error {
		if syncs++; syncs == 1 {
			stop(stepWritten) // the data file's sync; the second is the folder's
		}
		return f.Sync()
	}
	rename = func(from, to string) error {
		stop(stepSynced)
		if err := os.Rename(from, to); err != nil {
			return err
		}
		stop(stepRenamed)
		return nil
	}
	renameIn = func(r *os.Root, from, to string) error {
		stop(stepSynced)
		if err := r.Rename(from, to); err != nil {
			return err
		}
		stop(stepRenamed)
		return nil
	}
	var err error
	switch how {
	case "state-file":
		err = ReplaceFile(file, []byte(newKillContent), 0o644)
	default:
		var ws *Workspace
		if ws, err = New(filepath.Dir(file)); err != nil {
			break
		}
		var p Path
		if p, err = ws.Resolve(file); err != nil {
			break
		}
		var c Change
		if c, err = ws.ComputeWrite(p, newKillContent); err == nil {
			err = ws.ApplyToDisk(c)
		}
	}
	if err != nil {
		t.Fatal(err)
	}
	stop(stepReturned)
	t.Fatalf("step %q never came", step)
}
