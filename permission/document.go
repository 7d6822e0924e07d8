package permission

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// DocLines is the most lines a question lists itself (a trusted file's
// widening keys, what a command did to auto-run files); more go into a
// generated document the question refers to (Request.Document), opened
// beside it.
const DocLines = 20

// DocChars is the most characters such a list may take in a question
// before it goes into the document: one line can be long (a setting's
// value is a program's whole command line).
const DocChars = 4000

// WriteDocument writes text, a generated question document, as
// stateDir/questions/<name>.md and returns its path. The file is
// agentls's own: the guard protects the state folder from every tool.
func WriteDocument(stateDir, name, text string) (string, error) {
	if stateDir == "" {
		return "", errors.New("no state folder (neither XDG_STATE_HOME nor HOME is set)")
	}
	dir := filepath.Join(stateDir, "questions")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", fmt.Errorf("question document folder: %w", err)
	}
	path := filepath.Join(dir, name+".md")
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		return "", fmt.Errorf("question document: %w", err)
	}
	return path, nil
}
