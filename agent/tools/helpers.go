package tools

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"path"
	"strings"

	"github.com/agentls/agentls/guard"
	"github.com/agentls/agentls/permission"
	"github.com/agentls/agentls/questions"
	"github.com/agentls/agentls/workspace"
)

// resolve resolves a path argument; a failure is a message for the model.
func resolve(env Env, arg, p string) (workspace.Path, *Result) {
	if strings.TrimSpace(p) == "" {
		return workspace.Path{}, failed("%s is required", arg)
	}
	rp, err := env.Workspace().Resolve(p)
	if err != nil {
		msg := err.Error()
		if errors.Is(err, workspace.ErrOutside) {
			msg += " (paths are relative to the workspace root; files outside it cannot be used)"
		}
		return workspace.Path{}, failed("%s: %s", arg, msg)
	}
	return rp, nil
}

// searchBase resolves the optional path argument of a tool that looks
// through the workspace (glob, grep, ls): the root when it is empty; a path
// that does not exist is a failed Result.
func searchBase(env Env, given string) (workspace.Path, *Result) {
	given = cmp.Or(given, ".")
	base, fail := resolve(env, "path", given)
	if fail != nil {
		return base, fail
	}
	if !base.Exists {
		return base, failed("%s does not exist", given)
	}
	return base, nil
}

// capped keeps the first n of items; cut reports that some were left out
// (a result's Truncated).
func capped[T any](items []T, n int) (kept []T, cut bool) {
	if len(items) > n {
		return items[:n], true
	}
	return items, false
}

// failed is Failf's Result, for a helper whose nil *Result means "go on".
func failed(format string, args ...any) *Result {
	r := Failf(format, args...)
	return &r
}

// apply hands a change to env.Apply and, once it is applied, returns done's
// Result. A guard refusal becomes a refused Result and any other failure a
// failed Result carrying its text; only a cancelled context is returned as an
// error.
func apply(ctx context.Context, env Env, tool, label string, c workspace.Change, done func() Result) (Result, error) {
	err := env.Apply(ctx, tool, label, []workspace.Change{c})
	if err == nil {
		return done(), nil
	}
	var ref *guard.Refusal
	if errors.As(err, &ref) {
		return Refused(ref), nil
	}
	var declined *workspace.DeclinedError
	if errors.As(err, &declined) {
		return Result{Error: label + ": " + declined.Error(), Declined: declined.Declined}, nil
	}
	if ctx.Err() != nil {
		return Result{}, fmt.Errorf("%s: %w", tool, err)
	}
	return Failf("%s: %v", label, err), nil
}

// plansDir is the plans folder as config's PlansDir resolves it. Its error
// is not this helper's to report: the guard refuses changes in a folder
// that cannot hold plans, and listPlans reports the error.
func plansDir(env Env) string {
	d, _ := env.Config().PlansDir(env.Workspace().Folders()...)
	return d
}

// isPlanFile reports whether p names a `.plan` file (not a folder).
func isPlanFile(p workspace.Path) bool {
	return !p.IsDir && path.Ext(p.Rel) == ".plan"
}

// title joins a verb and an argument in prose (a question, a plan's
// title, a sub-agent kind), shortened for a one-line title.
func title(verb, arg string) string {
	arg = shortArg(arg)
	if arg == "" {
		return verb
	}
	return verb + " " + arg
}

// codeTitle joins a verb and an argument that must read as it is (a path,
// a pattern), the argument shortened as one Markdown code span
// (titleCode): clients render titles as Markdown (agent-shell), where a
// plan named `plans/[fix](x).plan` showed as a link, "plans/fix.plan".
func codeTitle(verb, arg string) string {
	if arg = titleCode(arg); arg == "" {
		return verb
	}
	return verb + " " + arg
}

// titleCode is an argument shortened for a title as one Markdown code
// span that no backtick in it can close (permission.CodeSpan), or "".
func titleCode(arg string) string {
	if arg = shortArg(arg); arg == "" {
		return ""
	}
	return permission.CodeSpan(arg)
}

// maxTitleArg is how many characters of an argument a title shows.
const maxTitleArg = 60

// shortArg is an argument for a one-line title: its blanks collapsed, no
// control or bidi character (escaped), at most maxTitleArg characters.
func shortArg(arg string) string {
	arg = questions.EscapeLine(strings.Join(strings.Fields(arg), " ")) // no control or bidi character reaches a title
	if r := []rune(arg); len(r) > maxTitleArg {
		arg = string(r[:maxTitleArg-1]) + "…"
	}
	return arg
}

// exists reports whether p exists on disk or as an editor buffer (an applied
// agent edit the editor has not saved yet).
func exists(ws *workspace.Workspace, p workspace.Path) bool {
	if p.Exists {
		return true
	}
	_, _, ok := ws.Overlay().Get(p.Abs)
	return ok
}
