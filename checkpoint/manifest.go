package checkpoint

import (
	"sort"

	"github.com/agentls/agentls/internal/exactjson"
)

// MaxFileBytes is the size above which a file is listed but not kept.
const MaxFileBytes = 1 << 20

// Entry is one file of a manifest.
type Entry struct {
	// SHA256 is the hex digest of the file's bytes.
	SHA256 string `json:"sha256"`
	Size   int64  `json:"size"`
	// Mode is the file's permission bits.
	Mode uint32 `json:"mode"`
	// Unrestorable is set for a file whose content is not kept (binary, or
	// larger than MaxFileBytes): a rewind skips it.
	Unrestorable bool `json:"unrestorable,omitempty"`
}

// Manifest is a snapshot of the workspace: its files by key (the path
// relative to the workspace root, slash separated; the absolute path for a
// file of another workspace folder).
type Manifest map[string]Entry

// Keys returns the manifest's keys, sorted.
func (m Manifest) Keys() []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// MarshalJSON writes m with its paths exactly (exactjson): a file whose
// name is not UTF-8 reads back under its own name.
func (m Manifest) MarshalJSON() ([]byte, error) { return exactjson.Map[Entry](m).MarshalJSON() }

// UnmarshalJSON reads what MarshalJSON writes (and manifests written
// before, plain JSON).
func (m *Manifest) UnmarshalJSON(b []byte) error {
	return (*exactjson.Map[Entry])(m).UnmarshalJSON(b)
}
