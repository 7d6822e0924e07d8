package tools

import (
	"context"
	"fmt"
	"log/slog"
	"slices"
	"strings"

	"github.com/agentls/agentls/sandbox"
)

// The after-command check ("sentinel"). The sandbox keeps read-only what
// exists when a command starts; it cannot keep a path that does not exist
// yet (a new .vscode/tasks.json, .envrc, a `git init sub` with a hook),
// Landlock has no right for chmod, and under Landlock alone git itself
// (or any command, with sandbox.allow_git_config) can write hooks. So
// after every run command the auto-run files and the repositories' hooks
// and configuration are compared with a snapshot taken before it; what
// differs is put to the user (AutoRunConfirmer), and undone unless the
// user keeps it (docs/guard.md "After the command").

// AutoRunChange is one change a command made to a file that makes the
// user's editor or shell start programs by itself, or to a repository's
// hooks or configuration.
type AutoRunChange struct {
	// Path is workspace-relative, slash-separated.
	Path string
	// What happened: created, created, executable, changed, made
	// executable, mode changed, replaced by a symbolic link…
	What string
	// Capped: the file was over the snapshot's size limit, so what it held
	// before cannot be put back (if it is new, it can be removed).
	Capped bool
	// Details show what it holds, each line in full: a new repository's
	// settings beyond git's own, `key = value` (Keep keeps them all).
	Details []string
}

// AutoRunReport is what a command did to such files.
type AutoRunReport struct {
	// Command is the command line as the user approved it (or a rule allowed it).
	Command string
	Changes []AutoRunChange
}

// AutoRunAnswer is the user's answer to an AutoRunReport.
type AutoRunAnswer struct {
	// Keep leaves the changes as the command made them.
	Keep bool
	// Why says why they are not kept: "rejected when asked", "dismissed
	// when asked", "the editor cannot ask", a timeout, a cancelled turn.
	Why string
}

// AutoRunConfirmer is an Env that can ask the user whether to keep what a
// command did to files the editor or shell runs by itself. Without one
// (no surface to ask) the changes are undone.
type AutoRunConfirmer interface {
	ConfirmAutoRun(ctx context.Context, r AutoRunReport) AutoRunAnswer
}

// sentinel holds the snapshot taken before one command.
type sentinel struct {
	before *autoRunSnap
	// gitConfig is how git's configuration is compared (configCheck):
	// only what runs programs when the command is only git, not at all
	// with sandbox.allow_git_config.
	gitConfig configCheck
	// kept is what the command's sandbox kept read-only: a difference
	// there is someone else's (sentinel_kept.go).
	kept keptPaths
	// list confines the git that reads a new repository's configuration
	// (listPolicy): in the command's mode, never looked up in the folders
	// of PATH the command's policy does not trust.
	list sandbox.Policy
}

// newSentinel takes the snapshot before a command from the walk its
// policy made (scan) right before it starts, for approval a; status is
// what its sandbox could enforce: what it keeps read-only (keptBySandbox)
// is someone else's, and what the policy does not trust on PATH this
// check does not either.
func newSentinel(folders []string, scan workspaceScan, a Approval, policy sandbox.Policy, status sandbox.Status) sentinel {
	return sentinel{before: takeSnapshot(folders, scan, nil), gitConfig: configCheckOf(a), kept: keptBySandbox(policy, status), list: listPolicy(policy, folders)}
}

// check compares the workspace now with the snapshot, asks the user about
// what differs (through env, unless ctx is done) and undoes it unless the
// user keeps it. It returns what the model is told ("" when nothing
// differs).
func (s sentinel) check(ctx context.Context, env Env, command string) string {
	folders := s.before.folders
	after := takeSnapshot(folders, scanWorkspace(folders), s.before.repos)
	changes := slices.DeleteFunc(diffSnaps(s.before, after, s.gitConfig, s.list), func(c autoRunChange) bool {
		if s.kept.notTheCommands(c, s.before) {
			slog.Debug("run: a change the sandbox kept from the command (someone else's)", "path", c.rel, "what", c.what)
			return true
		}
		return false
	})
	shown := reported(changes)
	if len(shown) == 0 {
		return ""
	}
	report := AutoRunReport{Command: command}
	for _, c := range shown {
		report.Changes = append(report.Changes, AutoRunChange{Path: c.rel, What: c.what, Capped: c.capped, Details: c.details})
	}
	ans := AutoRunAnswer{Why: "the editor cannot ask"}
	switch c, ok := env.(AutoRunConfirmer); {
	case ctx.Err() != nil:
		ans.Why = "the turn was cancelled"
	case ok:
		ans = c.ConfirmAutoRun(ctx, report)
	}
	what := report.Summary()
	if ans.Keep {
		slog.Info("run: the user kept what the command did to auto-run files", "command", command, "changes", what)
		return "the command " + what + " — files the user's editor or shell runs by itself, outside the sandbox; the user was asked and kept them"
	}
	failed := restoreChanges(changes)
	slog.Warn("run: undid what the command did to auto-run files", "command", command, "changes", what, "why", ans.Why, "failed", len(failed))
	note := fmt.Sprintf("the command %s — files the user's editor or shell runs by itself, outside the sandbox; not kept (%s), so agentls undid it: removed what the command created and put back what it changed as it was before the command",
		what, ans.Why)
	if len(failed) > 0 {
		parts := make([]string, len(failed))
		for i, f := range failed {
			parts[i] = f.rel + " (" + f.why + ")"
		}
		note += "; could not undo: " + strings.Join(parts, ", ")
	}
	return note + ". Do not make these changes again unless the user asks for them."
}

// Summary is the changes in one line: "created .vscode/tasks.json, made
// executable .git/hooks/pre-push".
func (r AutoRunReport) Summary() string {
	parts := make([]string, len(r.Changes))
	for i, c := range r.Changes {
		parts[i] = c.What + " " + c.Path
	}
	return strings.Join(parts, ", ")
}
