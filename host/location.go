package host

import (
	"fmt"
	"path/filepath"

	"github.com/agentls/agentls/config"
	"github.com/agentls/agentls/workspace"
)

// Where the workspace may be (docs/guard.md, "Where the workspace may be").
// A workspace folder is everything the agent may read and, in build mode,
// change: the file system root or a folder that holds the home folder would
// hand it the user's whole account (shell and ssh start-up files, other
// projects, agentls's own state), so both faces refuse them. The home folder
// itself is a common default of editors (a window opened without a folder):
// there agentls plans but never builds.

// locationErr refuses a workspace folder (absolute) that is the file
// system root or an ancestor of home; as given and with its symlinks
// evaluated, against home as given and evaluated.
func locationErr(abs, home string) error {
	for _, p := range withReal(abs) {
		if p == filepath.VolumeName(p)+string(filepath.Separator) {
			return fmt.Errorf("%s is the file system's root folder: agentls does not open it as a workspace, "+
				"since the agent could read every file of every user there; open the project's own folder", abs)
		}
		if home == "" {
			continue
		}
		for _, h := range withReal(home) {
			if strictlyInside(h, p) {
				return fmt.Errorf("%s holds your home folder %s: agentls does not open it as a workspace, "+
					"since the agent could read and change your whole account there (shell and ssh start-up files, other projects, agentls's own state); open the project's own folder", abs, home)
			}
		}
	}
	return nil
}

// homeReason is why a workspace at the home folder allows plan mode only
// (agent.Options.PlanOnly); "" for any other workspace.
func homeReason(root, home string) string {
	if home == "" {
		return ""
	}
	for _, r := range withReal(root) {
		for _, h := range withReal(home) {
			if r == h {
				return fmt.Sprintf("the workspace is your home folder %s, where a build session could change your shell's and ssh's start-up files; "+
					"open a project folder to build", home)
			}
		}
	}
	return ""
}

// userHome is the home folder of opts' environment (config.Home: $HOME,
// else the password database's).
func (o Options) userHome() string { return config.Home(o.getenv()) }

// withReal is p and, when it differs, its canonical form (workspace.Canonical:
// symlinks evaluated as far as p exists).
func withReal(p string) []string {
	p = filepath.Clean(p)
	out := []string{p}
	if real, err := workspace.Canonical(p); err == nil && real != p {
		out = append(out, real)
	}
	return out
}

// strictlyInside reports whether p lies inside dir (both cleaned, absolute)
// and is not dir itself.
func strictlyInside(p, dir string) bool {
	rel, err := filepath.Rel(dir, p)
	return err == nil && rel != "." && rel != ".." && !filepath.IsAbs(rel) &&
		(len(rel) < 3 || rel[:3] != ".."+string(filepath.Separator))
}
