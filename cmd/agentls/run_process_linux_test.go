//go:build linux && (amd64 || arm64)

package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agentls/agentls/internal/lspclient"
	"github.com/agentls/agentls/internal/proctest"
	"github.com/agentls/agentls/sandbox"
)

// runSession is a real agentls process with a fake editor, a workspace and
// one build session whose scripted model makes the given run calls; every
// permission question is answered "Run".
type runSession struct {
	ed   *lspclient.Client
	proc *os.Process
	dir  string
	sid  string
	ctx  context.Context
}

// startRunSession starts agentls (setup adjusts its command: environment,
// credentials) with a scripted model running commands in order.
func startRunSession(t *testing.T, dir string, commands []string, initOpts map[string]any, setup func(*exec.Cmd)) *runSession {
	t.Helper()
	var script strings.Builder
	script.WriteString("name: run_process\nsteps:\n")
	for i, c := range commands {
		fmt.Fprintf(&script, "  - tool_calls:\n      - {id: r%d, name: run, args: {command: %q}}\n", i, c)
	}
	script.WriteString("  - text: done\n")
	scriptPath := filepath.Join(dir, "script.yaml")
	if err := os.WriteFile(scriptPath, []byte(script.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	started := make(chan *os.Process, 1)
	ed, err := lspclient.Start(ctx, dir, processServeWith(t, started, setup), lspclient.Handlers{
		AskUser: func(json.RawMessage) any { return map[string]any{"answers": map[string]any{"decision": "allow_once"}} },
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ed.Close() })
	var proc *os.Process
	select {
	case proc = <-started:
	case <-ctx.Done():
		t.Fatalf("agentls did not start: %v", ed.Close())
	}
	opts := map[string]any{"model": map[string]any{"provider": "scripted", "script": scriptPath}}
	for k, v := range initOpts {
		opts[k] = v
	}
	init := map[string]any{
		"rootUri":               "file://" + filepath.ToSlash(dir),
		"capabilities":          map[string]any{"experimental": map[string]any{"agent": map[string]any{"askUser": true}}},
		"initializationOptions": opts,
	}
	return &runSession{ed: ed, proc: proc, dir: dir, sid: initBuildSession(ctx, t, ed, init), ctx: ctx}
}

// initBuildSession initializes the server with the params init and returns
// a new build session's id.
func initBuildSession(ctx context.Context, t *testing.T, ed *lspclient.Client, init map[string]any) string {
	t.Helper()
	if err := ed.Call(ctx, "initialize", init, nil); err != nil {
		t.Fatal(err)
	}
	var s struct {
		SessionID string `json:"sessionId"`
	}
	if err := ed.Call(ctx, "agent/newSession", map[string]any{"mode": "build"}, &s); err != nil {
		t.Fatal(err)
	}
	return s.SessionID
}

// prompt runs the scripted turn; done receives its error.
func (r *runSession) prompt() <-chan error {
	done := make(chan error, 1)
	go func() {
		done <- r.ed.Call(r.ctx, "agent/prompt", map[string]any{"sessionId": r.sid, "text": "run"}, nil)
	}()
	return done
}

// runResult is the result of run call id as the model read it.
func (r *runSession) runResult(t *testing.T, id string) (exitCode int, output string) {
	t.Helper()
	for _, m := range r.ed.Messages() {
		var p struct {
			Update struct {
				SessionUpdate string          `json:"sessionUpdate"`
				ToolCallID    string          `json:"toolCallId"`
				RawOutput     json.RawMessage `json:"rawOutput"`
			} `json:"update"`
		}
		if m.Method != "agent/update" || json.Unmarshal(m.Params, &p) != nil || p.Update.SessionUpdate != "tool_call_update" || p.Update.ToolCallID != id {
			continue
		}
		var out struct {
			Success bool `json:"success"`
			Result  struct {
				ExitCode int    `json:"exit_code"`
				Output   string `json:"output"`
			} `json:"result"`
		}
		if err := json.Unmarshal(p.Update.RawOutput, &out); err != nil || !out.Success {
			t.Fatalf("run %s: %s (%v)", id, p.Update.RawOutput, err)
		}
		return out.Result.ExitCode, out.Result.Output
	}
	t.Fatalf("no result for run %s", id)
	return 0, ""
}

// secrets are variables agentls holds that no command may see, by name and value.
var secrets = map[string]string{
	"MODEL_KEY_VAR":       "sk-model-key-4d1f", // model.api_key_env below
	"OPENAI_API_KEY":      "sk-openai-8c2e",
	"GITHUB_TOKEN":        "ghp-token-77aa",
	"DB_SECRET":           "db-secret-19bf",
	"AWS_SECRET_ACCESS_X": "aws-value-3e51",
	"EXTRA_DENIED":        "extra-value-5a0c", // run.env_deny below
}

// TestRunEnvironmentScrubbedAndServerNotDumpable: against the real agentls
// binary, a command sees none of the model key variable, the default
// run.env_deny globs, or a configured extra name, while ordinary variables
// pass; and it cannot read the server's own environment through
// /proc/$PPID/environ, because agentls marks itself not dumpable
// (PR_SET_DUMPABLE 0). Root reads every process's environ whatever the
// flag, so when the test runs as root agentls runs as nobody (65534), which
// is what a same-user process is to an agentls run by a normal user.
func TestRunEnvironmentScrubbedAndServerNotDumpable(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("starts agentls processes")
	}
	dir, bin := sharedTempDir(t), os.Args[0]
	uid := os.Getuid()
	var cred *syscall.Credential
	procChecks := true
	if uid == 0 {
		// nobody must reach the binary and write the workspace.
		bin = filepath.Join(sharedTempDir(t), "agentls")
		copyFile(t, os.Args[0], bin)
		cred = &syscall.Credential{Uid: 65534, Gid: 65534}
		probe := exec.Command(bin, "version")
		probe.Env = []string{"AGENTLS_TEST_MAIN=1"}
		probe.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
		if out, err := probe.CombinedOutput(); err != nil {
			// Root reads every environ: without another user only the
			// scrubbing can be checked.
			t.Logf("cannot run agentls as nobody here (%v: %s); checking the scrubbing only", err, out)
			bin, cred, procChecks = os.Args[0], nil, false
		} else {
			uid = 65534
		}
	}
	env := []string{"AGENTLS_TEST_MAIN=1", "AGENTLS_VISIBLE=visible-2b7d", "HOME=" + filepath.Join(filepath.Dir(dir), "agentls-no-home"), "XDG_CONFIG_HOME=" + dir + "/xdg", "XDG_STATE_HOME=" + dir + "/xdg", "PATH=" + os.Getenv("PATH")}
	for k, v := range secrets {
		env = append(env, k+"="+v)
	}
	commands := []string{
		"env",
		"cat /proc/$PPID/environ",
		"stat -c %u /proc/$PPID/environ",
		// A control: a same-user process that is dumpable (this shell)
		// has its environ read by another (cat).
		"cat /proc/$$/environ",
	}
	r := startRunSession(t, dir, commands, map[string]any{
		"model": map[string]any{"provider": "scripted", "script": filepath.Join(dir, "script.yaml"), "api_key_env": "MODEL_KEY_VAR"},
		"run":   map[string]any{"env_deny": []string{"*_API_KEY", "*_TOKEN", "*_SECRET", "AWS_*", "EXTRA_DENIED"}},
		// agentls's own not-dumpable flag, read through /proc/$PPID: no
		// sandbox, whose PID namespace would hide agentls altogether.
		"sandbox": map[string]any{"mode": "off"},
	}, func(cmd *exec.Cmd) {
		cmd.Path, cmd.Args[0] = bin, bin
		cmd.Env = env
		if cred != nil {
			cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
		}
	})
	if err := <-r.prompt(); err != nil {
		t.Fatal(err)
	}
	_, envOut := r.runResult(t, "r0")
	if !strings.Contains(envOut, "AGENTLS_VISIBLE=visible-2b7d") {
		t.Fatalf("env lacks an ordinary variable:\n%s", envOut)
	}
	for name, value := range secrets {
		if strings.Contains(envOut, value) || strings.Contains(envOut, name+"=") {
			t.Errorf("the command's environment holds %s:\n%s", name, envOut)
		}
	}
	if !procChecks {
		return
	}
	code, out := r.runResult(t, "r1")
	if code == 0 || !strings.Contains(out, "Permission denied") {
		t.Errorf("cat /proc/$PPID/environ as uid %d = exit %d, %q; want permission denied", uid, code, out)
	}
	for name, value := range secrets {
		if strings.Contains(out, value) {
			t.Errorf("the command read %s from the server's environ", name)
		}
	}
	// A non-dumpable process's /proc files belong to root, not to its user.
	if _, owner := r.runResult(t, "r2"); strings.TrimSpace(owner) != "0" {
		t.Errorf("/proc/<agentls>/environ is owned by %q, want root (0): agentls is dumpable", owner)
	}
	if code, own := r.runResult(t, "r3"); code != 0 || !strings.Contains(own, "AGENTLS_VISIBLE=visible-2b7d") {
		t.Errorf("control: a same-user dumpable process's environ = exit %d %q; the denial above would prove nothing", code, own)
	}
}

// TestServerKillLeavesNoCommandBehind: kill -9 of the real agentls process
// while run runs `sleep 1000` in a pipeline: neither the command's shell nor
// the sleep survives (the watchdog kills the group once the server's end of
// its pipe closes; the shell also has Pdeathsig). The same when the editor
// just goes away (agentls exits while the command runs).
func TestServerKillLeavesNoCommandBehind(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("starts agentls processes")
	}
	for _, c := range []struct{ how, mode string }{{"kill -9", "off"}, {"editor gone", "off"}, {"kill -9", "auto"}, {"editor gone", "auto"}} {
		how := c.how
		t.Run(how+" sandbox "+c.mode, func(t *testing.T) {
			if st := sandbox.Detect().Status(sandbox.Mode(c.mode)); c.mode != "off" && !st.Confines() {
				t.Skipf("no sandbox layer here: %s", st.Summary)
			}
			dir := t.TempDir()
			fifo := filepath.Join(dir, "pids")
			if err := syscall.Mkfifo(fifo, 0o600); err != nil {
				t.Fatal(err)
			}
			command := fmt.Sprintf(`sh -c 'echo $PPID $$ > %s; exec sleep 1000' | cat`, fifo)
			r := startRunSession(t, dir, []string{command}, map[string]any{"sandbox": map[string]any{"mode": c.mode}}, nil)
			done := r.prompt()
			shell, sleep := readPids(t, fifo)
			if c.mode != "off" {
				// In the sandbox's PID namespace: the pids it reported are
				// its own; find them on the host below agentls.
				shell, sleep = hostPid(t, r.proc.Pid, shell), hostPid(t, r.proc.Pid, sleep)
			}
			watched := map[string]*proctest.Process{}
			for name, pid := range map[string]int{"sh": shell, "sleep": sleep} {
				p, err := proctest.Watch(pid)
				if err != nil {
					t.Fatalf("%s %d is not running: %v", name, pid, err)
				}
				defer p.Close()
				if gone, err := p.Exited(0); gone || err != nil {
					t.Fatalf("%s %d exited before the server (%v)", name, pid, err)
				}
				watched[name] = p
			}
			if how == "kill -9" {
				if err := r.proc.Kill(); err != nil {
					t.Fatal(err)
				}
			} else {
				_ = r.ed.Disconnect()
			}
			<-done
			// SIGKILL is delivered asynchronously: allow it ample time; a
			// command left behind would sleep for 1000 seconds.
			for name, p := range watched {
				if gone, err := p.Exited(10 * time.Second); !gone || err != nil {
					t.Errorf("%s still runs after the server ended (%s, %v)", name, how, err)
				}
			}
		})
	}
}

