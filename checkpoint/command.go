package checkpoint

import (
	"context"
	"maps"
	"os"
	"path/filepath"
	"time"

	"github.com/agentls/agentls/workspace"
)

// Before is the workspace as a command found it (BeforeCommand): what the
// command changed is told from it (KnowCommand), so that only what
// changed while it ran can be the command's.
type Before struct {
	man Manifest
	// start is when the scan began, on the file system's clock: another
	// session's known.json written since may name the command's changes.
	start time.Time
	// saves is the editor's last save reported before the scan.
	saves uint64
}

// BeforeCommand scans the workspace (no objects written) before a command
// or a mutating tool runs. The digest cache makes it a walk with a stat
// per file when little changed.
func (s *Store) BeforeCommand(ctx context.Context) (*Before, error) {
	b := &Before{start: s.fsNow(), saves: s.saves.mark()}
	man, err := s.Scan(ctx)
	if err != nil {
		return nil, err
	}
	b.man = man
	return b, nil
}

// KnowCommand scans the workspace after the command b was taken for and
// records as sessionID's own (UpdateKnown) what changed since b, except:
//   - a file the editor reported saved since b was taken (EditorSaved):
//     the user saved it while the command ran;
//   - a file whose digest now is the one another session's Known, written
//     since b was taken, names: another chat, or another agentls process on
//     the workspace, wrote it meanwhile.
//
// Those stay someone else's: a rewind leaves them as conflicts. It returns
// what it recorded.
func (s *Store) KnowCommand(ctx context.Context, sessionID string, b *Before) (Known, error) {
	after, err := s.Scan(ctx)
	if err != nil {
		return nil, err
	}
	changes := changesBetween(b.man, after)
	for _, p := range s.saves.since(b.saves) {
		delete(changes, s.Key(p))
		if real, err := workspace.Canonical(p); err == nil {
			delete(changes, s.Key(real)) // the editor named it through a link
		}
	}
	var recorded Known
	err = s.updateKnown(sessionID, func(Known) Known {
		for key := range s.othersWrote(sessionID, b.start.Add(-racyWindow), changes) {
			delete(changes, key)
		}
		recorded = maps.Clone(changes)
		return changes
	})
	return recorded, err
}

// othersWrote is the subset of changes that a session other than
// sessionID knows as its own write with the same digest, in a known.json
// modified at or after since (s.mu held). The folders and files read are
// the store's own (a session folder that is a symbolic link is passed
// over); a known.json that cannot be read names nothing.
func (s *Store) othersWrote(sessionID string, since time.Time, changes Known) map[string]bool {
	if len(changes) == 0 {
		return nil
	}
	entries, err := os.ReadDir(s.dir)
	if err != nil {
		return nil
	}
	out := map[string]bool{}
	for _, e := range entries {
		id := e.Name()
		if !e.IsDir() || id == sessionID || !ValidID(id) {
			continue
		}
		fi, err := os.Lstat(filepath.Join(s.dir, id, knownFile))
		if err != nil || !fi.Mode().IsRegular() || fi.ModTime().Before(since) {
			continue
		}
		k, err := s.loadKnownLocked(id)
		if err != nil {
			continue
		}
		for key, sha := range changes {
			if have, ok := k[key]; ok && have == sha {
				out[key] = true
			}
		}
	}
	return out
}
