package agent

import (
	"context"
	"errors"
	"io/fs"
	"log/slog"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/agentls/agentls/guard"
	"github.com/agentls/agentls/workspace"
)

// A BUILD change to a file that makes the user's editor or shell start
// programs by itself (guard.IsAutoRun: .vscode/tasks.json, .envrc, …) is
// always asked, review mode or not (docs/review.md "Files your editor runs
// by itself: always asked"): the program it names would run outside
// agentls's sandbox the next time the user opens the folder, and no
// approved plan has to mention it.

// autoRunWhy is the reason for a change to name, a file the editor or
// shell runs by itself; it is "it" when the change names it. quote shows
// the file name: codeSpan in a question's Markdown, plainName in a change
// annotation's label (plain text).
func autoRunWhy(c workspace.Change, name string, quote func(string) string) string {
	if c.Kind != workspace.ChangeRename && name == c.Path.Rel {
		return "your editor or shell runs what it names by itself, outside agentls's sandbox"
	}
	return "your editor or shell runs what " + quote(name) + " names by itself, outside agentls's sandbox"
}

// plainName shows a file name as it is (plain text).
func plainName(name string) string { return name }

// autoRunNote ends the reason the model reads for a declined change to
// name, a file the editor or shell runs by itself.
func autoRunNote(name string) string {
	return "; " + name + " is a file the user's editor or shell runs by itself, so every change to it is asked"
}

// givenPathsKey is the context key of the paths a tool call was given.
type givenPathsKey struct{}

// withGivenPaths marks ctx with the paths a tool call was given (its
// declared source and target arguments, as the model wrote them).
func withGivenPaths(ctx context.Context, given []string) context.Context {
	return context.WithValue(ctx, givenPathsKey{}, given)
}

// givenPaths is what withGivenPaths put in ctx.
func givenPaths(ctx context.Context) []string {
	given, _ := ctx.Value(givenPathsKey{}).([]string)
	return given
}

// autoRunChanges maps each change (by its Path.Rel) that touches a file the
// user's editor or shell runs by itself to that file as the question names
// it (workspace-relative). A change touches one when its target or a
// rename's source is one (guard.IsAutoRun, letter case folded) on the
// resolved path, on a name the tool call was given (a symlink .vscode →
// cfg), or is where a symlink named like one leads, at any depth of a
// workspace folder but below node_modules (cfg/tasks.json when .vscode →
// cfg, notes.txt when sub/.envrc → ../notes.txt), or below it; or when a
// delete or a rename takes one along inside a folder. Nil when none does.
func (s *Session) autoRunChanges(ctx context.Context, changes []workspace.Change) map[string]string {
	ws := s.m.ws
	given := ""
	for _, g := range givenPaths(ctx) {
		if rel := givenRel(ws, g); rel != "" && guard.IsAutoRun(rel) {
			given = rel
			break
		}
	}
	var roots []autoRunRoot
	rootsRead := false
	var out map[string]string
	for _, c := range changes {
		name := ""
		for _, p := range c.Targets() {
			if name != "" {
				break
			}
			if guard.IsAutoRun(p.Rel) {
				name = p.Rel
				continue
			}
			if !rootsRead {
				roots, rootsRead = autoRunRoots(ws), true
			}
			name = underAutoRunRoot(roots, p.Abs)
		}
		if name == "" && (c.Kind == workspace.ChangeDelete || c.Kind == workspace.ChangeRename) {
			from := c.Path
			if c.Kind == workspace.ChangeRename {
				from = c.From
			}
			name = autoRunInside(from)
		}
		if name == "" {
			name = given
		}
		if name != "" {
			if out == nil {
				out = map[string]string{}
			}
			out[c.Path.Rel] = name
		}
	}
	return out
}

// givenRel is a path as a tool call gave it (relative, absolute, or a file
// URI), cleaned lexically and relative to its workspace folder, symlinks
// not followed; "" when it is not inside one.
func givenRel(ws *workspace.Workspace, given string) string {
	if strings.HasPrefix(given, "file://") {
		u, err := url.Parse(given)
		if err != nil {
			return ""
		}
		given = u.Path
	}
	if filepath.IsAbs(given) {
		return ws.RelOf(filepath.Clean(given))
	}
	rel := path.Clean(filepath.ToSlash(given))
	if rel == ".." || strings.HasPrefix(rel, "../") {
		return ""
	}
	return rel
}

