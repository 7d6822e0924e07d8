package guard

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/agentls/agentls/workspace"
)

// dotDotErr refuses a given path whose `..` components, followed the way the
// operating system follows them (from the real folder the symlinks before
// them lead to), reach another place than the workspace's lexical
// resolution p. Whatever later code does with the raw name, it then lands
// where the guard looked.
func (g *Guard) dotDotErr(given string, p workspace.Path) error {
	decoded, err := decodeGiven(given)
	if err != nil {
		return err
	}
	parts := strings.FieldsFunc(decoded, isSep)
	if !slices.Contains(parts, "..") {
		return nil
	}
	start := g.ws.Root() + string(filepath.Separator)
	if filepath.IsAbs(decoded) {
		start = ""
	}
	real, err := g.canonical(start + decoded) // not Join: it would clean `..` away
	if err != nil {
		return fmt.Errorf("%q: %w", given, err)
	}
	if real != p.Abs {
		return fmt.Errorf("%q: its '..' leads through a symlink to %s, not %s; give the path without '..'", given, real, p.Abs)
	}
	return nil
}
