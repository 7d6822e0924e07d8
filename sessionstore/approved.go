package sessionstore

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/agentls/agentls/internal/exactjson"
	"github.com/agentls/agentls/internal/statefile"
	"github.com/agentls/agentls/workspace"
)

// approvedExt is the extension of the file beside a session file that holds
// the approved text of the session's plan.
const approvedExt = ".approved"

// approvedFile is what <id>.approved holds. Both are carried byte for
// byte (exactjson: the plain JSON string of UTF-8 text, as before): a
// Latin-1 plan read back through a plain string came back with U+FFFD, and
// after a restart the unchanged plan showed as changed since approval.
type approvedFile struct {
	Plan exactjson.String `json:"plan"`
	Text exactjson.String `json:"text"`
}

// SaveApproved stores, beside the session file, the approved text of the
// session's plan (workspace-relative path plan): the text at approval plus
// the build session's own writes. It is replaced atomically.
func (s *Store) SaveApproved(id, plan, text string) error {
	if err := ValidID(id); err != nil {
		return fmt.Errorf("save approved plan: %w", err)
	}
	data, err := json.Marshal(approvedFile{Plan: exactjson.String(plan), Text: exactjson.String(text)})
	if err != nil {
		return fmt.Errorf("save approved plan of %s: %w", id, err)
	}
	defer s.lock(id)()
	if err := s.checkOwnFolder(); err != nil {
		return fmt.Errorf("save approved plan of %s: %w", id, err)
	}
	if err := os.MkdirAll(s.dir, 0o755); err != nil {
		return fmt.Errorf("save approved plan of %s: %w", id, err)
	}
	if err := workspace.WriteAtomic(filepath.Join(s.dir, id+approvedExt), data, 0o644); err != nil {
		return fmt.Errorf("save approved plan of %s: %w", id, err)
	}
	return nil
}

// Approved reads what SaveApproved stored; ok is false when nothing was.
func (s *Store) Approved(id string) (plan, text string, ok bool, err error) {
	if err := ValidID(id); err != nil {
		return "", "", false, fmt.Errorf("read approved plan: %w", err)
	}
	defer s.lock(id)()
	data, err := statefile.ReadAll(filepath.Join(s.dir, id+approvedExt))
	if errors.Is(err, fs.ErrNotExist) {
		return "", "", false, nil
	}
	if err != nil {
		return "", "", false, fmt.Errorf("read approved plan of %s: %w", id, err)
	}
	var f approvedFile
	if err := json.Unmarshal(data, &f); err != nil {
		return "", "", false, fmt.Errorf("read approved plan of %s: %w", id, err)
	}
	return string(f.Plan), string(f.Text), true, nil
}