// autoRunRoot is a symlink named like an auto-run file or folder (or lying
// in an auto-run folder), anywhere in a workspace folder, and the real path
// it leads to: a change there changes what the editor or shell runs.
type autoRunRoot struct {
	name string // relative to its workspace folder
	real string
}

// maxAutoRunLinkWalk bounds the entries autoRunRoots reads across the
// workspace folders (tools.scanWorkspace's bound).
const maxAutoRunLinkWalk = 200_000

// autoRunRoots lists, read now, the symlinks at any depth of each workspace
// folder that guard.IsAutoRun names (sub/.envrc, a/.vscode,
// .vscode/tasks.json), with where they lead (through a chain of links).
// The walk follows no link, reads at most maxAutoRunLinkWalk entries, and
// skips version-control folders and node_modules (the package manager
// replaces those whole and no editor opens them as a project, as the
// sandbox's scan treats them).
func autoRunRoots(ws *workspace.Workspace) []autoRunRoot {
	var out []autoRunRoot
	budget := maxAutoRunLinkWalk
	for _, f := range ws.Folders() {
		_ = filepath.WalkDir(f, func(p string, d fs.DirEntry, err error) error {
			if err != nil || p == f {
				return nil // unreadable: nothing found there
			}
			if budget--; budget < 0 {
				return filepath.SkipAll
			}
			if d.IsDir() {
				if skipForAutoRunLinks(d.Name()) {
					return filepath.SkipDir
				}
				return nil
			}
			if d.Type()&fs.ModeSymlink == 0 {
				return nil
			}
			rel, err := filepath.Rel(f, p)
			if err != nil || !guard.IsAutoRun(filepath.ToSlash(rel)) {
				return nil
			}
			if real := linkLeadsTo(p); real != "" {
				out = append(out, autoRunRoot{name: filepath.ToSlash(rel), real: real})
			}
			return nil
		})
	}
	if budget < 0 {
		slog.Warn("stopped looking for symlinks named like files the editor runs by itself", "limit", maxAutoRunLinkWalk)
	}
	return out
}

// skipForAutoRunLinks reports a folder autoRunRoots does not enter.
func skipForAutoRunLinks(name string) bool {
	switch strings.ToLower(name) {
	case "node_modules", ".git", ".hg", ".jj", ".svn":
		return true
	}
	return false
}

// linkLeadsTo is the real path of the symlink p: where its chain ends, or,
// when that does not exist yet, the path a write through it would create
// (its last link's target in a real folder); "" when neither resolves.
func linkLeadsTo(p string) string {
	if real, err := workspace.Canonical(p); err == nil {
		return real
	}
	target, err := os.Readlink(p)
	if err != nil {
		return ""
	}
	if !filepath.IsAbs(target) {
		target = filepath.Join(filepath.Dir(p), target)
	}
	dir, err := workspace.Canonical(filepath.Dir(target))
	if err != nil {
		return ""
	}
	return filepath.Join(dir, filepath.Base(target))
}

// underAutoRunRoot names abs through the auto-run symlink that leads to it
// or to a folder above it (".vscode/tasks.json"), or "".
func underAutoRunRoot(roots []autoRunRoot, abs string) string {
	for _, r := range roots {
		if len(abs) < len(r.real) || !strings.EqualFold(abs[:len(r.real)], r.real) {
			continue
		}
		rest := abs[len(r.real):]
		if rest == "" || rest[0] == filepath.Separator {
			return r.name + filepath.ToSlash(rest)
		}
	}
	return ""
}

// errAutoRunFound ends a walk at the first match.
var errAutoRunFound = errors.New("found")

// autoRunInside names the first auto-run file or folder inside the folder
// p (symlinks not followed), or "" — what a delete or a move of p takes
// along.
func autoRunInside(p workspace.Path) string {
	if !p.IsDir {
		return ""
	}
	found := ""
	_ = filepath.WalkDir(p.Abs, func(abs string, d fs.DirEntry, err error) error {
		if err != nil || abs == p.Abs {
			return nil
		}
		if guard.IsAutoRunName(d.Name(), true) || guard.IsAutoRunName(d.Name(), false) { // a symlink too
			rel, _ := filepath.Rel(p.Abs, abs)
			found = path.Join(p.Rel, filepath.ToSlash(rel))
			return errAutoRunFound
		}
		return nil
	})
	return found
}
