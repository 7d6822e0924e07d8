package workspace

import (
	"errors"
	"fmt"
	"path"
	"strings"
)

// maxBraceAlternatives bounds brace expansion ({a,b}{c,d}… grows fast).
const maxBraceAlternatives = 256

// globPattern is a compiled doublestar pattern: `*`, `?` and `[…]` (also
// `[!…]`) match within one path segment, a `**` segment matches zero or more
// segments, `{a,b}` expands to alternatives, `\` escapes.
type globPattern struct {
	alts [][]string // each alternative split into segments
}

// compileGlob compiles pattern (slash-separated).
func compileGlob(pattern string) (*globPattern, error) {
	if pattern == "" {
		return nil, errors.New("empty glob pattern")
	}
	expanded, err := expandBraces(pattern)
	if err != nil {
		return nil, fmt.Errorf("glob pattern %q: %w", pattern, err)
	}
	g := &globPattern{}
	for _, alt := range expanded {
		segs, err := splitSegments(alt)
		if err != nil {
			return nil, fmt.Errorf("glob pattern %q: %w", pattern, err)
		}
		g.alts = append(g.alts, segs)
	}
	return g, nil
}

// splitSegments splits a pattern into validated segments, normalising
// `[!` to `[^` and dropping empty segments (from `//` or a trailing `/`).
func splitSegments(p string) ([]string, error) {
	var segs []string
	for s := range strings.SplitSeq(p, "/") {
		if s == "" || s == "." {
			continue
		}
		s = normaliseClass(s)
		if s != "**" {
			if _, err := path.Match(s, "x"); err != nil {
				return nil, fmt.Errorf("bad segment %q: %w", s, err)
			}
		}
		segs = append(segs, s)
	}
	return segs, nil
}

// normaliseClass rewrites the fnmatch negated class `[!…]` as path.Match's `[^…]`.
func normaliseClass(s string) string {
	if !strings.Contains(s, "[!") {
		return s
	}
	b := []byte(s)
	for i := 0; i < len(b)-1; i++ {
		switch b[i] {
		case '\\':
			i++
		case '[':
			if b[i+1] == '!' {
				b[i+1] = '^'
			}
		}
	}
	return string(b)
}

// expandBraces expands `{a,b}` groups (nested allowed, `\` escapes).
func expandBraces(p string) ([]string, error) {
	open := -1
	depth := 0
	for i := 0; i < len(p); i++ {
		switch p[i] {
		case '\\':
			i++
		case '{':
			if depth == 0 {
				open = i
			}
			depth++
		case '}':
			if depth == 0 {
				continue
			}
			depth--
			if depth > 0 {
				continue
			}
			var out []string
			for _, alt := range splitTopLevel(p[open+1 : i]) {
				sub, err := expandBraces(p[:open] + alt + p[i+1:])
				if err != nil {
					return nil, err
				}
				out = append(out, sub...)
				if len(out) > maxBraceAlternatives {
					return nil, fmt.Errorf("more than %d alternatives after brace expansion", maxBraceAlternatives)
				}
			}
			return out, nil
		}
	}
	if depth > 0 {
		return nil, errors.New("unclosed '{'")
	}
	return []string{p}, nil
}

// splitTopLevel splits the inside of a brace group at commas outside nested groups.
func splitTopLevel(s string) []string {
	var out []string
	depth, last := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '{':
			depth++
		case '}':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, s[last:i])
				last = i + 1
			}
		}
	}
	return append(out, s[last:])
}

// match reports whether the slash-separated relative path matches.
func (g *globPattern) match(rel string) bool {
	parts := strings.Split(rel, "/")
	for _, segs := range g.alts {
		if matchSegments(segs, parts) {
			return true
		}
	}
	return false
}

// mayMatchUnder reports whether some path strictly under the directory dir
// (slash-separated, relative) could match: the walk prunes the others.
func (g *globPattern) mayMatchUnder(dir string) bool {
	if dir == "" {
		return true
	}
	parts := strings.Split(dir, "/")
	for _, segs := range g.alts {
		if prefixMayMatch(segs, parts) {
			return true
		}
	}
	return false
}

// matchSegments reports whether the path segments parts match the pattern
// segments pat, where a "**" segment matches zero or more segments and any
// other segment exactly one (matchSegment).
//
// It walks both once, remembering only the last "**" seen: on a mismatch
// it lets that "**" swallow one more segment and resumes after it. Going
// back to an earlier "**" is never needed, since the later one can take
// whatever the earlier one would have. The cost is at most
// len(pat) × len(parts) segment matches, whatever the pattern: the
// patterns come from a repository's .gitignore files and from the model,
// and a search of every split per "**" (C(depth, k) for k of them) lets
// "**/a/**/a/…/c" against a deep folder run for minutes.
func matchSegments(pat, parts []string) bool {
	pi, si := 0, 0
	star, resume := -1, 0 // the last "**" (index in pat) and where its swallowing ends
	for si < len(parts) {
		switch {
		case pi < len(pat) && pat[pi] == "**":
			star, resume = pi, si
			pi++
		case pi < len(pat) && matchSegment(pat[pi], parts[si]):
			pi++
			si++
		case star >= 0:
			resume++
			pi, si = star+1, resume
		default:
			return false
		}
	}
	for pi < len(pat) && pat[pi] == "**" {
		pi++
	}
	return pi == len(pat)
}

func prefixMayMatch(pat, parts []string) bool {
	for len(parts) > 0 {
		if len(pat) == 0 {
			return false
		}
		if pat[0] == "**" {
			return true
		}
		if !matchSegment(pat[0], parts[0]) {
			return false
		}
		pat, parts = pat[1:], parts[1:]
	}
	return len(pat) > 0
}

// matchSegment matches one segment (no slashes on either side).
func matchSegment(pat, name string) bool {
	if !strings.ContainsAny(pat, `*?[\`) {
		return pat == name
	}
	if pat == "*" {
		return true
	}
	if pat[0] == '*' && !strings.ContainsAny(pat[1:], `*?[\`) {
		return strings.HasSuffix(name, pat[1:])
	}
	ok, _ := path.Match(pat, name)
	return ok
}
