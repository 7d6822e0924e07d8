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
// (an absolute path inside root is made relative; one inside another
// workspace folder stays absolute); DefaultPlansDir when the setting is
// empty.
//
// The error says why the configured folder cannot hold plans: it leaves
// root (a `..` that climbs out, an absolute path elsewhere), it is root
// itself, or it lies inside `.agentls/` or a version-control folder. The
// cleaned folder is returned with the error all the same, so that every
// check refuses that same folder (the guard refuses its changes there)
// instead of quietly writing plans somewhere the user did not choose.
//
// folders are the workspace's folders, root first.
func (c Config) PlansDir(folders ...string) (string, error) {
	root := ""
	if len(folders) > 0 {
		root, folders = folders[0], folders[1:]
	}
	return CleanPlansDir(root, c.PlanMode.PlansDir, folders...)
}

// CleanPlansDir is PlansDir for a plans_dir value given on its own.
func CleanPlansDir(root, dir string, others ...string) (string, error) {
	dir = strings.TrimSpace(dir)
	if dir == "" {
		return DefaultPlansDir, nil
	}
	clean := filepath.Clean(filepath.FromSlash(dir))
	if filepath.IsAbs(clean) {
		if rel, ok := below(root, clean); ok {
			clean = rel
		} else {
			for _, f := range others {
				if rel, ok := below(f, clean); ok {
					return filepath.ToSlash(clean), checkPlansRel(dir, filepath.ToSlash(rel))
				}
			}
			return filepath.ToSlash(clean), fmt.Errorf("plan_mode.plans_dir %q: an absolute path outside the workspace root %s: path is outside the workspace; give a folder relative to the workspace root", dir, root)
		}
	}
	out := filepath.ToSlash(clean)
	if out == ".." || strings.HasPrefix(out, "../") {
		return out, fmt.Errorf("plan_mode.plans_dir %q climbs out of the workspace root with ..: path is outside the workspace", dir)
	}
	return out, checkPlansRel(dir, out)
}

// below is p relative to folder when p is in folder.
func below(folder, p string) (string, bool) {
	if folder == "" {
		return "", false
	}
	rel, err := filepath.Rel(filepath.Clean(folder), p)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", false
	}
	return rel, true
}

// checkPlansRel refuses a plans folder, given relative to its workspace
// folder as out (slash-separated), that is the whole folder or lies in a
// reserved folder.
func checkPlansRel(dir, out string) error {
	if out == "." {
		return fmt.Errorf("plan_mode.plans_dir %q is the whole workspace folder; name a folder inside it, e.g. %q", dir, DefaultPlansDir)
	}
	for _, elem := range strings.Split(out, "/") {
		for _, r := range reservedDirs {
			if strings.EqualFold(elem, r) {
				return fmt.Errorf("plan_mode.plans_dir %q is inside %s/, which belongs to %s; plans cannot be written there", dir, r, ownerOf(r))
			}
		}
	}
	return nil
}

// ownerOf names who a reserved folder belongs to.
func ownerOf(dir string) string {
	if dir == ".agentls" {
		return "agentls's own state"
	}
	return "version control"
}
