package config

import (
	"fmt"
	"path/filepath"
	"strings"
)

// DefaultPlansDir is plan_mode.plans_dir when no layer names a plans folder.
const DefaultPlansDir = "plans"

// reservedDirs are the folders a plans folder may not be in (compared
// without regard to letter case): agentls's own state and the
// version-control folders. The guard protects the same folders (and more)
// on real paths; this lexical check names the mistake in the configuration.
var reservedDirs = []string{".agentls", ".git", ".hg", ".svn", ".jj"}

// PlansDir is plan_mode.plans_dir resolved once for every user of the plans
// folder (the guard, the agent, the plan tools, the plan listing): cleaned,
// with forward slashes and relative to root, the workspace's first folder
// (an absolute path inside root is made relative); DefaultPlansDir when the
// setting is empty.
//
// The error says why the configured folder cannot hold plans: it leaves
// root (a `..` that climbs out, an absolute path elsewhere), it is root
// itself, or it lies inside `.agentls/` or a version-control folder. The
// cleaned folder is returned with the error all the same, so that every
// check refuses that same folder (the guard refuses its changes there)
// instead of quietly writing plans somewhere the user did not choose.
func (c Config) PlansDir(root string) (string, error) {
	return CleanPlansDir(root, c.PlanMode.PlansDir)
}

// CleanPlansDir is PlansDir for a plans_dir value given on its own.
func CleanPlansDir(root, dir string) (string, error) {
	dir = strings.TrimSpace(dir)
	if dir == "" {
		return DefaultPlansDir, nil
	}
	clean := filepath.Clean(filepath.FromSlash(dir))
	if filepath.IsAbs(clean) {
		rel, err := filepath.Rel(filepath.Clean(root), clean)
		if root == "" || err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return filepath.ToSlash(clean), fmt.Errorf("plan_mode.plans_dir %q: an absolute path outside the workspace root %s: path is outside the workspace; give a folder relative to the workspace root", dir, root)
		}
		clean = rel
	}
	out := filepath.ToSlash(clean)
	if out == ".." || strings.HasPrefix(out, "../") {
		return out, fmt.Errorf("plan_mode.plans_dir %q climbs out of the workspace root with ..: path is outside the workspace", dir)
	}
	if out == "." {
		return out, fmt.Errorf("plan_mode.plans_dir %q is the whole workspace folder; name a folder inside it, e.g. %q", dir, DefaultPlansDir)
	}
	for _, elem := range strings.Split(out, "/") {
		for _, r := range reservedDirs {
			if strings.EqualFold(elem, r) {
				return out, fmt.Errorf("plan_mode.plans_dir %q is inside %s/, which belongs to %s; plans cannot be written there", dir, r, ownerOf(r))
			}
		}
	}
	return out, nil
}

// ownerOf names who a reserved folder belongs to.
func ownerOf(dir string) string {
	if dir == ".agentls" {
		return "agentls's own state"
	}
	return "version control"
}
