package permission

import (
	"fmt"
	"strings"

	"github.com/agentls/agentls/questions"
)

// Change is one change a command already made (a Request of kind edit
// with Done): keeping it keeps all it holds, so the question shows it
// whole.
type Change struct {
	// Path is the file, workspace-relative.
	Path string
	// What says what happened to it ("created", "made executable").
	What string
	// Details are the lines that show what it holds, each in full: a new
	// repository's settings beyond git's own, `key = value`.
	Details []string
}

// ChangeLines is how many lines the changes take: one for each, one for
// each of its details.
func ChangeLines(changes []Change) int {
	n := len(changes)
	for _, c := range changes {
		n += len(c.Details)
	}
	return n
}

// ChangesList is the changes as a Markdown list (escaped): each file a
// code span with what happened to it, each detail a code span below it.
// File names and settings are the command's text: no part of them renders
// as Markdown.
func ChangesList(changes []Change) string {
	var b strings.Builder
	for _, c := range changes {
		b.WriteString("- " + CodeSpan(questions.EscapeLine(c.Path)) + ": " + questions.EscapeLine(c.What) + "\n")
		for _, d := range c.Details {
			b.WriteString("  - " + CodeSpan(questions.EscapeLine(d)) + "\n")
		}
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// shortMost is how many changes ChangesShort names.
const shortMost = 3

// ChangesShort is at most shortMost of changes in one line, then how many
// more ("created a, created b, created c and 27 more"), each path through
// quote: a question's what and title (the question itself lists them
// all).
func ChangesShort(changes []Change, quote func(string) string) string {
	n := min(len(changes), shortMost)
	parts := make([]string, n)
	for i, c := range changes[:n] {
		parts[i] = c.What + " " + quote(c.Path)
	}
	line := strings.Join(parts, ", ")
	if more := len(changes) - n; more > 0 {
		line += fmt.Sprintf(" and %d more", more)
	}
	return line
}

// NeedsDocument reports whether changes are too many, or too long, for
// the question to list them itself (DocLines, DocChars).
func NeedsDocument(changes []Change) bool {
	return ChangeLines(changes) > DocLines || len(ChangesList(changes)) > DocChars
}

// changesText lists the changes, or refers to the document that does. r
// is escaped (Escaped): its Document is already.
func (r Request) changesText() string {
	if len(r.Changes) == 0 {
		return ""
	}
	if r.Document != "" {
		return fmt.Sprintf("What it did: %d lines, in full in %s (opened beside this question).", ChangeLines(r.Changes), r.Document)
	}
	return ChangesList(r.Changes)
}
