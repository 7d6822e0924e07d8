package checkpoint

import (
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/agentls/agentls/workspace"
)

// objectGrace is how old an unreferenced object must be before a prune
// removes it: another agentls process on the same workspace may be writing
// the manifest that uses it.
const objectGrace = time.Hour

// pruneStamp is the file whose modification time says when the last prune
// of the workspace ran (pruneDue). It starts with a dot: collect skips it.
const pruneStamp = ".pruned"

// pruneDue reports whether the workspace's last prune is older than
// PruneInterval (or unknown).
func (s *Store) pruneDue() bool {
	fi, err := os.Stat(filepath.Join(s.dir, pruneStamp))
	return err != nil || s.now().Sub(fi.ModTime()) >= PruneInterval || fi.ModTime().After(s.now().Add(time.Minute))
}

// stampPrune records that a prune ran now; a failure only costs the next
// process one more prune. The stamp is replaced (a new file renamed over
// it), never written through: a stamp a repository shipped as a symbolic
// link to a file of the user's is replaced by a file of agentls's own,
// and the file it led to is left alone.
func (s *Store) stampPrune() {
	path := filepath.Join(s.dir, pruneStamp)
	if err := workspace.ReplaceFile(path, nil, 0o644); err != nil {
		slog.Debug("checkpoint: prune stamp", "err", err)
		return
	}
	if fi, err := os.Lstat(path); err == nil && fi.Mode().IsRegular() {
		now := s.now()
		_ = os.Chtimes(path, now, now)
	}
}

// stored is one manifest on disk.
type stored struct {
	path    string
	session string
	mtime   time.Time
	size    int64
	st      stamp // as listed
}

// newer orders manifests by modification time, then by name (checkpoint
// ids are UUIDv7s, which sort by time): two written in the same clock tick
// keep their order.
func newer(a, b stored) bool {
	if !a.mtime.Equal(b.mtime) {
		return a.mtime.After(b.mtime)
	}
	return a.path > b.path
}

// manifestUses is what a prune keeps of a manifest it read: the objects it
// uses, as of its modification time and size (a manifest is written once;
// one rewritten under the same name is read again).
type manifestUses struct {
	mtime time.Time
	size  int64
	shas  []string
}

// usesOf is the objects manifest m uses, from s.uses when m is unchanged
// since it was read (s.mu held): a prune after each turn reads only the
// manifest just written, not the hundred it keeps.
//
// Nor does it read a hard link of the session's last manifest (relink.go)
// that is still as this store left it: linking an unchanged workspace's
// checkpoint dates the shared file now, so every earlier link of it looks
// rewritten to the cache above, and a whole prune of a long session read
// them all again. A manifest listed with exactly the last manifest's full
// stamp (inode, device, size, modification and change times; the kernel
// sets the change time at any write, and no one can set it back) is that
// file unchanged since the store wrote or linked it: its content is the
// store's own copy.
func (s *Store) usesOf(m stored) ([]string, error) {
	if u, ok := s.uses[m.path]; ok && u.mtime.Equal(m.mtime) && u.size == m.size {
		return u.shas, nil
	}
	var man Manifest
	if last, ok := s.last[m.session]; ok && m.st.full() && m.st == last.stamp {
		man = last.man
	} else {
		s.manifestReads++
		if err := readJSON(m.path, &man); err != nil {
			delete(s.uses, m.path)
			return nil, err
		}
	}
	var shas []string
	for _, e := range man {
		if !e.Unrestorable {
			shas = append(shas, e.SHA256)
		}
	}
	shas = uniq(shas)
	s.uses[m.path] = manifestUses{mtime: m.mtime, size: m.size, shas: shas}
	return shas, nil
}

