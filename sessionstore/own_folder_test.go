package sessionstore

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestStoreOnlyInItsOwnFolder: a repository can ship .agentls, or
// .agentls/chats, as a symbolic link (out of the workspace, or into src/,
// where the session files would be the agent's to edit). No session file
// or lock is written where such a link leads: creating or locking a
// session fails, naming the link. Bypass rows.
func TestStoreOnlyInItsOwnFolder(t *testing.T) {
	for _, link := range []string{".agentls", ".agentls/chats"} {
		t.Run(link, func(t *testing.T) {
			root, outside := t.TempDir(), t.TempDir()
			at := filepath.Join(root, filepath.FromSlash(link))
			if err := os.MkdirAll(filepath.Dir(at), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(outside, at); err != nil {
				t.Fatal(err)
			}
			s := NewStore(filepath.Join(root, ".agentls", "chats"))
			meta := chatMeta("0192f0e2-7c1a-7b3e-8f00-000000000001", time.Now())
			for name, err := range map[string]error{"create": s.Create(meta), "own": s.Own(meta.ID), "approve": s.SaveApproved(meta.ID, "plans/x.plan", "x")} {
				if err == nil || !strings.Contains(err.Error(), "symbolic link") {
					t.Errorf("%s through a linked %s: %v, want an error naming the link", name, link, err)
				}
			}
			var found []string
			_ = filepath.Walk(outside, func(p string, fi os.FileInfo, err error) error {
				if err == nil && p != outside {
					found = append(found, p)
				}
				return nil
			})
			if len(found) > 0 {
				t.Fatalf("session files written where the link leads: %v", found)
			}
		})
	}
}
