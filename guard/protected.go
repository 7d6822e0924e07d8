package guard

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"unicode"

	"github.com/agentls/agentls/workspace"
)

// protected is one thing no agent tool may change in any mode.
type protected struct {
	// name is a file or folder name protected wherever it appears in a
	// workspace folder, with everything below it.
	name   string
	reason Reason
	// what names it in refusals ("the version-control folder .git/").
	what string
	// instead says how the change can still be made.
	instead string
}

// protectedNames is the one list of protected names, matched at any depth,
// on the resolved path and on the name as given, case-insensitively always
// (protectedName). `.agentls` is agentls's own state (sessions and their
// modes); `.agentls.yaml` its configuration, which could widen the model's
// own permissions at the next start; the version-control folders hold history, branches and hooks: a `.plan`
// inside them (`.git/index.lock/x.plan`, `.git/refs/heads/x.plan`) would lock
// the repository or make a branch. `.git` is matched as a file too (the
// `.git` file of a submodule or a worktree). The first entry wins when a
// change touches several.
var protectedNames = []protected{
	{stateDirName, ReasonAgentState, "agentls's own state folder .agentls/ (sessions and their modes)",
		"the mode changes only through enter_plan_mode, exit_plan_mode and the user"},
	{configName, ReasonAgentState, "agentls's configuration file .agentls.yaml", configInstead},
	{mcpFileName, ReasonAgentState, "agentls's configuration of MCP servers .mcp.json (it starts programs)", configInstead},
	{".git", ReasonProtected, "the version-control folder .git/", vcsInstead},
	{".hg", ReasonProtected, "the version-control folder .hg/", vcsInstead},
	{".svn", ReasonProtected, "the version-control folder .svn/", vcsInstead},
	{".jj", ReasonProtected, "the version-control folder .jj/", vcsInstead},
}

// configName is the workspace configuration file. It is protected at any
// depth, not only at the top of a workspace folder where agentls reads it:
// opening a subfolder as the workspace makes its file the configuration.
const configName = ".agentls.yaml"

// mcpFileName is the workspace's MCP server file; .vscode/mcp.json is the
// other (protectedPair).
const mcpFileName = ".mcp.json"

// vscodeMCP is .vscode/mcp.json, protected as a folder and file name pair
// (a pair of path elements): only an mcp.json inside a folder .vscode.
var vscodeMCP = protected{name: ".vscode/mcp.json", reason: ReasonAgentState,
	what: "agentls's configuration of MCP servers .vscode/mcp.json (it starts programs)", instead: configInstead}

// protectedPair returns vscodeMCP when parent and elem, two consecutive
// path elements, are .vscode and mcp.json (compared as protectedName
// compares), or nil.
func protectedPair(parent, elem string) *protected {
	if foldElem(parent) == ".vscode" && foldElem(elem) == "mcp.json" {
		return &vscodeMCP
	}
	return nil
}

// protectedParts returns what protects a path given as its elements: a
// protected name, or the pair .vscode/mcp.json.
func protectedParts(parts []string) *protected {
	var best *protected
	for i, part := range parts {
		best = firstOf(best, protectedName(part))
		if i > 0 {
			best = firstOf(best, protectedPair(parts[i-1], part))
		}
	}
	return best
}

// foldElem is a path element as protectedName compares it, lower-cased.
func foldElem(elem string) string {
	return strings.ToLower(strings.TrimRight(visibleElem(elem), ". "))
}

// visibleElem is a path element without invisible format characters and,
// on Windows, without an alternate-stream suffix.
func visibleElem(elem string) string {
	elem = strings.Map(func(r rune) rune {
		if unicode.Is(unicode.Cf, r) {
			return -1
		}
		return r
	}, elem)
	if isWindows {
		elem, _, _ = strings.Cut(elem, ":")
	}
	return elem
}

const configInstead = "agentls's configuration changes only by the user's hand; " +
	"if it needs a change, tell the user what to change"

const vcsInstead = "change the repository with its own commands through run (build mode, confirmed by the user)"

