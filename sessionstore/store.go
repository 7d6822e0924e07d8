package sessionstore

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/agentls/agentls/internal/flock"
	"github.com/agentls/agentls/internal/statefile"
	"github.com/agentls/agentls/workspace"
)

// Meta is the frontmatter of a `.chat` session file.
type Meta struct {
	ID    string `yaml:"id"`
	Title string `yaml:"title"`
	Mode  string `yaml:"mode"`
	// PlanFile is workspace-relative; "" is written as null.
	PlanFile      string    `yaml:"plan_file"`
	CreatedAt     time.Time `yaml:"created_at"`
	UpdatedAt     time.Time `yaml:"updated_at"`
	EnteredAt     time.Time `yaml:"entered_at,omitempty"`
	EnteredReason string    `yaml:"entered_reason,omitempty"`
	// ParentID, ParentToolCallID and Kind are set on a sub-agent's session:
	// the session whose task call started it, that call's id, and the
	// sub-agent's kind (explore, build, a user kind).
	ParentID         string `yaml:"parent_id,omitempty"`
	ParentToolCallID string `yaml:"parent_tool_call_id,omitempty"`
	Kind             string `yaml:"kind,omitempty"`
	// Review is the session's own review mode ("off", "edits"); "" follows
	// the configuration's `review`.
	Review string `yaml:"review,omitempty"`
	// PlanModel and BuildModel are the session's own model per mode
	// (agent/setModel, /model); "" follows the configuration.
	PlanModel  string `yaml:"plan_model,omitempty"`
	BuildModel string `yaml:"build_model,omitempty"`
}

// Store keeps sessions in <dir>/<id>.chat: a YAML frontmatter (the
// metadata as the session was created), then the messages, one compact JSON
// object per line, appended and never rewritten. Later metadata changes
// (mode, plan, title, times) go to <id>.meta, a small file with the same
// frontmatter, replaced atomically: a change costs one small write whatever
// the history's size, and a crash leaves either the old or the new one.
// When <id>.meta exists it wins over the .chat frontmatter; a session
// written before .meta files (or never changed since) has none and loads
// from its .chat alone. It is safe for concurrent use; the operations on one
// id never interleave.
type Store struct {
	dir   string
	mu    sync.Mutex
	locks map[string]*sync.Mutex
	owned map[string]*os.File // sessions this store owns: their locked <id>.lock
	// released is set by Release: the store owns nothing from then on and
	// refuses Own (s.mu).
	released bool
	// synced is, per session, the metadata last saved durably with its
	// title and UpdatedAt cleared (s.mu): a save that changes only those
	// (the end of every turn, the first prompt's title) skips the fsyncs
	// (SaveMeta). It is forgotten when the session's lock is given up
	// (Disown, Release): another process may save the session from then on,
	// and the next change of mode or plan here is synced again.
	synced map[string]Meta
	// held are the sessions whose turn keeps their file open (Hold): the
	// open file, nil until the turn's first Append.
	held map[string]*os.File
	// unwritten are, per session, the lines an Append could not write
	// (s.mu): the next Append writes them first, so that the file keeps the
	// order of the conversation in memory (records name messages by their
	// place in it).
	unwritten map[string][]byte
}

// replaceDurable and replaceQuick replace a file atomically, synced to the
// disk or not (SaveMeta); tests count the calls.
var (
	replaceDurable = workspace.WriteAtomic
	replaceQuick   = workspace.ReplaceFile
)

// NewStore returns a store over dir (created when the first session is).
func NewStore(dir string) *Store {
	return &Store{dir: dir, locks: make(map[string]*sync.Mutex), owned: make(map[string]*os.File), synced: make(map[string]Meta), held: make(map[string]*os.File), unwritten: make(map[string][]byte)}
}

// ErrReleased is wrapped by Own's error once the store was released: the
// process is giving its sessions up (the server is shutting down).
var ErrReleased = errors.New("agentls is shutting down: its sessions were released")

