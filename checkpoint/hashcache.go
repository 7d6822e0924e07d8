package checkpoint

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"github.com/agentls/agentls/internal/statefile"
	"github.com/agentls/agentls/workspace"
)

// The persistent digest cache: each file's digest by its stamp (size,
// modification and change times, inode, device), in
// `.agentls/checkpoints/.hashes`, so that a new agentls process does not
// read and hash every file of the workspace again at its first checkpoint
// (the in-memory cache only spares the later ones).
//
// The file is agentls's own state, but a repository could ship one: it is
// read as untrusted input. A damaged, truncated or malformed file is
// ignored as a whole (its checksum, then every field is checked). An entry
// is used only when the file's stamp now is the very one it names,
// including the inode and the change time in nanoseconds, which the kernel
// sets at every write, chmod or rename and no one can set back; and only
// when that stamp was older than racyWindow when the cache file was
// written (its modification time): a shipped or copied cache written in
// the same second as the files it names — a checkout — is not trusted for
// them. Only files whose stamp has a change time and an inode (Linux) are
// cached on disk.

// hashCacheFile is the cache's file in the store's folder (a dot: no
// session id has one, and the prune skips it).
const hashCacheFile = ".hashes"

// hashCacheMagic starts the file (the format's version is its last digit).
const hashCacheMagic = "agentls-hashes-1\n"

// Bounds on what the decoder accepts.
const (
	maxHashCacheBytes = 64 << 20
	maxHashCachePath  = 4096
)

// flagUnrestorable marks an entry whose file is not kept (binary or large).
const flagUnrestorable = 1

// hashRecord is one entry of the cache file.
type hashRecord struct {
	path         string
	stamp        stamp
	sha          [sha256.Size]byte
	unrestorable bool
}

// hashCacheState is a store's view of its cache file (s.mu).
type hashCacheState struct {
	loaded bool
	// fresh counts the digests cached (with full stamps) since the file
	// was last read or written: saveHashCache writes when they are many.
	fresh int
}

// encodeHashCache is the cache file holding recs: the magic, the count,
// the records, and the SHA-256 of all that.
func encodeHashCache(recs []hashRecord) []byte {
	b := make([]byte, 0, len(hashCacheMagic)+len(recs)*(80+32)+sha256.Size)
	b = append(b, hashCacheMagic...)
	b = binary.AppendUvarint(b, uint64(len(recs)))
	for _, r := range recs {
		b = binary.AppendUvarint(b, uint64(len(r.path)))
		b = append(b, r.path...)
		b = binary.AppendVarint(b, r.stamp.size)
		b = binary.AppendVarint(b, r.stamp.mtime)
		b = binary.AppendVarint(b, r.stamp.ctime)
		b = binary.AppendUvarint(b, r.stamp.ino)
		b = binary.AppendUvarint(b, r.stamp.dev)
		var flags byte
		if r.unrestorable {
			flags |= flagUnrestorable
		}
		b = append(b, flags)
		b = append(b, r.sha[:]...)
	}
	sum := sha256.Sum256(b)
	return append(b, sum[:]...)
}

// errBadHashCache is the error of a cache file that is not one agentls
// wrote whole.
var errBadHashCache = errors.New("checkpoint: the digest cache is damaged")

// decodeHashCache reads a cache file; any damage, truncation or field out
// of bounds fails the whole file.
func decodeHashCache(data []byte) ([]hashRecord, error) {
	if len(data) > maxHashCacheBytes || len(data) < len(hashCacheMagic)+1+sha256.Size ||
		!bytes.HasPrefix(data, []byte(hashCacheMagic)) {
		return nil, errBadHashCache
	}
	body, sum := data[:len(data)-sha256.Size], data[len(data)-sha256.Size:]
	if want := sha256.Sum256(body); !bytes.Equal(want[:], sum) {
		return nil, errBadHashCache
	}
	d := decoder{b: body[len(hashCacheMagic):]}
	n := d.uvarint()
	// A record takes at least 39 bytes: no count can pass the data.
	if d.err != nil || n > uint64(len(d.b)/39) {
		return nil, errBadHashCache
	}
	recs := make([]hashRecord, 0, n)
	for range n {
		var r hashRecord
		l := d.uvarint()
		if d.err != nil || l == 0 || l > maxHashCachePath {
			return nil, errBadHashCache
		}
		r.path = string(d.bytes(int(l)))
		r.stamp.size = d.varint()
		r.stamp.mtime = d.varint()
		r.stamp.ctime = d.varint()
		r.stamp.ino = d.uvarint()
		r.stamp.dev = d.uvarint()
		flags := d.bytes(1)
		sha := d.bytes(sha256.Size)
		if d.err != nil || flags[0]&^flagUnrestorable != 0 {
			return nil, errBadHashCache
		}
		r.unrestorable = flags[0]&flagUnrestorable != 0
		copy(r.sha[:], sha)
		if !validRecord(r) {
			return nil, errBadHashCache
		}
		recs = append(recs, r)
	}
	if len(d.b) != 0 {
		return nil, errBadHashCache
	}
	return recs, nil
}

