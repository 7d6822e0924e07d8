package sandbox

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/agentls/agentls/internal/canon"
)

// searchPath is value (a PATH) without the entries a confined command
// must not look programs up in: relative ones (an empty entry, `.`,
// `node_modules/.bin`: resolved from the command's folder, which is in
// the workspace) and those at or below one of folders (clean, absolute,
// symlinks resolved; the workspace folders, which the agent writes), by
// the entry as written and as its symlinks lead. Otherwise an executable
// the agent put there would answer to the name of the program the user or
// an allow rule allowed (`git status` running the workspace's `git`).
func searchPath(value string, folders []string) string {
	var kept []string
	for _, e := range filepath.SplitList(value) {
		if e == "" || !filepath.IsAbs(e) {
			continue
		}
		c := filepath.Clean(e)
		if underAny(c, folders) {
			continue
		}
		if r, err := canon.Path(c); err == nil && underAny(r, folders) {
			continue
		}
		kept = append(kept, e)
	}
	return strings.Join(kept, string(os.PathListSeparator))
}
