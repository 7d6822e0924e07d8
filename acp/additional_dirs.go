package acp

import (
	"os"
	"path/filepath"
	"slices"

	"github.com/agentls/agentls/workspace"
)

// maxAdditionalDirs caps session/new's additionalDirectories.
const maxAdditionalDirs = 32

// realFolder resolves what (cwd, or an additional directory) to a real
// absolute path to an existing folder.
func realFolder(what, dir string) (string, error) {
	if dir == "" || !filepath.IsAbs(dir) {
		return "", invalidParams("%s must be an absolute path to a folder, not %q", what, dir)
	}
	real, err := workspace.Canonical(filepath.Clean(dir))
	if err != nil {
		return "", invalidParams("%s %s: %v", what, dir, err)
	}
	if fi, err := os.Stat(real); err != nil || !fi.IsDir() {
		return "", invalidParams("%s %s is not a folder", what, dir)
	}
	return real, nil
}

// realFolders resolves session/new's additionalDirectories: each a real
// folder, root and duplicates dropped, sorted. The host then opens each as
// a workspace folder, under the same rules as the first (host.folders: not
// the file system root nor a folder that holds home, not inside .git or
// .agentls); its refusal names the folder. Home itself is refused too (a
// workspace at home is plan-only; an extra folder would not be).
func realFolders(root string, dirs []string, home string) ([]string, error) {
	realHome := home
	if h, err := workspace.Canonical(home); err == nil && home != "" {
		realHome = h
	}
	if len(dirs) > maxAdditionalDirs {
		return nil, invalidParams("additionalDirectories: %d folders; at most %d", len(dirs), maxAdditionalDirs)
	}
	var out []string
	for _, d := range dirs {
		real, err := realFolder("additionalDirectories entry", d)
		if err != nil {
			return nil, err
		}
		if home != "" && (real == realHome || real == filepath.Clean(home)) {
			// A workspace at home allows plan mode only; as an extra folder
			// it would open the whole account to build mode.
			return nil, invalidParams("additionalDirectories entry %s is your home folder: agentls does not add it as a workspace folder; add the project folders in it instead", d)
		}
		if real != root && !slices.Contains(out, real) {
			out = append(out, real)
		}
	}
	slices.Sort(out)
	return out, nil
}