// validRecord checks a decoded record's fields: a clean absolute path
// without NUL, a size a file can have, and a full stamp.
func validRecord(r hashRecord) bool {
	return filepath.IsAbs(r.path) && filepath.Clean(r.path) == r.path && bytes.IndexByte([]byte(r.path), 0) < 0 &&
		r.stamp.size >= 0 && r.stamp.full()
}

// decoder reads varints (in their shortest form: one file, one reading)
// and byte strings, remembering the first error.
type decoder struct {
	b   []byte
	err error
}

func (d *decoder) uvarint() uint64 {
	if d.err != nil {
		return 0
	}
	v, n := binary.Uvarint(d.b)
	var buf [binary.MaxVarintLen64]byte
	if n <= 0 || n != len(binary.AppendUvarint(buf[:0], v)) { // the shortest form only
		d.err = errBadHashCache
		return 0
	}
	d.b = d.b[n:]
	return v
}

// varint reads a signed varint: a uvarint holding the zigzag encoding
// (binary.AppendVarint's).
func (d *decoder) varint() int64 {
	ux := d.uvarint()
	x := int64(ux >> 1)
	if ux&1 != 0 {
		x = ^x
	}
	return x
}

func (d *decoder) bytes(n int) []byte {
	if d.err != nil || n > len(d.b) {
		d.err = errBadHashCache
		return make([]byte, n)
	}
	out := d.b[:n]
	d.b = d.b[n:]
	return out
}

// loadHashCache reads the cache file once per store (s.mu held) into the
// in-memory cache, keeping the entries that pass the racy rule against
// the file's modification time; anything wrong with the file leaves the
// in-memory cache as it was (every file is hashed).
func (s *Store) loadHashCache() {
	if s.hashes.loaded {
		return
	}
	s.hashes.loaded = true
	recs, written, err := readHashCache(filepath.Join(s.dir, hashCacheFile))
	if err != nil {
		if !errors.Is(err, os.ErrNotExist) {
			slog.Debug("checkpoint: digest cache ignored", "err", err)
		}
		return
	}
	if written.After(s.fsNow().Add(time.Minute)) {
		slog.Debug("checkpoint: digest cache ignored: written in the future", "at", written)
		return
	}
	for _, r := range recs {
		if _, have := s.cache[r.path]; have || !cacheable(r.stamp, written) {
			continue
		}
		s.cache[r.path] = cached{stamp: r.stamp, entry: Entry{SHA256: hex.EncodeToString(r.sha[:]), Size: r.stamp.size, Unrestorable: r.unrestorable}}
	}
}

// readHashCache reads (statefile.Read: a regular file only) and decodes the
// cache file, and returns its modification time (when it was written).
func readHashCache(path string) ([]hashRecord, time.Time, error) {
	data, fi, err := statefile.Read(path, maxHashCacheBytes)
	if err != nil {
		return nil, time.Time{}, err
	}
	recs, err := decodeHashCache(data)
	if err != nil {
		return nil, time.Time{}, fmt.Errorf("%s: %w", path, err)
	}
	return recs, fi.ModTime(), nil
}

// hashCacheWriteAt is how many digests cached since the file was last
// read or written make saveHashCache write it, whatever the workspace's
// size (else a quarter of the manifest's files).
const hashCacheWriteAt = 1024

// saveHashCache writes the cache file (s.mu held) after a checkpoint that
// hashed many files (a first checkpoint, a branch switch): the entries of
// man's files with full stamps. Not synced: a cache lost or damaged costs
// one more hashing, never a wrong digest. A failure is logged.
func (s *Store) saveHashCache(man Manifest) {
	if fresh := s.hashes.fresh; fresh == 0 || (fresh < hashCacheWriteAt && fresh*4 < len(man)) {
		return
	}
	recs := make([]hashRecord, 0, len(man))
	for key := range man {
		abs := s.Abs(key)
		c, ok := s.cache[abs]
		if !ok || !c.stamp.full() {
			continue
		}
		r := hashRecord{path: abs, stamp: c.stamp, unrestorable: c.entry.Unrestorable}
		if _, err := hex.Decode(r.sha[:], []byte(c.entry.SHA256)); err != nil {
			continue
		}
		recs = append(recs, r)
	}
	if err := os.MkdirAll(s.dir, 0o755); err != nil {
		slog.Debug("checkpoint: digest cache", "err", err)
		return
	}
	if err := workspace.ReplaceFile(filepath.Join(s.dir, hashCacheFile), encodeHashCache(recs), 0o644); err != nil {
		slog.Debug("checkpoint: digest cache", "err", err)
		return
	}
	s.hashes.fresh = 0
}
