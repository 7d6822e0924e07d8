package tools

import (
	"fmt"
	"strings"

	"github.com/agentls/agentls/sandbox"
)

// configCheck is how the check after a command compares git's
// configuration (config, config.worktree) of a repository that existed.
type configCheck int

const (
	// configAll reports any change: only git may write it, and this
	// command is not only git.
	configAll configCheck = iota
	// configBeyondOwn reports a setting beyond git's own (newRepoKeys)
	// that the command added or changed: the line is only git, which may
	// write its configuration, but the hooks and programs git runs
	// (a core.hooksPath hook in the work tree, an alias, a filter) are
	// code the agent may have written, and core.fsmonitor, core.pager,
	// an alias with `!` … run outside every sandbox at the next git there.
	configBeyondOwn
	// configNone compares nothing: sandbox.allow_git_config lets every
	// approved command write it.
	configNone
)

// configCheckOf is how the configuration is compared after a command of
// approval a.
func configCheckOf(a Approval) configCheck {
	switch {
	case a.AnyGitConfig:
		return configNone
	case a.Tool == "git":
		return configBeyondOwn
	}
	return configAll
}

// describeGitConfigChange says what a command that git may write the
// configuration for did to an existing repository's config (b and a as
// before and after; read with git confined by list): "-" when it added
// or changed no setting beyond git's own (a remote, a branch's upstream,
// user.email, a setting removed), otherwise what the question shows, with
// each such new setting and its value. A file git cannot read, one over
// the size limit, or one that is not a regular file is reported as any
// other change.
func describeGitConfigChange(b, a *snapEntry, p string, list sandbox.Policy) (what string, details []string, capped bool) {
	if a == nil || (b != nil && (b.capped || !b.mode.IsRegular())) || a.capped || !a.mode.IsRegular() {
		what, capped = describeDiff(b, a, watchConfig, p)
		return what, nil, capped
	}
	after, err := gitListConfig(a.data, list)
	if err != nil {
		return "changed, with settings git cannot read", nil, false
	}
	had := map[configEntry]int{}
	if b != nil {
		before, err := gitListConfig(b.data, list)
		if err == nil { // unreadable before: every setting beyond git's own is new
			for _, e := range before {
				had[e]++
			}
		}
	}
	var labels []string
	seen := map[string]bool{}
	for _, e := range after {
		if allowedNewRepoKey(e.key) {
			continue
		}
		if had[e] > 0 {
			had[e]--
			continue
		}
		details = append(details, settingLine(e))
		if !seen[e.key] {
			seen[e.key] = true
			labels = append(labels, configKeyLabel(e.key))
		}
	}
	if len(labels) == 0 {
		return "-", nil, false
	}
	const most = 8
	if len(labels) > most {
		labels = append(labels[:most], fmt.Sprintf("%d more", len(labels)-most))
	}
	what = "changed: settings beyond git's own (" + strings.Join(labels, ", ") + ")"
	if b == nil {
		what = "created with settings beyond git's own (" + strings.Join(labels, ", ") + ")"
	}
	return what, details, false
}
