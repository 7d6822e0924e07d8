//go:build linux

package sandbox

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDenyReadHoldsForAFolderWithANonUTF8Name: a folder the policy denies
// (sandbox.deny_read, a secret place under a home such as /home/jörg in
// Latin-1) stays unreadable to a confined command whatever bytes its name
// holds: the launcher must get the very path. Found by FuzzSpecRoundTrip
// (the spec crosses to the launcher as JSON, whose plain strings turn
// invalid UTF-8 into U+FFFD, so the rule named another, missing, path).
func TestDenyReadHoldsForAFolderWithANonUTF8Name(t *testing.T) {
	for _, mode := range confinedModes {
		t.Run(string(mode), func(t *testing.T) {
			requireLayers(t, mode)
			r := newRig(t)
			secret := filepath.Join(r.ws, "cl\xe9s", "secret.txt")
			must(t, os.MkdirAll(filepath.Dir(secret), 0o755))
			must(t, os.WriteFile(secret, []byte("secret\n"), 0o644))
			if r.runAs != nil {
				must(t, os.Chown(filepath.Dir(secret), int(r.runAs.UID), int(r.runAs.GID)))
				must(t, os.Chown(secret, int(r.runAs.UID), int(r.runAs.GID)))
			}
			pol := r.policy(mode)
			pol.DenyRead = append(pol.DenyRead, filepath.Dir(secret))
			if out, code := r.run(pol, nil, "read", filepath.Join(r.ws, "go.mod")); code != 0 {
				t.Fatalf("the workspace itself is unreadable (exit %d): %s", code, strings.TrimSpace(out))
			}
			if out, code := r.run(pol, nil, "read", secret); code == 0 {
				t.Fatalf("a confined command read %q in a denied folder: %s", secret, strings.TrimSpace(out))
			}
		})
	}
}
