package guard

import (
	"path/filepath"
	"strings"

	"github.com/agentls/agentls/workspace"
)

// stateDirs lists agentls's state folders: `.agentls` at the top of every
// workspace folder, and the real folder it points to if it is a symlink.
func (g *Guard) stateDirs() []string {
	var dirs []string
	for _, f := range g.ws.Folders() {
		d := filepath.Join(f, stateDirName)
		dirs = append(dirs, d)
		if real, err := filepath.EvalSymlinks(d); err == nil && real != d {
			dirs = append(dirs, real)
		}
	}
	return dirs
}

// isStatePath reports whether a cleaned absolute path is a state folder or
// inside one. The top-level name is compared case-insensitively, for
// case-insensitive file systems.
func (g *Guard) isStatePath(abs string) bool {
	for _, d := range g.stateDirs() {
		if under(abs, d) {
			return true
		}
	}
	for _, f := range g.ws.Folders() {
		if !strictlyUnder(abs, f) {
			continue
		}
		rel := strings.TrimPrefix(abs, f)
		rel = strings.TrimLeft(rel, string(filepath.Separator))
		first, _, _ := strings.Cut(rel, string(filepath.Separator))
		if strings.EqualFold(first, stateDirName) {
			return true
		}
	}
	return false
}

// touchesState says how a change to a target (given name and resolved path)
// would change agentls's state: the target is in a state folder, by its real
// path or by the name given ("is inside"); or, for a delete or a rename, it
// holds a state folder, as a workspace folder does ("holds"). "" if it does
// not.
func (g *Guard) touchesState(kind workspace.ChangeKind, given string, p workspace.Path) string {
	const inside, holds = "is inside", "holds"
	if g.isStatePath(p.Abs) {
		return inside
	}
	if decoded, err := decodeGiven(given); err == nil && decoded != "" {
		lex := decoded
		if !filepath.IsAbs(lex) {
			lex = filepath.Join(g.ws.Root(), lex)
		}
		if g.isStatePath(filepath.Clean(lex)) {
			return inside
		}
	}
	if kind == workspace.ChangeDelete || kind == workspace.ChangeRename {
		for _, d := range g.stateDirs() {
			if under(d, p.Abs) {
				return holds
			}
		}
	}
	return ""
}
