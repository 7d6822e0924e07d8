// Package problemtext writes the new problems of the agent's edits (from
// the language servers) as text: one line a problem for the tool result
// and the logs, and the refusal of a plan step's tick while a file the step
// changed has a new error (docs/language-intel.md, "Step ticks").
package problemtext

import (
	"fmt"
	"strings"

	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/questions"
)

// Line is one problem on one line: path:line: severity: message
// (source code).
func Line(p agentproto.Problem) string {
	src := strings.TrimSpace(p.Source + " " + p.Code)
	if src != "" {
		src = " (" + src + ")"
	}
	return fmt.Sprintf("%s:%d: %s: %s%s", p.Path, p.Line, p.Severity, strings.Join(strings.Fields(p.Message), " "), src)
}

// ShownLines are probs as lines for a person (a log line each, the "New
// problems" of an ACP tool call): the language server's text escaped, so no
// control or bidi character reaches what a face shows.
func ShownLines(probs []agentproto.Problem) []string {
	lines := make([]string, 0, len(probs))
	for _, p := range probs {
		lines = append(lines, questions.EscapeLine(Line(p)))
	}
	return lines
}

// Blocking are the errors then the warnings of probs (the lines of a
// refusal; hints and information left out).
func Blocking(probs []agentproto.Problem) []agentproto.Problem {
	out := []agentproto.Problem{}
	for _, sev := range []string{"error", "warning"} {
		for _, p := range probs {
			if p.Severity == sev {
				out = append(out, p)
			}
		}
	}
	return out
}

// TickRefusal is the text of a plan step's tick refused for probs' errors
// ("" when none is an error): the errors, then the warnings, not blocking.
func TickRefusal(probs []agentproto.Problem) string {
	var errs, warns []string
	for _, p := range probs {
		// The language server's text, escaped: it reaches the model and,
		// as the tool's error, every face (an ACP client shows it as is).
		if p.Severity == "error" {
			errs = append(errs, questions.EscapeLine(Line(p)))
		} else if p.Severity == "warning" {
			warns = append(warns, questions.EscapeLine(Line(p)))
		}
	}
	if len(errs) == 0 {
		return ""
	}
	msg := "step not ticked: the files changed in this step have new errors; fix them first (the user can still tick it by hand):\n" + strings.Join(errs, "\n")
	if len(warns) > 0 {
		msg += "\nwarnings (not blocking):\n" + strings.Join(warns, "\n")
	}
	return msg
}

// TickRefusalLines are a refusal's lines for a log: the step, then one
// line a problem (the language server's text escaped: no control or bidi
// character reaches a log line).
func TickRefusalLines(r agentproto.TickRefusal) []string {
	step := "a step"
	if len(r.Steps) > 0 {
		step = "“" + r.Steps[0] + "”"
		if len(r.Steps) > 1 {
			step += " (and more)"
		}
	}
	lines := []string{questions.EscapeLine("[plan] step " + step + " not ticked: the files changed in it have new errors")}
	for _, p := range r.Problems {
		lines = append(lines, questions.EscapeLine("[plan]   "+Line(p)))
	}
	return lines
}
