package agent

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"sort"

	"github.com/agentls/agentls/agentproto"

	"github.com/agentls/agentls/checkpoint"
	"github.com/agentls/agentls/internal/udiff"
)

// What the editors show of a checkpoint (docs/review.md, "Keep and
// Undo"): the files changed since it, and a file's content in it, for a
// diff against the file now. "Undo" of a file is a code rewind limited to
// it (agentproto.RewindParams.Paths).

// checkpointOf loads the checkpoint of message id in session sessionID.
func (m *Manager) checkpointOf(sessionID, messageID string) (*checkpoint.Store, checkpoint.Manifest, error) {
	s, err := m.session(sessionID)
	if err != nil {
		return nil, nil, err
	}
	if messageID == "" {
		return nil, nil, invalidf("messageId is required")
	}
	store := m.checkpoints
	if store == nil || !store.Has(s.meta.ID, messageID) {
		return nil, nil, invalidf("session %s has no checkpoint for message %q", s.meta.ID, messageID)
	}
	man, err := store.Load(s.meta.ID, messageID)
	if err != nil {
		return nil, nil, fmt.Errorf("read the checkpoint of %s: %w", messageID, err)
	}
	return store, man, nil
}

// ChangedFiles lists the files that differ now from the checkpoint of
// message id (the disk: an unsaved buffer is not a change yet), sorted.
func (m *Manager) ChangedFiles(ctx context.Context, sessionID, messageID string) ([]agentproto.ChangedFile, error) {
	store, then, err := m.checkpointOf(sessionID, messageID)
	if err != nil {
		return nil, err
	}
	now, err := store.Scan(ctx)
	if err != nil {
		return nil, fmt.Errorf("scan the workspace: %w", err)
	}
	out := []agentproto.ChangedFile{}
	for _, key := range union(then, now) {
		t, inT := then[key]
		c, inC := now[key]
		if inT && inC && t.SHA256 == c.SHA256 {
			continue
		}
		f := agentproto.ChangedFile{Path: key, Status: "modified", Restorable: !(inT && t.Unrestorable) && !(inC && c.Unrestorable)}
		switch {
		case !inT:
			f.Status = "added"
		case !inC:
			f.Status = "deleted"
		}
		if f.Restorable {
			before, after := "", ""
			if inT {
				if data, err := store.Object(t.SHA256); err == nil {
					before = string(data)
				}
			}
			if inC {
				if data, err := os.ReadFile(store.Abs(key)); err == nil {
					after = string(data)
				}
			}
			f.Added, f.Removed = udiff.Stat(before, after)
		}
		out = append(out, f)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out, nil
}

// CheckpointFile returns a file (workspace-relative or absolute) as the
// checkpoint of message id has it.
func (m *Manager) CheckpointFile(sessionID, messageID, path string) (agentproto.CheckpointFileText, error) {
	store, man, err := m.checkpointOf(sessionID, messageID)
	if err != nil {
		return agentproto.CheckpointFileText{}, err
	}
	key, err := m.checkpointKey(path)
	if err != nil {
		return agentproto.CheckpointFileText{}, err
	}
	out := agentproto.CheckpointFileText{Path: key}
	e, ok := man[key]
	if !ok {
		return out, nil
	}
	out.Exists, out.Restorable = true, !e.Unrestorable
	if e.Unrestorable {
		return out, nil
	}
	data, err := store.Object(e.SHA256)
	if err != nil {
		return out, fmt.Errorf("read %s from the checkpoint: %w", key, err)
	}
	text := string(data)
	out.Text = &text
	return out, nil
}

// checkpointKey is the manifest key of a path the editor names: it must be
// in the workspace.
func (m *Manager) checkpointKey(path string) (string, error) {
	if path == "" {
		return "", invalidf("path is required")
	}
	p, err := m.ws.Resolve(path)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return "", invalidf("path %q: %v", path, err)
	}
	if m.checkpoints == nil {
		return p.Rel, nil
	}
	return m.checkpoints.Key(p.Abs), nil
}

// rewindPaths turns a rewind's Paths into the manifest keys a code
// rewind is limited to (nil: every file).
func (m *Manager) rewindPaths(paths []string) (map[string]bool, error) {
	if len(paths) == 0 {
		return nil, nil
	}
	only := map[string]bool{}
	for _, p := range paths {
		key, err := m.checkpointKey(p)
		if err != nil {
			return nil, err
		}
		only[key] = true
	}
	return only, nil
}
