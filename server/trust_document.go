package server

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/agentls/agentls/config"
	"github.com/agentls/agentls/permission"
	"github.com/agentls/agentls/questions"
)

// trustDocLines is the most widening keys the trust question lists itself;
// more go into a generated document it refers to.
const trustDocLines = 20

// writeTrustDocument writes the trust question's keys and values, in full,
// as a markdown file in the state folder (stateDir/questions/), and
// returns its path. The file is agentls's own: the guard protects the
// state folder from every tool.
func writeTrustDocument(stateDir string, w config.WorkspaceTrust) (string, error) {
	if stateDir == "" {
		return "", errors.New("no state folder (neither XDG_STATE_HOME nor HOME is set)")
	}
	dir := filepath.Join(stateDir, "questions")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", fmt.Errorf("trust document folder: %w", err)
	}
	name := "trust-" + w.Sum
	if len(name) > 6+16 {
		name = name[:6+16]
	}
	path := filepath.Join(dir, name+".md")
	var b strings.Builder
	fmt.Fprintf(&b, "# Trust %s?\n\n", questions.EscapeLine(w.Path))
	fmt.Fprintf(&b, "This content of the file (SHA-256 %s) sets %d keys that widen what agentls may do. "+
		"They apply only once you answer \"%s\" to the question beside this document.\n\n", w.Sum, len(w.Widening), config.TrustAnswers[1])
	b.WriteString("| key: value (JSON, in full) |\n|---|\n")
	for _, g := range w.Grants() {
		fmt.Fprintf(&b, "| %s |\n", permission.CodeSpan(strings.ReplaceAll(questions.EscapeLine(g), "|", `\|`)))
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o600); err != nil {
		return "", fmt.Errorf("trust document: %w", err)
	}
	return path, nil
}
