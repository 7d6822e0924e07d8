package tools

import (
	"context"
	"time"

	"github.com/agentls/agentls/sandbox"
)

// Terminal is an Env that can run a command in the editor's own terminal
// (ACP's terminal/*: the user watches its output live) instead of
// agentls's shell.
type Terminal interface {
	// RunInTerminal runs job there. handled is false when the editor has
	// no terminal (agentls's shell runs the command then).
	RunInTerminal(ctx context.Context, job TerminalJob) (res TerminalResult, handled bool, err error)
}

// TerminalJob is one command for the editor's terminal.
type TerminalJob struct {
	Command string
	Dir     string
	Timeout time.Duration
	MaxOut  int
	// BeforeStart runs right before the command starts; its error (a guard
	// refusal) is returned as it is and nothing starts.
	BeforeStart func() error
	// EnvDeny names the variables the command must not get (the model's
	// key variable and run.env_deny, by name or path.Match glob), as
	// agentls's own shell leaves them out: the terminal runs in the
	// editor's environment, which agentls does not know, so the terminal
	// must unset them there.
	EnvDeny []string
	// Env are variables (NAME=value) the command gets on top of the
	// editor's environment, set before EnvDeny is applied (auto-allowed
	// git's safe configuration, gitenv.go).
	Env []string
	// Sandbox is the sandbox the command runs in: the terminal starts
	// sandbox.Prepare's argv (the launcher, and bwrap, around the command).
	Sandbox sandbox.Policy
}

// TerminalResult is how a command run in the editor's terminal ended.
type TerminalResult struct {
	ExitCode  int
	Output    string
	TimedOut  bool
	Cancelled bool
	Duration  time.Duration
}

// runInTerminal runs the job in env's terminal when it has one.
func runInTerminal(ctx context.Context, env Env, job shellJob, git gitSafety) (shellResult, bool, error) {
	t, ok := env.(Terminal)
	if !ok {
		return shellResult{}, false, nil
	}
	res, handled, err := t.RunInTerminal(ctx, TerminalJob{
		Command: job.command, Dir: job.dir, Timeout: job.timeout, MaxOut: job.maxOut, BeforeStart: job.beforeStart,
		EnvDeny: append(envDenyPatterns(env.Config()), git.terminalDrop()...), Env: git.set, Sandbox: job.policy,
	})
	return shellResult{exitCode: res.ExitCode, output: res.Output, timedOut: res.TimedOut, cancelled: res.Cancelled, duration: res.Duration}, handled, err
}
