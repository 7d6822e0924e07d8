package workspace

import (
	"os"
	"path"
	"path/filepath"
	"strings"
)

// ignoreRule is one line of a .gitignore file.
type ignoreRule struct {
	negate  bool // "!pattern": re-include
	dirOnly bool // "pattern/": directories only
	// name is set for a pattern without a slash: it matches the last path
	// segment at any depth below the .gitignore's folder.
	name string
	// segs is set for an anchored pattern (a slash at the start or in the
	// middle): it matches the path relative to the .gitignore's folder.
	segs []string
}

// ignoreFile holds the rules of one .gitignore (or .git/info/exclude).
type ignoreFile struct {
	dir   string // folder of the file, relative to the workspace folder ("" = the folder itself)
	rules []ignoreRule
}

// ignoreStack is the .gitignore files that apply to a folder, shallowest
// first: deeper files take precedence, and within a file the last matching
// rule wins.
type ignoreStack []*ignoreFile

// with returns the stack plus f (never sharing the backing array).
func (s ignoreStack) with(f *ignoreFile) ignoreStack {
	if f == nil {
		return s
	}
	return append(s[:len(s):len(s)], f)
}

// ignored reports whether rel (relative to the workspace folder, slash
// separated, last segment name) is excluded.
func (s ignoreStack) ignored(rel, name string, isDir bool) bool {
	for i := len(s) - 1; i >= 0; i-- {
		f := s[i]
		sub := rel
		if f.dir != "" {
			if !strings.HasPrefix(rel, f.dir+"/") {
				continue
			}
			sub = rel[len(f.dir)+1:]
		}
		for j := len(f.rules) - 1; j >= 0; j-- {
			r := &f.rules[j]
			if r.dirOnly && !isDir {
				continue
			}
			var ok bool
			if r.segs == nil {
				ok = matchSegment(r.name, name)
			} else {
				ok = matchSegments(r.segs, strings.Split(sub, "/"))
			}
			if ok {
				return !r.negate
			}
		}
	}
	return false
}

// parseIgnore parses .gitignore text. Invalid patterns are skipped, as git does.
func parseIgnore(dir, text string) *ignoreFile {
	f := &ignoreFile{dir: dir}
	for line := range strings.SplitSeq(text, "\n") {
		line = strings.TrimSuffix(line, "\r")
		if line == "" || line[0] == '#' {
			continue
		}
		line = trimUnescapedSpaces(line)
		if line == "" {
			continue
		}
		var r ignoreRule
		if line[0] == '!' {
			r.negate = true
			line = line[1:]
		}
		if strings.HasSuffix(line, "/") {
			r.dirOnly = true
			line = strings.TrimRight(line, "/")
		}
		if line == "" {
			continue
		}
		if strings.Contains(line, "/") {
			segs, err := splitSegments(strings.TrimPrefix(line, "/"))
			if err != nil || len(segs) == 0 {
				continue
			}
			if segs[len(segs)-1] == "**" {
				// "dir/**" matches what is inside dir, not dir itself.
				segs = append(segs, "*")
			}
			r.segs = segs
		} else {
			r.name = normaliseClass(line)
			if _, err := path.Match(r.name, "x"); err != nil {
				continue
			}
		}
		f.rules = append(f.rules, r)
	}
	if len(f.rules) == 0 {
		return nil
	}
	return f
}

// trimUnescapedSpaces drops trailing spaces not escaped with a backslash.
func trimUnescapedSpaces(s string) string {
	for strings.HasSuffix(s, " ") && !strings.HasSuffix(s, `\ `) {
		s = s[:len(s)-1]
	}
	return s
}

// loadIgnore reads the .gitignore of the folder dirRel (relative to the
// workspace folder); nil if there is none.
func loadIgnore(folder, dirRel string) *ignoreFile {
	data, err := os.ReadFile(filepath.Join(folder, filepath.FromSlash(dirRel), ".gitignore"))
	if err != nil {
		return nil
	}
	return parseIgnore(dirRel, string(data))
}

// ignoreStackAbove builds the stack that applies to the folder dirRel
// (relative to the workspace folder) before its own .gitignore is added: the
// workspace folder's .git/info/exclude, then every .gitignore from the
// workspace folder down to dirRel's parent.
func ignoreStackAbove(folder, dirRel string) ignoreStack {
	var s ignoreStack
	if data, err := os.ReadFile(filepath.Join(folder, ".git", "info", "exclude")); err == nil {
		s = s.with(parseIgnore("", string(data)))
	}
	if dirRel == "" {
		return s
	}
	s = s.with(loadIgnore(folder, ""))
	parts := strings.Split(dirRel, "/")
	for i := range len(parts) - 1 {
		s = s.with(loadIgnore(folder, strings.Join(parts[:i+1], "/")))
	}
	return s
}
