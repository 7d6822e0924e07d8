package agent

import (
	"log/slog"
	"strings"

	"github.com/agentls/agentls/internal/allowrule"
)

// runAllowRules reads run.allow; a rule that is not one simple command,
// optionally ending in " *", is left out with a warning (it allows nothing).
func runAllowRules(allow []string) allowrule.Rules {
	rules, errs := allowrule.ParseRules(allow)
	for _, err := range errs {
		slog.Warn("run.allow: rule ignored", "err", err)
	}
	return rules
}

// grantableCommands splits a plan's allowed_commands into the entries that
// are allow rules (offered to the user at approval) and the others, with
// why, which are not offered: run asks before each of them.
func grantableCommands(commands []string) (rules, others []string) {
	for _, c := range commands {
		c = strings.TrimSpace(c)
		if c == "" {
			continue
		}
		if _, err := allowrule.ParseRule(c); err != nil {
			others = append(others, c)
			continue
		}
		rules = append(rules, c)
	}
	return rules, others
}
