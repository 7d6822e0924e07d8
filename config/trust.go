package config

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/agentls/agentls/internal/atomicfile"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/agentls/agentls/internal/canon"
	"github.com/agentls/agentls/internal/exactjson"
)

// A workspace's `.agentls.yaml` comes with the repository, so it may have been
// written by anyone (or by the model in an earlier build session). Keys that
// can only narrow what agentls may do apply at once; every other key (a
// model endpoint or key variable, allowed commands, the plans folder, the
// edit route…) applies only once the user trusted the file's current
// content. The trust is remembered per file and content hash in a TrustStore.

// narrowing lists the keys an untrusted workspace file may set, each with
// the test that its value does not widen the base configuration (the lower
// layers): a stricter switch, a shorter timeout, a smaller limit. Every
// other key needs trust (fail closed): a key added later needs trust until
// it is listed here.
var narrowing = map[string]func(v any, base Config) bool{
	"plan_mode.default_active":        func(v any, b Config) bool { return v == true || v == b.PlanMode.DefaultActive },
	"plan_mode.require_approval":      func(v any, b Config) bool { return v == true || v == b.PlanMode.RequireApproval },
	"plan_mode.approval_timeout_secs": func(v any, b Config) bool { return atMost(v, b.PlanMode.ApprovalTimeoutSecs) },
	"run.timeout_secs":                func(v any, b Config) bool { return atMost(v, b.Run.TimeoutSecs) },
	"run.max_output_bytes":            func(v any, b Config) bool { return atMost(v, b.Run.MaxOutputBytes) },
	"max_turn_requests":               func(v any, b Config) bool { return atMost(v, b.MaxTurnRequests) },
	"subagents.max_parallel":          func(v any, b Config) bool { return atMost(v, b.Subagents.MaxParallel) },
	"subagents.max_depth":             func(v any, b Config) bool { return atMost(v, b.Subagents.MaxDepth) },
	"subagents.max_turns":             func(v any, b Config) bool { return atMost(v, b.Subagents.MaxTurns) },
	"subagents.max_tokens":            func(v any, b Config) bool { return atMost(v, b.Subagents.MaxTokens) },
	"review":                          func(v any, b Config) bool { return v == "edits" || v == b.Review },
}

// atMost reports whether v is an integer no larger than limit.
func atMost(v any, limit int) bool {
	var s string
	switch n := v.(type) {
	case json.Number:
		s = n.String()
	case int:
		return n <= limit
	case int64:
		return n <= int64(limit)
	case float64:
		return n <= float64(limit)
	default:
		return false
	}
	i, err := strconv.ParseInt(s, 10, 64)
	return err == nil && i <= int64(limit)
}

// SplitTrust divides a workspace file's layer against the base
// configuration (the layers below it): narrow is what applies while the
// file is untrusted (the listed keys whose values narrow), widening the
// dotted names of every other key set, sorted ("run.allow").
func SplitTrust(layer Source, base Config) (narrow Source, widening []string) {
	narrow = Source{Name: layer.Name}
	if layer.Data == nil {
		return narrow, nil
	}
	narrow.Data = map[string]any{}
	splitInto(layer.Data, "", base, narrow.Data, &widening)
	sort.Strings(widening)
	return narrow, widening
}

func splitInto(data map[string]any, prefix string, base Config, out map[string]any, widening *[]string) {
	for k, v := range data {
		key := prefix + k
		if m, ok := v.(map[string]any); ok {
			sub := map[string]any{}
			splitInto(m, key+".", base, sub, widening)
			if len(sub) > 0 {
				out[k] = sub
			}
			continue
		}
		if ok := narrowing[key]; ok != nil && ok(v, base) {
			out[k] = v
			continue
		}
		*widening = append(*widening, key)
	}
}

// WorkspaceTrust is the verdict on one workspace configuration file: the
// layer to apply now and the keys that wait for the user's trust.
type WorkspaceTrust struct {
	// Path is the file; Sum the SHA-256 (hex) of the content judged.
	Path, Sum string
	// Content is the text judged (what Trust remembers).
	Content []byte
	// Layer applies now: the whole file when it is trusted or sets only
	// narrowing keys, else only its narrowing keys.
	Layer Source
	// Widening are the keys ignored until the user trusts this content,
	// with their values as the file sets them; empty when none.
	Widening []string
	// Untrustable, when set, says why the user cannot trust this file at
	// all (a symlink to a file outside the workspace): its widening keys
	// stay ignored, the face warns and does not ask (Askable).
	Untrustable string
	// Kinds are the project's sub-agent kinds trusting the file lets the
	// agent use (the host lists them, docs/subagents.md), one line each,
	// its values as JSON: part of what trusting grants.
	Kinds  []string
	values map[string]any
}

