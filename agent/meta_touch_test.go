package agent

import (
	"context"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/agentls/agentls/sessionstore"
)

// TestTurnEndMetaWrittenAtMostEveryInterval: the end of a turn changes only
// UpdatedAt; it is written at the first turn's end, then not again within
// metaTouchInterval, then again after it; closing the session writes what
// was left. The in-memory info is always current.
func TestTurnEndMetaWrittenAtMostEveryInterval(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	var mu sync.Mutex
	clock := time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)
	now := func() time.Time { mu.Lock(); defer mu.Unlock(); return clock }
	advance := func(d time.Duration) { mu.Lock(); clock = clock.Add(d); mu.Unlock() }
	script := "name: turns\nsteps:\n" + repeatSteps(4, "  - text: done\n")
	m, _ := newTestManager(t, script, &memEditor{}, nil)
	m2, err := NewManager(Options{Workspace: m.ws, Config: m.config(), Provider: m.Provider(), Editor: &memEditor{ws: m.ws}, Now: now})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(m2.Close)
	info, err := m2.NewSession(ctx, "plan", "")
	if err != nil {
		t.Fatal(err)
	}
	id := info.SessionID
	onDisk := func() time.Time {
		meta, _, err := sessionstore.NewStore(filepath.Join(m.ws.Root(), ".agentls", "chats")).Load(id)
		if err != nil {
			t.Fatal(err)
		}
		return meta.UpdatedAt.UTC()
	}
	prompt := func(text string) {
		if _, err := m2.Prompt(ctx, PromptRequest{SessionID: id, Text: text}); err != nil {
			t.Fatal(err)
		}
	}
	prompt("first")
	first := now()
	if got := onDisk(); !got.Equal(first) {
		t.Fatalf("after the first turn: updated_at on disk %v, want %v", got, first)
	}
	advance(10 * time.Second)
	prompt("second")
	if got := onDisk(); !got.Equal(first) {
		t.Errorf("a turn 10 s later rewrote the metadata: updated_at %v, want still %v", got, first)
	}
	if s, _ := m2.session(id); s.Info().UpdatedAt != now().Format(time.RFC3339) {
		t.Errorf("in memory: %v, want %v", s.Info().UpdatedAt, now())
	}
	advance(metaTouchInterval)
	prompt("third")
	if got := onDisk(); !got.Equal(now()) {
		t.Errorf("a turn past the interval: updated_at on disk %v, want %v", got, now())
	}
	advance(time.Second)
	prompt("fourth")
	if err := m2.CloseSession(ctx, id); err != nil {
		t.Fatal(err)
	}
	if got := onDisk(); !got.Equal(now()) {
		t.Errorf("after closing the session: updated_at on disk %v, want %v", got, now())
	}
}

// repeatSteps is n copies of a script step.
func repeatSteps(n int, step string) string {
	out := ""
	for range n {
		out += step
	}
	return out
}
