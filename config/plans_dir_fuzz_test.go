package config

import (
	"path/filepath"
	"strings"
	"testing"
)

// FuzzPlansDirNeverLeavesTheWorkspace: plan_mode.plans_dir is where plan
// mode may write. Whatever the setting says, a plans folder accepted
// without an error lies strictly inside the workspace root (or, given
// absolute, inside one of the other workspace folders), never in
// .agentls/ or a version-control folder in any letter case, and is
// slash-separated and clean.
func FuzzPlansDirNeverLeavesTheWorkspace(f *testing.F) {
	for _, s := range []string{"plans", "docs/plans/", "../x", "/w/plans", "/w2/p", "/elsewhere", ".", "a/../../b", ".Git/plans", "x/.AGENTLS", " plans ", "./a//b/../c", "/w", "/w/../w/p"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, dir string) {
		const root, other = "/w", "/w2"
		out, err := CleanPlansDir(root, dir, other)
		if err != nil {
			return
		}
		if strings.Contains(out, `\`) && filepath.Separator == '\\' || out != filepath.ToSlash(filepath.Clean(filepath.FromSlash(out))) {
			t.Fatalf("plans dir %q from %q is not clean and slash-separated", out, dir)
		}
		abs := filepath.FromSlash(out)
		if !filepath.IsAbs(abs) {
			abs = filepath.Join(root, abs)
		}
		inside := false
		for _, folder := range []string{root, other} {
			if rel, e := filepath.Rel(folder, abs); e == nil && rel != "." && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
				inside = true
				for _, elem := range strings.Split(filepath.ToSlash(rel), "/") {
					for _, r := range reservedDirs {
						if strings.EqualFold(elem, r) {
							t.Fatalf("plans dir %q from %q is inside %s", out, dir, r)
						}
					}
				}
			}
		}
		if !inside {
			t.Fatalf("plans dir %q from %q is not inside a workspace folder", out, dir)
		}
	})
}
