package sessionstore

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentls/agentls/workspace"
)

func chatMeta(id string, updated time.Time) Meta {
	return Meta{
		ID: id, Title: "Session " + id, Mode: "plan",
		CreatedAt: updated.Add(-time.Hour), UpdatedAt: updated,
	}
}

func msg(s string) json.RawMessage { return json.RawMessage(s) }

func TestChatStoreRoundTrip(t *testing.T) {
	dir := filepath.Join(t.TempDir(), ".agentls", "chats")
	s := NewStore(dir)
	at := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
	meta := chatMeta("0192f0e2-7c1a-7b3e-8f00-000000000001", at)
	meta.Title = "Fix: the \"login\" bug\n--- with a fence-like line"
	if err := s.Create(meta); err != nil {
		t.Fatal(err)
	}
	if err := s.Create(meta); !errors.Is(err, os.ErrExist) {
		t.Errorf("second Create: %v", err)
	}
	if err := s.Append(meta.ID, msg(`{"role": "user",
		"content": "hi\nthere"}`), msg(`{"role":"assistant","content":"hello"}`)); err != nil {
		t.Fatal(err)
	}
	meta.Mode = "build"
	meta.PlanFile = "plans/calm-forest-symphony.plan"
	meta.EnteredAt = at.Add(time.Minute)
	meta.EnteredReason = "model: needs a plan"
	meta.UpdatedAt = at.Add(2 * time.Minute)
	if err := s.SaveMeta(meta); err != nil {
		t.Fatal(err)
	}
	if err := s.Append(meta.ID, msg(`{"role":"user","content":"next"}`)); err != nil {
		t.Fatal(err)
	}
	got, msgs, err := s.Load(meta.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got != meta {
		t.Errorf("meta = %+v\nwant %+v", got, meta)
	}
	want := []string{`{"role":"user","content":"hi\nthere"}`, `{"role":"assistant","content":"hello"}`, `{"role":"user","content":"next"}`}
	if len(msgs) != len(want) {
		t.Fatalf("messages: %q", msgs)
	}
	for i := range want {
		if string(msgs[i]) != want[i] {
			t.Errorf("message %d = %s, want %s", i, msgs[i], want[i])
		}
	}
	raw, err := os.ReadFile(filepath.Join(dir, meta.ID+".chat"))
	if err != nil {
		t.Fatal(err)
	}
	if lines := strings.Split(strings.TrimSuffix(string(raw), "\n"), "\n"); lines[len(lines)-1] != want[2] || !strings.HasPrefix(string(raw), "---\nid: ") {
		t.Errorf("file layout:\n%s", raw)
	}
}

func TestChatPlanFileNull(t *testing.T) {
	dir := t.TempDir()
	s := NewStore(dir)
	m := chatMeta("abc", time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC))
	if err := s.Create(m); err != nil {
		t.Fatal(err)
	}
	raw, _ := os.ReadFile(filepath.Join(dir, "abc.chat"))
	want := "---\nid: abc\ntitle: Session abc\nmode: plan\nplan_file: null\ncreated_at: 2024-12-31T23:00:00Z\nupdated_at: 2025-01-01T00:00:00Z\n---\n"
	if string(raw) != want {
		t.Errorf("file =\n%s\nwant\n%s", raw, want)
	}
	got, msgs, err := s.Load("abc")
	if err != nil || got.PlanFile != "" || len(msgs) != 0 || !got.EnteredAt.IsZero() {
		t.Errorf("Load = %+v %v %v", got, msgs, err)
	}
}