// ErrSessionOwned is wrapped by Own's error for a session another process
// (another editor window, another face of agentls) drives.
var ErrSessionOwned = errors.New("the session is open in another agentls process")

// Own takes the session's lock (flock on <dir>/<id>.lock) for as long as
// this store lives or until Release: two processes sharing the folder never
// drive one session at once. Owning a session twice is a no-op. The lock
// ends with the process, so a crash leaves nothing to clean. After Release
// Own fails (ErrReleased): a request still under way when the server shut
// down must not take a lock nothing would give up.
func (s *Store) Own(id string) error {
	if err := ValidID(id); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.released {
		return fmt.Errorf("lock session %s: %w", id, ErrReleased)
	}
	if _, ok := s.owned[id]; ok {
		return nil
	}
	if err := s.checkOwnFolder(); err != nil {
		return fmt.Errorf("lock session %s: %w", id, err)
	}
	if err := os.MkdirAll(s.dir, 0o755); err != nil {
		return fmt.Errorf("lock session %s: %w", id, err)
	}
	f, err := statefile.Open(filepath.Join(s.dir, id+".lock"), os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return fmt.Errorf("lock session %s: %w", id, err)
	}
	if ok, err := flock.Try(f, true); err != nil || !ok {
		f.Close()
		if err != nil {
			return fmt.Errorf("lock session %s: %w", id, err)
		}
		return fmt.Errorf("session %s: %w (another editor window?); close it there or start a new session", id, ErrSessionOwned)
	}
	s.owned[id] = f
	return nil
}

// Release gives up every session this store owns, for good: Own fails from
// then on (the store's process is shutting down). Disown gives up one.
func (s *Store) Release() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.released = true
	for id, f := range s.owned {
		unlock(id, f)
		delete(s.owned, id)
		delete(s.synced, id)
	}
}

// unlock gives up a session's lock and closes its lock file (the caller
// holds s.mu). The lock is given up explicitly, not by the close alone
// (flock.Unlock): the next Own of the session, in this process or another,
// must find it free.
func unlock(id string, f *os.File) {
	if err := flock.Unlock(f); err != nil {
		slog.Warn("unlock session", "session", id, "err", err) // the close below still releases it
	}
	f.Close()
}

// chatExt is the extension of session files.
const chatExt = ".chat"

// ValidID checks a session id (ids arrive over the wire): 1 to 128 of
// letters, digits, '.', '_' and '-', starting with a letter or a digit, no
// path separators and no "..". A loop, not a regular expression: every
// append of every message checks it.
func ValidID(id string) error {
	if !validIDChars(id) || strings.Contains(id, "..") {
		return fmt.Errorf("invalid session id %q: use letters, digits, '.', '_' and '-' only (no '..', at most 128)", id)
	}
	return nil
}

// validIDChars reports whether id is 1 to 128 of A-Z, a-z, 0-9, '.', '_'
// and '-', the first a letter or a digit.
func validIDChars(id string) bool {
	if len(id) == 0 || len(id) > 128 {
		return false
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		alnum := c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9'
		if !alnum && (i == 0 || c != '.' && c != '_' && c != '-') {
			return false
		}
	}
	return true
}

func (s *Store) path(id string) string { return filepath.Join(s.dir, id+chatExt) }

// metaExt is the extension of session metadata files.
const metaExt = ".meta"

func (s *Store) metaPath(id string) string { return filepath.Join(s.dir, id+metaExt) }

// currentMeta is meta (from the .chat frontmatter) updated by the session's
// .meta file, when it has one. The caller holds the id's lock. An empty
// .meta counts as none: a power failure can leave a .meta created without
// fsync (a title or UpdatedAt alone, SaveMeta) empty, and the frontmatter
// is then the last durable metadata.
func (s *Store) currentMeta(id string, meta Meta) (Meta, error) {
	data, err := statefile.ReadAll(s.metaPath(id))
	if errors.Is(err, os.ErrNotExist) || err == nil && len(data) == 0 {
		return meta, nil
	}
	if err != nil {
		return meta, err
	}
	m, _, err := splitChat(data)
	if err != nil {
		return meta, fmt.Errorf("%s: %w", s.metaPath(id), err)
	}
	m.ID = meta.ID // the file's name, whatever the .meta says
	return m, nil
}

