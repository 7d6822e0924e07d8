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

// stored is one manifest on disk.
type stored struct {
	path    string
	session string
	mtime   time.Time
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
		sort.Slice(list, func(i, j int) bool { return list[i].mtime.After(list[j].mtime) }) // newest first
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
	sort.Slice(kept, func(i, j int) bool { return kept[i].mtime.Before(kept[j].mtime) }) // oldest first
	objects, total, err := s.objectSizes()
	if err != nil {
		return err
	}
	refs := map[string]int{}
	uses := make([][]string, len(kept))
	for i, m := range kept {
		var man Manifest
		if err := readJSON(m.path, &man); err != nil {
			slog.Warn("checkpoint: unreadable manifest dropped", "path", m.path, "err", err)
			drop = append(drop, m)
			continue
		}
		for _, e := range man {
			if !e.Unrestorable {
				uses[i] = append(uses[i], e.SHA256)
			}
		}
		for _, sha := range uniq(uses[i]) {
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
		for _, sha := range uniq(uses[i]) {
			if refs[sha]--; refs[sha] == 0 {
				live -= objects[sha]
			}
		}
	}
	for _, m := range drop {
		if err := os.Remove(m.path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("drop checkpoint %s: %w", m.path, err)
		}
	}
	if len(drop) == 0 && total <= s.retention.MaxBytes {
		return nil
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
			out = append(out, stored{path: filepath.Join(s.dir, d.Name(), name), session: d.Name(), mtime: fi.ModTime()})
		}
	}
	return out, nil
}

// objectSizes returns each object's size and their total.
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
		fi, err := e.Info()
		if err != nil {
			continue
		}
		out[e.Name()] = fi.Size()
		total += fi.Size()
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
