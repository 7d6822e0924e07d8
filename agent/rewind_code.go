package agent

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/checkpoint"
	"github.com/agentls/agentls/guard"
	"github.com/agentls/agentls/workspace"
)

// rewindActor is the declared tool a rewind's changes are judged as: the
// guard's rules for a file write in build mode (protected paths, plans
// another session builds), whatever mode the session is in.
const rewindActor = "write"

// fileAction is what a code rewind does to one file.
type fileAction struct {
	key    string
	target checkpoint.Entry // the checkpoint's entry (absent: deleted)
	exists bool             // the checkpoint has the file
	// current is the file now (has: it exists).
	current checkpoint.Entry
	has     bool
	// content is the checkpoint's content of the file (read: it was read),
	// read in a deferred write's first pass, while the store was held.
	content []byte
	read    bool
}

// rewindCode restores the files of the checkpoint of message to: first a
// checkpoint of the workspace as it is now (named undoID: rewinding to it
// undoes this rewind), then the journal, then the files as one edit
// through the editor or, when it cannot take them, on disk one by one
// (temporary file and rename each). A non-nil only limits it to those
// manifest keys.
func (m *Manager) rewindCode(ctx context.Context, s *Session, to, undoID string, only map[string]bool) (agentproto.RewindResult, error) {
	store := m.checkpoints
	res := agentproto.RewindResult{UndoMessageID: undoID}
	// From reading the checkpoint until its objects are read, no prune —
	// here or in another agentls process on the workspace — removes them
	// (one may still drop the manifest: it is read already). Released
	// before the changes go to the editor.
	hold, err := store.Hold(ctx)
	if err != nil {
		return agentproto.RewindResult{}, fmt.Errorf("rewind: %w; nothing was changed", err)
	}
	release := sync.OnceFunc(hold)
	defer release()
	target, err := store.Load(s.meta.ID, to)
	if errors.Is(err, fs.ErrNotExist) {
		return agentproto.RewindResult{}, invalidf("the checkpoint of message %q of session %s was pruned (by another agentls on this workspace) as the rewind began; nothing was changed", to, s.meta.ID)
	}
	if err != nil {
		return agentproto.RewindResult{}, fmt.Errorf("rewind: read the checkpoint of %s: %w", to, err)
	}
	known, err := store.LoadKnown(s.meta.ID)
	if err != nil {
		slog.Warn("rewind: what agentls knew of the files is unreadable; every changed file is a conflict", "session", s.meta.ID, "err", err)
		known = checkpoint.Known{}
	}
	// A rewind that was interrupted (agentls killed midway) wrote some of
	// its files before known.json could learn of it: those are agentls's
	// own writes too, so rewinding to its journal's id undoes it wholly.
	interrupted, err := store.PendingJournal(s.meta.ID)
	if err != nil {
		slog.Warn("rewind: the journal of an interrupted rewind is unreadable", "session", s.meta.ID, "err", err)
	}
	// The undo checkpoint is one more of the session's: the prune it may
	// run keeps the checkpoint this rewind goes back to, and its objects.
	current, err := store.Save(ctx, s.meta.ID, undoID, to)
	if current == nil {
		return agentproto.RewindResult{}, fmt.Errorf("rewind: checkpoint the workspace first: %w", err)
	}
	if err != nil {
		slog.Warn("rewind: checkpoint", "session", s.meta.ID, "err", err)
	}
	if m.afterUndoCheckpoint != nil {
		m.afterUndoCheckpoint()
	}

	var actions []fileAction
	var modeOnly []string
	for _, key := range union(target, current) {
		if only != nil && !only[key] {
			continue // a rewind of some files only
		}
		t, inT := target[key]
		c, inC := current[key]
		if inT && inC && t.SHA256 == c.SHA256 {
			if t.Mode != 0 && c.Mode != 0 && t.Mode != c.Mode {
				modeOnly = append(modeOnly, key) // the content is the checkpoint's; its permissions are not
			}
			continue
		}
		now, then := "", ""
		if inC {
			now = c.SHA256
		}
		if inT {
			then = t.SHA256
		}
		if (inT && t.Unrestorable) || (inC && c.Unrestorable) {
			res.Skipped = append(res.Skipped, key)
			continue
		}
		if k, ok := known[key]; now != then && (!ok || k != now) && !interrupted.Wrote(key, now) {
			res.Conflicts = append(res.Conflicts, agentproto.RewindConflict{Path: key, Reason: conflictReason(inC)})
			continue
		}
		// What the undo checkpoint does not hold is never overwritten: a
		// buffer with unsaved changes (the disk is not what the person
		// sees), a file the scan leaves out (ignored since the checkpoint).
		if why := m.unheldReason(store.Abs(key), inC); why != "" {
			res.Conflicts = append(res.Conflicts, agentproto.RewindConflict{Path: key, Reason: why})
			continue
		}
		actions = append(actions, fileAction{key: key, target: t, exists: inT, current: c, has: inC})
	}

	changes, deferred, restored, skipped, err := m.rewindChanges(s, actions, false)
	if err != nil {
		return agentproto.RewindResult{}, err
	}
	// Every object the rewind writes is read (the deferred ones' too).
	release()
	done := make([]string, 0, len(restored)+len(deferred))
	for key := range restored {
		done = append(done, key)
	}
	for _, a := range deferred { // meant to be written: the journal names them
		done = append(done, a.key)
		restored[a.key] = ""
	}
	done = append(done, m.restoreModes(s, target, modeOnly)...)
	done = sortedPaths(done)
	res.Skipped = append(res.Skipped, skipped...)
	res.Restored = done
	// What the rewind writes: each restored file's digest ("" deleted).
	wrote := checkpoint.Known{}
	for _, a := range actions {
		if _, ok := restored[a.key]; !ok {
			continue // refused by the guard: left as it is
		}
		wrote[a.key] = ""
		if a.exists {
			wrote[a.key] = a.target.SHA256
		}
	}
	if len(changes) > 0 {
		if err := store.BeginJournal(checkpoint.Journal{ID: undoID, SessionID: s.meta.ID, To: to, Started: m.now(), Paths: done, Digests: wrote}); err != nil {
			return agentproto.RewindResult{}, fmt.Errorf("rewind: write the journal: %w", err)
		}
		if err := m.applyRewind(ctx, s, to, changes); err != nil {
			// Some files may be rewound already: the journal stays, as for
			// a rewind agentls was killed in (their writes are agentls's
			// own to a rewind again, which finishes it, or to the undo).
			return res, fmt.Errorf("%w; the rewind may have stopped midway: rewind again to finish it, or to %s to undo it", err, undoID)
		}
		m.finishRewind(target, actions, restored) // removes the folders the deletes emptied
		if len(deferred) > 0 {
			if err := m.applyDeferred(ctx, s, to, target, deferred, restored, &res); err != nil {
				return res, fmt.Errorf("%w; the rewind may have stopped midway: rewind again to finish it, or to %s to undo it", err, undoID)
			}
			for _, a := range deferred {
				if _, ok := restored[a.key]; !ok {
					delete(wrote, a.key) // skipped after all: not written
				}
			}
		}
	}
	// known.json learns of the rewind's writes before its journal goes: a
	// kill in between leaves the journal, which says the same.
	if err := store.UpdateKnown(s.meta.ID, wrote); err != nil {
		slog.Warn("rewind: record the restored files", "session", s.meta.ID, "err", err)
	}
	if len(changes) == 0 && interrupted != nil && interrupted.To == to {
		// A rewind again to the interrupted one's checkpoint that finds
		// nothing left to change has finished it: its writes are
		// agentls's (known.json learns them), and its journal goes.
		if err := store.UpdateKnown(s.meta.ID, interrupted.Digests); err != nil {
			slog.Warn("rewind: record the interrupted rewind's files", "session", s.meta.ID, "err", err)
		} else if err := store.EndJournal(s.meta.ID); err != nil {
			slog.Warn("rewind: remove the journal", "session", s.meta.ID, "err", err)
		}
	}
	if len(changes) > 0 {
		if err := store.EndJournal(s.meta.ID); err != nil {
			slog.Warn("rewind: remove the journal", "session", s.meta.ID, "err", err)
		}
	}
	res.Restored, res.Skipped = sortedPaths(res.Restored), sortedPaths(res.Skipped)
	if res.Conflicts == nil {
		res.Conflicts = []agentproto.RewindConflict{}
	}
	return res, nil
}

