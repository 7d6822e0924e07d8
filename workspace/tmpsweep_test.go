package workspace

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
	"time"
)

// TestSweepTemps: leftovers of a dead writer and stale ones go; a live
// process's write in flight and other files stay.
func TestSweepTemps(t *testing.T) {
	dead := exec.Command("true")
	if err := dead.Run(); err != nil {
		t.Skipf("no `true` to get a dead pid: %v", err)
	}
	dir := t.TempDir()
	files := map[string]time.Duration{ // name → age
		".a.go.agentls-" + strconv.Itoa(dead.Process.Pid) + "-123.tmp": 0,                // owner gone
		".b.go.agentls-" + strconv.Itoa(os.Getppid()) + "-456.tmp":     0,                // owner alive: in flight
		".c.go.agentls-" + strconv.Itoa(os.Getppid()) + "-789.tmp":     10 * time.Minute, // owner alive but stale
		".d.chat.agentls-98765.tmp":                                    10 * time.Minute, // old name, stale
		".e.chat.agentls-98766.tmp":                                    0,                // old name, fresh
		"notes.agentls-1-2.tmp":                                        10 * time.Minute, // not ours (no leading dot)
		"main.go":                                                      10 * time.Minute,
	}
	for name, age := range files {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
		when := time.Now().Add(-age)
		if err := os.Chtimes(p, when, when); err != nil {
			t.Fatal(err)
		}
	}
	var got []string
	for _, p := range SweepTemps(dir, filepath.Join(dir, "missing")) {
		got = append(got, filepath.Base(p))
	}
	slices.Sort(got)
	want := []string{".a.go.agentls-" + strconv.Itoa(dead.Process.Pid) + "-123.tmp", ".c.go.agentls-" + strconv.Itoa(os.Getppid()) + "-789.tmp", ".d.chat.agentls-98765.tmp"}
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Fatalf("removed %v, want %v", got, want)
	}
}

// TestAtomicWriteNamesItsOwner: the temporary file of an atomic write
// carries the writer's pid, so that a sweep can tell whether it is in flight.
func TestAtomicWriteNamesItsOwner(t *testing.T) {
	if m := tempNameRe.FindStringSubmatch(".x.go.agentls-" + strconv.Itoa(os.Getpid()) + "-42.tmp"); m == nil || m[1] != strconv.Itoa(os.Getpid()) {
		t.Fatalf("pattern does not parse the pid: %v", m)
	}
	dir := t.TempDir()
	if err := writeAtomic(filepath.Join(dir, "f"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 || entries[0].Name() != "f" {
		t.Fatalf("left behind: %v", entries)
	}
}
