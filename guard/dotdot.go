package guard

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
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
	cur := g.ws.Root()
	if filepath.IsAbs(decoded) {
		cur = filepath.VolumeName(decoded) + string(filepath.Separator)
	}
	for _, part := range parts {
		switch part {
		case ".":
		case "..":
			if real, err := filepath.EvalSymlinks(cur); err == nil {
				cur = real
			}
			cur = filepath.Dir(cur)
		default:
			cur = filepath.Join(cur, part)
		}
	}
	real, err := evalDeepest(cur)
	if err != nil {
		return fmt.Errorf("%q: %w", given, err)
	}
	if real != p.Abs {
		return fmt.Errorf("%q: its '..' leads through a symlink to %s, not %s; give the path without '..'", given, real, p.Abs)
	}
	return nil
}

// evalDeepest evaluates the symlinks of a cleaned absolute path, or of its
// deepest existing ancestor with the missing tail appended.
func evalDeepest(p string) (string, error) {
	_, err := os.Lstat(p)
	if err == nil {
		real, err := filepath.EvalSymlinks(p)
		if err != nil {
			return "", fmt.Errorf("evaluate symlinks of %s: %w", p, err)
		}
		return real, nil
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return "", fmt.Errorf("stat %s: %w", p, err)
	}
	parent := filepath.Dir(p)
	if parent == p {
		return p, nil
	}
	real, err := evalDeepest(parent)
	if err != nil {
		return "", err
	}
	return filepath.Join(real, filepath.Base(p)), nil
}
