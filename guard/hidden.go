package guard

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/agentls/agentls/workspace"
)

// hiddenErr refuses a plan-mode write, move destination or new folder in a
// hidden folder (a name starting with '.') at any depth below the
// workspace folder: with the workspace at the home folder, `~/.bashrc.d/`,
// `~/.ssh/config.d/` and the like are loaded wholesale by shells and ssh,
// whatever the files' names. Only the configured plans folder may itself be
// hidden (`plans_dir: .plans`); below it the rule holds again. Both the
// name as given and the resolved path are judged, so a symlink into a
// hidden folder and a hidden-named symlink out of one are both refused.
// isDir says p itself is a folder (mkdir), whose own name is judged too.
func (g *Guard) hiddenErr(given string, p workspace.Path, isDir bool) error {
	paths := []string{p.Abs}
	if decoded, err := decodeGiven(given); err == nil && decoded != "" {
		if !filepath.IsAbs(decoded) {
			decoded = filepath.Join(g.ws.Root(), decoded)
		}
		paths = append(paths, filepath.Clean(decoded))
	}
	plans := []string{g.plansLexical()}
	if real, err := g.plansReal(); err == nil {
		plans = append(plans, real)
	}
	for _, abs := range paths {
		below := g.belowFolders(abs)
		for _, pl := range plans {
			if under(abs, pl) {
				below = strings.TrimPrefix(strings.TrimPrefix(abs, pl), string(filepath.Separator))
				break
			}
		}
		parts := strings.FieldsFunc(below, isSep)
		if !isDir && len(parts) > 0 {
			parts = parts[:len(parts)-1]
		}
		for _, part := range parts {
			if strings.HasPrefix(part, ".") {
				return fmt.Errorf("%q is in the hidden folder %s, and in plan mode nothing is written into hidden folders "+
					"(shells, ssh and other tools load some of them wholesale); write plans to %s<name>.plan", given, part, g.plansHint())
			}
		}
	}
	return nil
}