// lock takes the lock of one id.
func (s *Store) lock(id string) func() {
	s.mu.Lock()
	l, ok := s.locks[id]
	if !ok {
		l = &sync.Mutex{}
		s.locks[id] = l
	}
	s.mu.Unlock()
	l.Lock()
	return l.Unlock
}

// Create writes a new session with no messages. It fails if the id exists.
func (s *Store) Create(meta Meta) error {
	if err := ValidID(meta.ID); err != nil {
		return fmt.Errorf("create session: %w", err)
	}
	defer s.lock(meta.ID)()
	p := s.path(meta.ID)
	if err := s.checkOwnFolder(); err != nil {
		return fmt.Errorf("create session %s: %w", meta.ID, err)
	}
	if _, err := os.Lstat(p); err == nil {
		return fmt.Errorf("create session %s: %w", meta.ID, os.ErrExist)
	}
	if err := os.MkdirAll(s.dir, 0o755); err != nil {
		return fmt.Errorf("create session %s: %w", meta.ID, err)
	}
	front, err := encodeChatFront(meta)
	if err != nil {
		return fmt.Errorf("create session %s: %w", meta.ID, err)
	}
	if err := workspace.WriteAtomic(p, front, 0o644); err != nil {
		return fmt.Errorf("create session %s: %w", meta.ID, err)
	}
	// The frontmatter just synced is the durable metadata: the first
	// prompt's title, saved next, need not sync a .meta file (SaveMeta; an
	// empty .meta, which is what a power failure can leave of it, is
	// ignored: currentMeta).
	key := meta
	key.Title, key.UpdatedAt = "", time.Time{}
	s.mu.Lock()
	s.synced[meta.ID] = key
	s.mu.Unlock()
	return nil
}

// SaveMeta stores the metadata of an existing session in its .meta file,
// atomically (a temporary file renamed over it); the .chat is not touched.
// A save that changes only the title or UpdatedAt since the last durable
// one is not synced to the disk (a crash of agentls never loses it; a power
// failure may leave the previous ones); every other change (mode, plan,
// review, models) is.
func (s *Store) SaveMeta(meta Meta) error {
	if err := ValidID(meta.ID); err != nil {
		return fmt.Errorf("save session: %w", err)
	}
	defer s.lock(meta.ID)()
	if err := s.checkOwnFolder(); err != nil {
		return fmt.Errorf("save session %s: %w", meta.ID, err)
	}
	if _, err := os.Stat(s.path(meta.ID)); err != nil {
		return fmt.Errorf("save session %s: %w", meta.ID, err)
	}
	front, err := encodeChatFront(meta)
	if err != nil {
		return fmt.Errorf("save session %s: %w", meta.ID, err)
	}
	key := meta
	key.Title, key.UpdatedAt = "", time.Time{}
	s.mu.Lock()
	last, ok := s.synced[meta.ID]
	s.mu.Unlock()
	durable := !ok || last != key
	write := replaceQuick
	if durable {
		write = replaceDurable
	}
	if err := write(s.metaPath(meta.ID), front, 0o644); err != nil {
		return fmt.Errorf("save session %s to %s: %w", meta.ID, s.metaPath(meta.ID), err)
	}
	if durable {
		s.mu.Lock()
		s.synced[meta.ID] = key
		s.mu.Unlock()
	}
	return nil
}

