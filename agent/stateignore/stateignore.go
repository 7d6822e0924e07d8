// Package stateignore keeps agentls's own state (.agentls/: sessions,
// locks, checkpoints) out of the user's git status while the folders meant
// for the repository, commands/ and agents/, can be committed: it writes
// .agentls/.gitignore when there is none, or replaces one an earlier
// version wrote, never a file of the user's.
package stateignore

import (
	"errors"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"slices"

	"github.com/agentls/agentls/internal/statefile"
	"github.com/agentls/agentls/workspace"
)

// Text is .agentls/.gitignore: everything in .agentls/ is local state
// (sessions, locks) except the ignore file itself and the folders meant to
// be shared with the repository, commands/ (slash commands) and agents/.
const Text = `# agentls: sessions and other local state stay out of version control;
# commands/ and agents/ are meant to be committed.
/*
!/.gitignore
!/commands/
!/agents/
`

// oldStateIgnores are the ignore files earlier versions wrote (everything
// ignored); agentls replaces them. Any other file is the user's and stays.
var oldStateIgnores = []string{
	"# agentls sessions: local state, not for version control\n*\n",
	"*\n",
}

// needed reports whether agentls should write .agentls/.gitignore at path:
// there is none, or it is one agentls wrote before. A repository can ship
// the file: anything but a small regular file (a link, a FIFO whose
// reading would block the start, a folder) is not agentls's and stays.
func needed(path string) bool {
	data, _, err := statefile.Read(path, 1024)
	if errors.Is(err, fs.ErrNotExist) {
		return true
	}
	return err == nil && slices.Contains(oldStateIgnores, string(data))
}

// Ensure writes the .gitignore of the state folder of the workspace at
// root when needed, creating the folder; a failure is logged (agentls
// works without it).
func Ensure(root string) {
	dir := filepath.Join(root, ".agentls")
	// A state folder a repository shipped as a link is not agentls's: a
	// .gitignore written where it leads (the folder above, in a monorepo)
	// would ignore files that are not agentls's.
	if fi, err := os.Lstat(dir); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		slog.Warn("the state folder is a symbolic link; agentls writes no .gitignore through it", "dir", dir)
		return
	}
	path := filepath.Join(dir, ".gitignore")
	if !needed(path) {
		return
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		slog.Warn("create state folder", "dir", dir, "err", err)
		return
	}
	// Replaced by a rename: a link put there meanwhile is replaced, never
	// written through.
	if err := workspace.ReplaceFile(path, []byte(Text), 0o644); err != nil {
		slog.Warn("ignore state folder", "path", path, "err", err)
	}
}
