// Package mdfile reads the Markdown files users write to define things
// (slash commands in `commands/`, sub-agent kinds in `agents/`): a name
// from the file's name, an optional YAML frontmatter between "---" lines,
// then the body. It reads only regular UTF-8 files up to a size.
package mdfile

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"unicode/utf8"
)

// validName is what a name (a file's name without .md, or a frontmatter
// name) must look like.
var validName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$`)

// ValidName tells whether name may name a command or a kind: a letter or
// digit, then letters, digits, '.', '_' or '-', 64 at most.
func ValidName(name string) bool { return validName.MatchString(name) }

// ReadDir lists dir like os.ReadDir. With within set (dir is the
// repository's, below the workspace root within), dir and every folder
// between within and it must be a real folder, not a symbolic link: a
// repository's `.agentls/commands -> ~/notes` would make files of any
// folder on the machine its definitions.
func ReadDir(dir, within string) ([]os.DirEntry, error) {
	if within != "" {
		rel, err := filepath.Rel(within, dir)
		if err != nil || !filepath.IsLocal(rel) {
			return nil, fmt.Errorf("%s is not below %s", dir, within)
		}
		p := within
		for _, elem := range strings.Split(rel, string(filepath.Separator)) {
			p = filepath.Join(p, elem)
			fi, err := os.Lstat(p)
			if err != nil {
				return nil, err
			}
			if !fi.IsDir() {
				return nil, fmt.Errorf("%s is not a folder (a symbolic link is not followed)", p)
			}
		}
	}
	return os.ReadDir(dir)
}

// Listed reports whether e, an entry of a folder ReadDir listed with
// within, is a definition file to read: a regular file, or, in the user's
// own folder (within empty), also a symbolic link (dotfiles managers such
// as stow and home-manager link them; Read refuses what the link does not
// lead to a regular file). A repository's symbolic link is never followed.
func Listed(e os.DirEntry, within string) bool {
	return e.Type().IsRegular() || within == "" && e.Type()&os.ModeSymlink != 0
}

// Read reads the regular file path, of at most maxBytes, as UTF-8 text (a
// FIFO or a device is refused once open). With within set (the file is the
// repository's, listed by ReadDir with within) a symbolic link is not
// followed: the file opened must be the one path names itself, so a
// regular file swapped for a link to ~/.ssh/id_rsa after the listing is
// refused. In the user's own folders (within empty) a link is followed.
func Read(path, within string, maxBytes int) ([]byte, error) {
	var named os.FileInfo
	if within != "" {
		fi, err := os.Lstat(path)
		if err != nil {
			return nil, err
		}
		if !fi.Mode().IsRegular() {
			return nil, fmt.Errorf("not a regular file (a symbolic link is not followed)")
		}
		named = fi
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() {
		return nil, fmt.Errorf("not a regular file")
	}
	if named != nil && !os.SameFile(named, st) {
		return nil, fmt.Errorf("replaced while it was read (a symbolic link is not followed)")
	}
	data, err := io.ReadAll(io.LimitReader(f, int64(maxBytes)+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxBytes {
		return nil, fmt.Errorf("larger than %d KiB", maxBytes>>10)
	}
	if !utf8.Valid(data) {
		return nil, fmt.Errorf("not UTF-8 text")
	}
	return data, nil
}

// Split splits a "---" frontmatter block from the body (front is nil when
// there is none), after a byte order mark and with CRLF line ends read as
// LF.
func Split(data []byte) (front []byte, body string, err error) {
	data = bytes.TrimPrefix(data, []byte("\uFEFF"))
	text := strings.ReplaceAll(string(data), "\r\n", "\n")
	rest, ok := strings.CutPrefix(text, "---\n")
	if !ok {
		return nil, text, nil
	}
	if strings.HasPrefix(rest, "---\n") || rest == "---" {
		return []byte{}, strings.TrimPrefix(rest, "---"), nil
	}
	end := strings.Index(rest, "\n---\n")
	if end < 0 {
		if strings.HasSuffix(rest, "\n---") {
			return []byte(rest[:len(rest)-4]), "", nil
		}
		return nil, "", fmt.Errorf("frontmatter: no closing ---")
	}
	return []byte(rest[:end]), rest[end+5:], nil
}