// Pending reports whether keys or sub-agent kinds wait for the user's trust.
func (w WorkspaceTrust) Pending() bool { return len(w.Widening) > 0 || len(w.Kinds) > 0 }

// Askable reports whether the user may be asked to trust the file: keys
// wait, and the file can be trusted at all.
func (w WorkspaceTrust) Askable() bool { return w.Pending() && w.Untrustable == "" }

// Question is the question put to the user: "This workspace's
// .agentls.yaml allows run.allow: ["*"], … Trust it?". Every value is
// shown in full, never cut.
func (w WorkspaceTrust) Question() string {
	return fmt.Sprintf("This workspace's %s allows %s. Trust it? (%s)", filepath.Base(w.Path), strings.Join(w.Grants(), ", "), w.Path)
}

// Grants are the widening keys with their values in full, one
// `key: value` (JSON) each, then the sub-agent kinds (Kinds): what
// trusting the file grants.
func (w WorkspaceTrust) Grants() []string {
	out := make([]string, 0, len(w.Widening)+len(w.Kinds))
	for _, k := range w.Widening {
		out = append(out, k+": "+fullValue(w.values[k]))
	}
	return append(out, w.Kinds...)
}

// Warning says which keys (and sub-agent kinds) were ignored and why.
func (w WorkspaceTrust) Warning() string {
	ignored := slices.Clone(w.Widening)
	if len(w.Kinds) > 0 {
		ignored = append(ignored, fmt.Sprintf("the project's %d sub-agent kinds (.agentls/agents)", len(w.Kinds)))
	}
	if w.Untrustable != "" {
		return fmt.Sprintf("agentls ignored %s in the workspace file %s: %s",
			strings.Join(ignored, ", "), w.Path, w.Untrustable)
	}
	return fmt.Sprintf("agentls ignored %s in the untrusted workspace file %s: these apply only once you trust the file's content",
		strings.Join(ignored, ", "), w.Path)
}

// TrustAnswers are the two answers of the trust question, the safe one
// first (some clients pick the first action on a bare Enter).
var TrustAnswers = [2]string{"Don't trust", "Trust"}