// unheldReason says why the file at abs is someone else's though the
// checkpoints say agentls may restore it — an editor buffer of it holds
// unsaved changes, or it exists on disk while the scan (scanned: it is in
// the undo checkpoint) left it out, as an ignored file — or "".
func (m *Manager) unheldReason(abs string, scanned bool) string {
	if m.ws.Overlay().ChangedUnsaved(abs) && !bufferIsDisk(m.ws.Overlay(), abs) {
		return "has unsaved changes in the editor; left as it is (save or revert it, then rewind again)"
	}
	if !scanned {
		if fi, err := os.Lstat(abs); err == nil && !fi.IsDir() {
			return "exists but is not checkpointed now (ignored, or too large): a rewind could not undo overwriting it; left as it is"
		}
	}
	return ""
}

// bufferIsDisk reports whether the editor's buffer of abs shows the file
// on disk as it is (workspace.DecodesTo: BOM, line breaks, Latin-1 aside):
// a buffer the editor reloaded after agentls wrote the file holds nothing
// the disk has not, though the editor reported it changed.
func bufferIsDisk(o *workspace.Overlay, abs string) bool {
	text, _, ok := o.Get(abs)
	if !ok {
		return false
	}
	disk, err := os.ReadFile(abs)
	return err == nil && workspace.DecodesTo(disk, text)
}

