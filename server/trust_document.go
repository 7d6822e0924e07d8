package server

import (
	"fmt"
	"strings"

	"github.com/agentls/agentls/config"
	"github.com/agentls/agentls/permission"
	"github.com/agentls/agentls/questions"
)

// trustDocLines is the most widening keys the trust question lists itself;
// more go into a generated document it refers to.
const trustDocLines = permission.DocLines

// writeTrustDocument writes the trust question's keys and values, in full,
// as a markdown file in the state folder (permission.WriteDocument), and
// returns its path.
func writeTrustDocument(stateDir string, w config.WorkspaceTrust) (string, error) {
	name := "trust-" + w.Sum
	if len(name) > 6+16 {
		name = name[:6+16]
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# Trust %s?\n\n", questions.EscapeLine(w.Path))
	fmt.Fprintf(&b, "This content of the file (SHA-256 %s) %s, which widen what agentls may do. "+
		"They apply only once you answer \"%s\" to the question beside this document.\n\n", w.Sum, trustGrantsSummary(w), config.TrustAnswers[1])
	b.WriteString("| what it grants (values as JSON, in full) |\n|---|\n")
	for _, g := range w.Grants() {
		fmt.Fprintf(&b, "| %s |\n", permission.CodeSpan(strings.ReplaceAll(questions.EscapeLine(g), "|", `\|`)))
	}
	path, err := permission.WriteDocument(stateDir, name, b.String())
	if err != nil {
		return "", fmt.Errorf("trust document: %w", err)
	}
	return path, nil
}

// trustGrantsSummary says what the trust document lists: "sets 2 keys",
// "lets in 1 sub-agent kind", or both.
func trustGrantsSummary(w config.WorkspaceTrust) string {
	var parts []string
	if n := len(w.Widening); n > 0 {
		parts = append(parts, fmt.Sprintf("sets %d %s", n, permission.Plural(n, "key", "keys")))
	}
	if n := len(w.Kinds); n > 0 {
		parts = append(parts, fmt.Sprintf("lets in %d %s", n, permission.Plural(n, "sub-agent kind", "sub-agent kinds")))
	}
	return strings.Join(parts, " and ")
}