// fullValue is a value as JSON, whole.
func fullValue(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// Judge reads a workspace configuration file's layer (parsed from content)
// against the base configuration and the store: trusted content applies
// whole; otherwise only its narrowing keys. A nil store trusts nothing.
//
// kinds are the project's sub-agent kinds the file's trust lets in (one
// line each, as the question shows them): they widen what the agent may
// do, so they wait for trust too, and trust covers them as shown
// (WithKinds): a kind added or changed later asks again.
func (t *TrustStore) Judge(path string, content []byte, layer Source, base Config, kinds []string) WorkspaceTrust {
	content = WithKinds(content, kinds)
	sum := sha256.Sum256(content)
	w := WorkspaceTrust{Path: path, Sum: hex.EncodeToString(sum[:]), Content: content, Layer: layer}
	narrow, widening := SplitTrust(layer, base)
	if (len(widening) == 0 && len(kinds) == 0) || t.Trusted(path, content) {
		return w
	}
	w.Layer, w.Widening, w.Kinds, w.values = narrow, widening, kinds, map[string]any{}
	flatten(layer.Data, "", w.values)
	return w
}

// WithKinds is what trusting a workspace file covers: its content, then,
// when the project defines sub-agent kinds, their lines as the trust
// question shows them. Without kinds it is the content itself, so a trust
// given before kinds existed still holds while there are none.
func WithKinds(content []byte, kinds []string) []byte {
	return WithSection(content, "the project's sub-agent kinds", kinds)
}

// WithSection is content followed by a section named name holding lines,
// one each, for what a trust covers besides the file's own text (a valid
// YAML file holds no NUL, so its text cannot pass for a section). Without
// lines it is content itself.
func WithSection(content []byte, name string, lines []string) []byte {
	if len(lines) == 0 {
		return content
	}
	out := append(append([]byte(nil), content...), "\n\x00agentls: "+name+"\n"...)
	for _, l := range lines {
		out = append(append(out, l...), '\n')
	}
	return out
}

// JudgeUntrustable is Judge for a file the user cannot trust (why says
// why, for the warning): only its narrowing keys apply, whatever the store
// remembers.
func JudgeUntrustable(path string, content []byte, layer Source, base Config, kinds []string, why string) WorkspaceTrust {
	w := (*TrustStore)(nil).Judge(path, content, layer, base, kinds)
	if w.Pending() {
		w.Untrustable = why
	}
	return w
}

func flatten(data map[string]any, prefix string, out map[string]any) {
	for k, v := range data {
		if m, ok := v.(map[string]any); ok {
			flatten(m, prefix+k+".", out)
			continue
		}
		out[prefix+k] = v
	}
}

// TrustStore remembers the workspace configuration files the user trusted:
// per file (its absolute, symlink-free path) the SHA-256 of the content
// trusted, one small JSON file each in its folder, replaced atomically, and
// in memory (a trust that could not be written holds until the process
// ends). It is safe for concurrent use.
type TrustStore struct {
	dir string
	mu  sync.Mutex
	mem map[string]string // path → hex SHA-256
}

// StateDir is agentls's state folder: $XDG_STATE_HOME/agentls, else
// <home>/.local/state/agentls (Home: $HOME, else the password database's);
// "" when no home is known. It holds the trust records and the plan locks;
// the guard keeps every tool out of it and the sandbox every command.
func StateDir(getenv func(string) string) string {
	if dir := getenv("XDG_STATE_HOME"); filepath.IsAbs(dir) {
		return filepath.Join(dir, "agentls")
	}
	if home := Home(getenv); home != "" {
		return filepath.Join(home, ".local", "state", "agentls")
	}
	return ""
}

// NewTrustStore returns the store in stateDir/trust; stateDir "" gives a
// store that trusts nothing and cannot remember.
func NewTrustStore(stateDir string) *TrustStore {
	if stateDir == "" {
		return &TrustStore{mem: map[string]string{}}
	}
	return &TrustStore{dir: filepath.Join(stateDir, "trust"), mem: map[string]string{}}
}

// trustEntry is one remembered file. Its path is carried byte for byte
// (exactjson: the plain JSON string of a UTF-8 path, as before): under a
// folder whose name is not UTF-8 a plain string named another file, and
// the trust was asked again at every start.
type trustEntry struct {
	Path      exactjson.String `json:"path"`
	SHA256    string           `json:"sha256"`
	TrustedAt time.Time        `json:"trusted_at"`
}

// canonical is the path a file is remembered by: its own absolute path,
// with the symlinks of its folder evaluated but not a symlink that the file
// itself is. A trust belongs to the file the user was asked about: a
// `.agentls.yaml` that is a symlink to a file trusted in another project
// does not inherit that trust.
func canonical(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		abs = filepath.Clean(path)
	}
	dir, base := filepath.Dir(abs), filepath.Base(abs)
	if real, err := canon.Path(dir); err == nil {
		return filepath.Join(real, base)
	}
	return abs
}

func (t *TrustStore) entryPath(path string) string {
	h := sha256.Sum256([]byte(path))
	return filepath.Join(t.dir, hex.EncodeToString(h[:16])+".json")
}

// Trusted reports whether the user trusted this content of the file.
func (t *TrustStore) Trusted(path string, content []byte) bool {
	if t == nil {
		return false
	}
	path = canonical(path)
	h := sha256.Sum256(content)
	sum := hex.EncodeToString(h[:])
	t.mu.Lock()
	mem, ok := t.mem[path]
	t.mu.Unlock()
	if ok || t.dir == "" {
		return mem == sum
	}
	data, err := os.ReadFile(t.entryPath(path))
	if err != nil {
		return false
	}
	var e trustEntry
	return json.Unmarshal(data, &e) == nil && string(e.Path) == path && e.SHA256 == sum
}

// Trust remembers that the user trusted this content of the file (it
// replaces the file's earlier trusted content).
func (t *TrustStore) Trust(path string, content []byte, now time.Time) error {
	if t == nil {
		return errors.New("remember trust: no trust store")
	}
	path = canonical(path)
	h := sha256.Sum256(content)
	sum := hex.EncodeToString(h[:])
	t.mu.Lock()
	t.mem[path] = sum
	t.mu.Unlock()
	if t.dir == "" {
		return errors.New("remember trust: no state folder (set XDG_STATE_HOME or HOME)")
	}
	data, err := json.MarshalIndent(trustEntry{Path: exactjson.String(path), SHA256: sum, TrustedAt: now.UTC()}, "", "  ")
	if err != nil {
		return fmt.Errorf("remember trust of %s: %w", path, err)
	}
	if err := os.MkdirAll(t.dir, 0o700); err != nil {
		return fmt.Errorf("remember trust of %s: %w", path, err)
	}
	if err := atomicfile.Write(t.entryPath(path), append(data, '\n'), 0o600); err != nil {
		return fmt.Errorf("remember trust of %s: %w", path, err)
	}
	return nil
}
