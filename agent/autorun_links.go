package agent

import (
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"time"

	"github.com/agentls/agentls/guard"
	"github.com/agentls/agentls/workspace"
)

// The symbolic links named like auto-run files, at any depth of the
// workspace (autorun_edits.go asks before a change where one leads), are
// kept in an index so that a BUILD change set does not walk the whole
// workspace (docs/performance.md "Auto-run links"). The index is a tree of
// the workspace's folders, each with the stamp it had when it was listed
// (modification and change times, inode, device): every look-up stats
// each folder again and lists anew only those whose stamp changed, or
// that were listed less than linkRacyWindow after they last changed. A
// link made, removed or renamed anywhere — by agentls's edits, a `run`
// command, the user or any program — changes its folder's times, so it is
// seen without a walk; what cannot be trusted (no change time on this
// system, an unreadable folder, a stamp too recent) is listed every time.

// autoRunRoot is a symlink named like an auto-run file or folder (or lying
// in an auto-run folder), anywhere in a workspace folder, and the real path
// it leads to: a change there changes what the editor or shell runs.
type autoRunRoot struct {
	name string // relative to its workspace folder
	real string
}

// maxAutoRunLinkWalk bounds the entries the index holds across the
// workspace folders (tools.scanWorkspace's bound); past it the look-up is
// not complete, and every change is asked.
const maxAutoRunLinkWalk = 200_000

// linkRacyWindow is how old a folder's modification and change times must
// be when it is listed for its listing to be kept: a change in the same
// clock tick (or, on a file system that keeps whole seconds, the same
// second) can leave both as they were (git's "racy" rule, as checkpoint's
// racyWindow).
const linkRacyWindow = 2 * time.Second

// autoRunLinks is a workspace's index of the symbolic links named like
// auto-run files. The zero value is ready; it is safe for concurrent use
// (each look-up builds a new tree from the last one and stores it).
type autoRunLinks struct {
	tree atomic.Pointer[linkTree]
	// max, now and lstat stand for maxAutoRunLinkWalk, time.Now and
	// os.Lstat when zero (tests set them before the first look-up).
	max   int
	now   func() time.Time
	lstat func(string) (fs.FileInfo, error)
}

// linkTree is the index as one look-up left it.
type linkTree struct {
	dirs  map[string]*linkDir // absolute path → the folder as listed
	links []autoRunLink       // the links found, in walk order
	cut   bool                // the walk stopped at the entry bound
}

// linkDir is one folder as it was listed.
type linkDir struct {
	rel     string   // slash-separated, relative to its workspace folder
	stamp   dirStamp // taken before the listing
	trusted bool     // stamp settled and listing whole: reused while the stamp is the same
	entries int      // what it holds (the bound counts them)
	subdirs []string // the folders in it that are walked
	links   []autoRunLink
}

// autoRunLink is a symbolic link guard.IsAutoRun names.
type autoRunLink struct {
	name string // relative to its workspace folder, slash-separated
	abs  string
}

// dirStamp is what tells a folder's listing changed: its modification and
// change times in nanoseconds, inode and device (sysDirStamp; ctime 0
// where the system has none, and then the listing is never kept).
type dirStamp struct {
	mtime, ctime int64
	ino, dev     uint64
}

// settled reports whether the stamp's times are both before limit (no
// later change can keep them) and the system gave a change time.
func (st dirStamp) settled(limit int64) bool {
	return st.ctime != 0 && st.mtime < limit && st.ctime < limit
}

// roots lists the links at any depth of folders that guard.IsAutoRun names
// (sub/.envrc, a/.vscode, .vscode/tasks.json), with where each leads now
// (through a chain of links, read at every look-up: a link's target may
// change outside the workspace); complete is false when the walk stopped
// at the entry bound (links past it are unknown).
func (x *autoRunLinks) roots(folders []string) (roots []autoRunRoot, complete bool) {
	t := x.refresh(folders)
	for _, l := range t.links {
		if real := linkLeadsTo(l.abs); real != "" {
			roots = append(roots, autoRunRoot{name: l.name, real: real})
		}
	}
	return roots, !t.cut
}

