package sessionstore

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// FuzzMetaRoundTrip holds that what the store writes it reads back: a
// session's metadata (a title taken from a prompt, a plan path, a kind...)
// comes back the same from Load, Meta and List after Create and after
// SaveMeta; the messages appended come back in order; the approved plan
// text comes back byte for byte.
func FuzzMetaRoundTrip(f *testing.F) {
	f.Add("Add a cache", "plans/cache.plan", "plan", "explore", "edits", int64(1_700_000_000_000_000_000), `{"role":"user","content":"hi"}`, "# Plan\n- [ ] step\n")
	f.Add("t: x", "", "build", "", "", int64(0), `{"a":[1,2,{"b":"\n"}]}`, "")
	f.Add("---\n...\n---", "a b/c.plan", "", "k", "off", int64(-1), `{ "x" : "---" }`, "---\nstatus: draft\n---\n")
	f.Add("\ufeff#\r\n'\"&*!|>%@`", "\t", "\x00", "\xff", "null", int64(42), `{}`, "caf\xe9")
	f.Fuzz(func(t *testing.T, title, plan, mode, kind, review string, nanos int64, msg, approved string) {
		at := time.Unix(0, nanos).UTC()
		meta := Meta{ID: "s1", Title: title, Mode: mode, PlanFile: plan, CreatedAt: at, UpdatedAt: at.Add(time.Second),
			EnteredAt: at, EnteredReason: review, ParentID: kind, Kind: kind, Review: review, PlanModel: title, BuildModel: plan}
		if at.IsZero() {
			meta.EnteredAt = time.Time{}
		}
		s := NewStore(t.TempDir())
		if err := s.Create(meta); err != nil {
			return // a value YAML cannot encode is refused, not written
		}
		check := func(when string, want Meta) {
			t.Helper()
			got, _, err := s.Load("s1")
			if err != nil {
				t.Fatalf("%s: Load: %v", when, err)
			}
			if got != want {
				t.Fatalf("%s: Load read\n%+v\nwant\n%+v", when, got, want)
			}
			if got, err := s.Meta("s1"); err != nil || got != want {
				t.Fatalf("%s: Meta read\n%+v (%v)\nwant\n%+v", when, got, err, want)
			}
			list, err := s.List()
			if err != nil || len(list) != 1 || list[0] != want {
				t.Fatalf("%s: List read %+v (%v), want [%+v]", when, list, err, want)
			}
		}
		check("after Create", meta)
		changed := meta
		changed.Title, changed.Mode, changed.PlanFile = plan, "build", title
		changed.UpdatedAt = at.Add(time.Hour)
		if err := s.SaveMeta(changed); err == nil {
			check("after SaveMeta", changed)
		}
		if json.Valid([]byte(msg)) && bytes.HasPrefix(bytes.TrimSpace([]byte(msg)), []byte("{")) {
			if err := s.Append("s1", json.RawMessage(msg), json.RawMessage(msg)); err != nil {
				t.Fatalf("Append(%q): %v", msg, err)
			}
			_, msgs, err := s.Load("s1")
			if err != nil {
				t.Fatal(err)
			}
			var want bytes.Buffer
			_ = json.Compact(&want, []byte(msg))
			if len(msgs) != 2 || string(msgs[0]) != want.String() || string(msgs[1]) != want.String() {
				t.Fatalf("appended %q twice, loaded %q", msg, msgs)
			}
		}
		if err := s.SaveApproved("s1", plan, approved); err != nil {
			t.Fatalf("SaveApproved: %v", err)
		}
		gotPlan, gotText, ok, err := s.Approved("s1")
		if err != nil || !ok || gotPlan != plan || gotText != approved {
			t.Fatalf("approved text of %q saved as %q, read back %q of %q (ok %v, err %v)", plan, approved, gotText, gotPlan, ok, err)
		}
	})
}

// FuzzLoadTamperedFiles writes arbitrary bytes as a session's .chat and
// .meta files (an older agentls, a crash, a hand edit) and holds: Load
// and Meta never panic; the id is the file's name whatever the
// frontmatter says; every message Load returns is one JSON object; Load
// and Meta agree on the metadata; and an Append after a successful Load
// loses none of the messages read before.
func FuzzLoadTamperedFiles(f *testing.F) {
	if b, err := os.ReadFile(filepath.Join("testdata", "chat", "old-format.chat")); err == nil {
		f.Add(b, []byte(nil))
		f.Add(b, []byte("---\nid: other\ntitle: renamed\nmode: build\n---\n"))
		f.Add(b[:len(b)-7], []byte{})
	}
	f.Add([]byte("---\nid: x\n...\n{\"a\":1}\n{\"b\""), []byte("---\n---\n"))
	f.Add([]byte("\ufeff---\r\ntitle: t\r\n---\r\n{}\r\n"), []byte("---\ntitle: [\n---\n"))
	f.Add([]byte("---\n---\n[1]\n\"s\"\n{}"), []byte("garbage"))
	f.Fuzz(func(t *testing.T, chat, meta []byte) {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "s1.chat"), chat, 0o644); err != nil {
			t.Fatal(err)
		}
		if meta != nil {
			if err := os.WriteFile(filepath.Join(dir, "s1.meta"), meta, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		s := NewStore(dir)
		m, msgs, err := s.Load("s1")
		if err != nil {
			return
		}
		if m.ID != "s1" {
			t.Fatalf("Load believed the id %q written in the file", m.ID)
		}
		for _, raw := range msgs {
			if !json.Valid(raw) || raw[0] != '{' {
				t.Fatalf("Load returned %q, not a JSON object", raw)
			}
		}
		if m2, err := s.Meta("s1"); err == nil && m2 != m {
			t.Fatalf("Meta read %+v, Load read %+v", m2, m)
		}
		if err := s.Append("s1", json.RawMessage(`{"new":true}`)); err != nil {
			t.Fatalf("Append: %v", err)
		}
		_, after, err := s.Load("s1")
		if err != nil {
			t.Fatalf("Load after Append: %v", err)
		}
		if len(after) != len(msgs)+1 || string(after[len(after)-1]) != `{"new":true}` {
			t.Fatalf("Append after Load: %d messages then %d, last %q", len(msgs), len(after), after[len(after)-1:])
		}
		for i := range msgs {
			if !bytes.Equal(msgs[i], after[i]) {
				t.Fatalf("message %d was %q, after Append %q", i, msgs[i], after[i])
			}
		}
	})
}
