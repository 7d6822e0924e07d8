package agent

import (
	"context"
	"errors"
	"io/fs"
	"net/url"
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
	if name == autoRunUnchecked {
		return "the workspace is too large for agentls to look through it all for a symbolic link named like a file your editor or shell runs by itself that could lead here"
	}
	if c.Kind != workspace.ChangeRename && name == c.Path.Rel {
		return "your editor or shell runs what it names by itself, outside agentls's sandbox"
	}
	return "your editor or shell runs what " + quote(name) + " names by itself, outside agentls's sandbox"
}

// autoRunUnchecked stands for the name of the file a change touches when
// the index of auto-run links stopped at its bound (no file name is
// empty or holds a NUL byte).
const autoRunUnchecked = "\x00unchecked"

// plainName shows a file name as it is (plain text).
func plainName(name string) string { return name }

// autoRunNote ends the reason the model reads for a declined change to
// name, a file the editor or shell runs by itself.
func autoRunNote(name string) string {
	if name == autoRunUnchecked {
		return "; the workspace is too large for agentls to look through it all for symbolic links named like files the user's editor or shell runs by itself, so every change is asked"
	}
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
// cfg, notes.txt when sub/.envrc → ../notes.txt), or below it, as the
// workspace's index of such links has them (autorun_links.go); or when a
// delete or a rename takes one along inside a folder. A change that
// touches none is mapped to autoRunUnchecked when the index could not look
// through the whole workspace. Nil when none does.
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
	rootsRead, complete := false, true
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
				roots, complete = s.m.autoRunLinks.roots(ws.Folders())
				rootsRead = true
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
		if name == "" && !complete {
			name = autoRunUnchecked // a link past the walk's bound could lead here
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