// Append adds messages (each a JSON object, stored compact on one line) to
// an existing session; Sync makes them durable. An append is whole or not
// at all: what it could not write (a full disk) is cut off again and kept,
// and written first by the session's next Append, so the file never lacks
// a line that a later one follows.
func (s *Store) Append(id string, msgs ...json.RawMessage) (err error) {
	if err := ValidID(id); err != nil {
		return fmt.Errorf("append to session: %w", err)
	}
	var buf bytes.Buffer
	for i, m := range msgs {
		start := buf.Len()
		if err := json.Compact(&buf, m); err != nil {
			return fmt.Errorf("append to session %s: message %d is not valid JSON: %w", id, i, err)
		}
		if buf.Bytes()[start] != '{' {
			return fmt.Errorf("append to session %s: message %d is not a JSON object", id, i)
		}
		buf.WriteByte('\n')
	}
	if buf.Len() == 0 {
		return nil
	}
	defer s.lock(id)()
	s.mu.Lock()
	out := append(s.unwritten[id], buf.Bytes()...)
	delete(s.unwritten, id)
	s.mu.Unlock()
	defer func() {
		if err != nil {
			s.mu.Lock()
			s.unwritten[id] = out
			s.mu.Unlock()
		}
	}()
	f, fi, held, err := s.heldFile(id)
	if !held && err == nil {
		f, fi, err = statefile.OpenInfo(s.path(id), os.O_RDWR|os.O_APPEND, 0)
		if err == nil {
			defer f.Close()
		}
	}
	if err != nil {
		return fmt.Errorf("append to session %s: %w", id, err)
	}
	// A crash in an earlier append may have left a torn last line: start on
	// a fresh line so that only the torn one is lost. (fi is the file's
	// fstat, taken just now under id's lock.)
	write := out
	if fi.Size() > 0 {
		last := make([]byte, 1)
		if _, err := f.ReadAt(last, fi.Size()-1); err == nil && last[0] != '\n' {
			write = append([]byte{'\n'}, out...)
		}
	}
	if _, err := f.Write(write); err != nil {
		_ = f.Truncate(fi.Size()) // no part of it stays: it is written again whole
		if held {
			s.dropHeld(id) // the next append opens the file again
		}
		return fmt.Errorf("append to session %s: %w", id, err)
	}
	return nil
}

// Sync makes what Append wrote to session id durable (fsync). Append alone
// survives a crash or kill of agentls (the data is in the kernel's
// cache); Sync, at the end of each turn, also covers a power failure,
// without a disk flush for every message.
func (s *Store) Sync(id string) error {
	if err := ValidID(id); err != nil {
		return fmt.Errorf("sync session: %w", err)
	}
	defer s.lock(id)()
	if done, err := s.syncHeld(id); done {
		return err
	}
	f, err := statefile.Open(s.path(id), os.O_RDWR, 0)
	if err != nil {
		return fmt.Errorf("sync session %s: %w", id, err)
	}
	defer f.Close()
	if err := f.Sync(); err != nil {
		return fmt.Errorf("sync session %s: %w", id, err)
	}
	return nil
}

// Load reads a session. An unknown id gives an error wrapping
// os.ErrNotExist. Lines that are not valid JSON (a torn last line after a
// crash) are skipped with a warning.
func (s *Store) Load(id string) (Meta, []json.RawMessage, error) {
	if err := ValidID(id); err != nil {
		return Meta{}, nil, fmt.Errorf("load session: %w", err)
	}
	defer s.lock(id)()
	data, err := statefile.ReadAll(s.path(id))
	if err != nil {
		return Meta{}, nil, fmt.Errorf("load session %s: %w", id, err)
	}
	meta, msgStart, err := splitChat(data)
	if err != nil {
		return Meta{}, nil, fmt.Errorf("load session %s: %w", id, err)
	}
	meta.ID = id // the file's name is the id: a frontmatter naming another session is not believed
	if meta, err = s.currentMeta(id, meta); err != nil {
		return Meta{}, nil, fmt.Errorf("load session %s: %w", id, err)
	}
	var msgs []json.RawMessage
	lineNo := 0
	for rest := data[msgStart:]; len(rest) > 0; {
		line := rest
		if i := bytes.IndexByte(rest, '\n'); i >= 0 {
			line, rest = rest[:i], rest[i+1:]
		} else {
			rest = nil
		}
		lineNo++
		line = bytes.TrimSpace(line)
		if len(line) == 0 {
			continue
		}
		if !json.Valid(line) || line[0] != '{' {
			slog.Warn("session file: skipping an unreadable message line (torn write?)", "session", id, "message", lineNo)
			continue
		}
		msgs = append(msgs, json.RawMessage(bytes.Clone(line)))
	}
	return meta, msgs, nil
}

