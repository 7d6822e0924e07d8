package sessionstore

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/agentls/agentls/internal/statefile"
	"github.com/agentls/agentls/workspace"
)

// Known is the state folder's record of the sessions this user's agentls
// made, or took in, in each workspace: one file per session,
// `<state>/sessions/<sha256 of the workspace root and the id>`, holding a
// digest of what only the user may set (Trusted) as agentls last saved
// it. A session file not in it, or whose mode, review or models differ
// from the record (a later `git pull` brought a .meta of its own), came
// with the workspace — a cloned repository can commit .agentls/chats — and
// is not trusted with them: only a human switches a session to build. The
// nil Known (no state folder) knows no session. It is safe for concurrent
// use.
type Known struct{ dir string }

// Trusted is what of a session's metadata only the user may set.
type Trusted struct {
	Mode, Review, PlanModel, BuildModel string
}

// Trusted is meta's Trusted part.
func (m Meta) Trusted() Trusted {
	return Trusted{Mode: m.Mode, Review: m.Review, PlanModel: m.PlanModel, BuildModel: m.BuildModel}
}

// digest is what a record holds for t.
func (t Trusted) digest() []byte {
	h := sha256.Sum256([]byte(t.Mode + "\x00" + t.Review + "\x00" + t.PlanModel + "\x00" + t.BuildModel))
	return []byte(hex.EncodeToString(h[:]))
}

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

// Add records the session with t, what agentls saved of it (replacing the
// record atomically).
func (k *Known) Add(root, id string, t Trusted) error {
	if k == nil {
		return nil
	}
	if err := os.MkdirAll(k.dir, 0o700); err != nil {
		return fmt.Errorf("record session %s: %w", id, err)
	}
	if err := workspace.ReplaceFile(k.entry(root, id), t.digest(), 0o600); err != nil {
		return fmt.Errorf("record session %s: %w", id, err)
	}
	return nil
}

// Has reports whether the session is recorded with t (a record that
// cannot be read, or one of another t — or an empty one, from before
// records held it — counts as none: fail closed).
func (k *Known) Has(root, id string, t Trusted) bool {
	if k == nil {
		return false
	}
	data, _, err := statefile.Read(k.entry(root, id), 128)
	return err == nil && bytes.Equal(data, t.digest())
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
