package config

import "github.com/agentls/agentls/internal/statefile"

// MaxFileBytes bounds a configuration file.
const MaxFileBytes = 1 << 20

// ReadFile reads a configuration file (the user's, --config's, a
// workspace's .agentls.yaml). A symbolic link is followed (a dotfiles
// repository's), but only to a regular file of at most MaxFileBytes: a
// link to a FIFO, /dev/stdin (the editor's JSON-RPC pipe) or /dev/zero
// neither blocks nor floods the load. The error wraps fs.ErrNotExist only
// when there is no file at path at all; a link that leads nowhere is
// unreadable (the layer fails closed, never read as "no file").
func ReadFile(path string) ([]byte, error) { return statefile.ReadLinked(path, MaxFileBytes) }