// InsideProtected reports whether abs, an absolute path, lies in or is a
// protected folder (`.git`, `.agentls`, …, at any depth, on the path as given
// and as resolved), and names it. A workspace folder there is refused: the
// guard protects those names below a workspace folder, not above it, so a
// workspace rooted in `.git` would make its hooks writable.
func InsideProtected(abs string) (string, bool) {
	paths := []string{filepath.Clean(abs)}
	if resolved, err := workspace.Canonical(abs); err == nil {
		paths = append(paths, resolved)
	}
	for _, p := range paths {
		if pr := protectedParts(strings.Split(filepath.ToSlash(p), "/")); pr != nil {
			return pr.what, true
		}
	}
	return "", false
}

// protectedName returns the protected entry a single path element names, or
// nil. Names are compared the widest way a file system may equate them:
// letter case folded (Unicode simple folding), invisible format characters
// dropped (HFS+ ignores some, so ".g\u200cit" is ".git" there), trailing
// dots and spaces dropped (Windows drops them), and on Windows an
// alternate-stream suffix (".git::$INDEX_ALLOCATION") cut off.
func protectedName(elem string) *protected {
	elem = strings.TrimRight(visibleElem(elem), ". ")
	for i := range protectedNames {
		if strings.EqualFold(elem, protectedNames[i].name) {
			return &protectedNames[i]
		}
	}
	return nil
}

// protectedRoot is a protected place known by its real absolute path.
type protectedRoot struct {
	abs string
	p   *protected
	// unreadable: no tool may read it either (agentls's state and
	// configuration known by path).
	unreadable bool
}

// protectedRoots lists protected places that a name match on a path cannot
// see: the real folders that a protected name at the top of a workspace
// folder points to when it is a symlink (`.agentls -> /elsewhere/state`),
// and agentls's configuration known by path (WithConfig), as given and as
// its symlinks lead. They are read from scratch on every check.
func (g *Guard) protectedRoots() []protectedRoot {
	if g.roots != nil {
		return *g.roots
	}
	roots := g.knownRoots()
	for _, f := range g.ws.Folders() {
		entries, err := os.ReadDir(f)
		if err != nil {
			continue
		}
		for _, e := range entries {
			if e.Type()&fs.ModeSymlink == 0 {
				continue
			}
			real, err := g.canonical(filepath.Join(f, e.Name()))
			if err != nil {
				continue
			}
			if p := protectedName(e.Name()); p != nil {
				roots = append(roots, protectedRoot{abs: real, p: p})
			} else if foldElem(e.Name()) == ".vscode" {
				// .vscode/mcp.json is protected as a pair of names:
				// through a linked .vscode it is the target's mcp.json,
				// which VS Code and agentls read as .vscode/mcp.json.
				roots = append(roots, protectedRoot{abs: filepath.Join(real, "mcp.json"), p: &vscodeMCP})
			}
		}
	}
	return roots
}

// knownRoots are the protected roots known by path, read from scratch:
// agentls's configuration (WithConfig) and state (WithState), as given and
// as their symlinks lead; all of them unreadable. protectedRoots adds the
// workspace's symlinked protected names, which may be read.
func (g *Guard) knownRoots() []protectedRoot {
	var roots []protectedRoot
	for _, c := range g.config {
		p := &protected{reason: ReasonAgentState, what: "agentls's configuration " + c, instead: configInstead}
		roots = append(roots, protectedRoot{abs: c, p: p, unreadable: true})
		if real, err := g.canonical(c); err == nil && real != c {
			roots = append(roots, protectedRoot{abs: real, p: p, unreadable: true})
		}
	}
	for _, d := range g.state {
		p := &protected{reason: ReasonAgentState, what: stateWhat(d), instead: stateInstead}
		roots = append(roots, protectedRoot{abs: d, p: p, unreadable: true})
		if real, err := g.canonical(d); err == nil && real != d {
			roots = append(roots, protectedRoot{abs: real, p: p, unreadable: true})
		}
	}
	return roots
}

// protectedAt returns what protects a cleaned absolute path (it is a
// protected name, lies below one, or lies in a protected root), or nil.
// Below a workspace folder every element is matched; a path outside every
// workspace folder is matched on all its elements.
func (g *Guard) protectedAt(abs string) *protected {
	best := protectedParts(strings.FieldsFunc(g.belowFolders(abs), isSep))
	for _, r := range g.protectedRoots() {
		if underFold(abs, r.abs) {
			best = firstOf(best, r.p)
		}
	}
	return best
}