func conflictReason(exists bool) string {
	if !exists {
		return "deleted since agentls last changed it (by someone else); left as it is"
	}
	return "changed since agentls last changed it (by someone else); left as it is"
}

// rewindChanges computes the changes of the actions: a deleted file whose
// content the checkpoint has under another name is renamed back; each
// change the guard refuses is skipped. A file to re-create where a folder
// now stands whose every file the rewind deletes (a file the agent
// replaced by a folder), or under a file the rewind deletes (the other way
// round), is deferred: computed again once the first changes are made
// (final: nothing is deferred). It returns the changes, the deferred
// actions, the keys the changes restore with the resolved path each change
// names for it, and the skipped keys.
func (m *Manager) rewindChanges(s *Session, actions []fileAction, final bool) (changes []workspace.Change, deferred []fileAction, restored map[string]string, skipped []string, err error) {
	store := m.checkpoints
	st := s.rewindState()
	restored = map[string]string{}
	// Renames: a file to delete whose content is a file to re-create.
	createBySHA := map[string]int{}
	for i, a := range actions {
		if a.exists && !a.has {
			if _, dup := createBySHA[a.target.SHA256]; !dup {
				createBySHA[a.target.SHA256] = i
			}
		}
	}
	renamed := map[int]bool{}
	// The folders the rewind empties: every file the scan found under them
	// is one it deletes.
	emptied := map[string]bool{}
	kept := map[string]bool{}
	deletedFile := map[string]bool{}
	for _, a := range actions {
		if a.has && !a.exists {
			deletedFile[a.key] = true
		}
		for _, d := range ancestors(a.key) {
			if a.has && !a.exists {
				emptied[d] = true
			} else if a.has {
				kept[d] = true
			}
		}
	}
	// add keeps c when the guard allows it; paths are its keys, the
	// first for c.Path, a rename's second for c.From.
	add := func(c workspace.Change, paths ...string) {
		if r := m.Guard().CheckChanges(st, rewindActor, []workspace.Change{c}); r != nil {
			slog.Info("rewind: refused by the guard", "paths", paths, "reason", r.Error())
			skipped = append(skipped, paths...)
			return
		}
		changes = append(changes, c)
		restored[paths[0]] = c.Path.Abs
		if len(paths) > 1 {
			restored[paths[1]] = c.From.Abs
		}
	}
	for i, a := range actions {
		if a.exists || !a.has {
			continue
		}
		j, ok := createBySHA[a.current.SHA256]
		if !ok || renamed[j] {
			continue
		}
		from, err1 := m.rewindPath(a.key)
		dest, err2 := m.rewindPath(actions[j].key)
		if err1 != nil || err2 != nil {
			continue
		}
		c, err := m.ws.ComputeMove(from, dest)
		if err != nil {
			continue
		}
		renamed[i], renamed[j] = true, true
		add(c, actions[j].key, a.key)
	}
	for i, a := range actions {
		if renamed[i] {
			continue
		}
		p, err := m.rewindPath(a.key)
		if !final && a.exists && (err == nil && p.IsDir && emptied[a.key] && !kept[a.key] || err != nil && underAny(a.key, deletedFile)) {
			// Where a folder or file the first changes remove stands: its
			// content is read now, while the store is held (a prune could
			// remove the object before the first changes are made).
			data, oerr := store.Object(a.target.SHA256)
			if oerr != nil {
				slog.Warn("rewind: checkpoint object", "path", a.key, "err", oerr)
				skipped = append(skipped, a.key)
				continue
			}
			a.content, a.read = data, true
			deferred = append(deferred, a)
			continue
		}
		if err != nil {
			slog.Info("rewind: skipped", "path", a.key, "err", err)
			skipped = append(skipped, a.key)
			continue
		}
		var c workspace.Change
		if !a.exists {
			c, err = m.ws.ComputeRemove(p, false)
		} else {
			data, oerr := a.content, error(nil)
			if !a.read {
				data, oerr = store.Object(a.target.SHA256)
			}
			if oerr != nil {
				slog.Warn("rewind: checkpoint object", "path", a.key, "err", oerr)
				skipped = append(skipped, a.key)
				continue
			}
			c, err = m.ws.ComputeWrite(p, string(data))
		}
		if err != nil {
			slog.Warn("rewind: compute", "path", a.key, "err", err)
			skipped = append(skipped, a.key)
			continue
		}
		add(c, a.key)
	}
	return changes, deferred, restored, skipped, nil
}

