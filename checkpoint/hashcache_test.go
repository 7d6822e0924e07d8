package checkpoint

import (
	"bytes"
	"context"
	"crypto/sha256"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// needFullStamps skips a test of the persistent cache where stamps have no
// change time or inode (the cache is then in memory only).
func needFullStamps(t *testing.T, path string) stamp {
	t.Helper()
	fi, err := os.Lstat(path)
	if err != nil {
		t.Fatal(err)
	}
	st := stampOf(fi)
	if !st.full() {
		t.Skip("no change time and inode in this system's stat: no persistent digest cache")
	}
	return st
}

// setWritten sets the cache file's modification time (when it counts as
// written).
func setWritten(t *testing.T, s *Store, at time.Time) {
	t.Helper()
	if err := os.Chtimes(filepath.Join(s.Dir(), hashCacheFile), at, at); err != nil {
		t.Fatal(err)
	}
}

// writeCache writes recs as the store's cache file, written at at.
func writeCache(t *testing.T, s *Store, recs []hashRecord, at time.Time) {
	t.Helper()
	if err := os.MkdirAll(s.Dir(), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(s.Dir(), hashCacheFile), encodeHashCache(recs), 0o644); err != nil {
		t.Fatal(err)
	}
	setWritten(t, s, at)
}

// TestHashCacheSparesRehashInNewProcess: a new store (a new agentls
// process) on the same workspace takes the digests from the cache file and
// reads no file, and records the same checkpoint.
func TestHashCacheSparesRehashInNewProcess(t *testing.T) {
	ctx := context.Background()
	files := map[string]string{"a.txt": "alpha\n", "dir/b.go": "package dir\n", "bin.dat": "\x00binary"}
	s, root := newStore(t, files, DefaultRetention)
	needFullStamps(t, filepath.Join(root, "a.txt"))
	later := func() time.Time { return time.Now().Add(time.Minute) } // the files' times are old enough
	s.fsNow = later
	first, err := s.Save(ctx, "s1", "m1")
	if err != nil {
		t.Fatal(err)
	}
	if s.hashed < 3 {
		t.Fatalf("first checkpoint hashed %d files, want every one of the 3", s.hashed)
	}
	// The file was written "a minute from now" for the files' clock; the
	// real clock says it was written now, with the files: set it later.
	setWritten(t, s, time.Now().Add(30*time.Second))

	s2 := Open(s.ws, DefaultRetention)
	second, err := s2.Save(ctx, "s2", "m1")
	if err != nil {
		t.Fatal(err)
	}
	if s2.hashed != 0 {
		t.Fatalf("a new store hashed %d files despite the cache file", s2.hashed)
	}
	if len(second) != len(first) {
		t.Fatalf("manifests differ: %v vs %v", first, second)
	}
	for k, e := range first {
		if second[k] != e {
			t.Errorf("%s: %+v from the cache, %+v hashed", k, second[k], e)
		}
	}
	// A file changed since is hashed again.
	if err := os.WriteFile(filepath.Join(root, "a.txt"), []byte("ALPHA\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s3 := Open(s.ws, DefaultRetention)
	third, err := s3.Scan(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if s3.hashed != 1 || third["a.txt"].SHA256 != Digest([]byte("ALPHA\n")) {
		t.Fatalf("after a change: %d hashed, a.txt = %+v", s3.hashed, third["a.txt"])
	}
}

// TestHashCacheRacyRule: a digest taken within racyWindow of the file's
// modification is not written to the cache file, and an entry of a cache
// file written within racyWindow of its file's times is not trusted — a
// write in the same clock tick can keep the size and every time.
func TestHashCacheRacyRule(t *testing.T) {
	ctx := context.Background()
	s, root := newStore(t, map[string]string{"a.txt": "alpha\n"}, DefaultRetention)
	p := filepath.Join(root, "a.txt")
	st := needFullStamps(t, p)

	// Writing: the file was just written, its digest is not cached.
	if _, err := s.Save(ctx, "s1", "m1"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(s.Dir(), hashCacheFile)); err == nil {
		recs, _, _ := readHashCache(filepath.Join(s.Dir(), hashCacheFile))
		t.Fatalf("a racily clean file went to the cache file: %+v", recs)
	}

	// Reading: an entry with the file's exact stamp and another digest
	// (what a same-tick write would leave) is used only when the cache
	// file was written more than racyWindow after the file's times.
	forged := hashRecord{path: p, stamp: st}
	copy(forged.sha[:], bytes.Repeat([]byte{0xab}, sha256.Size))
	fileTime := time.Unix(0, max(st.mtime, st.ctime))
	for _, c := range []struct {
		name    string
		written time.Time
		trusted bool
	}{
		{"written with the file", fileTime, false},
		{"written within the racy window", fileTime.Add(racyWindow), false},
		{"written well after", fileTime.Add(30 * time.Second), true},
	} {
		t.Run(c.name, func(t *testing.T) {
			writeCache(t, s, []hashRecord{forged}, c.written)
			fresh := Open(s.ws, DefaultRetention)
			man, err := fresh.Scan(ctx)
			if err != nil {
				t.Fatal(err)
			}
			got := man["a.txt"].SHA256
			if c.trusted && got != strings.Repeat("ab", sha256.Size) {
				t.Fatalf("a trusted entry was not used (%s): the test does not reach the cache", got)
			}
			if !c.trusted && got != Digest([]byte("alpha\n")) {
				t.Fatalf("a racy entry was trusted: a.txt = %s", got)
			}
		})
	}
}

// TestHashCacheDamagedOrHostileIsIgnored: a cache file that is garbage,
// truncated, altered, out of bounds, not a file, written in the future, or
// naming files by other stamps never changes what a checkpoint records.
func TestHashCacheDamagedOrHostileIsIgnored(t *testing.T) {
	ctx := context.Background()
	s, root := newStore(t, map[string]string{"a.txt": "alpha\n"}, DefaultRetention)
	p := filepath.Join(root, "a.txt")
	st := needFullStamps(t, p)
	later := time.Now().Add(30 * time.Second)
	wrong := func(mod func(*hashRecord)) []byte {
		r := hashRecord{path: p, stamp: st}
		copy(r.sha[:], bytes.Repeat([]byte{0xcd}, sha256.Size))
		mod(&r)
		return encodeHashCache([]hashRecord{r})
	}
	good := wrong(func(*hashRecord) {})
	flipped := bytes.Clone(good)
	flipped[len(hashCacheMagic)+5] ^= 1
	// A well-formed file (its checksum right) with a field out of bounds.
	withChecksum := func(body []byte) []byte {
		sum := sha256.Sum256(body)
		return append(bytes.Clone(body), sum[:]...)
	}
	hugeCount := withChecksum(append([]byte(hashCacheMagic), 0xff, 0xff, 0xff, 0xff, 0x0f))
	for i, c := range []struct {
		name string
		data []byte
		dir  bool
		at   time.Time
	}{
		{name: "garbage", data: []byte("not a cache at all, but long enough to pass the length check........")},
		{name: "empty", data: nil},
		{name: "truncated", data: good[:len(good)-7]},
		{name: "truncated to the magic", data: []byte(hashCacheMagic)},
		{name: "a flipped bit", data: flipped},
		{name: "a huge count", data: hugeCount},
		{name: "a relative path", data: wrong(func(r *hashRecord) { r.path = "a.txt" })},
		{name: "an unclean path", data: wrong(func(r *hashRecord) { r.path = filepath.Join(root, "x") + "/../a.txt" })},
		{name: "another inode", data: wrong(func(r *hashRecord) { r.stamp.ino++ })},
		{name: "another change time", data: wrong(func(r *hashRecord) { r.stamp.ctime++ })},
		{name: "another size", data: wrong(func(r *hashRecord) { r.stamp.size++ })},
		{name: "written in the future", data: good, at: time.Now().Add(time.Hour)},
		{name: "a folder", dir: true},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(s.Dir(), hashCacheFile)
			if err := os.RemoveAll(path); err != nil {
				t.Fatal(err)
			}
			if err := os.MkdirAll(s.Dir(), 0o755); err != nil {
				t.Fatal(err)
			}
			if c.dir {
				if err := os.Mkdir(path, 0o755); err != nil {
					t.Fatal(err)
				}
			} else {
				if err := os.WriteFile(path, c.data, 0o644); err != nil {
					t.Fatal(err)
				}
				at := later
				if !c.at.IsZero() {
					at = c.at
				}
				setWritten(t, s, at)
			}
			fresh := Open(s.ws, DefaultRetention)
			man, err := fresh.Save(ctx, "s1", "m"+strconv.Itoa(i))
			if err != nil {
				t.Fatal(err)
			}
			if got := man["a.txt"].SHA256; got != Digest([]byte("alpha\n")) {
				t.Fatalf("a.txt = %s from a %s cache file", got, c.name)
			}
			if data, err := fresh.Object(man["a.txt"].SHA256); err != nil || string(data) != "alpha\n" {
				t.Fatalf("object = %q, %v", data, err)
			}
		})
	}
	// The control: the same file, well-formed and with the right stamp, is
	// used (so the cases above were ignored, not merely missed).
	if err := os.RemoveAll(filepath.Join(s.Dir(), hashCacheFile)); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(s.Dir(), hashCacheFile), good, 0o644); err != nil {
		t.Fatal(err)
	}
	setWritten(t, s, later)
	fresh := Open(s.ws, DefaultRetention)
	man, _ := fresh.Scan(ctx)
	if got := man["a.txt"].SHA256; got != "cdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcd" {
		t.Fatalf("the control entry was not used: %s", got)
	}
}

// FuzzDecodeHashCache: the decoder never panics, and what it accepts is
// valid and encodes back to the same bytes (no two readings of a file).
// Each input is decoded as it is and with its checksum appended, so that
// the fuzzer reaches the fields behind the checksum (a hostile file has a
// right one).
func FuzzDecodeHashCache(f *testing.F) {
	rec := hashRecord{path: "/w/a.txt", stamp: stamp{size: 6, mtime: 1e18, ctime: 1e18 + 5, ino: 42, dev: 2049}}
	rec2 := rec
	rec2.path, rec2.unrestorable = "/w/dir/b.bin", true
	for _, recs := range [][]hashRecord{nil, {rec}, {rec, rec2}} {
		enc := encodeHashCache(recs)
		f.Add(enc)
		f.Add(enc[:len(enc)-sha256.Size])
	}
	f.Add([]byte(hashCacheMagic))
	f.Fuzz(func(t *testing.T, data []byte) {
		sum := sha256.Sum256(data)
		for _, in := range [][]byte{data, append(bytes.Clone(data), sum[:]...)} {
			recs, err := decodeHashCache(in)
			if err != nil {
				if recs != nil {
					t.Fatal("records with an error")
				}
				continue
			}
			for _, r := range recs {
				if !validRecord(r) {
					t.Fatalf("invalid record accepted: %+v", r)
				}
			}
			if again := encodeHashCache(recs); !bytes.Equal(again, in) {
				t.Fatalf("accepted bytes do not encode back:\n%q\n%q", in, again)
			}
		}
	})
}
