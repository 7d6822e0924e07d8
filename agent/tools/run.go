package tools

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"time"

	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/guard"
	"github.com/agentls/agentls/sandbox"
)

// Limits of run.
const (
	maxRunTimeoutSecs     = 600
	defaultRunTimeoutSecs = 120
	defaultRunOutputBytes = 30000
)

// RunParams are the arguments of run.
type RunParams struct {
	Command     string `json:"command"`
	Cwd         string `json:"cwd,omitempty" description:"Default: root."`
	TimeoutSecs int    `json:"timeout_secs,omitempty" minimum:"1" description:"Default from the configuration, at most 600."`
}

// RunOutput is run's result. A non-zero exit code is still a successful call:
// the model reads the code and the output.
type RunOutput struct {
	ExitCode   int    `json:"exit_code"`
	Output     string `json:"output"`
	TimedOut   bool   `json:"timed_out"`
	DurationMs int64  `json:"duration_ms"`
	Warning    string `json:"warning,omitempty"`
	// Sandbox says what confined the command; Hint, when it failed in a
	// way the sandbox may have caused, says what the sandbox refuses.
	Sandbox string `json:"sandbox,omitempty"`
	Hint    string `json:"hint,omitempty"`
	// AutoRun, when the command created or changed a file the user's
	// editor or shell runs by itself (or a repository's hooks or
	// configuration), says what and whether the user kept it or agentls
	// undid it (sentinel.go).
	AutoRun string `json:"auto_run,omitempty"`
}

// runCommand runs run.
func runCommand(ctx context.Context, env Env, p RunParams) (Result, error) {
	command := strings.TrimSpace(p.Command)
	if command == "" {
		return Failf("command is required"), nil
	}
	if p.TimeoutSecs < 0 {
		return Failf("timeout_secs must be positive"), nil
	}
	cfg := env.Config().Run
	timeout := p.TimeoutSecs
	if timeout == 0 {
		timeout = cfg.TimeoutSecs
	}
	if timeout <= 0 {
		timeout = defaultRunTimeoutSecs
	}
	timeout = min(timeout, maxRunTimeoutSecs)
	maxOut := cfg.MaxOutputBytes
	if maxOut <= 0 {
		maxOut = defaultRunOutputBytes
	}
	dir := env.Workspace().Root()
	if p.Cwd != "" {
		rp, fail := resolve(env, "cwd", p.Cwd)
		if fail != nil {
			return *fail, nil
		}
		if !rp.IsDir {
			return Failf("cwd: %s is not an existing folder", p.Cwd), nil
		}
		dir = rp.Abs
	}

	permit, err := env.ConfirmRun(ctx, RunRequest{Command: command, Dir: dir})
	if ctx.Err() != nil {
		return Failf("cancelled by the user: the request for permission was withdrawn and %s did not run", command), nil
	}
	if err != nil {
		return Failf("could not ask the user to confirm %q: %v", command, err), nil
	}
	if !permit.Run {
		return Failf("the user rejected running %s", command), nil
	}

	var warning string
	if unsaved := env.UnsavedEdited(); len(unsaved) > 0 {
		warning = "unsaved in the editor: the command sees the files on disk, not your edits to " + strings.Join(unsaved, ", ")
	}
	// The mode is read again right before the process starts: the user may
	// have switched the session to plan mode while the permission question
	// was open, and the answer (or the allow list) does not outlive that.
	recheck := func() error {
		args, err := json.Marshal(p)
		if err != nil {
			return err
		}
		if r := env.Guard().CheckCall(env.State(), "run", args); r != nil {
			r.Hint = "the session is no longer in build mode, so the command did not start; " + r.Hint
			return r
		}
		CommandStarting(ctx, env) // the checkpoints' scan: what changes from now on may be the command's
		return nil
	}
	policy, scan, approval := runPolicyScan(env, command, permit.Rule != "") // repositories read-only when nobody was asked, their hooks and config when the user was
	job := shellJob{
		command: command, dir: dir, env: commandEnv(os.Environ(), env.Config()),
		timeout: time.Duration(timeout) * time.Second, maxOut: maxOut, beforeStart: recheck, policy: policy,
	}
	if pr, ok := env.(ProgressReporter); ok {
		job.progress = func(line string) { pr.ReportProgress(ctx, "run", line) } // the newest output line, live
	}
	git := safeGitFor(permit.Rule, command, dir) // auto-allowed git: no repository-local programs (gitenv.go)
	job.env = git.apply(job.env)
	status := sandbox.Detect().Status(job.policy.Mode)
	watch := newSentinel(env.Workspace().Folders(), scan, approval, policy, status) // what runs by itself, as it is before the command (sentinel.go)
	res, inTerminal, err := runInTerminal(ctx, env, job, git)                       // the editor's terminal, if it has one
	if !inTerminal {
		res, err = runShell(ctx, job)
	}
	var refusal *guard.Refusal
	if errors.As(err, &refusal) {
		return Refused(refusal), nil // nothing started
	}
	res.output = plainText(res.output)        // no colour codes for the model, nor terminal sequences for the chat
	autoRun := watch.check(ctx, env, command) // after the command, whatever its end
	if err != nil {
		return Failf("run %s: %v%s", command, err, withNote(autoRun)), nil
	}
	if res.cancelled {
		return Failf("cancelled: %s was stopped and its processes killed after %dms%s", command, res.duration.Milliseconds(), withNote(autoRun)), nil
	}
	return OK(RunOutput{
		ExitCode: res.exitCode, Output: res.output, TimedOut: res.timedOut,
		DurationMs: res.duration.Milliseconds(), Warning: warning,
		Sandbox: status.Note(job.policy.Network),
		Hint:    sandboxHint(status, job.policy.Network, res.exitCode, res.output),
		AutoRun: autoRun,
	}), nil
}

// withNote is "; note" for a failed result's text, or "".
func withNote(note string) string {
	if note == "" {
		return ""
	}
	return "; " + note
}

// runTitle is a run's title: the command itself as one code span, first
// (the call's kind, execute, says it runs). CodeCompanion.nvim shows a
// title up to its first colon unless it begins with a backtick-quoted
// command, so "run echo build:prod" showed as "run echo build", another
// command; a command holding a backtick is a longer span, whole in the
// clients that read CommonMark.
func runTitle(p RunParams) string {
	return cmp.Or(titleCode(p.Command), "run")
}

// runTool runs a shell command in the workspace, after the user confirmed it.
var runTool = New(Def[RunParams]{Name: "run", Kind: "execute", Run: runCommand,
	Title: runTitle, TellsStart: true, // the scan before it follows the user's permission (recheck)
	Guard: guard.Decl{Class: guard.ClassMutating, Kind: guard.KindExecute, Interaction: guard.WaitsOnHuman, Plan: guard.BuildOnly, Reach: agentproto.ReachProcess,
		Paths: []guard.PathArg{{Name: "cwd", Role: guard.Source, Optional: true}}},
})
