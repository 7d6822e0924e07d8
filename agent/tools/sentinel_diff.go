package tools

import (
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/agentls/agentls/sandbox"
)

// autoRunChange is one path that differs between the snapshot before a
// command and the one after it.
type autoRunChange struct {
	abs, rel      string     // rel: workspace-relative, slash-separated
	folder        string     // the workspace folder it is in
	before, after *snapEntry // nil: absent then
	// what says what happened, as the question shows it ("created",
	// "changed", "made executable", …); "" for a folder, which is put back
	// or removed with what it holds but asked about only through it, and
	// for what was removed.
	what string
	// capped: the file was over the snapshot's caps before, so its content
	// cannot be put back.
	capped bool
	// details show what it holds (a new repository's settings beyond
	// git's own, each with its value).
	details []string
	// cut: a folder the snapshot after the command could not wholly
	// record (its budget ran out inside it).
	cut bool
}

// diffSnaps lists what differs from before to after, in path order: new,
// changed, re-moded and replaced files and links (a new `*.sample` in a
// hooks folder runs nothing and is left out), and what was removed and
// the folders they need or leave, which are put back with the rest but
// not asked about (a removed file runs nothing), and a new repository's
// config that holds more than git's own settings (describeNewRepoConfig).
// git's configuration of a repository that existed is compared as
// gitConfig says (configCheck: whole, only the settings beyond git's own
// when the command is git's own, not at all with
// sandbox.allow_git_config); a new one's is judged for what it holds. Both
// are read with git confined by list (listPolicy).
func diffSnaps(before, after *autoRunSnap, gitConfig configCheck, list sandbox.Policy) []autoRunChange {
	seen := map[string]bool{}
	var paths []string
	for _, s := range []*autoRunSnap{before, after} {
		for p := range s.entries {
			if !seen[p] {
				seen[p] = true
				paths = append(paths, p)
			}
		}
	}
	sort.Strings(paths)
	var out []autoRunChange
	for _, p := range paths {
		b, inB := before.entries[p]
		a, inA := after.entries[p]
		kind := b.kind
		if !inB {
			kind = a.kind
		}
		if (kind == watchConfig && gitConfig == configNone) || (inB && inA && b.sameAs(a)) {
			continue
		}
		folder, rel := workspaceRel(before.folders, p)
		if folder == "" {
			continue // never anything outside the workspace folders
		}
		c := autoRunChange{abs: p, rel: rel, folder: folder}
		if inB {
			c.before = &b
		}
		if inA {
			c.after = &a
		}
		if kind == watchNewConfig && !inB {
			// A new repository's config: asked about for what it holds; on
			// Remove rewritten with only git's own settings (or removed).
			c.what, c.details, c.before = describeNewRepoConfig(a, list)
		} else if kind == watchConfig && gitConfig == configBeyondOwn {
			c.what, c.details, c.capped = describeGitConfigChange(c.before, c.after, p, list)
		} else {
			c.what, c.capped = describeDiff(c.before, c.after, kind, p)
		}
		if c.what == "-" {
			continue
		}
		out = append(out, c)
	}
	// A folder whose walk the budget stopped after the command: what it
	// holds past the budget was not compared, so it is asked about as
	// such, never taken for unchanged (undoing it removes it whole when
	// the command made it, and says it could not otherwise).
	for _, p := range after.cut {
		folder, rel := workspaceRel(before.folders, p)
		if folder == "" {
			continue
		}
		what := fmt.Sprintf("holds more than the %d files agentls checks: what the command did in it is not all listed", sentinelEntries)
		if k := slices.IndexFunc(out, func(c autoRunChange) bool { return c.abs == p }); k >= 0 {
			out[k].what, out[k].cut = what, true
			continue
		}
		c := autoRunChange{abs: p, rel: rel, folder: folder, what: what, cut: true}
		if b, ok := before.entries[p]; ok {
			c.before = &b
		}
		if a, ok := after.entries[p]; ok {
			c.after = &a
		}
		out = append(out, c)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].abs < out[j].abs })
	return out
}

// describeDiff says what happened to a path (b and a as before and
// after), "" for a folder, "-" for what is not reported at all (a new
// sample hook); capped when its old content cannot be put back.
func describeDiff(b, a *snapEntry, kind watchKind, p string) (what string, capped bool) {
	switch {
	case a == nil:
		return "", false // what was removed runs nothing: put back on Remove, not asked about
	case b == nil:
		switch {
		case a.mode.IsDir():
			return "", false
		case kind == watchHook && strings.HasSuffix(strings.ToLower(filepath.Base(p)), ".sample"):
			return "-", false
		case a.mode&fs.ModeSymlink != 0:
			return "created (a symbolic link)", false
		case a.mode&0o111 != 0:
			return "created, executable", false
		}
		return "created", false
	case b.mode.Type() != a.mode.Type():
		capped = b.capped && b.mode.IsRegular()
		switch {
		case a.mode&fs.ModeSymlink != 0:
			return "replaced by a symbolic link", capped
		case a.mode.IsDir():
			return "replaced by a folder", capped
		}
		return "replaced by a file", capped
	case a.mode&fs.ModeSymlink != 0:
		return "changed (a symbolic link)", false
	case !b.sameContent(*a):
		return "changed", b.capped
	case a.mode&0o111&^b.mode != 0:
		return "made executable", false
	}
	return "mode changed", false
}

// workspaceRel is the workspace folder that holds abs and abs relative to
// it (slash-separated); "" when none does.
func workspaceRel(folders []string, abs string) (folder, rel string) {
	for _, f := range folders {
		r, err := filepath.Rel(f, abs)
		if err != nil || r == "." || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) {
			continue
		}
		if folder == "" || len(f) > len(folder) {
			folder, rel = f, filepath.ToSlash(r)
		}
	}
	return folder, rel
}

// reported are the changes the question names (not the folders).
func reported(changes []autoRunChange) []autoRunChange {
	var out []autoRunChange
	for _, c := range changes {
		if c.what != "" {
			out = append(out, c)
		}
	}
	return out
}