// underFold is under with letter case folded, for file systems that fold it.
func underFold(p, dir string) bool {
	return len(p) >= len(dir) && strings.EqualFold(p[:len(dir)], dir) && under(dir+p[len(dir):], dir)
}

// belowFolders is abs below the workspace folder that holds it ("" for the
// folder itself), or abs unchanged outside every workspace folder.
func (g *Guard) belowFolders(abs string) string {
	for _, f := range g.ws.Folders() {
		if abs == f {
			return ""
		}
	}
	return g.belowFolder(abs)
}

// firstOf is whichever of a and b comes first in protectedNames (nil loses).
func firstOf(a, b *protected) *protected {
	if a == nil || b != nil && b.rank() < a.rank() {
		return b
	}
	return a
}

// rank orders protected entries: the first of protectedNames wins.
func (p *protected) rank() int {
	for i := range protectedNames {
		if &protectedNames[i] == p {
			return i
		}
	}
	return len(protectedNames)
}

// protectedInside returns what protects something inside the folder abs (a
// protected name anywhere below it, symlinks not followed, or a protected
// root), or nil; for a delete or a rename, which take everything below along.
func (g *Guard) protectedInside(abs string) *protected {
	var best *protected
	for _, r := range g.protectedRoots() {
		if underFold(r.abs, abs) {
			best = firstOf(best, r.p)
		}
	}
	if fi, err := os.Lstat(abs); err != nil || !fi.IsDir() {
		return best
	}
	errFound := errors.New("found")
	_ = filepath.WalkDir(abs, func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == abs {
			return nil // an unreadable folder cannot be removed by a tool either
		}
		best = firstOf(best, protectedName(d.Name()))
		best = firstOf(best, protectedPair(filepath.Base(filepath.Dir(p)), d.Name()))
		if best != nil && best.rank() == 0 {
			return errFound
		}
		return nil
	})
	return best
}

// touchesProtected says what protected thing a change to a target (given
// name and resolved path) would change, and how: the target is protected or
// inside something protected, by its real path or by the name given ("is
// or is inside"); or, for a delete or a rename, it holds something protected, as a
// workspace folder holds `.agentls/` ("holds"). nil if it touches nothing
// protected.
func (g *Guard) touchesProtected(kind workspace.ChangeKind, given string, p workspace.Path) (*protected, string) {
	if pr := g.protectedAt(p.Abs); pr != nil {
		return pr, howInside
	}
	if pr := g.protectedGiven(given); pr != nil {
		return pr, howInside
	}
	if kind == workspace.ChangeDelete || kind == workspace.ChangeRename {
		if pr := g.protectedInside(p.Abs); pr != nil {
			return pr, "holds"
		}
	}
	// A folder moved into place as .vscode could bring an mcp.json along.
	if kind == workspace.ChangeRename && foldElem(lastElem(strings.TrimRight(given, "/\\"))) == ".vscode" {
		return &vscodeMCP, "would become the folder of"
	}
	return nil, ""
}

// howInside says a target is protected or inside something protected.
const howInside = "is or is inside"

// protectedGiven is protectedAt on the name as given (cleaned lexically,
// relative to the root), without resolving it: it also sees a protected
// path that Resolve refuses, such as a config file outside the workspace.
func (g *Guard) protectedGiven(given string) *protected {
	decoded, err := decodeGiven(given)
	if err != nil || decoded == "" {
		return nil
	}
	if !filepath.IsAbs(decoded) {
		decoded = filepath.Join(g.ws.Root(), decoded)
	}
	return g.protectedAt(filepath.Clean(decoded))
}

// protectedRefusal refuses a change to something protected, in any mode.
func protectedRefusal(st State, tool string, kind Kind, given, how string, pr *protected) *Refusal {
	r := refuse(st, tool, kind, pr.reason, given, fmt.Sprintf(
		"%q %s %s; no tool may change it in any mode; %s", given, how, pr.what, pr.instead))
	r.Protected = pr.what
	return r
}