// applyDeferred makes the deferred writes of a rewind whose first changes
// are made (rewindChanges): computed now, guarded, applied, and given the
// checkpoint's permissions; one it cannot make is skipped, not restored.
func (m *Manager) applyDeferred(ctx context.Context, s *Session, to string, target checkpoint.Manifest, deferred []fileAction, restored map[string]string, res *agentproto.RewindResult) error {
	changes, _, done, skipped, err := m.rewindChanges(s, deferred, true)
	if err != nil {
		return err
	}
	for _, key := range skipped {
		delete(restored, key)
		res.Restored = slices.DeleteFunc(res.Restored, func(k string) bool { return k == key })
	}
	res.Skipped = append(res.Skipped, skipped...)
	maps.Copy(restored, done)
	if len(changes) == 0 {
		return nil
	}
	if err := m.applyRewind(ctx, s, to, changes); err != nil {
		return err
	}
	m.finishRewind(target, deferred, done)
	return nil
}

// underAny reports whether key lies under one of the keys of files.
func underAny(key string, files map[string]bool) bool {
	return slices.ContainsFunc(ancestors(key), func(d string) bool { return files[d] })
}

// ancestors are the folders of a manifest key, innermost first ("a/b/c"
// → "a/b", "a"; none for a top-level key).
func ancestors(key string) []string {
	var out []string
	for d := path.Dir(key); d != "." && d != "/"; d = path.Dir(d) {
		out = append(out, d)
	}
	return out
}

