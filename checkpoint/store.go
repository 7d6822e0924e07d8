package checkpoint

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/agentls/agentls/internal/statefile"
	"github.com/agentls/agentls/workspace"
)

// Retention bounds the store: the last PerSession checkpoints of each
// session no older than MaxAge are kept, and the oldest checkpoints of the
// workspace are dropped first while the objects they keep alive pass
// MaxBytes.
type Retention struct {
	PerSession int
	MaxAge     time.Duration
	MaxBytes   int64
}

// DefaultRetention is the rule of docs/rewind.md: 100 checkpoints per
// session, 14 days, 512 MiB per workspace.
var DefaultRetention = Retention{PerSession: 100, MaxAge: 14 * 24 * time.Hour, MaxBytes: 512 << 20}

// PruneEvery is how many checkpoints a store takes between two prunes
// (the first save after Open prunes too, unless a prune ran within
// PruneInterval: see pruneDue).
const PruneEvery = 10

// PruneInterval is how recent the workspace's last prune (by any agentls
// process) must be for the first save after Open to skip its own: a turn
// in a new process does not read every manifest of a workspace with many
// sessions when one was just pruned.
const PruneInterval = time.Hour

// Store is a workspace's checkpoint store. Its methods are safe for
// concurrent use.
type Store struct {
	ws        *workspace.Workspace
	dir       string
	retention Retention
	now       func() time.Time
	maxFiles  int // MaxFiles (tests lower it)
	// pruneEvery is how many saves a prune waits for (PruneEvery; tests set 1).
	pruneEvery int
	// sincePrune counts the saves since the last prune (s.mu).
	sincePrune int

	// mu orders saves and prunes (a prune never drops an object a save in
	// flight uses) and guards cache.
	mu    sync.Mutex
	cache map[string]cached // absolute path → what it hashed to
	// hashes is the persistent digest cache's state (hashcache.go).
	hashes hashCacheState
	// fsNow is the file system's clock, for the racy rule (time.Now; the
	// retention clock now is one tests move).
	fsNow func() time.Time
	// hashed counts the files read and hashed (tests).
	hashed int
	// manifestReads counts the manifests a prune read (tests).
	manifestReads int
	// walks counts the workspace walks (Walks).
	walks int
	uses  map[string]manifestUses // manifest path → the objects it uses (prune.go)
	sizes map[string]int64        // object name → its size (prune.go)
	known map[string]knownCache   // session → its Known as last read or written (known.go)
	// saves are the files the editor reported saved (editor_saves.go); they
	// have a lock of their own, taken without I/O.
	saves editorSaves
	// listings is each session folder's manifests as last listed (prune.go).
	listings map[string]sessionListing
	// last is each session's last manifest, for linking an unchanged
	// workspace's next one to it (relink.go).
	last map[string]lastManifest
}

// cached is a file's digest as of its stamp.
type cached struct {
	stamp stamp
	entry Entry
}

// racyWindow is how recent a modification time may be for its file to be
// hashed again next time: a write in the same clock tick as the last scan
// can keep size and mtime.
const racyWindow = 2 * time.Second

// Open returns the store of ws, in <root>/.agentls/checkpoints.
func Open(ws *workspace.Workspace, retention Retention) *Store {
	return &Store{
		ws: ws, dir: filepath.Join(ws.Root(), ".agentls", "checkpoints"),
		retention: retention, now: time.Now, fsNow: time.Now, cache: map[string]cached{}, maxFiles: MaxFiles,
		uses: map[string]manifestUses{}, sizes: map[string]int64{}, known: map[string]knownCache{}, pruneEvery: PruneEvery,
		listings: map[string]sessionListing{}, last: map[string]lastManifest{},
	}
}

// Dir is the store's folder.
func (s *Store) Dir() string { return s.dir }

