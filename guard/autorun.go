package guard

import (
	"path"
	"slices"
	"strings"
)

// autoRunFolders and autoRunFiles name the files whose content makes the
// user's editor or shell start programs by itself, outside agentls's
// sandbox and without the user running a command: VS Code's (and its
// forks') tasks that run when a folder opens and the settings naming the
// programs its extensions start (.vscode), JetBrains' run configurations
// and startup tasks (.idea), Zed's and Helix's project settings and
// language servers (.zed, .helix), Neovim's and Vim's exrc files, Emacs's
// directory-local variables (eval:), direnv's .envrc, and VS Code's
// workspace files (*.code-workspace, which hold settings and tasks too).
// They are matched at any depth, letter case folded (foldElem): Emacs and
// direnv read them in subfolders, an editor opens subfolders.
//
// The guard asks the user before a BUILD edit changes one (docs/review.md),
// and the sandbox keeps the existing ones read-only for every command.
var (
	autoRunFolders = []string{".vscode", ".idea", ".zed", ".helix"}
	autoRunFiles   = []string{".nvim.lua", ".nvimrc", ".exrc", ".dir-locals.el", ".dir-locals-2.el", ".envrc"}
)

// autoRunSuffix is the ending of VS Code's workspace files.
const autoRunSuffix = ".code-workspace"

// IsAutoRunName reports whether one path element names an auto-run folder
// (dir) or file (not dir). A folder named like an auto-run file, or a file
// named like an auto-run folder, is not one.
func IsAutoRunName(elem string, dir bool) bool {
	f := foldElem(elem)
	if dir {
		return slices.Contains(autoRunFolders, f)
	}
	return slices.Contains(autoRunFiles, f) || (strings.HasSuffix(f, autoRunSuffix) && len(f) > len(autoRunSuffix))
}

// IsAutoRun reports whether rel, a slash-separated path relative to a
// workspace folder, is an auto-run file or lies in an auto-run folder (at
// any depth).
func IsAutoRun(rel string) bool {
	parts := strings.Split(path.Clean(strings.ReplaceAll(rel, "\\", "/")), "/")
	for i, p := range parts {
		last := i == len(parts)-1
		if (!last && IsAutoRunName(p, true)) || (last && (IsAutoRunName(p, false) || IsAutoRunName(p, true))) {
			return true
		}
	}
	return false
}
