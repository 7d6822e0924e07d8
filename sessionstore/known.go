package sessionstore

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// Known is the state folder's record of the sessions this user's agentls
// made, or took in, in each workspace: one empty file per session,
// `<state>/sessions/<sha256 of the workspace root and the id>`. A session
// file not in it came with the workspace — a cloned repository can commit
// .agentls/chats — and is not trusted with what only the user may set:
// its mode (only a human switches a session to build), its review and its
// models. The nil Known (no state folder) knows no session. It is safe for
// concurrent use.
type Known struct{ dir string }

// NewKnown returns the record in stateDir/sessions; nil when stateDir is "".
func NewKnown(stateDir string) *Known {
	if stateDir == "" {
		return nil
	}
	return &Known{dir: filepath.Join(stateDir, "sessions")}
}

// entry is the file that records session id of the workspace at root.
func (k *Known) entry(root, id string) string {
	h := sha256.Sum256([]byte(root + "\x00" + id))
	return filepath.Join(k.dir, hex.EncodeToString(h[:]))
}

// Add records the session.
func (k *Known) Add(root, id string) error {
	if k == nil {
		return nil
	}
	if err := os.MkdirAll(k.dir, 0o700); err != nil {
		return fmt.Errorf("record session %s: %w", id, err)
	}
	f, err := os.OpenFile(k.entry(root, id), os.O_WRONLY|os.O_CREATE, 0o600)
	if err != nil {
		return fmt.Errorf("record session %s: %w", id, err)
	}
	return f.Close()
}

// Has reports whether the session is recorded (a record that cannot be
// read counts as none: fail closed).
func (k *Known) Has(root, id string) bool {
	if k == nil {
		return false
	}
	fi, err := os.Lstat(k.entry(root, id))
	return err == nil && fi.Mode().IsRegular()
}

// Remove forgets the session (it was deleted).
func (k *Known) Remove(root, id string) error {
	if k == nil {
		return nil
	}
	if err := os.Remove(k.entry(root, id)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("forget session %s: %w", id, err)
	}
	return nil
}