// refresh brings the index up to date for folders and returns it. The
// walk follows no link, skips version-control folders and node_modules
// (the package manager replaces those whole and no editor opens them as a
// project, as the sandbox's scan treats them), and stops past max entries.
func (x *autoRunLinks) refresh(folders []string) *linkTree {
	limit := maxAutoRunLinkWalk
	if x.max > 0 {
		limit = x.max
	}
	old := x.tree.Load()
	size := 0
	if old != nil {
		size = len(old.dirs)
	}
	w := linkWalk{old: old, new: &linkTree{dirs: make(map[string]*linkDir, size)}, budget: limit, lstat: os.Lstat}
	if x.lstat != nil {
		w.lstat = x.lstat
	}
	now := time.Now
	if x.now != nil {
		now = x.now
	}
	w.settledBefore = now().Add(-linkRacyWindow).UnixNano() // taken before any stat
	for _, f := range folders {
		if fi, err := w.lstat(f); err == nil && fi.IsDir() && !w.new.cut {
			w.visit(f, "", fi)
		}
	}
	if w.new.cut && (old == nil || !old.cut) {
		slog.Warn("stopped looking for symlinks named like files the editor runs by itself: every BUILD change is asked", "limit", limit)
	}
	x.tree.Store(w.new)
	return w.new
}

// linkWalk is one refresh of the index.
type linkWalk struct {
	old, new *linkTree
	budget   int
	// settledBefore: a stamp at or after it is too recent to keep.
	settledBefore int64
	lstat         func(string) (fs.FileInfo, error)
}

// visit adds the folder dir (rel in its workspace folder, fi its Lstat)
// and all below it: its listing of before when its stamp is the same and
// was trusted, else a new one.
func (w *linkWalk) visit(dir, rel string, fi fs.FileInfo) {
	st := sysDirStamp(fi)
	var d *linkDir
	if w.old != nil {
		d = w.old.dirs[dir]
	}
	if d == nil || !d.trusted || d.stamp != st || d.rel != rel {
		d = listLinkDir(dir, rel, st, st.settled(w.settledBefore))
	}
	if w.budget -= d.entries; w.budget < 0 {
		w.new.cut = true
		return
	}
	w.new.dirs[dir] = d
	w.new.links = append(w.new.links, d.links...)
	for _, name := range d.subdirs {
		p := dir + string(filepath.Separator) + name // both clean: filepath.Join without its Clean
		fi, err := w.lstat(p)
		if err != nil || !fi.IsDir() {
			continue // gone or replaced since: its folder's stamp changed, so it is listed anew next time
		}
		if w.visit(p, joinRel(rel, name), fi); w.new.cut {
			return
		}
	}
}

// listLinkDir lists dir: the folders to walk in it and the links
// guard.IsAutoRun names; kept (trusted) only when settled and read whole.
func listLinkDir(dir, rel string, st dirStamp, settled bool) *linkDir {
	entries, err := os.ReadDir(dir) // what it read before an error is used
	d := &linkDir{rel: rel, stamp: st, trusted: settled && err == nil, entries: len(entries)}
	for _, e := range entries {
		name := e.Name()
		switch {
		case e.IsDir():
			if !skipForAutoRunLinks(name) {
				d.subdirs = append(d.subdirs, name)
			}
		case e.Type()&fs.ModeSymlink != 0:
			if r := joinRel(rel, name); guard.IsAutoRun(r) {
				d.links = append(d.links, autoRunLink{name: r, abs: filepath.Join(dir, name)})
			}
		}
	}
	return d
}

// joinRel is path.Join of a clean relative path ("" for the folder
// itself) and an entry's name, without its Clean.
func joinRel(rel, name string) string {
	if rel == "" {
		return name
	}
	return rel + "/" + name
}

// skipForAutoRunLinks reports a folder the index does not enter.
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
