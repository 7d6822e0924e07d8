package checkpoint

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
)

// knownFile holds, per session, the digest agentls last knew each file by.
const knownFile = "known.json"

// Known is what agentls last knew of each file (by manifest key): the
// digest of its own last write or of its last scan; "" for a file it knew
// as absent. A file whose digest is neither this nor the checkpoint's was
// changed by someone else: a rewind leaves it alone.
type Known map[string]string

// LoadKnown reads a session's Known (empty when there is none yet).
func (s *Store) LoadKnown(sessionID string) (Known, error) {
	if !ValidID(sessionID) {
		return nil, fmt.Errorf("checkpoint: invalid session id %q", sessionID)
	}
	k := Known{}
	err := readJSON(filepath.Join(s.dir, sessionID, knownFile), &k)
	if errors.Is(err, fs.ErrNotExist) {
		return Known{}, nil
	}
	return k, err
}

// UpdateKnown merges changes into a session's Known and stores it
// atomically.
func (s *Store) UpdateKnown(sessionID string, changes Known) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	k, err := s.LoadKnown(sessionID)
	if err != nil {
		k = Known{} // a damaged file is rebuilt from what is known now
	}
	for key, sha := range changes {
		k[key] = sha
	}
	return writeJSON(filepath.Join(s.dir, sessionID, knownFile), k, false)
}

// KnownOf is the Known of a whole manifest: every file's digest, and ""
// for each key of previous that the manifest no longer has.
func KnownOf(man Manifest, previous Known) Known {
	out := Known{}
	for key := range previous {
		out[key] = ""
	}
	for key, e := range man {
		out[key] = e.SHA256
	}
	return out
}

// Key is the manifest key of an absolute path of the workspace.
func (s *Store) Key(abs string) string {
	root := s.ws.Root()
	for _, f := range s.ws.Folders() {
		if rel, err := filepath.Rel(f, abs); err == nil && filepath.IsLocal(rel) {
			return keyOf(root, f, filepath.ToSlash(rel), abs)
		}
	}
	return filepath.ToSlash(abs)
}
