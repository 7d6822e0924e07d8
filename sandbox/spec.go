package sandbox

import (
	"encoding/base64"
	"encoding/json"
	"fmt"

	"github.com/agentls/agentls/internal/exactjson"
)

// spec is what the launcher (`agentls sandbox-exec --policy <spec>`)
// enforces before it execs the command: the paths resolved, the
// environment changes, and whether it applies Landlock. Its paths and
// environment cross to the launcher byte for byte (exactjson): a name that
// is not UTF-8 (a Latin-1 home, a denied folder "cl\xe9s") must reach the
// rules as itself, not as another, missing, path that guards nothing.
type spec struct {
	// Landlock applies the Landlock rules.
	Landlock bool `json:"landlock,omitempty"`
	// Bwrap says bubblewrap's read-only mounts cover ReadOnly, so the
	// folders above them may get rights to create and remove entries.
	Bwrap bool `json:"bwrap,omitempty"`
	// Sockets adds the socket filter (socketfilter_linux.go), which refuses
	// the foreign socket families (vsock, packet…): every confined mode.
	Sockets bool `json:"sockets,omitempty"`
	// NoUnixSockets makes the socket filter refuse AF_UNIX too:
	// Status.unixSocketsOff.
	NoUnixSockets bool `json:"nounix,omitempty"`
	// NoNetwork makes the socket filter refuse IP too: Status.networkOff.
	NoNetwork bool `json:"nonet,omitempty"`
	// NoKeyrings adds the seccomp filter that refuses the kernel's
	// keyrings (keyringfilter_linux.go): every confined mode.
	NoKeyrings bool `json:"nokeys,omitempty"`
	// LandlockABI is the Landlock ABI agentls found (Probe.LandlockABI):
	// the launcher applies that version's rules (at most V7).
	LandlockABI int `json:"abi,omitempty"`
	// Supervised puts the system calls that reach another process by its
	// pid under the reaper's watch (processfilter_linux.go,
	// supervisor_linux.go): Status.supervised.
	Supervised bool `json:"supervised,omitempty"`
	// Writable, ReadOnly and Deny are absolute, clean paths.
	Writable exactjson.Strings `json:"rw,omitempty"`
	ReadOnly exactjson.Strings `json:"ro,omitempty"`
	Deny     exactjson.Strings `json:"deny,omitempty"`
	// Fixed are folders whose own entries stay as they are (Policy.Fixed).
	Fixed exactjson.Strings `json:"fixed,omitempty"`
	// Set and Unset change the command's environment.
	Set   exactjson.StringMap `json:"set,omitempty"`
	Unset exactjson.Strings   `json:"unset,omitempty"`
	// PathDeny are the folders whose PATH entries are dropped (relative
	// entries always are): searchPath.
	PathDeny exactjson.Strings `json:"pathdeny,omitempty"`
}

// maxSpec bounds an encoded spec.
const maxSpec = 1 << 20

// encode is s as base64 (URL alphabet, unpadded) JSON.
func (s spec) encode() (string, error) {
	b, err := json.Marshal(s)
	if err != nil {
		return "", fmt.Errorf("sandbox policy: %w", err)
	}
	return base64.RawURLEncoding.EncodeToString(b), nil
}

// decodeSpec reads an encoded spec.
func decodeSpec(text string) (spec, error) {
	var s spec
	if len(text) > maxSpec {
		return s, fmt.Errorf("policy: %d bytes, more than %d", len(text), maxSpec)
	}
	b, err := base64.RawURLEncoding.DecodeString(text)
	if err != nil {
		return s, fmt.Errorf("policy: %w", err)
	}
	if err := json.Unmarshal(b, &s); err != nil {
		return s, fmt.Errorf("policy: %w", err)
	}
	return s, nil
}

// needsTruncateFilter reports whether the launcher adds the truncate
// filter (truncatefilter_linux.go) under s: Landlock alone (bubblewrap's
// read-only mounts refuse any write, truncation included) at an ABI that
// does not know truncation (below 3), or an unknown one.
func needsTruncateFilter(s spec) bool {
	return s.Landlock && !s.Bwrap && s.LandlockABI < 3
}

// needsXattrFilter reports whether the launcher adds the xattr filter
// (xattrfilter_linux.go) under s: Landlock alone, at every ABI (Landlock
// has no right for xattrs; bubblewrap's read-only mounts refuse them).
func needsXattrFilter(s spec) bool {
	return s.Landlock && !s.Bwrap
}
