package checkpoint

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"time"

	"github.com/agentls/agentls/internal/exactjson"
	"github.com/agentls/agentls/workspace"
)

// knownFile holds, per session, the digest agentls last knew each file by.
const knownFile = "known.json"

// Known is what agentls last made of each file (by manifest key): the
// digest of its own last write, or of the file as a command it ran left it
// (KnowCommand); "" for a file it deleted. A file whose digest is neither
// this nor the checkpoint's was changed by someone else: a rewind leaves
// it alone.
type Known map[string]string

// knownCache is a session's Known as last read or written by this store,
// with the file's modification time and size then: a file another process
// rewrote since is read again.
type knownCache struct {
	known Known
	mtime time.Time
	size  int64
}

// LoadKnown reads a session's Known (empty when there is none yet).
func (s *Store) LoadKnown(sessionID string) (Known, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	k, err := s.loadKnownLocked(sessionID)
	return maps.Clone(k), err
}

// loadKnownLocked is LoadKnown with s.mu held; the map returned is the
// cache's own (callers clone it before handing it out).
func (s *Store) loadKnownLocked(sessionID string) (Known, error) {
	if !ValidID(sessionID) {
		return nil, fmt.Errorf("checkpoint: invalid session id %q", sessionID)
	}
	path := filepath.Join(s.dir, sessionID, knownFile)
	fi, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		delete(s.known, sessionID)
		return Known{}, nil
	}
	if err != nil {
		return nil, err
	}
	if c, ok := s.known[sessionID]; ok && c.mtime.Equal(fi.ModTime()) && c.size == fi.Size() {
		return c.known, nil
	}
	k := Known{}
	if err := readJSON(path, &k); err != nil {
		delete(s.known, sessionID)
		if errors.Is(err, fs.ErrNotExist) {
			return Known{}, nil
		}
		return k, err
	}
	s.known[sessionID] = knownCache{known: k, mtime: fi.ModTime(), size: fi.Size()}
	return k, nil
}

// UpdateKnown merges changes into a session's Known and stores it
// atomically; changes that change nothing write nothing.
func (s *Store) UpdateKnown(sessionID string, changes Known) error {
	return s.updateKnown(sessionID, func(Known) Known { return changes })
}

// updateKnown merges changesOf(the session's Known) into it, as UpdateKnown
// says, under one hold of s.mu.
func (s *Store) updateKnown(sessionID string, changesOf func(old Known) Known) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	old, err := s.loadKnownLocked(sessionID)
	if err != nil {
		old = Known{} // a damaged file is rebuilt from what is known now
	}
	changes := changesOf(old)
	if len(changes) == 0 || len(old) > 0 && subsetOf(changes, old) {
		return nil
	}
	k := maps.Clone(old)
	if k == nil {
		k = Known{}
	}
	maps.Copy(k, changes)
	if err := s.checkOwnFolders(sessionID); err != nil {
		return err
	}
	path := filepath.Join(s.dir, sessionID, knownFile)
	if err := writeJSON(path, k, false); err != nil {
		delete(s.known, sessionID)
		return err
	}
	if fi, err := os.Stat(path); err == nil {
		s.known[sessionID] = knownCache{known: k, mtime: fi.ModTime(), size: fi.Size()}
	}
	return nil
}

// subsetOf reports whether every entry of changes is already in k.
func subsetOf(changes, k Known) bool {
	for key, sha := range changes {
		if have, ok := k[key]; !ok || have != sha {
			return false
		}
	}
	return true
}

// changesBetween is what after changed of before: each file after has
// with another digest (or new), and "" for each one before had that after
// no longer has.
func changesBetween(before, after Manifest) Known {
	out := Known{}
	for key := range before {
		if _, ok := after[key]; !ok {
			out[key] = ""
		}
	}
	for key, e := range after {
		if b, ok := before[key]; !ok || b.SHA256 != e.SHA256 {
			out[key] = e.SHA256
		}
	}
	return out
}

// Key is the manifest key of an absolute path of the workspace.
func (s *Store) Key(abs string) string {
	for _, f := range s.ws.Folders() {
		if rel, err := filepath.Rel(f, abs); err == nil && filepath.IsLocal(rel) {
			return s.ws.Key(workspace.Path{Abs: abs, Rel: filepath.ToSlash(rel), Folder: f})
		}
	}
	return filepath.ToSlash(abs)
}

// MarshalJSON writes k with its paths exactly (exactjson), as Manifest.
func (k Known) MarshalJSON() ([]byte, error) { return exactjson.StringMap(k).MarshalJSON() }

// UnmarshalJSON reads what MarshalJSON writes (and files written before).
func (k *Known) UnmarshalJSON(b []byte) error { return (*exactjson.StringMap)(k).UnmarshalJSON(b) }
