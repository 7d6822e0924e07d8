// Package canon is the one path canonicaliser of agentls: it says where the
// operating system takes a path, symlinks and `..` followed the way the
// kernel walks them. It is a leaf so that config, which imports nothing of
// the house, can use it; everything else calls it as workspace.Canonical.
package canon

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// maxLinks bounds the symlinks followed in one path (Linux's limit is 40;
// Go's filepath.EvalSymlinks allows 255).
const maxLinks = 255

// Path returns the canonical absolute form of p: the place the kernel
// reaches when it walks p component by component.
//
//   - A symlink is replaced by its target (a relative target is taken from
//     the symlink's folder), and a `..` after it goes up from the target,
//     not from the symlink's name: `outlink/../x` is the x beside what
//     outlink points to, as the kernel has it (filepath.Clean would say the
//     x beside outlink).
//   - Once a component does not exist, the rest is taken lexically (a path
//     that is about to be created): a further name is appended, and a `..`
//     removes the last missing name again.
//   - A relative p is taken from the current working folder.
//
// The result is cleaned, absolute, and has no `..` and no symlink among
// its existing components. A dangling symlink (one whose target is
// missing), a symlink loop, a name below a file, or a component that
// cannot be examined is an error: the place cannot be told.
func Path(p string) (string, error) { return walk(p, nil) }

// walk is Path, looking at the file system through b (nil: directly).
func walk(p string, b *Batch) (string, error) {
	if p == "" {
		return "", errors.New("canonical path: empty path")
	}
	if strings.ContainsRune(p, 0) {
		return "", fmt.Errorf("canonical path of %q: contains a NUL byte", p)
	}
	if !filepath.IsAbs(p) {
		wd, err := os.Getwd()
		if err != nil {
			return "", fmt.Errorf("canonical path of %s: %w", p, err)
		}
		p = wd + string(filepath.Separator) + p // not Join: it would clean `..` away
	}
	vol := filepath.VolumeName(p)
	root := vol + string(filepath.Separator)
	cur := root          // real, existing folder reached so far
	var missing []string // names below cur that do not exist
	rest := p[len(vol):] // what is left to walk
	links := 0
	for rest != "" {
		var part string
		part, rest = next(rest)
		switch {
		case part == "" || part == ".":
		case part == "..":
			if len(missing) > 0 {
				missing = missing[:len(missing)-1]
			} else {
				cur = filepath.Dir(cur)
			}
		case len(missing) > 0:
			missing = append(missing, part)
		default:
			at := filepath.Join(cur, part)
			mode, err := b.lstat(at)
			switch {
			case errors.Is(err, fs.ErrNotExist):
				missing = append(missing, part)
			case err != nil:
				return "", fmt.Errorf("canonical path of %s: %w", p, err)
			case mode&fs.ModeSymlink != 0:
				links++
				if links > maxLinks {
					return "", fmt.Errorf("canonical path of %s: too many symlinks (a loop at %s?)", p, at)
				}
				target, err := b.readlink(at)
				if err != nil {
					return "", fmt.Errorf("canonical path of %s: %w", p, err)
				}
				if filepath.IsAbs(target) {
					v := filepath.VolumeName(target)
					cur = v + string(filepath.Separator)
					target = target[len(v):]
				}
				if err := danglingErr(b, at, target, cur); err != nil {
					return "", fmt.Errorf("canonical path of %s: %w", p, err)
				}
				rest = target + string(filepath.Separator) + rest
			default:
				if !mode.IsDir() && hasName(rest) {
					return "", fmt.Errorf("canonical path of %s: %s is not a folder", p, at)
				}
				cur = at
			}
		}
	}
	return filepath.Join(append([]string{cur}, missing...)...), nil
}

// danglingErr refuses a symlink (at) whose target (taken from folder from)
// does not exist: the kernel would create that target on a write, so the
// place a later check saw and the place a write reaches could differ.
func danglingErr(b *Batch, at, target, from string) error {
	if err := b.stat(at); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("%s is a dangling symlink (to %s)", at, filepath.Join(from, target))
		}
		return err
	}
	return nil
}

// next splits the first component off a path.
func next(p string) (part, rest string) {
	i := strings.IndexFunc(p, func(r rune) bool { return r < 128 && os.IsPathSeparator(uint8(r)) })
	if i < 0 {
		return p, ""
	}
	return p[:i], p[i+1:]
}

// hasName reports whether rest still holds a component that names
// something below (not only separators, `.`).
func hasName(rest string) bool {
	for rest != "" {
		var part string
		part, rest = next(rest)
		if part != "" && part != "." {
			return true
		}
	}
	return false
}
