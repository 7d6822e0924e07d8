package canon

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// The canonicaliser as it was before batches (1c74fc3), kept as the
// oracle the batch is checked against: it looks at the file system
// directly at every component.

// oldPath is 1c74fc3's Path.
func oldPath(p string) (string, error) {
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
			fi, err := os.Lstat(at)
			switch {
			case errors.Is(err, fs.ErrNotExist):
				missing = append(missing, part)
			case err != nil:
				return "", fmt.Errorf("canonical path of %s: %w", p, err)
			case fi.Mode()&fs.ModeSymlink != 0:
				links++
				if links > maxLinks {
					return "", fmt.Errorf("canonical path of %s: too many symlinks (a loop at %s?)", p, at)
				}
				target, err := os.Readlink(at)
				if err != nil {
					return "", fmt.Errorf("canonical path of %s: %w", p, err)
				}
				if filepath.IsAbs(target) {
					v := filepath.VolumeName(target)
					cur = v + string(filepath.Separator)
					target = target[len(v):]
				}
				if err := oldDanglingErr(at, target, cur); err != nil {
					return "", fmt.Errorf("canonical path of %s: %w", p, err)
				}
				rest = target + string(filepath.Separator) + rest
			default:
				if !fi.IsDir() && hasName(rest) {
					return "", fmt.Errorf("canonical path of %s: %s is not a folder", p, at)
				}
				cur = at
			}
		}
	}
	return filepath.Join(append([]string{cur}, missing...)...), nil
}

// oldDanglingErr is 1c74fc3's danglingErr.
func oldDanglingErr(at, target, from string) error {
	if _, err := os.Stat(at); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("%s is a dangling symlink (to %s)", at, filepath.Join(from, target))
		}
		return err
	}
	return nil
}