// prune applies the retention rule (s.mu held). keep holds the manifest
// just written, of session, and those its save named: they are never
// dropped. Unless whole is set, it first looks at session's checkpoints
// and the objects' total only, and stops there when nothing needs
// dropping: a prune in a new process does not list
// every manifest of a workspace with many sessions (another session's
// checkpoints only age, and the whole prune, at most PruneInterval apart,
// drops them).
func (s *Store) prune(keep map[string]bool, session string, whole bool) error {
	if !whole {
		own := s.listingOf(session, nil)
		drop, _ := s.retain(map[string][]stored{session: own}, keep)
		_, total, err := s.objectSizes()
		if err != nil {
			return err
		}
		if len(drop) == 0 && (s.retention.MaxBytes <= 0 || total <= s.retention.MaxBytes) {
			return nil
		}
	}
	all, err := s.manifests()
	if err != nil {
		return err
	}
	bySession := map[string][]stored{}
	for _, m := range all {
		bySession[m.session] = append(bySession[m.session], m)
	}
	drop, kept := s.retain(bySession, keep)
	sort.Slice(kept, func(i, j int) bool { return newer(kept[j], kept[i]) }) // oldest first
	objects, total, err := s.objectSizes()
	if err != nil {
		return err
	}
	// Nothing to drop and every object, used or not, within the budget:
	// no manifest needs reading (a new process's first prune of a
	// workspace with many sessions would read them all). Objects no
	// manifest uses any more go at the next prune that drops one.
	if len(drop) == 0 && (s.retention.MaxBytes <= 0 || total <= s.retention.MaxBytes) {
		return nil
	}
	refs := map[string]int{}
	uses := make([][]string, len(kept))
	for i, m := range kept {
		shas, err := s.usesOf(m)
		if err != nil {
			slog.Warn("checkpoint: unreadable manifest dropped", "path", m.path, "err", err)
			drop = append(drop, m)
			continue
		}
		uses[i] = shas
		for _, sha := range shas {
			refs[sha]++
		}
	}
	// The whole workspace over its budget: the oldest checkpoints go first,
	// until the objects the others use fit.
	live := int64(0)
	for sha := range refs {
		live += objects[sha]
	}
	for i := 0; i < len(kept) && s.retention.MaxBytes > 0 && live > s.retention.MaxBytes; i++ {
		if keep[kept[i].path] {
			continue
		}
		drop = append(drop, kept[i])
		for _, sha := range uses[i] {
			if refs[sha]--; refs[sha] == 0 {
				live -= objects[sha]
			}
		}
	}
	for _, m := range drop {
		delete(s.uses, m.path)
		if err := os.Remove(m.path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("drop checkpoint %s: %w", m.path, err)
		}
	}
	return s.collect(refs)
}

// retain splits each session's manifests into those the per-session rules
// (PerSession, MaxAge) drop and those they keep; keep's are never dropped.
func (s *Store) retain(bySession map[string][]stored, keep map[string]bool) (drop, kept []stored) {
	now := s.now()
	for _, list := range bySession {
		list = slices.Clone(list)
		sort.Slice(list, func(i, j int) bool { return newer(list[i], list[j]) }) // newest first
		for i, m := range list {
			tooMany := s.retention.PerSession > 0 && i >= s.retention.PerSession
			tooOld := s.retention.MaxAge > 0 && now.Sub(m.mtime) > s.retention.MaxAge
			if !keep[m.path] && (tooMany || tooOld) {
				drop = append(drop, m)
			} else {
				kept = append(kept, m)
			}
		}
	}
	return drop, kept
}

// collect removes the objects no manifest uses (older than objectGrace),
// holding the store's lock exclusively: while a save of another process
// holds it, nothing is collected (the next prune does). A save refreshes
// the objects it reuses (hasObject), so one that found an object before
// this prune listed its manifest keeps it young.
func (s *Store) collect(refs map[string]int) error {
	unlock, ok := s.tryLockExclusive()
	if !ok {
		slog.Debug("checkpoint: a save in another process holds the store: objects are collected at a later prune")
		return nil
	}
	defer unlock()
	dir := filepath.Join(s.dir, "objects")
	entries, err := os.ReadDir(dir)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		return err
	}
	now := s.now()
	for _, e := range entries {
		// Only what a save writes there: a regular file named by a digest.
		if refs[e.Name()] > 0 || !validDigest(e.Name()) || !e.Type().IsRegular() {
			continue
		}
		fi, err := e.Info()
		if err != nil || now.Sub(fi.ModTime()) < objectGrace {
			continue
		}
		if err := os.Remove(filepath.Join(dir, e.Name())); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("drop checkpoint object: %w", err)
		}
	}
	return nil
}

