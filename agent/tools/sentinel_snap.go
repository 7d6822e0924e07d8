package tools

import (
	"bytes"
	"io"
	"io/fs"
	"log/slog"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// The bounds of the snapshot the after-command check (sentinel.go) takes
// of the auto-run files and the repositories' hooks and configuration.
const (
	// sentinelFileCap is the most of one file's content kept: a larger
	// file is recorded by size, modification time and mode only.
	sentinelFileCap = 256 << 10
	// sentinelTotalCap is the most content kept in all; files past it are
	// recorded as larger ones are.
	sentinelTotalCap = 8 << 20
	// sentinelEntries is the most entries recorded inside auto-run and
	// hooks folders (the log says when it is reached).
	sentinelEntries = 20_000
)

// watchKind is why a path is watched.
type watchKind int

const (
	watchAutoRun   watchKind = iota // an auto-run file or folder, or what is in one (guard.IsAutoRunName)
	watchHook                       // a repository's hooks folder, or what is in it
	watchConfig                     // git's config and config.worktree: not watched when git may write them
	watchRepoFile                   // a `.git` file, commondir, .hg/hgrc, .jj/repo/config.toml
	watchNewConfig                  // a new repository's config: reported for what it holds (sentinel_newrepo.go)
)

// snapEntry is one path as a snapshot saw it (os.Lstat: a symbolic link is
// recorded as itself, never followed).
type snapEntry struct {
	kind   watchKind
	mode   fs.FileMode
	size   int64
	mtime  time.Time
	data   []byte // a regular file's content, unless capped
	link   string // a symbolic link's target
	capped bool   // the content was over a cap: size, mtime and mode only
}

// sameAs reports whether e and o are the same entry (a folder's mode is
// not compared: it runs nothing).
func (e snapEntry) sameAs(o snapEntry) bool {
	if e.mode.Type() != o.mode.Type() {
		return false
	}
	switch {
	case e.mode.IsDir():
		return true
	case e.mode&fs.ModeSymlink != 0:
		return e.link == o.link
	}
	return e.mode == o.mode && e.sameContent(o)
}

// sameContent compares two regular files' content, by size and mtime when
// either is capped.
func (e snapEntry) sameContent(o snapEntry) bool {
	if e.capped || o.capped {
		return e.size == o.size && e.mtime.Equal(o.mtime)
	}
	return bytes.Equal(e.data, o.data)
}

// autoRunSnap is what the workspace's auto-run files and repositories'
// hooks and configuration looked like at one moment.
type autoRunSnap struct {
	folders []string
	entries map[string]snapEntry // absolute path → entry
	repos   map[string]bool      // the `.git` folders and files seen
	budget  int
	bytes   int64
	// walking is the auto-run or hooks folder being walked; cut lists
	// those whose walk the budget stopped (not all they hold is recorded).
	walking string
	cut     []string
}

// gitHookNames are the hooks git runs (githooks(5)): in every hooks folder
// they are recorded outside the budget, so that a command that fills a
// hooks folder with other files cannot hide a pre-commit behind them.
var gitHookNames = []string{
	"applypatch-msg", "pre-applypatch", "post-applypatch", "pre-commit", "pre-merge-commit",
	"prepare-commit-msg", "commit-msg", "post-commit", "pre-rebase", "post-checkout", "post-merge",
	"pre-push", "pre-receive", "update", "proc-receive", "post-receive", "post-update",
	"reference-transaction", "push-to-checkout", "pre-auto-gc", "post-rewrite", "sendemail-validate",
	"fsmonitor-watchman", "p4-changelist", "p4-prepare-changelist", "p4-post-changelist", "p4-pre-submit",
	"post-index-change",
}

// takeSnapshot records, for the scan of folders (scanWorkspace), every
// auto-run file and folder with all it holds, and for each repository its
// hooks folder with all it holds and its configuration (repoprotect.go's
// list). known are the repositories of the snapshot before, when this one
// is taken after: a repository that is new has its hooks, its config
// (judged by what it holds, not compared) and a commondir recorded.
//
// The repositories' single files (configs, commondir, `.git` files) are
// recorded first and outside the budget (the scan bounds how many there
// are), and the folders' contents after: a command that fills one hooks
// or auto-run folder past the budget cannot hide a new repository's
// core.fsmonitor further on.
func takeSnapshot(folders []string, scan workspaceScan, known map[string]bool) *autoRunSnap {
	s := &autoRunSnap{folders: folders, entries: map[string]snapEntry{}, repos: map[string]bool{}, budget: sentinelEntries}
	s.repoFiles(scan, known)
	for _, p := range scan.autoRun {
		s.walkRoot(p, watchAutoRun)
	}
	for _, p := range scan.vcs {
		if fi, err := os.Lstat(p); err == nil && fi.IsDir() && strings.EqualFold(filepath.Base(p), ".git") {
			s.walkRoot(filepath.Join(p, "hooks"), watchHook)
		}
	}
	if s.budget < 0 {
		slog.Warn("run: stopped recording auto-run files and hooks to check after the command", "limit", sentinelEntries)
	}
	return s
}

// repoFiles records each repository's single files (gitFolder's configs
// and commondir, a `.git` file, .hg/hgrc, .jj/repo/config.toml), outside
// the budget.
func (s *autoRunSnap) repoFiles(scan workspaceScan, known map[string]bool) {
	budget := s.budget
	s.budget = math.MaxInt
	defer func() { s.budget = budget }()
	for _, p := range scan.vcs {
		fi, err := os.Lstat(p)
		if err != nil {
			continue
		}
		fresh := known != nil && !known[p]
		switch strings.ToLower(filepath.Base(p)) {
		case ".git":
			s.repos[p] = true
			if fi.Mode().IsRegular() {
				s.record(p, watchRepoFile)
			} else if fi.IsDir() {
				s.gitFolder(p, fresh)
			}
		case ".hg":
			if !fresh {
				s.record(filepath.Join(p, "hgrc"), watchRepoFile)
			}
		case ".jj":
			if !fresh {
				s.record(filepath.Join(p, "repo", "config.toml"), watchRepoFile)
			}
		}
	}
}

// gitFolder records a git folder's configuration and each linked
// worktree's; of a new repository (fresh) its config as a new one and a
// commondir (which makes git read another folder's config), which neither
// `git init` nor `git clone` writes; and the hooks git runs
// (gitHookNames). Its hooks folder is walked after (takeSnapshot).
func (s *autoRunSnap) gitFolder(dir string, fresh bool) {
	for _, name := range gitHookNames {
		s.record(filepath.Join(dir, "hooks", name), watchHook)
	}
	if fresh {
		s.record(filepath.Join(dir, "config"), watchNewConfig)
		s.record(filepath.Join(dir, "commondir"), watchRepoFile)
		return
	}
	s.record(filepath.Join(dir, "config"), watchConfig)
	s.record(filepath.Join(dir, "config.worktree"), watchConfig)
	s.record(filepath.Join(dir, "commondir"), watchRepoFile)
	entries, _ := os.ReadDir(filepath.Join(dir, "worktrees"))
	for _, e := range entries {
		if e.IsDir() {
			wt := filepath.Join(dir, "worktrees", e.Name())
			s.record(filepath.Join(wt, "config.worktree"), watchConfig)
			s.record(filepath.Join(wt, "commondir"), watchRepoFile)
		}
	}
}

// walkRoot walks one auto-run or hooks folder, noting it in cut when the
// budget stops the walk.
func (s *autoRunSnap) walkRoot(p string, kind watchKind) {
	s.walking = p
	s.walk(p, kind)
	s.walking = ""
}

// walk records p and, when it is a folder (not a link), all it holds.
func (s *autoRunSnap) walk(p string, kind watchKind) {
	fi, ok := s.record(p, kind)
	if !ok || !fi.IsDir() {
		return
	}
	entries, err := os.ReadDir(p)
	if err != nil {
		return
	}
	for _, e := range entries {
		s.walk(filepath.Join(p, e.Name()), kind)
	}
}

// record records one path (Lstat); false when it does not exist, a file
// was recorded already, or the budget is spent.
func (s *autoRunSnap) record(p string, kind watchKind) (fs.FileInfo, bool) {
	if e, done := s.entries[p]; done && !e.mode.IsDir() {
		return nil, false // recorded already (a hook git runs): read and counted once
	}
	if s.budget--; s.budget < 0 {
		if s.walking != "" && !slices.Contains(s.cut, s.walking) {
			s.cut = append(s.cut, s.walking)
		}
		return nil, false
	}
	fi, err := os.Lstat(p)
	if err != nil {
		return nil, false
	}
	e := snapEntry{kind: kind, mode: fi.Mode(), size: fi.Size(), mtime: fi.ModTime()}
	switch {
	case fi.Mode()&fs.ModeSymlink != 0:
		e.link, _ = os.Readlink(p)
	case fi.Mode().IsRegular():
		e.data, e.capped = s.read(p, fi.Size())
	}
	s.entries[p] = e
	return fi, true
}

// read is a regular file's content within the caps (not following a link
// that replaced it since the Lstat), or capped.
func (s *autoRunSnap) read(p string, size int64) ([]byte, bool) {
	if size > sentinelFileCap || s.bytes+size > sentinelTotalCap {
		return nil, true
	}
	f, err := os.OpenFile(p, os.O_RDONLY|noFollow, 0)
	if err != nil {
		return nil, true
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, sentinelFileCap+1))
	if err != nil || int64(len(b)) > sentinelFileCap {
		return nil, true
	}
	s.bytes += int64(len(b))
	return b, false
}