// ValidID reports whether id may name a session or a checkpoint: 1 to 100
// of A-Z, a-z, 0-9, '_' and '-' (no path separators, no dots, so that it
// names one file under the store). A loop, not a regular expression: a
// prune checks the name of every manifest of the workspace.
func ValidID(id string) bool {
	if len(id) == 0 || len(id) > 100 {
		return false
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		if !(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

func (s *Store) manifestPath(sessionID, id string) (string, error) {
	if !ValidID(sessionID) || !ValidID(id) || id+".json" == knownFile || sessionID == "objects" {
		return "", fmt.Errorf("checkpoint: invalid id %q/%q", sessionID, id)
	}
	return filepath.Join(s.dir, sessionID, id+".json"), nil
}

func (s *Store) objectPath(sha string) string { return filepath.Join(s.dir, "objects", sha) }

// Abs is the absolute path of a manifest key.
func (s *Store) Abs(key string) string {
	if filepath.IsAbs(filepath.FromSlash(key)) {
		return filepath.FromSlash(key)
	}
	return filepath.Join(s.ws.Root(), filepath.FromSlash(key))
}

// MaxFiles is the most files a checkpoint lists: a larger workspace (a
// home folder) gets no checkpoints, and a rewind says so.
const MaxFiles = 50000

// ErrTooManyFiles is the error of a checkpoint of a workspace with more
// than MaxFiles files.
var ErrTooManyFiles = fmt.Errorf("the workspace has more than %d files (after .gitignore): agentls takes no checkpoints of it", MaxFiles)

// scan hashes the workspace's files (the cache spares unchanged ones) and
// returns them as a manifest. It stores no object: storeObjects does, once
// the whole walk succeeded (a workspace over MaxFiles leaves no objects
// behind).
func (s *Store) scan(ctx context.Context) (Manifest, error) {
	s.walks++
	s.loadHashCache()
	out := Manifest{}
	err := s.ws.WalkFiles(ctx, func(f workspace.WalkedFile) error {
		if len(out) >= s.maxFiles {
			return ErrTooManyFiles
		}
		e, ok, err := s.file(f.Abs, false)
		if err != nil {
			return err
		}
		if ok {
			out[s.ws.Key(workspace.Path{Abs: f.Abs, Rel: f.Rel, Folder: f.Folder})] = e
		}
		return nil
	})
	return out, err
}

// storeObjects stores the content of each restorable file of man whose
// object is missing or damaged (hasObject), updating man for a file that
// changed since the walk. The caller holds the store's shared lock
// (lockShared) until the manifest is on disk.
func (s *Store) storeObjects(ctx context.Context, man Manifest) error {
	for key, e := range man {
		if e.Unrestorable || s.hasObject(e.SHA256, e.Size) {
			continue
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		e, ok, err := s.file(s.Abs(key), true) // changed since the walk: its content now
		if err != nil {
			return err
		}
		if ok {
			man[key] = e
		} else {
			delete(man, key)
		}
	}
	return nil
}

// Scan hashes the workspace's files without storing them.
func (s *Store) Scan(ctx context.Context) (Manifest, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.scan(ctx)
}

// Walks is how many times the store walked the workspace (a checkpoint's
// save, a scan around a command): the cost of a turn on a large
// workspace, which tests and benchmarks count.
func (s *Store) Walks() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.walks
}

// Current is the entry of one file as it is now; ok is false when it does
// not exist (or is not a regular file).
func (s *Store) Current(abs string) (Entry, bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.file(abs, false)
}

// file hashes one file (s.mu held), storing its object when keep is set.
// ok is false when it is gone or not a regular file. A file whose stamp
// matches the cache is not read (unless its object is needed and missing);
// only its digest and whether it is restorable come from the cache, its
// size and mode from the file system.
func (s *Store) file(abs string, keep bool) (Entry, bool, error) {
	fi, err := os.Lstat(abs)
	if err != nil || !fi.Mode().IsRegular() {
		delete(s.cache, abs)
		return Entry{}, false, nil
	}
	st := stampOf(fi)
	if c, hit := s.cache[abs]; hit && c.stamp == st {
		e := c.entry
		e.Size, e.Mode = fi.Size(), uint32(fi.Mode().Perm())
		if e.Size > MaxFileBytes {
			e.Unrestorable = true
		}
		if !keep || e.Unrestorable || s.hasObject(e.SHA256, e.Size) {
			return e, true, nil
		}
	}
	s.hashed++
	data, sum, err := readListed(abs, fi.Size(), fi)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return Entry{}, false, nil
		}
		// An unreadable file is listed, not kept: a rewind skips it.
		delete(s.cache, abs)
		return Entry{SHA256: Digest([]byte("unreadable: " + err.Error())), Size: fi.Size(), Mode: uint32(fi.Mode().Perm()), Unrestorable: true}, true, nil
	}
	e := Entry{SHA256: sum, Size: fi.Size(), Mode: uint32(fi.Mode().Perm())}
	if data == nil || !Restorable(data) {
		e.Unrestorable = true
	} else {
		e.Size = int64(len(data))
	}
	if keep && !e.Unrestorable && !s.hasObject(e.SHA256, e.Size) {
		if err := s.putObject(e.SHA256, data); err != nil {
			return Entry{}, false, err
		}
	}
	if cacheable(st, s.fsNow()) && e.Size == st.size {
		s.cache[abs] = cached{stamp: st, entry: e}
		if st.full() {
			s.hashes.fresh++
		}
	} else {
		delete(s.cache, abs)
	}
	return e, true, nil
}

// readFile returns a file's digest and, when it has at most MaxFileBytes,
// its content (nil for a larger file, which is hashed as it streams). size
// is the file's size as last seen: the content is read into one buffer of
// that size (the file may have changed since; the read goes on to its end
// and the buffer grows), and a file of at most MaxFileBytes is hashed in
// one call, without a copy buffer.
//
// Only a regular file is read, never through a symbolic link and never a
// FIFO (statefile.Open): the file was listed by Lstat, and one swapped in
// since for a link (to a private key outside) or a FIFO (whose opening
// would block the turn) is not read.
func readFile(abs string, size int64) ([]byte, string, error) {
	return readListed(abs, size, nil)
}

// readListed is readFile of the file listed as fi (nil: any regular file):
// a file that is not the one listed (another inode, reached through a
// folder swapped for a link since) is not read.
func readListed(abs string, size int64, listed fs.FileInfo) ([]byte, string, error) {
	f, fi, err := statefile.OpenInfo(abs, os.O_RDONLY, 0)
	if err != nil {
		return nil, "", err
	}
	defer f.Close()
	if listed != nil && !os.SameFile(fi, listed) {
		return nil, "", fmt.Errorf("%s changed since it was listed", abs)
	}
	// One byte more than the file holds: the read that sees its end then
	// needs no room of its own, and a file grown past the cap shows.
	data := make([]byte, 0, min(max(size, 0), MaxFileBytes)+1)
	for len(data) <= MaxFileBytes {
		if len(data) == cap(data) {
			data = slices.Grow(data, min(cap(data), MaxFileBytes+1-len(data)))
		}
		n, err := f.Read(data[len(data):cap(data)])
		data = data[:len(data)+n]
		if err == io.EOF {
			sum := sha256.Sum256(data)
			return data, hex.EncodeToString(sum[:]), nil
		}
		if err != nil {
			return nil, "", err
		}
	}
	// Over the cap: hash what was read and stream the rest.
	h := sha256.New()
	h.Write(data)
	if _, err := io.Copy(h, f); err != nil {
		return nil, "", err
	}
	return nil, hex.EncodeToString(h.Sum(nil)), nil
}

// validDigest reports whether sha is a hex SHA-256 (an object's name: a
// manifest edited by hand cannot name another file).
func validDigest(sha string) bool {
	if len(sha) != 64 {
		return false
	}
	_, err := hex.DecodeString(sha)
	return err == nil
}

// Digest is the hex SHA-256 of data.
func Digest(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// Restorable reports whether data is kept by a checkpoint: text of at most
// MaxFileBytes, by the workspace's one rule (workspace.IsBinary: no NUL
// byte in its first 8 KiB), so that every file the agent may edit is one a
// rewind restores.
func Restorable(data []byte) bool {
	return len(data) <= MaxFileBytes && !workspace.IsBinary(data)
}

// hasObject reports whether the object sha is stored whole: a regular
// file of size bytes. An object a power failure left empty or cut short
// (objects are not synced: putObject) is not, and is stored again: every
// later checkpoint of that content would name a damaged object.
//
// An object found whole is reused, so it is refreshed (its modification
// time set to now) when it is older than half of objectGrace: a prune,
// here or in another process, that listed the manifests before this
// save's is written then finds it young and keeps it (collect). The
// caller holds the shared lock, which a collect waits out.
func (s *Store) hasObject(sha string, size int64) bool {
	path := s.objectPath(sha)
	fi, err := os.Lstat(path)
	if err != nil || !fi.Mode().IsRegular() || fi.Size() != size {
		return false
	}
	if now := time.Now(); now.Sub(fi.ModTime()) > objectGrace/2 {
		if err := os.Chtimes(path, now, now); err != nil {
			return false // gone since (collected): store it again
		}
	}
	return true
}

func (s *Store) putObject(sha string, data []byte) error {
	dir := filepath.Join(s.dir, "objects")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("checkpoint objects: %w", err)
	}
	// Not synced: an object lost to a power failure is found damaged or
	// missing (Object checks its content against its name), never wrong.
	if err := workspace.ReplaceFile(s.objectPath(sha), data, 0o644); err != nil {
		return fmt.Errorf("checkpoint object %s: %w", sha, err)
	}
	delete(s.sizes, sha) // a damaged object's size, replaced
	return nil
}

// Object returns the content of an object, checked against its digest.
func (s *Store) Object(sha string) ([]byte, error) {
	if !validDigest(sha) {
		return nil, fmt.Errorf("checkpoint: invalid object name %q", sha)
	}
	data, _, err := statefile.Read(s.objectPath(sha), MaxFileBytes)
	if err != nil {
		return nil, fmt.Errorf("checkpoint object %s: %w", sha, err)
	}
	if Digest(data) != sha {
		return nil, fmt.Errorf("checkpoint object %s is damaged (its content does not match its name)", sha)
	}
	return data, nil
}

// Save takes a checkpoint of the workspace named by sessionID and id: the
// content of its restorable files as objects, the manifest last. Then,
// every PruneEvery saves, the store is pruned (Retention); the session's
// checkpoints named by keep (a rewind's target, whose undo checkpoint
// this is) are kept through that prune, with their objects.
func (s *Store) Save(ctx context.Context, sessionID, id string, keep ...string) (Manifest, error) {
	path, err := s.manifestPath(sessionID, id)
	if err != nil {
		return nil, err
	}
	kept := map[string]bool{path: true}
	for _, k := range keep {
		p, err := s.manifestPath(sessionID, k)
		if err != nil {
			return nil, err
		}
		kept[p] = true
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.checkOwnFolders(sessionID); err != nil {
		return nil, err
	}
	man, err := s.scan(ctx)
	if err != nil {
		return nil, fmt.Errorf("checkpoint scan: %w", err)
	}
	if err := s.storeAndList(ctx, sessionID, path, man); err != nil {
		return nil, err
	}
	s.saveHashCache(man)
	// The first save after Open prunes (when no process pruned within
	// PruneInterval), then every pruneEvery-th: the retention rule is held
	// to within that many checkpoints, and a turn does not list every
	// manifest and object of the workspace.
	//
	// A prune looks at the whole workspace only when the workspace's last
	// whole prune is PruneInterval old (pruneDue); the others look at this
	// session's checkpoints and the objects' total, and go on to the whole
	// workspace only when they find something to drop (pruneSession).
	if s.sincePrune%s.pruneEvery == 0 {
		whole := s.pruneDue()
		if whole || s.sincePrune > 0 {
			if err := s.prune(kept, sessionID, whole); err != nil {
				return man, fmt.Errorf("checkpoint retention: %w", err)
			}
			if whole {
				s.stampPrune()
			}
		}
	}
	s.sincePrune++
	return man, nil
}

// storeAndList stores man's objects and writes it as the manifest path,
// under the shared lock (lockShared): no prune, in this process or
// another, collects an object between this save finding it and its
// manifest naming it.
func (s *Store) storeAndList(ctx context.Context, sessionID, path string, man Manifest) error {
	unlock, err := s.lockShared(ctx)
	if err != nil {
		return err
	}
	defer unlock()
	if err := s.storeObjects(ctx, man); err != nil {
		return fmt.Errorf("checkpoint scan: %w", err)
	}
	if !s.linkUnchanged(sessionID, path, man) {
		if err := writeJSON(path, man, false); err != nil {
			delete(s.last, sessionID)
			return fmt.Errorf("checkpoint manifest: %w", err)
		}
		s.rememberManifest(sessionID, path, man)
	}
	return nil
}

// Load reads the manifest of a checkpoint; an unknown one is fs.ErrNotExist.
func (s *Store) Load(sessionID, id string) (Manifest, error) {
	path, err := s.manifestPath(sessionID, id)
	if err != nil {
		return nil, err
	}
	var man Manifest
	if err := readJSON(path, &man); err != nil {
		return nil, err
	}
	return man, nil
}

// Has reports whether the checkpoint exists.
func (s *Store) Has(sessionID, id string) bool {
	path, err := s.manifestPath(sessionID, id)
	if err != nil {
		return false
	}
	_, err = os.Stat(path)
	return err == nil
}

// writeJSON replaces path with v as JSON; durable syncs it to the disk
// first (the rewind journal; a manifest or the known-hashes file, written at
// every turn, costs little to lose in a power failure and is not synced).
func writeJSON(path string, v any, durable bool) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	if durable {
		return workspace.WriteFileAtomic(path, b, 0o644)
	}
	return workspace.ReplaceFile(path, b, 0o644)
}

// maxStateFileBytes bounds a manifest, a session's known.json or its
// journal: far above what a real workspace writes.
const maxStateFileBytes = 64 << 20

// readJSON decodes the store's file path (a regular file only:
// statefile.Read) into v.
func readJSON(path string, v any) error {
	b, _, err := statefile.Read(path, maxStateFileBytes)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}
