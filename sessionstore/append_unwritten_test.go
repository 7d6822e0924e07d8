package sessionstore

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"
)

// TestAppendWritesWhatFailedFirst: an append that could not be written
// (here the .chat is briefly a folder; a full disk in life) is written by
// the session's next append, before it, so the file keeps the order the
// conversation had in memory (records name messages by their place).
func TestAppendWritesWhatFailedFirst(t *testing.T) {
	s := NewStore(t.TempDir())
	at := time.Date(2026, 11, 29, 9, 0, 0, 0, time.UTC)
	if err := s.Create(Meta{ID: "s1", Mode: "plan", CreatedAt: at, UpdatedAt: at}); err != nil {
		t.Fatal(err)
	}
	line := func(n string) json.RawMessage { return json.RawMessage(`{"role":"user","content":"` + n + `"}`) }
	if err := s.Append("s1", line("one")); err != nil {
		t.Fatal(err)
	}
	chat := s.path("s1")
	if err := os.Rename(chat, chat+".away"); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(chat, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := s.Append("s1", line("two")); err == nil {
		t.Fatal("the rig is wrong: an append to a folder succeeded")
	}
	if err := os.Remove(chat); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(chat+".away", chat); err != nil {
		t.Fatal(err)
	}
	if err := s.Append("s1", line("three")); err != nil {
		t.Fatal(err)
	}
	_, lines, err := s.Load("s1")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, l := range lines {
		var m struct{ Content string }
		_ = json.Unmarshal(l, &m)
		got = append(got, m.Content)
	}
	if strings.Join(got, ",") != "one,two,three" {
		t.Errorf("the file holds %v, want one, two, three", got)
	}
}