// restoreModes gives the files of keys, whose content is the checkpoint's
// already, the checkpoint's permissions (a `chmod -x` since): only a
// regular file reached without a symbolic link, and only where the guard
// allows the rewind to write it. It returns the keys it changed.
func (m *Manager) restoreModes(s *Session, target checkpoint.Manifest, keys []string) []string {
	var out []string
	for _, key := range keys {
		p, err := m.rewindPath(key)
		if err != nil {
			continue
		}
		fi, err := os.Lstat(p.Abs)
		if err != nil || !fi.Mode().IsRegular() {
			continue
		}
		if r := m.Guard().CheckChanges(s.rewindState(), rewindActor, []workspace.Change{{Kind: workspace.ChangeEdit, Path: p}}); r != nil {
			continue
		}
		if err := os.Chmod(p.Abs, os.FileMode(target[key].Mode).Perm()); err != nil {
			slog.Warn("rewind: permissions", "path", key, "err", err)
			continue
		}
		out = append(out, key)
	}
	return out
}

// rewindPath is the workspace path of a checkpoint key, refused when it
// leads through a symbolic link (the file, or a folder on its way, became
// a link since the checkpoint): a rewind writes the key's own file, never
// another one the link names — that would put the old content over a file
// the user edited since (b.txt behind a.txt -> b.txt) and report it as a
// conflict left alone.
func (m *Manager) rewindPath(key string) (workspace.Path, error) {
	abs := m.checkpoints.Abs(key)
	p, err := m.ws.Resolve(abs)
	if err != nil {
		return workspace.Path{}, err
	}
	if p.Abs != filepath.Clean(abs) {
		return workspace.Path{}, fmt.Errorf("%s now leads through a symbolic link to %s: not rewound", key, p.Abs)
	}
	return p, nil
}

// rewindState is the state a rewind's changes are judged in: the
// session's, in build mode (a rewind is the user's act, allowed in any
// mode; a plan-only workspace still holds it to plan mode's rules).
func (s *Session) rewindState() guard.State {
	st := s.State()
	st.Mode = agentproto.ModeBuild
	return st
}

// applyRewind applies a rewind's changes as one edit through the editor,
// or on disk when the editor cannot take them so.
func (m *Manager) applyRewind(ctx context.Context, s *Session, to string, changes []workspace.Change) error {
	st := s.rewindState
	check := func(ops []guard.Op) error {
		if r := m.Guard().CheckOps(st(), rewindActor, ops); r != nil {
			return r
		}
		return nil
	}
	err := m.applier.Apply(ctx, ApplyRequest{
		SessionID: s.meta.ID, Actor: rewindActor, Label: "agentls: rewind to before message " + to,
		Changes: changes, Check: check, Whole: true,
	})
	if !errors.Is(err, ErrNotWhole) {
		if err != nil {
			return fmt.Errorf("rewind: %w", err)
		}
		return nil
	}
	for i, c := range changes {
		if r := m.Guard().CheckChanges(st(), rewindActor, []workspace.Change{c}); r != nil {
			return fmt.Errorf("rewind: %w", r)
		}
		if err := m.ws.ApplyToDisk(c); err != nil {
			return fmt.Errorf("rewind: %w", err)
		}
		if c.Kind == workspace.ChangeEdit || c.Kind == workspace.ChangeCreate {
			m.ws.Overlay().SetApplied(c.Path.Abs, c.After)
		}
		rewindStall(ctx, m, i+1)
	}
	return nil
}

