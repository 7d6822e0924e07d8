package checkpoint

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/agentls/agentls/workspace"
)

// newStore is a store on a temporary workspace holding files.
func newStore(t testing.TB, files map[string]string, r Retention) (*Store, string) {
	t.Helper()
	root := t.TempDir()
	for name, content := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ws, err := workspace.New(root)
	if err != nil {
		t.Fatal(err)
	}
	s := Open(ws, r)
	s.pruneEvery = 1 // the retention tests check each save's prune
	return s, ws.Root()
}

// TestSave: what a checkpoint keeps, lists as not restorable, and skips.
func TestSave(t *testing.T) {
	big := strings.Repeat("x", MaxFileBytes+1)
	s, root := newStore(t, map[string]string{
		"a.txt":          "alpha\n",
		"dir/b.go":       "package dir\n",
		"same.txt":       "alpha\n", // the same content: one object
		"bin.dat":        "\x00\x01binary",
		"big.txt":        big,
		".gitignore":     "ignored/\n*.log\n",
		"ignored/x.txt":  "ignored\n",
		"debug.log":      "ignored too\n",
		".git/config":    "[core]\n",
		".agentls/x.txt": "agentls's own\n",
	}, DefaultRetention)
	if err := os.Chmod(filepath.Join(root, "dir", "b.go"), 0o755); err != nil {
		t.Fatal(err)
	}
	man, err := s.Save(context.Background(), "s1", "m1")
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(man.Keys(), " "); got != ".gitignore a.txt big.txt bin.dat dir/b.go same.txt" {
		t.Fatalf("keys = %s", got)
	}
	for key, want := range map[string]bool{"a.txt": false, "bin.dat": true, "big.txt": true, "dir/b.go": false} {
		if man[key].Unrestorable != want {
			t.Errorf("%s unrestorable = %v, want %v", key, man[key].Unrestorable, want)
		}
	}
	if man["big.txt"].Size != int64(len(big)) || man["big.txt"].SHA256 != Digest([]byte(big)) {
		t.Errorf("big.txt entry = %+v", man["big.txt"])
	}
	if man["dir/b.go"].Mode != 0o755 {
		t.Errorf("dir/b.go mode = %o", man["dir/b.go"].Mode)
	}
	objects, _ := os.ReadDir(filepath.Join(s.Dir(), "objects"))
	if len(objects) != 3 { // a.txt (= same.txt), dir/b.go, .gitignore
		t.Fatalf("%d objects, want 3", len(objects))
	}
	if data, err := s.Object(man["a.txt"].SHA256); err != nil || string(data) != "alpha\n" {
		t.Fatalf("object of a.txt = %q, %v", data, err)
	}
	if _, err := s.Object(man["bin.dat"].SHA256); err == nil {
		t.Fatal("a binary file has an object")
	}
	loaded, err := s.Load("s1", "m1")
	if err != nil || len(loaded) != len(man) || loaded["a.txt"] != man["a.txt"] {
		t.Fatalf("load = %+v, %v", loaded, err)
	}
	// A damaged object is refused, not restored.
	if err := os.WriteFile(filepath.Join(s.Dir(), "objects", man["a.txt"].SHA256), []byte("tampered"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Object(man["a.txt"].SHA256); err == nil || !strings.Contains(err.Error(), "damaged") {
		t.Fatalf("damaged object: %v", err)
	}
}

// TestCacheSparesRehash: a file whose stamp did not change is not read
// again; one whose size changed is, and so is (where stamps have the
// change time) one rewritten with the same size and modification time.
func TestCacheSparesRehash(t *testing.T) {
	s, root := newStore(t, map[string]string{"a.txt": "alpha\n"}, DefaultRetention)
	p := filepath.Join(root, "a.txt")
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(p, old, old); err != nil {
		t.Fatal(err)
	}
	s.fsNow = func() time.Time { return time.Now().Add(time.Minute) } // the change time is old too
	first, err := s.Scan(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	hashed := s.hashed
	if again, _ := s.Scan(context.Background()); s.hashed != hashed || again["a.txt"] != first["a.txt"] {
		t.Fatalf("an unchanged file was hashed again (%d → %d hashes)", hashed, s.hashed)
	}
	// Same size, same mtime, other bytes.
	if err := os.WriteFile(p, []byte("ALPHA\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(p, old, old); err != nil {
		t.Fatal(err)
	}
	second, _ := s.Scan(context.Background())
	fi, _ := os.Lstat(p)
	if stampOf(fi).full() {
		if second["a.txt"].SHA256 != Digest([]byte("ALPHA\n")) {
			t.Fatal("a file rewritten with the same size and mtime was answered from the cache despite its change time")
		}
	} else if second["a.txt"].SHA256 != first["a.txt"].SHA256 {
		t.Fatal("the file was hashed again despite the same size and mtime")
	}
	if err := os.WriteFile(p, []byte("alpha, longer\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	third, _ := s.Scan(context.Background())
	if third["a.txt"].SHA256 != Digest([]byte("alpha, longer\n")) {
		t.Fatal("a changed file was not hashed again")
	}
}

// TestRacyFileIsHashedAgain: a file modified within the racy window is
// not cached (a write in the same clock tick keeps size and mtime).
func TestRacyFileIsHashedAgain(t *testing.T) {
	s, root := newStore(t, map[string]string{"a.txt": "alpha\n"}, DefaultRetention)
	p := filepath.Join(root, "a.txt")
	now := time.Now()
	if err := os.Chtimes(p, now, now); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Scan(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte("ALPHA\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(p, now, now); err != nil {
		t.Fatal(err)
	}
	got, _ := s.Scan(context.Background())
	if got["a.txt"].SHA256 != Digest([]byte("ALPHA\n")) {
		t.Fatal("a racily clean file was answered from the cache")
	}
}

// TestRetention: per session the last N checkpoints within the age limit
// stay; over the workspace's byte budget the oldest go first; unused
// objects are collected; the checkpoint just taken always stays.
func TestRetention(t *testing.T) {
	ctx := context.Background()
	s, root := newStore(t, map[string]string{"a.txt": "v0\n"}, Retention{PerSession: 2, MaxAge: 24 * time.Hour, MaxBytes: 1 << 20})
	clock := time.Now()
	s.now = func() time.Time { return clock }
	save := func(session, id, content string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(root, "a.txt"), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Save(ctx, session, id); err != nil {
			t.Fatal(err)
		}
		// Each manifest a minute older than the next.
		p, _ := s.manifestPath(session, id)
		mt := clock.Add(-time.Minute)
		_ = os.Chtimes(p, mt, mt)
		clock = clock.Add(time.Minute)
	}
	save("s1", "m1", "v1 content\n")
	save("s1", "m2", "v2 content\n")
	save("s1", "m3", "v3 content\n")
	save("s2", "n1", "w1 content\n")
	for id, want := range map[string]bool{"m1": false, "m2": true, "m3": true} {
		if s.Has("s1", id) != want {
			t.Errorf("s1/%s kept = %v, want %v", id, !want, want)
		}
	}
	if !s.Has("s2", "n1") {
		t.Error("another session's checkpoint was dropped")
	}
	// Older than MaxAge: dropped at the next save.
	clock = clock.Add(48 * time.Hour)
	save("s2", "n2", "w2 content\n")
	if s.Has("s1", "m2") || s.Has("s1", "m3") || s.Has("s2", "n1") || !s.Has("s2", "n2") {
		t.Fatal("checkpoints older than MaxAge were kept (or the new one dropped)")
	}
	objects, _ := os.ReadDir(filepath.Join(s.Dir(), "objects"))
	if len(objects) != 1 || objects[0].Name() != Digest([]byte("w2 content\n")) {
		t.Fatalf("objects after the prune: %v", objects)
	}
}

// TestByteBudget: over MaxBytes the oldest checkpoints of the workspace
// go first, whatever their session.
func TestByteBudget(t *testing.T) {
	ctx := context.Background()
	s, root := newStore(t, nil, Retention{PerSession: 100, MaxAge: 0, MaxBytes: 2500})
	clock := time.Now()
	s.now = func() time.Time { return clock }
	for i, id := range []string{"c1", "c2", "c3"} {
		content := strings.Repeat(string(rune('a'+i)), 1000)
		if err := os.WriteFile(filepath.Join(root, "f.txt"), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		session := []string{"s1", "s2", "s1"}[i]
		if _, err := s.Save(ctx, session, id); err != nil {
			t.Fatal(err)
		}
		p, _ := s.manifestPath(session, id)
		mt := clock.Add(time.Duration(i-10) * time.Minute)
		_ = os.Chtimes(p, mt, mt)
		clock = clock.Add(2 * time.Hour) // past the objects' grace
	}
	if s.Has("s1", "c1") || !s.Has("s2", "c2") || !s.Has("s1", "c3") {
		t.Fatalf("kept: c1 %v c2 %v c3 %v; want the oldest dropped", s.Has("s1", "c1"), s.Has("s2", "c2"), s.Has("s1", "c3"))
	}
}

// TestPruneRereadsRewrittenManifests: a prune reuses what it read of an
// unchanged manifest (it reads only the one just written), but a manifest
// rewritten under the same name (as another process could) is read again.
func TestPruneRereadsRewrittenManifests(t *testing.T) {
	ctx := context.Background()
	s, root := newStore(t, map[string]string{"f.txt": "old content\n"}, DefaultRetention)
	if _, err := s.Save(ctx, "s1", "c1"); err != nil {
		t.Fatal(err)
	}
	all, err := s.manifests()
	if err != nil || len(all) != 1 {
		t.Fatalf("manifests: %v %v", all, err)
	}
	s.mu.Lock()
	first, err := s.usesOf(all[0])
	s.mu.Unlock()
	if err != nil || len(first) != 1 || first[0] != Digest([]byte("old content\n")) {
		t.Fatalf("uses of c1: %v %v", first, err)
	}
	if err := os.WriteFile(filepath.Join(root, "f.txt"), []byte("new content, longer\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	man, err := s.Scan(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := writeJSON(all[0].path, man, false); err != nil {
		t.Fatal(err)
	}
	later := time.Now().Add(time.Minute)
	_ = os.Chtimes(all[0].path, later, later)
	again, err := s.manifests()
	if err != nil {
		t.Fatal(err)
	}
	s.mu.Lock()
	second, err := s.usesOf(again[0])
	s.mu.Unlock()
	if err != nil || len(second) != 1 || second[0] != Digest([]byte("new content, longer\n")) {
		t.Fatalf("uses of the rewritten c1: %v %v (the cache was not invalidated)", second, err)
	}
}

// TestPruneCadence: a store prunes at its first save and then every
// PruneEvery saves, so the retention rule holds within PruneEvery
// checkpoints.
func TestPruneCadence(t *testing.T) {
	ctx := context.Background()
	s, _ := newStore(t, map[string]string{"a.txt": "a\n"}, Retention{PerSession: 2, MaxBytes: 1 << 20})
	s.pruneEvery = PruneEvery
	count := func() int {
		all, err := s.manifests()
		if err != nil {
			t.Fatal(err)
		}
		return len(all)
	}
	for i := 1; i <= PruneEvery+1; i++ {
		if _, err := s.Save(ctx, "s1", fmt.Sprintf("c%02d", i)); err != nil {
			t.Fatal(err)
		}
		want := i // saves 2..PruneEvery do not prune
		if i == PruneEvery+1 {
			want = 2 // the next prune keeps PerSession
		}
		if got := count(); got != want {
			t.Fatalf("after save %d: %d manifests, want %d", i, got, want)
		}
	}
}

// TestPruneAfterOpen: the first save of a newly opened store prunes only
// when the workspace was not pruned within PruneInterval, by this process
// or another: a new process's first turn does not read every manifest of
// a busy workspace again.
func TestPruneAfterOpen(t *testing.T) {
	ctx := context.Background()
	s, _ := newStore(t, map[string]string{"a.txt": "a\n"}, Retention{PerSession: 1, MaxBytes: 1 << 20})
	for _, id := range []string{"c1", "c2"} {
		if _, err := s.Save(ctx, "s1", id); err != nil {
			t.Fatal(err)
		}
	}
	count := func(s *Store) int {
		all, err := s.manifests()
		if err != nil {
			t.Fatal(err)
		}
		return len(all)
	}
	if got := count(s); got != 1 {
		t.Fatalf("%d manifests after two pruned saves, want 1", got)
	}
	clock := time.Now()
	for _, tc := range []struct {
		name      string
		lastPrune time.Duration // how long ago the stamp says the last prune ran
		want      int           // manifests after the new store's first save
	}{
		{"pruned a minute ago: skipped", -time.Minute, 2},
		{"pruned over an hour ago: pruned", -PruneInterval - time.Minute, 1},
		{"stamp in the future: pruned", 2 * time.Hour, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			stamp := filepath.Join(s.Dir(), pruneStamp)
			at := clock.Add(tc.lastPrune)
			if err := os.Chtimes(stamp, at, at); err != nil {
				t.Fatal(err)
			}
			again := Open(s.ws, s.retention)
			again.now = func() time.Time { return clock }
			if _, err := again.Save(ctx, "s1", "n"+strconv.Itoa(tc.want)+strconv.Itoa(int(tc.lastPrune/time.Minute))); err != nil {
				t.Fatal(err)
			}
			if got := count(again); got != tc.want {
				t.Fatalf("%d manifests after the first save, want %d", got, tc.want)
			}
			// back to one manifest for the next row
			if err := again.prune(nil, "", true); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestIDs: an id that could name another file than a manifest under its
// session's folder is refused (bypass rows).
func TestIDs(t *testing.T) {
	s, _ := newStore(t, map[string]string{"a.txt": "a\n"}, DefaultRetention)
	for _, id := range []string{"", ".", "..", "../x", "a/b", `a\b`, "x.json", "known", " x", "x\x00", strings.Repeat("a", 101), "objects/../x"} {
		if ValidID(id) && id != "known" {
			t.Errorf("ValidID(%q) = true", id)
		}
		if _, err := s.Save(context.Background(), "s1", id); err == nil {
			t.Errorf("Save(%q) succeeded", id) // "known" would overwrite known.json
		}
		if _, err := s.Save(context.Background(), id, "m1"); err == nil && id != "known" {
			t.Errorf("Save(session %q) succeeded", id)
		}
	}
	if _, err := s.Save(context.Background(), "objects", "m1"); err == nil {
		t.Error(`Save(session "objects") succeeded: its manifests would be objects`)
	}
	for _, sha := range []string{"", "../../../../etc/passwd", "../" + strings.Repeat("0", 61), strings.Repeat("g", 64), strings.Repeat("0", 63) + "/"} {
		if _, err := s.Object(sha); err == nil || !strings.Contains(err.Error(), "invalid object name") {
			t.Errorf("Object(%q): %v", sha, err)
		}
	}
	if s.Has("s1", "../s1/m1") {
		t.Error("Has followed a path")
	}
}

// FuzzManifestPath: every id ValidID accepts names a file directly under
// the store's folder for its session.
func FuzzManifestPath(f *testing.F) {
	for _, seed := range []string{"m1", "../x", "a/b", "01a216a5-6a29-7f0a-99e8-950774950c56", "..", "x.json"} {
		f.Add("s1", seed)
	}
	root := f.TempDir()
	ws, err := workspace.New(root)
	if err != nil {
		f.Fatal(err)
	}
	s := Open(ws, DefaultRetention)
	f.Fuzz(func(t *testing.T, session, id string) {
		p, err := s.manifestPath(session, id)
		if err != nil {
			return
		}
		want := filepath.Join(s.Dir(), session)
		if filepath.Dir(p) != want || !strings.HasSuffix(p, ".json") || strings.Count(filepath.Base(p), ".") != 1 {
			t.Fatalf("manifestPath(%q, %q) = %s", session, id, p)
		}
	})
}

// TestRestorable: text up to MaxFileBytes.
func TestRestorable(t *testing.T) {
	for _, tc := range []struct {
		data []byte
		want bool
	}{
		{[]byte(""), true}, {[]byte("text\n"), true}, {[]byte("é ü\r\n"), true},
		{[]byte("a\x00b"), false}, {bytes.Repeat([]byte("a"), MaxFileBytes), true}, {bytes.Repeat([]byte("a"), MaxFileBytes+1), false},
	} {
		if got := Restorable(tc.data); got != tc.want {
			t.Errorf("Restorable(%d bytes) = %v", len(tc.data), got)
		}
	}
}

// TestTooManyFiles: a workspace over the file cap gets no checkpoint (and
// no manifest), with an error that says why.
func TestTooManyFiles(t *testing.T) {
	s, _ := newStore(t, map[string]string{"a.txt": "a\n", "b.txt": "b\n", "c.txt": "c\n"}, DefaultRetention)
	s.maxFiles = 2
	if _, err := s.Save(context.Background(), "s1", "m1"); !errors.Is(err, ErrTooManyFiles) {
		t.Fatalf("err = %v", err)
	}
	if s.Has("s1", "m1") {
		t.Fatal("a manifest was written")
	}
}

// TestKnownCache: a session's Known is written only when it changes (every
// turn's scan of an unchanged workspace writes nothing), and one another
// store (another agentls process) rewrote is read again.
func TestKnownCache(t *testing.T) {
	s, _ := newStore(t, map[string]string{"a.txt": "a\n"}, DefaultRetention)
	path := filepath.Join(s.Dir(), "s1", knownFile)
	if err := s.UpdateKnown("s1", Known{"a.txt": "1", "b.txt": ""}); err != nil {
		t.Fatal(err)
	}
	old := time.Unix(1000, 0)
	if err := os.Chtimes(path, old, old); err != nil {
		t.Fatal(err)
	}
	if err := s.UpdateKnown("s1", Known{"a.txt": "1"}); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(path); err != nil || !fi.ModTime().Equal(old) {
		t.Fatalf("an update that changes nothing rewrote %s (%v)", path, err)
	}
	other := Open(s.ws, s.retention)
	if err := other.UpdateKnown("s1", Known{"a.txt": "2"}); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		key, want string
	}{{"a.txt", "2"}, {"b.txt", ""}} {
		k, err := s.LoadKnown("s1")
		if err != nil || k[tc.key] != tc.want {
			t.Fatalf("LoadKnown after another store's write: %v %v, want %s=%q", k, err, tc.key, tc.want)
		}
	}
	k, _ := s.LoadKnown("s1")
	k["a.txt"] = "mutated"
	if again, _ := s.LoadKnown("s1"); again["a.txt"] != "2" {
		t.Fatalf("a caller's change to LoadKnown's map reached the cache: %v", again)
	}
}
