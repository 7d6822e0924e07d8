package guard

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"

	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/internal/atomicfile"
	"github.com/agentls/agentls/internal/exactjson"
	"github.com/agentls/agentls/sessionstore"

	"github.com/agentls/agentls/workspace"
)

// The plan locks of one workspace come from its own sessions (PlanLocks).
// A plan is also reachable from other workspaces: the project's parent
// folder opened in a second editor window, an ACP session whose cwd is the
// parent, another agentls process. So a session that builds a plan also
// registers it in agentls's state folder, keyed by the plan's absolute
// resolved path, where every workspace, face and process looks.

// PlanLock is one entry of the registry: a session building a plan. Its
// JSON (the entry's file) is lockJSON's.
type PlanLock struct {
	// Plan is the plan's absolute path, symlinks evaluated.
	Plan string
	// Session is the building session's id, in Workspace's own
	// .agentls/chats.
	Session string
	// Workspace is the root folder of the builder's workspace (absolute).
	Workspace string
	// PID is the process that registered it (for people reading the file;
	// a lock is judged by the session file, not by the process).
	PID int
}

// lockJSON is a PlanLock as its file holds it. The paths are carried
// byte for byte (exactjson: the plain JSON string of a UTF-8 path, as
// before): in a workspace whose folder name is not UTF-8 a plain string
// named another, missing, workspace, where Live found no session file and
// removed the lock of a plan under build.
type lockJSON struct {
	Plan      exactjson.String `json:"plan"`
	Session   exactjson.String `json:"session"`
	Workspace exactjson.String `json:"workspace"`
	PID       int              `json:"pid"`
}

// MarshalJSON writes l as lockJSON.
func (l PlanLock) MarshalJSON() ([]byte, error) {
	return json.Marshal(lockJSON{Plan: exactjson.String(l.Plan), Session: exactjson.String(l.Session), Workspace: exactjson.String(l.Workspace), PID: l.PID})
}

// UnmarshalJSON reads what MarshalJSON wrote, and the entries written
// before it (plain strings).
func (l *PlanLock) UnmarshalJSON(data []byte) error {
	var f lockJSON
	if err := json.Unmarshal(data, &f); err != nil {
		return err
	}
	*l = PlanLock{Plan: string(f.Plan), Session: string(f.Session), Workspace: string(f.Workspace), PID: f.PID}
	return nil
}

// LockRegistry is the folder of plan locks, `<state>/planlocks/`: one file
// per plan and builder, `<sha256 of Plan>-<sha256 of Workspace and
// Session, 16 hex digits>.json`, replaced atomically. Every builder keeps
// its own entry: a second build of the plan from another workspace (its
// parent folder in another window) neither replaces the first builder's
// entry nor, when it stops, removes it. An entry counts only while its
// session file says the session builds that plan and the plan is not
// implemented or archived (Live), so a lock left behind by a process that
// was killed stops holding once the session leaves build mode, its file is
// removed or the plan is finished. The nil registry (no state folder)
// knows no locks. It is safe for concurrent use.
type LockRegistry struct{ dir string }

// NewLockRegistry returns the registry in stateDir/planlocks; nil when
// stateDir is "".
func NewLockRegistry(stateDir string) *LockRegistry {
	if stateDir == "" {
		return nil
	}
	return &LockRegistry{dir: filepath.Join(stateDir, "planlocks")}
}

// planPrefix is the start of the names of a plan's entries.
func (r *LockRegistry) planPrefix(plan string) string {
	h := sha256.Sum256([]byte(plan))
	return hex.EncodeToString(h[:])
}

// entryPath is the file of one builder's lock of a plan.
func (r *LockRegistry) entryPath(plan, ws, session string) string {
	b := sha256.Sum256([]byte(ws + "\x00" + session))
	return filepath.Join(r.dir, r.planPrefix(plan)+"-"+hex.EncodeToString(b[:8])+".json")
}

// legacyPath is where agentls before per-builder entries kept the plan's
// one entry: still read (Live, Entries) and released.
func (r *LockRegistry) legacyPath(plan string) string {
	return filepath.Join(r.dir, r.planPrefix(plan)+".json")
}

// Take registers l (its Plan absolute and resolved), replacing the
// builder's own earlier entry of the plan, never another builder's.
func (r *LockRegistry) Take(l PlanLock) error {
	if r == nil {
		return nil
	}
	data, err := json.MarshalIndent(l, "", "  ")
	if err != nil {
		return fmt.Errorf("plan lock of %s: %w", l.Plan, err)
	}
	if err := os.MkdirAll(r.dir, 0o700); err != nil {
		return fmt.Errorf("plan lock of %s: %w", l.Plan, err)
	}
	if err := atomicfile.Write(r.entryPath(l.Plan, l.Workspace, l.Session), append(data, '\n'), 0o600); err != nil {
		return fmt.Errorf("plan lock of %s: %w", l.Plan, err)
	}
	return nil
}

