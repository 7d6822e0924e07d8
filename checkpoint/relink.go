package checkpoint

import (
	"maps"
	"os"
	"time"
)

// A checkpoint of a workspace that did not change since the session's last
// one has the same manifest. Writing it again (a temporary file, a write, a
// chmod, a rename) costs a new inode per turn, the most expensive of a
// turn's file operations (issue 24's benchmark: about a tenth of a turn on
// ext4); the new manifest is instead a hard link to the last one, with its
// modification time set to now (retention goes by it), which costs no new
// inode and no encoding. Anything unexpected — the last manifest gone,
// replaced or changed since this store wrote it (its stamp differs), a
// file system without hard links — and the manifest is written as before.

// lastManifest is the last manifest a store wrote or linked for a session:
// its path, its content (the store's own copy) and its stamp then.
type lastManifest struct {
	path  string
	man   Manifest
	stamp stamp
}

// maxLastManifests bounds the sessions whose last manifest a store keeps in
// memory (a long-lived server sees many sessions; one manifest can hold
// MaxFiles entries).
const maxLastManifests = 8

// linkUnchanged makes path a hard link to sessionID's last manifest when man
// equals it, and reports whether it did (s.mu held). On false nothing is
// left at path by it.
func (s *Store) linkUnchanged(sessionID, path string, man Manifest) bool {
	last, ok := s.last[sessionID]
	if !ok || last.path == path || !maps.Equal(last.man, man) {
		return false
	}
	fi, err := os.Lstat(last.path)
	if err != nil || !fi.Mode().IsRegular() || stampOf(fi) != last.stamp {
		return false
	}
	if err := os.Link(last.path, path); err != nil {
		return false
	}
	// The link shares the older manifest's inode and so its modification
	// time, which retention reads as the checkpoint's age: both become
	// now (the older one is as current as the new one, their content being
	// the same; their order stays by name, see newer).
	if err := os.Chtimes(path, time.Time{}, s.fsNow()); err != nil {
		os.Remove(path)
		return false
	}
	fi, err = os.Lstat(path)
	if err != nil {
		return false // it is there, though: linked, but not remembered
	}
	s.last[sessionID] = lastManifest{path: path, man: last.man, stamp: stampOf(fi)}
	return true
}

// rememberManifest records man, just written at path, as sessionID's last
// manifest (s.mu held).
func (s *Store) rememberManifest(sessionID, path string, man Manifest) {
	fi, err := os.Lstat(path)
	if err != nil {
		delete(s.last, sessionID)
		return
	}
	if _, ok := s.last[sessionID]; !ok && len(s.last) >= maxLastManifests {
		for k := range s.last { // any one: a session that saves again writes once more
			delete(s.last, k)
			break
		}
	}
	s.last[sessionID] = lastManifest{path: path, man: maps.Clone(man), stamp: stampOf(fi)}
}