// manifests lists every checkpoint manifest of the store (s.mu held).
// A session folder unchanged since it was last listed (its modification
// time and size, see listingOf) is not listed again: a prune every ten
// turns does not stat every manifest of every session of the workspace.
func (s *Store) manifests() ([]stored, error) {
	sessions, err := os.ReadDir(s.dir)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil
		}
		return nil, err
	}
	var out []stored
	seen := make(map[string]bool, len(sessions))
	for _, d := range sessions {
		if !d.IsDir() || d.Name() == "objects" || !ValidID(d.Name()) {
			continue
		}
		seen[d.Name()] = true
		fi, err := d.Info()
		if err != nil {
			continue
		}
		out = append(out, s.listingOf(d.Name(), fi)...)
	}
	for name := range s.listings {
		if !seen[name] {
			delete(s.listings, name) // deleted, here or by another process
		}
	}
	return out, nil
}

// sessionListing is a session folder's manifests as of the folder's
// modification time and size: adding, renaming over or removing a
// manifest (the only ways agentls changes one) changes the folder's
// modification time.
type sessionListing struct {
	mtime   time.Time
	size    int64
	entries []stored
}

// listingOf returns the manifests of session folder name (dir being its
// Lstat), from s.listings when the folder is unchanged and was already
// older than racyWindow when it was listed: a change in the same clock
// tick as the listing can keep the folder's modification time.
//
// A nil dir lists the folder without the cache (the session being saved,
// whose folder just changed).
func (s *Store) listingOf(name string, dir fs.FileInfo) []stored {
	if dir != nil {
		if l, ok := s.listings[name]; ok && l.mtime.Equal(dir.ModTime()) && l.size == dir.Size() {
			return l.entries
		}
	}
	listedAt := time.Now() // the file system's clock, not s.now (the retention clock tests move)
	files, err := os.ReadDir(filepath.Join(s.dir, name))
	if err != nil {
		delete(s.listings, name)
		return nil
	}
	var entries []stored
	for _, f := range files {
		fname := f.Name()
		if f.IsDir() || !strings.HasSuffix(fname, ".json") || fname == knownFile || !ValidID(strings.TrimSuffix(fname, ".json")) {
			continue
		}
		fi, err := f.Info()
		if err != nil {
			continue
		}
		entries = append(entries, stored{path: filepath.Join(s.dir, name, fname), session: name, mtime: fi.ModTime(), size: fi.Size(), st: stampOf(fi)})
	}
	if dir != nil && listedAt.Sub(dir.ModTime()) > racyWindow {
		s.listings[name] = sessionListing{mtime: dir.ModTime(), size: dir.Size(), entries: entries}
	} else {
		delete(s.listings, name)
	}
	return entries
}

// objectSizes returns each object's size and their total (s.mu held).
// Objects are named by their content, so a size once read stays true: only
// objects not seen before are stat'ed.
func (s *Store) objectSizes() (map[string]int64, int64, error) {
	entries, err := os.ReadDir(filepath.Join(s.dir, "objects"))
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, 0, nil
		}
		return nil, 0, err
	}
	out := make(map[string]int64, len(entries))
	var total int64
	for _, e := range entries {
		size, ok := s.sizes[e.Name()]
		if !ok {
			fi, err := e.Info()
			if err != nil {
				continue
			}
			size = fi.Size()
			if validDigest(e.Name()) {
				s.sizes[e.Name()] = size
			}
		}
		out[e.Name()] = size
		total += size
	}
	for name := range s.sizes {
		if _, ok := out[name]; !ok {
			delete(s.sizes, name) // collected, here or by another process
		}
	}
	return out, total, nil
}

func uniq(shas []string) []string {
	seen := make(map[string]bool, len(shas))
	out := shas[:0:0]
	for _, s := range shas {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}