// hostPid is the host pid of the process below root whose pid in its own
// (innermost) PID namespace is nsPid.
func hostPid(t *testing.T, root, nsPid int) int {
	t.Helper()
	entries, err := os.ReadDir("/proc")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		ns := procStatus(pid, "NSpid")
		if len(ns) > 1 && ns[len(ns)-1] == strconv.Itoa(nsPid) && descends(pid, root) {
			return pid
		}
	}
	t.Fatalf("no process below %d has pid %d in its namespace", root, nsPid)
	return 0
}

// procStatus is the fields of one line of /proc/<pid>/status.
func procStatus(pid int, key string) []string {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return nil
	}
	for _, line := range strings.Split(string(b), "\n") {
		if k, v, ok := strings.Cut(line, ":"); ok && k == key {
			return strings.Fields(v)
		}
	}
	return nil
}

// descends reports whether pid is root or one of its descendants.
func descends(pid, root int) bool {
	for i := 0; i < 64 && pid > 1; i++ {
		if pid == root {
			return true
		}
		pp := procStatus(pid, "PPid")
		if len(pp) == 0 {
			return false
		}
		pid, _ = strconv.Atoi(pp[0])
	}
	return pid == root
}

// readPids reads "<shell pid> <sleep pid>" from the fifo.
func readPids(t *testing.T, fifo string) (int, int) {
	t.Helper()
	f, err := os.Open(fifo) // blocks until the command opens it
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	b, err := io.ReadAll(f)
	if err != nil {
		t.Fatal(err)
	}
	fields := strings.Fields(string(b))
	if len(fields) != 2 {
		t.Fatalf("pids %q", b)
	}
	a, err1 := strconv.Atoi(fields[0])
	c, err2 := strconv.Atoi(fields[1])
	if err1 != nil || err2 != nil {
		t.Fatalf("pids %q", b)
	}
	return a, c
}

// sharedTempDir is a temporary folder anyone may enter and write (for an
// agentls that runs as another user), removed after the test.
func sharedTempDir(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "agentls-run-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	return dir
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o755); err != nil {
		t.Fatal(err)
	}
}
