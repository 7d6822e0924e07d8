package checkpoint

import (
	"context"
	"os"
	"testing"
)

// TestSaveReplacesADamagedObject: objects are written without fsync
// (putObject: "an object lost to a power failure is found damaged or
// missing, never wrong"). After a power failure, a freshly written object
// can be left as an empty file (ext4's delayed allocation: a new file
// renamed into place without fsync), or cut short. The file itself is
// intact in the workspace. The agentls started after the reboot takes the
// next checkpoint: the object's name exists, so it is not written again,
// and the new checkpoint (and every later one while the file keeps that
// content) names a damaged object. A rewind to any of them skips the file:
// the agent's later edit of it can never be undone, although its content
// was on disk at each of those checkpoints. A save should find an object
// whose size is not the file's and store the content again.
func TestSaveReplacesADamagedObject(t *testing.T) {
	ctx := context.Background()
	const content = "the user's work, before the agent's turn\n"
	for _, tc := range []struct {
		name string
		left []byte // what the power failure left of the object
	}{
		{"empty", nil},
		{"cut short", []byte(content[:10])},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, _ := newStore(t, map[string]string{"work.txt": content}, DefaultRetention)
			before, err := s.Save(ctx, "s1", "c1")
			if err != nil {
				t.Fatal(err)
			}
			sha := before["work.txt"].SHA256
			if err := os.WriteFile(s.objectPath(sha), tc.left, 0o644); err != nil {
				t.Fatal(err)
			}
			// The agentls started after the reboot.
			restarted := Open(s.ws, DefaultRetention)
			after, err := restarted.Save(ctx, "s1", "c2")
			if err != nil {
				t.Fatal(err)
			}
			e := after["work.txt"]
			if e.Unrestorable || e.SHA256 != sha {
				t.Fatalf("work.txt in c2: %+v, want the content's digest %s", e, sha)
			}
			if _, err := restarted.Object(e.SHA256); err != nil {
				t.Errorf("checkpoint c2, taken after the restart with work.txt intact on disk, cannot restore it: %v", err)
			}
		})
	}
}