func TestChatCrashRecovery(t *testing.T) {
	dir := t.TempDir()
	s := NewStore(dir)
	m := chatMeta("s1", time.Now().UTC().Truncate(time.Second))
	if err := s.Create(m); err != nil {
		t.Fatal(err)
	}
	if err := s.Append("s1", msg(`{"n":1}`), msg(`{"n":2}`)); err != nil {
		t.Fatal(err)
	}
	// A crash in the middle of an append: half a line, no newline.
	f, err := os.OpenFile(filepath.Join(dir, "s1.chat"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"n":3,"content":"tor`)
	f.Close()

	_, msgs, err := s.Load("s1")
	if err != nil {
		t.Fatalf("a torn last line must not make the session unreadable: %v", err)
	}
	if len(msgs) != 2 || string(msgs[1]) != `{"n":2}` {
		t.Errorf("messages after the crash: %q", msgs)
	}
	// The next append starts on a fresh line: only the torn message is lost.
	if err := s.Append("s1", msg(`{"n":4}`)); err != nil {
		t.Fatal(err)
	}
	_, msgs, err = s.Load("s1")
	if err != nil || len(msgs) != 3 || string(msgs[2]) != `{"n":4}` {
		t.Errorf("after recovery: %q %v", msgs, err)
	}
	// SaveMeta keeps everything after the frontmatter, torn line included.
	m.Mode = "build"
	if err := s.SaveMeta(m); err != nil {
		t.Fatal(err)
	}
	got, msgs, err := s.Load("s1")
	if err != nil || got.Mode != "build" || len(msgs) != 3 {
		t.Errorf("after SaveMeta: %+v %q %v", got, msgs, err)
	}
	// SaveMeta wrote the small .meta file, left the .chat alone and no
	// temporary file behind.
	entries, _ := os.ReadDir(dir)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if !slices.Equal(names, []string{"s1.chat", "s1.meta"}) {
		t.Errorf("files in the chat folder: %v", names)
	}
}

// TestOldFormatChatLoads: a session written before .meta files existed
// (testdata/chat/old-format.chat, committed as agentls wrote it) loads, is
// listed, and its first metadata change goes to a .meta file without
// touching the history.
func TestOldFormatChatLoads(t *testing.T) {
	dir := t.TempDir()
	old, err := os.ReadFile(filepath.Join("testdata", "chat", "old-format.chat"))
	if err != nil {
		t.Fatal(err)
	}
	const id = "0192f6c4-2b1e-7c3a-9d4e-5f6a7b8c9d0e"
	if err := os.WriteFile(filepath.Join(dir, id+".chat"), old, 0o644); err != nil {
		t.Fatal(err)
	}
	s := NewStore(dir)
	meta, msgs, err := s.Load(id)
	if err != nil {
		t.Fatal(err)
	}
	if meta.ID != id || meta.Mode != "plan" || meta.Title != "Add a cache" || meta.PlanFile != "plans/cache.plan" || len(msgs) != 2 {
		t.Fatalf("old-format session = %+v, %d messages", meta, len(msgs))
	}
	list, err := s.List()
	if err != nil || len(list) != 1 || list[0].Title != "Add a cache" {
		t.Fatalf("List = %+v, %v", list, err)
	}
	meta.Mode = "build"
	if err := s.SaveMeta(meta); err != nil {
		t.Fatal(err)
	}
	if now, _ := os.ReadFile(filepath.Join(dir, id+".chat")); string(now) != string(old) {
		t.Fatal("SaveMeta rewrote the .chat file")
	}
	meta2, msgs2, err := s.Load(id)
	if err != nil || meta2.Mode != "build" || meta2.PlanFile != "plans/cache.plan" || len(msgs2) != 2 {
		t.Fatalf("after SaveMeta: %+v, %d messages, %v", meta2, len(msgs2), err)
	}
	if list, _ := s.List(); len(list) != 1 || list[0].Mode != "build" {
		t.Fatalf("List after SaveMeta = %+v", list)
	}
}

func TestChatErrors(t *testing.T) {
	dir := t.TempDir()
	s := NewStore(dir)
	if _, _, err := s.Load("nope"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("unknown id: %v", err)
	}
	if err := s.Append("nope", msg(`{}`)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("append to unknown id: %v", err)
	}
	if err := s.Sync("nope"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("sync of unknown id: %v", err)
	}
	if err := s.SaveMeta(chatMeta("nope", time.Now())); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("SaveMeta of unknown id: %v", err)
	}
	for _, bad := range []string{"", "../x", "a/b", `a\b`, "..", "a..b", ".hidden", "x\x00", strings.Repeat("a", 129), "sp ace"} {
		if err := s.Create(chatMeta(bad, time.Now())); err == nil {
			t.Errorf("Create(%q) should be refused", bad)
		}
		if _, _, err := s.Load(bad); err == nil || errors.Is(err, os.ErrNotExist) {
			t.Errorf("Load(%q) should be refused as invalid: %v", bad, err)
		}
		if err := s.Append(bad, msg(`{}`)); err == nil {
			t.Errorf("Append(%q) should be refused", bad)
		}
		if err := s.Sync(bad); err == nil {
			t.Errorf("Sync(%q) should be refused", bad)
		}
	}
	if err := s.Create(chatMeta("ok", time.Now())); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []json.RawMessage{msg(`{"a":`), msg(`[1,2]`), msg(`"s"`)} {
		if err := s.Append("ok", bad); err == nil {
			t.Errorf("Append(%s) should be refused", bad)
		}
	}
	if err := s.Append("ok"); err != nil {
		t.Errorf("appending nothing: %v", err)
	}
	if err := s.Sync("ok"); err != nil {
		t.Errorf("sync: %v", err)
	}
	// A session file with a broken frontmatter cannot be loaded (but List skips it).
	if err := os.WriteFile(filepath.Join(dir, "broken.chat"), []byte("---\nid: [\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.Load("broken"); err == nil {
		t.Error("broken frontmatter should fail to load")
	}
}

func TestChatList(t *testing.T) {
	dir := t.TempDir()
	s := NewStore(dir)
	if got, err := NewStore(filepath.Join(dir, "missing")).List(); err != nil || len(got) != 0 {
		t.Errorf("List of a missing folder: %v %v", got, err)
	}
	base := time.Date(2025, 5, 1, 0, 0, 0, 0, time.UTC)
	for i, id := range []string{"old", "newest", "middle", "tie-b", "tie-a"} {
		updated := map[string]time.Time{
			"old": base, "newest": base.Add(3 * time.Hour), "middle": base.Add(time.Hour),
			"tie-a": base.Add(2 * time.Hour), "tie-b": base.Add(2 * time.Hour),
		}[id]
		if err := s.Create(chatMeta(id, updated)); err != nil {
			t.Fatal(err)
		}
		if err := s.Append(id, msg(fmt.Sprintf(`{"i":%d}`, i))); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(filepath.Join(dir, "garbage.chat"), []byte("not a session"), 0o644)
	os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("x"), 0o644)
	os.Mkdir(filepath.Join(dir, "sub.chat"), 0o755)
	got, err := s.List()
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, m := range got {
		ids = append(ids, m.ID)
	}
	if strings.Join(ids, ",") != "newest,tie-a,tie-b,middle,old" {
		t.Errorf("List order = %v", ids)
	}
}

func TestChatConcurrent(t *testing.T) {
	dir := t.TempDir()
	s := NewStore(dir)
	start := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	ids := []string{"a", "b", "c"}
	for _, id := range ids {
		if err := s.Create(chatMeta(id, start)); err != nil {
			t.Fatal(err)
		}
	}
	const perWorker = 40
	var wg sync.WaitGroup
	for _, id := range ids {
		for w := range 3 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := range perWorker {
					var err error
					if w == 0 && i%4 == 0 {
						m := chatMeta(id, start.Add(time.Duration(i)*time.Second))
						m.Mode = "build"
						err = s.SaveMeta(m)
					} else {
						err = s.Append(id, msg(fmt.Sprintf(`{"w":%d,"i":%d}`, w, i)))
					}
					if err != nil {
						t.Error(err)
						return
					}
					if i%10 == 0 {
						if _, err := s.List(); err != nil {
							t.Error(err)
						}
					}
				}
			}()
		}
	}
	wg.Wait()
	for _, id := range ids {
		_, msgs, err := s.Load(id)
		if err != nil {
			t.Fatal(err)
		}
		if want := 3*perWorker - perWorker/4; len(msgs) != want {
			t.Errorf("%s: %d messages, want %d (an append was lost or torn)", id, len(msgs), want)
		}
	}
}

