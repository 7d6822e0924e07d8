package checkpoint

import (
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
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
// process one more prune.
func (s *Store) stampPrune() {
	path := filepath.Join(s.dir, pruneStamp)
	if err := os.WriteFile(path, nil, 0o644); err != nil {
		slog.Debug("checkpoint: prune stamp", "err", err)
		return
	}
	now := s.now()
	_ = os.Chtimes(path, now, now)
}

// stored is one manifest on disk.
type stored struct {
	path    string
	session string
	mtime   time.Time
	size    int64
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
func (s *Store) usesOf(m stored) ([]string, error) {
	if u, ok := s.uses[m.path]; ok && u.mtime.Equal(m.mtime) && u.size == m.size {
		return u.shas, nil
	}
	var man Manifest
	if err := readJSON(m.path, &man); err != nil {
		delete(s.uses, m.path)
		return nil, err
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

// prune applies the retention rule (s.mu held). keep is the manifest just
// written: it is never dropped.
func (s *Store) prune(keep string) error {
	all, err := s.manifests()
	if err != nil {
		return err
	}
	now := s.now()
	var drop, kept []stored
	bySession := map[string][]stored{}
	for _, m := range all {
		bySession[m.session] = append(bySession[m.session], m)
	}
	for _, list := range bySession {
		sort.Slice(list, func(i, j int) bool { return newer(list[i], list[j]) }) // newest first
		for i, m := range list {
			tooMany := s.retention.PerSession > 0 && i >= s.retention.PerSession
			tooOld := s.retention.MaxAge > 0 && now.Sub(m.mtime) > s.retention.MaxAge
			if m.path != keep && (tooMany || tooOld) {
				drop = append(drop, m)
			} else {
				kept = append(kept, m)
			}
		}
	}
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
		if kept[i].path == keep {
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

// collect removes the objects no manifest uses (older than objectGrace).
func (s *Store) collect(refs map[string]int) error {
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
		if refs[e.Name()] > 0 || strings.HasPrefix(e.Name(), ".") {
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

// manifests lists every checkpoint manifest of the store.
func (s *Store) manifests() ([]stored, error) {
	sessions, err := os.ReadDir(s.dir)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil
		}
		return nil, err
	}
	var out []stored
	for _, d := range sessions {
		if !d.IsDir() || d.Name() == "objects" || !ValidID(d.Name()) {
			continue
		}
		files, err := os.ReadDir(filepath.Join(s.dir, d.Name()))
		if err != nil {
			continue
		}
		for _, f := range files {
			name := f.Name()
			if f.IsDir() || !strings.HasSuffix(name, ".json") || name == knownFile || !ValidID(strings.TrimSuffix(name, ".json")) {
				continue
			}
			fi, err := f.Info()
			if err != nil {
				continue
			}
			out = append(out, stored{path: filepath.Join(s.dir, d.Name(), name), session: d.Name(), mtime: fi.ModTime(), size: fi.Size()})
		}
	}
	return out, nil
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