// List returns the metadata of every session, newest (UpdatedAt) first.
// Unreadable files are skipped with a warning.
func (s *Store) List() ([]Meta, error) {
	entries, err := os.ReadDir(s.dir)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, nil
		}
		return nil, fmt.Errorf("list sessions: %w", err)
	}
	var out []Meta
	for _, e := range entries {
		name := e.Name()
		id, ok := strings.CutSuffix(name, chatExt)
		if !ok || e.IsDir() || ValidID(id) != nil {
			continue
		}
		meta, err := s.readMeta(id)
		if err != nil {
			slog.Warn("skipping an unreadable session file", "file", filepath.Join(s.dir, name), "err", err)
			continue
		}
		out = append(out, meta)
	}
	slices.SortFunc(out, func(a, b Meta) int {
		if c := b.UpdatedAt.Compare(a.UpdatedAt); c != 0 {
			return c
		}
		return strings.Compare(a.ID, b.ID)
	})
	return out, nil
}

// readMeta reads only the frontmatter of a session.
func (s *Store) readMeta(id string) (Meta, error) {
	defer s.lock(id)()
	f, err := statefile.Open(s.path(id), os.O_RDONLY, 0)
	if err != nil {
		return Meta{}, err
	}
	defer f.Close()
	var head bytes.Buffer
	r := bufio.NewReader(f)
	for n := 0; ; n++ {
		line, err := r.ReadBytes('\n')
		head.Write(line)
		if n > 0 && isFence(line) {
			break
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return Meta{}, err
		}
		if head.Len() > 1<<20 {
			return Meta{}, errors.New("frontmatter larger than 1 MiB")
		}
	}
	meta, _, err := splitChat(head.Bytes())
	meta.ID = id // the file's name is the id: a frontmatter naming another session is not believed
	if err != nil {
		return meta, err
	}
	return s.currentMeta(id, meta)
}

func isFence(line []byte) bool {
	return string(bytes.TrimRight(line, " \t\r\n")) == "---"
}

// splitChat decodes the frontmatter of a session file and returns the
// offset where the messages start.
func splitChat(data []byte) (Meta, int, error) {
	front, body, ok := workspace.SplitFrontmatter(string(data))
	if !ok {
		return Meta{}, 0, errors.New("the session file has no complete frontmatter")
	}
	var m Meta // a null plan_file reads as ""
	if err := yaml.Unmarshal([]byte(front), &m); err != nil {
		return Meta{}, 0, fmt.Errorf("session frontmatter: %w", err)
	}
	return m, body, nil
}

// nullValue makes the value of key in the mapping n null.
func nullValue(n *yaml.Node, key string) {
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			n.Content[i+1] = &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Value: "null"}
		}
	}
}

// encodeChatFront renders the frontmatter block, fences included.
func encodeChatFront(m Meta) ([]byte, error) {
	m.CreatedAt, m.UpdatedAt = m.CreatedAt.UTC(), m.UpdatedAt.UTC()
	if !m.EnteredAt.IsZero() { // a zero entered_at is left out (omitempty)
		m.EnteredAt = m.EnteredAt.UTC()
	}
	var f yaml.Node
	if err := f.Encode(m); err != nil {
		return nil, fmt.Errorf("encode session frontmatter: %w", err)
	}
	if m.PlanFile == "" {
		nullValue(&f, "plan_file") // no plan attached: null, not ""
	}
	var b bytes.Buffer
	b.WriteString("---\n")
	enc := yaml.NewEncoder(&b)
	if err := enc.Encode(&f); err != nil {
		return nil, fmt.Errorf("encode session frontmatter: %w", err)
	}
	if err := enc.Close(); err != nil {
		return nil, fmt.Errorf("encode session frontmatter: %w", err)
	}
	b.WriteString("---\n")
	return b.Bytes(), nil
}