// finishRewind gives re-created files the checkpoint's permissions and
// removes the folders a deleted file leaves empty, unless the checkpoint
// has files in them. It touches only what the rewind restored (restored:
// key → the resolved path its change named, which the guard judged), and
// a mode only on a regular file, not through a symlink: a checkpoint entry
// the rewind skipped — refused by the guard (.git/), outside the
// workspace, a file now replaced by a symlink to a private key — changes
// no permission anywhere.
func (m *Manager) finishRewind(target checkpoint.Manifest, actions []fileAction, restored map[string]string) {
	store := m.checkpoints
	dirs := map[string]bool{}
	for key := range target {
		for d := filepath.Dir(store.Abs(key)); len(d) > 1 && !dirs[d]; d = filepath.Dir(d) {
			dirs[d] = true
		}
	}
	for _, a := range actions {
		abs, ok := restored[a.key]
		if !ok {
			continue // skipped: not the rewind's to touch
		}
		if a.exists {
			if fi, err := os.Lstat(abs); err == nil && fi.Mode().IsRegular() && uint32(fi.Mode().Perm()) != a.target.Mode && a.target.Mode != 0 {
				_ = os.Chmod(abs, os.FileMode(a.target.Mode).Perm())
			}
			continue
		}
		for d := filepath.Dir(abs); !dirs[d] && m.insideFolder(d); d = filepath.Dir(d) {
			if fi, err := os.Lstat(d); err != nil || !fi.IsDir() || os.Remove(d) != nil { // not empty, gone, or a file again: stop
				break
			}
		}
	}
}

// insideFolder reports whether abs lies strictly inside a workspace folder.
func (m *Manager) insideFolder(abs string) bool {
	for _, f := range m.ws.Folders() {
		if rel, err := filepath.Rel(f, abs); err == nil && rel != "." && filepath.IsLocal(rel) {
			return true
		}
	}
	return false
}

// union is the sorted keys of both manifests.
func union(a, b checkpoint.Manifest) []string {
	seen := map[string]bool{}
	var out []string
	for _, m := range []checkpoint.Manifest{a, b} {
		for k := range m {
			if !seen[k] {
				seen[k] = true
				out = append(out, k)
			}
		}
	}
	return sortedPaths(out)
}

// rewindStallEnv, set in a test's agentls process to a number N, makes a
// rewind on disk stop after its Nth file until it is cancelled or the
// process killed: the crash test kills it there (cmd/agentls).
const rewindStallEnv = "AGENTLS_TEST_REWIND_STALL_AFTER"

func rewindStall(ctx context.Context, m *Manager, done int) {
	n, err := strconv.Atoi(strings.TrimSpace(os.Getenv(rewindStallEnv)))
	if err != nil || n != done {
		return
	}
	m.notify(ctx, fmt.Sprintf("[rewind] test stall after %d files", done))
	select {
	case <-ctx.Done():
	case <-time.After(time.Minute):
	}
}

// reportInterruptedRewind tells the user, when a session is loaded, that
// a rewind of it was interrupted (agentls killed midway): every file is
// wholly old or wholly new, and a rewind again finishes it (or one to the
// journal's checkpoint undoes it).
func (m *Manager) reportInterruptedRewind(ctx context.Context, sessionID string) {
	if m.checkpoints == nil {
		return
	}
	j, err := m.checkpoints.PendingJournal(sessionID)
	if err != nil || j == nil {
		return
	}
	// The temporary file of the write the kill interrupted, if any.
	dirs := map[string]bool{}
	for _, key := range j.Paths {
		dirs[filepath.Dir(m.checkpoints.Abs(key))] = true
	}
	for d := range dirs {
		// Only a real folder of the workspace: a journal's path through a
		// symlink (a journal edited by hand) sweeps nothing where it leads.
		if real, err := workspace.Canonical(d); err != nil || real != d {
			continue
		}
		if m.insideFolder(d) || slices.Contains(m.ws.Folders(), d) {
			workspace.SweepTemps(d)
		}
	}
	m.notify(ctx, fmt.Sprintf("[rewind] session=%s: the rewind to %s started %s was interrupted; each file is wholly as it was or wholly rewound: rewind again to finish it, or rewind to %s to undo it",
		sessionID, j.To, j.Started.UTC().Format(time.RFC3339), j.ID))
}