func TestChatStoreApproved(t *testing.T) {
	st := NewStore(filepath.Join(t.TempDir(), "chats"))
	if _, _, ok, err := st.Approved("s1"); ok || err != nil {
		t.Fatalf("nothing stored: ok %v err %v", ok, err)
	}
	for _, text := range []string{"---\nstatus: approved\n---\n- [ ] one\n", "- [x] one\n"} {
		if err := st.SaveApproved("s1", "plans/x.plan", text); err != nil {
			t.Fatal(err)
		}
		plan, got, ok, err := st.Approved("s1")
		if err != nil || !ok || plan != "plans/x.plan" || got != text {
			t.Fatalf("Approved = %q %q %v %v", plan, got, ok, err)
		}
	}
	if err := st.SaveApproved("../x", "p", "t"); err == nil {
		t.Fatal("bad id accepted")
	}
	if metas, err := st.List(); err != nil || len(metas) != 0 {
		t.Fatalf("List sees the approved file: %v %v", metas, err)
	}
}

// TestSaveMetaSyncsOnlyRealChanges: the end of every turn saves the
// metadata with a new UpdatedAt and nothing else, the first prompt a
// title; those saves are not synced to the disk (the first one after
// Create neither: Create synced the frontmatter), while a change of mode
// (or any other field) is. A store that did not create the session syncs
// its first save.
func TestSaveMetaSyncsOnlyRealChanges(t *testing.T) {
	syncs := 0
	replaceDurable = func(path string, data []byte, perm fs.FileMode) error {
		syncs++
		return workspace.WriteAtomic(path, data, perm)
	}
	t.Cleanup(func() { replaceDurable = workspace.WriteAtomic })
	s := NewStore(t.TempDir())
	meta := Meta{ID: "s1", Title: "New chat", Mode: "plan", CreatedAt: time.Unix(100, 0), UpdatedAt: time.Unix(100, 0)}
	if err := s.Create(meta); err != nil {
		t.Fatal(err)
	}
	for _, step := range []struct {
		name    string
		change  func(*Meta)
		durable bool
	}{
		{"first save: the title (Create synced the rest)", func(m *Meta) { m.Title = "Look at the parser" }, false},
		{"UpdatedAt and the title", func(m *Meta) { m.UpdatedAt = m.UpdatedAt.Add(time.Second) }, false},
		{"UpdatedAt only", func(m *Meta) { m.UpdatedAt = m.UpdatedAt.Add(time.Second) }, false},
		{"UpdatedAt again", func(m *Meta) { m.UpdatedAt = m.UpdatedAt.Add(time.Second) }, false},
		{"mode", func(m *Meta) { m.Mode = "build"; m.UpdatedAt = m.UpdatedAt.Add(time.Second) }, true},
		{"title", func(m *Meta) { m.Title = "Fix the parser" }, false},
		{"review", func(m *Meta) { m.Review = "edits" }, true},
		{"nothing", func(m *Meta) {}, false},
	} {
		step.change(&meta)
		before := syncs
		if err := s.SaveMeta(meta); err != nil {
			t.Fatalf("%s: %v", step.name, err)
		}
		if got := syncs > before; got != step.durable {
			t.Errorf("%s: synced = %v (%d fsyncs), want %v", step.name, got, syncs-before, step.durable)
		}
		got, _, err := s.Load(meta.ID)
		if err != nil || got.Mode != meta.Mode || !got.UpdatedAt.Equal(meta.UpdatedAt) || got.Title != meta.Title {
			t.Errorf("%s: loaded %+v, %v; want %+v", step.name, got, err, meta)
		}
	}
	other := NewStore(s.dir) // another process: its first save syncs
	before := syncs
	meta.Title = "Another title"
	if err := other.SaveMeta(meta); err != nil || syncs == before {
		t.Errorf("another store's first save: %v, synced = %v", err, syncs > before)
	}
}

// TestEmptyMetaIsIgnored: an empty .meta (what a power failure can leave
// of one created without fsync) loads as the .chat frontmatter, the last
// durable metadata, not as an error.
func TestEmptyMetaIsIgnored(t *testing.T) {
	s := NewStore(t.TempDir())
	meta := Meta{ID: "s1", Title: "New chat", Mode: "plan", CreatedAt: time.Unix(100, 0), UpdatedAt: time.Unix(100, 0)}
	if err := s.Create(meta); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(s.metaPath("s1"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	got, _, err := NewStore(s.dir).Load("s1")
	if err != nil || got.Title != "New chat" || got.Mode != "plan" {
		t.Fatalf("loaded %+v, %v; want the frontmatter's metadata", got, err)
	}
	if err := os.WriteFile(s.metaPath("s1"), []byte("not a frontmatter"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := NewStore(s.dir).Load("s1"); err == nil {
		t.Fatal("a damaged (non-empty) .meta loaded without an error")
	}
}
