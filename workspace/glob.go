package workspace

import (
	"context"
	"fmt"
	"strings"
)

// Glob returns the workspace-relative paths (files and folders) under base
// whose path relative to base matches pattern, sorted. `**` matches any
// number of folders (doublestar semantics), `{a,b}` alternatives; .gitignore
// is respected and .git and .agentls are skipped.
func (w *Workspace) Glob(pattern string, base Path) ([]string, error) {
	return w.GlobContext(context.Background(), pattern, base)
}

// GlobContext is Glob with cancellation.
func (w *Workspace) GlobContext(ctx context.Context, pattern string, base Path) ([]string, error) {
	if strings.HasPrefix(pattern, "/") {
		return nil, fmt.Errorf("glob pattern %q must be relative to the search folder (give the folder as path)", pattern)
	}
	if strings.ContainsRune(pattern, 0) {
		return nil, fmt.Errorf("glob pattern %q contains a NUL byte", pattern)
	}
	if pattern == ".." || strings.HasPrefix(pattern, "../") || strings.Contains(pattern, "/../") || strings.HasSuffix(pattern, "/..") {
		return nil, fmt.Errorf("glob pattern %q must not contain '..'", pattern)
	}
	g, err := compileGlob(pattern)
	if err != nil {
		return nil, err
	}
	if err := requireDir(base); err != nil {
		return nil, fmt.Errorf("glob: %w", err)
	}
	baseRel := relOrEmpty(base.Rel)
	var out []string
	wk := walker{folder: base.Folder, hidden: w.hiddenFromWalks, visit: func(e *walkEntry) (bool, error) {
		sub := e.rel
		if baseRel != "" {
			sub = e.rel[len(baseRel)+1:]
		}
		if g.match(sub) {
			out = append(out, e.rel)
		}
		return e.isDir() && g.mayMatchUnder(sub), nil
	}}
	if err := wk.run(ctx, baseRel); err != nil {
		return nil, fmt.Errorf("glob %s in %s: %w", pattern, displayRel(base.Rel), err)
	}
	return out, nil
}

// pathMatcher matches the include filter of grep: a pattern without a slash
// matches the file name at any depth ("*.go"), one with a slash matches the
// path relative to the search folder ("cmd/**/*.go").
type pathMatcher struct {
	g *globPattern
}

func newPathMatcher(pattern string) (*pathMatcher, error) {
	g, err := compileGlob(pattern)
	if err != nil {
		return nil, err
	}
	for i, segs := range g.alts {
		if len(segs) == 1 && segs[0] != "**" {
			g.alts[i] = []string{"**", segs[0]}
		}
	}
	return &pathMatcher{g: g}, nil
}

func (m *pathMatcher) match(rel string) bool { return m.g.match(rel) }
