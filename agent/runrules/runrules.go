// Package runrules decides, before anyone is asked, whether a command the
// agent runs may run unasked: run.allow, a plan's allowed_commands and the
// session's "Always allow" answers, each an allow rule judged on agentls's
// own reading of the command line (internal/allowrule), in the workspace
// (docs/guard.md, Commands).
package runrules

import (
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"slices"
	"strings"

	"github.com/agentls/agentls/guard"
	"github.com/agentls/agentls/internal/allowrule"
	"github.com/agentls/agentls/workspace"
)

// Read reads run.allow; a rule that is not one simple command, optionally
// ending in " *" or " --*", is left out with a warning (it allows nothing).
func Read(allow []string) allowrule.Rules {
	rules, errs := allowrule.ParseRules(allow)
	for _, err := range errs {
		slog.Warn("run.allow: rule ignored", "err", err)
	}
	return rules
}

// Grantable splits a plan's allowed_commands into the entries that
// are allow rules the user may grant at approval and the others, which are
// not offered: run asks before each of them. A grantable rule follows the
// run.allow grammar, names a command, and its own words hold no glob,
// danger-table option or path outside the workspace (allowrule.Grantable).
func Grantable(commands []string) (rules, others []string) {
	for _, c := range commands {
		c = strings.TrimSpace(c)
		if c == "" {
			continue
		}
		r, err := allowrule.ParseRule(c)
		if err != nil {
			others = append(others, c)
			continue
		}
		if ok, why := allowrule.Grantable(r, nil); !ok {
			slog.Info("allowed_commands: not offered", "rule", c, "why", why)
			others = append(others, c)
			continue
		}
		rules = append(rules, c)
	}
	return rules, others
}

// Decision is what the allow rules say about a command before anyone is
// asked (Judge).
type Decision struct {
	// Rule is the rule that lets the command run unasked; "" to ask.
	Rule string
	// NotSimple is why the line is not one simple command ("" when it is):
	// no rule can match it and "Always allow" is not offered.
	NotSimple string
	// Why is why a rule whose words fit did not allow it ("" if none fit).
	Why string
	// Offer: "Always allow" may be offered (OfferWhy says why not).
	Offer    bool
	OfferWhy string
	// Folder is the folder the command runs in, workspace-relative, when
	// it is not a workspace folder ("" when it is): rules allow nothing
	// there, and the question names it.
	Folder string
}

// Judge judges command, run in dir ("" for the workspace root), against
// each of rules in turn (run.allow, the plan's allowed_commands, the
// session's "Always allow" answers). A command runs unasked only when it
// is one simple command, runs in a workspace folder (another cwd may hold
// a repository or configuration the agent laid out), and a rule allows its
// words (allowrule.Rule.Allows: no option the rule does not spell, no
// danger-table option, no path outside).
func Judge(ws *workspace.Workspace, command, dir string, rules ...allowrule.Rules) Decision {
	var d Decision
	if dir == "" {
		dir = ws.Root()
	}
	if !slices.Contains(ws.Folders(), filepath.Clean(dir)) {
		d.Folder = ws.RelOf(dir)
		if d.Folder == "" {
			d.Folder = dir
		}
	}
	parsed, err := allowrule.Parse(command)
	if err != nil {
		d.NotSimple = "the shell reads it as more than one simple command"
		var ns *allowrule.NotSimpleError
		if errors.As(err, &ns) {
			d.NotSimple = ns.Why
		}
		return d
	}
	inside := PathCheck(ws, dir)
	d.Offer, d.OfferWhy = allowrule.Offerable(parsed, inside)
	if d.Folder != "" {
		d.Offer = false
		d.OfferWhy = fmt.Sprintf("it runs in %s, and allow rules only let commands run unasked in a workspace folder", d.Folder)
		d.Why = d.OfferWhy
		return d
	}
	for _, set := range rules {
		r, ok, why := set.Allows(parsed, inside)
		if ok {
			d.Rule = r.String()
			return d
		}
		if d.Why == "" {
			d.Why = why
		}
	}
	return d
}

// PathCheck is the check of a path argument of a command run in dir: a
// path (absolute, or relative to dir) must resolve inside the workspace,
// symlinks followed, and outside every protected folder (.git, .agentls,
// …), by its given name and by its real path.
func PathCheck(ws *workspace.Workspace, dir string) allowrule.PathCheck {
	return func(p string) bool {
		given := p
		if !filepath.IsAbs(p) && !strings.HasPrefix(p, "file://") {
			given = dir + string(filepath.Separator) + p // not Join: it would clean `..` away
		}
		rp, err := ws.Resolve(given)
		if err != nil {
			return false
		}
		if strings.HasPrefix(given, "/") {
			// The kernel takes `..` after a symlink from the symlink's
			// target (outlink/../x), where Resolve cleans it away first.
			if real, err := workspace.Canonical(given); err != nil || !inWorkspace(ws, real) {
				return false
			}
		}
		if _, prot := guard.InsideProtected(rp.Abs); prot {
			return false
		}
		if _, prot := guard.InsideProtected(filepath.Clean(given)); prot && !strings.HasPrefix(given, "file://") {
			return false
		}
		return true
	}
}

// inWorkspace reports whether abs (cleaned, real) is a workspace folder or
// inside one.
func inWorkspace(ws *workspace.Workspace, abs string) bool {
	return slices.Contains(ws.Folders(), abs) || ws.RelOf(abs) != ""
}