// Entries are the plan's entries (plan absolute and resolved), whether
// they hold or not.
func (r *LockRegistry) Entries(plan string) []PlanLock {
	if r == nil {
		return nil
	}
	paths, _ := filepath.Glob(filepath.Join(r.dir, r.planPrefix(plan)+"-*.json"))
	var out []PlanLock
	for _, p := range append(paths, r.legacyPath(plan)) {
		if l, ok := r.read(p); ok && l.Plan == plan {
			out = append(out, l)
		}
	}
	return out
}

// Release removes the session's entry of the plan in workspace ws
// (another builder's entry stays).
func (r *LockRegistry) Release(plan, session, ws string) error {
	if r == nil {
		return nil
	}
	if err := os.Remove(r.entryPath(plan, ws, session)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("release plan lock of %s: %w", plan, err)
	}
	legacy := r.legacyPath(plan)
	if l, ok := r.read(legacy); ok && l.Session == session && l.Workspace == ws {
		if err := os.Remove(legacy); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("release plan lock of %s: %w", plan, err)
		}
	}
	return nil
}

// Live lists the entries that hold: the session file, in the builder's
// workspace, says build mode with this plan attached, and the plan is not
// implemented or archived (a plan whose status cannot be read holds: fail
// closed). An entry whose session file is gone (the session deleted, its
// workspace removed) can never hold again: Live removes it (forget), so
// the folder does not grow with every plan a session left unfinished and
// each plan write does not read them all again.
func (r *LockRegistry) Live() []PlanLock {
	if r == nil {
		return nil
	}
	entries, err := os.ReadDir(r.dir)
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			slog.Warn("plan locks: list", "dir", r.dir, "err", err)
		}
		return nil
	}
	var out []PlanLock
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".json") {
			continue
		}
		path := filepath.Join(r.dir, e.Name())
		l, ok := r.read(path)
		if !ok {
			continue
		}
		switch holds, gone := l.live(); {
		case holds:
			out = append(out, l)
		case gone:
			r.forget(path, l)
		}
	}
	return out
}

// forget removes the entry at path if it is still l. A Take of the same
// plan may replace the file between Live's read and the removal, so the
// file is first moved aside, then read again: when it is no longer l, it
// goes back (unless a newer entry stands there already).
func (r *LockRegistry) forget(path string, l PlanLock) {
	aside := fmt.Sprintf("%s.gone-%d-%d", path, os.Getpid(), forgetSeq.Add(1))
	if err := os.Rename(path, aside); err != nil {
		return // gone already, or replaced and moved by another reader
	}
	if moved, ok := r.read(aside); ok && moved != l {
		if err := os.Link(aside, path); err != nil && !errors.Is(err, fs.ErrExist) {
			slog.Warn("plan locks: put back a newer entry", "plan", moved.Plan, "err", err)
		}
	}
	if err := os.Remove(aside); err != nil {
		slog.Warn("plan locks: forget a dead entry", "entry", aside, "err", err)
	}
}

// forgetSeq makes forget's aside names unique within the process.
var forgetSeq atomic.Uint64

// read decodes one entry; false when it is unreadable or malformed (an
// entry must name an absolute plan, a session and an absolute workspace).
func (r *LockRegistry) read(path string) (PlanLock, bool) {
	data, err := os.ReadFile(path)
	if err != nil {
		return PlanLock{}, false
	}
	var l PlanLock
	if err := json.Unmarshal(data, &l); err != nil || !filepath.IsAbs(l.Plan) || !filepath.IsAbs(l.Workspace) || l.Session == "" {
		return PlanLock{}, false
	}
	return l, true
}

// live reports whether the entry's session still builds its plan (holds),
// and whether the session's file is gone for good (gone: session ids are
// never reused, so nothing can make the entry hold again).
func (l PlanLock) live() (holds, gone bool) {
	meta, err := sessionstore.NewStore(filepath.Join(l.Workspace, stateDirName, "chats")).Meta(l.Session)
	if err != nil {
		return false, errors.Is(err, fs.ErrNotExist)
	}
	if agentproto.Mode(meta.Mode) != agentproto.ModeBuild || meta.PlanFile == "" {
		return false, false
	}
	attached := filepath.Join(l.Workspace, filepath.FromSlash(meta.PlanFile))
	if real, err := workspace.Canonical(attached); err == nil {
		attached = real
	}
	if attached != l.Plan {
		return false, false
	}
	data, err := os.ReadFile(l.Plan)
	if err != nil {
		return !errors.Is(err, fs.ErrNotExist), false // a removed plan holds nothing
	}
	plan, err := workspace.ParsePlan(string(data))
	if err != nil || plan.Meta == nil {
		return true, false
	}
	return plan.Meta.Status != agentproto.PlanImplemented && plan.Meta.Status != agentproto.PlanArchived, false
}
