package agent

import (
	"context"
	"crypto/sha256"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/agentls/agentls/checkpoint"
	"github.com/agentls/agentls/guard"
)

// maxReloadBytes caps a file read to refresh the overlay after an MCP
// server's write: a larger file is left to the editor.
const maxReloadBytes = 8 << 20

// mcpMutating reports whether tool is a mutating MCP tool: a process
// outside agentls (an MCP server) writes what it writes, so the files it
// touched are rescanned after it (mcpAfterWrite).
func (s *Session) mcpMutating(tool string) bool {
	if !strings.HasPrefix(tool, "mcp__") {
		return false
	}
	d, ok := s.tools().Declarations().Lookup(tool)
	return ok && d.Class == guard.ClassMutating
}

// openDiskState is, for each file the editor has open, a digest of what
// its file holds on disk ("" when it cannot be read).
func (s *Session) openDiskState() map[string]string {
	out := map[string]string{}
	for _, p := range s.m.ws.Overlay().OpenPaths() {
		b, err := readCapped(p)
		if err != nil {
			out[p] = ""
			continue
		}
		sum := sha256.Sum256(b)
		out[p] = string(sum[:])
	}
	return out
}

// mcpAfterWrite brings agentls's view up to date after a mutating MCP
// call: the workspace is rescanned (checkpoints: what changed since
// before, the scan taken once the user allowed the call, is the server's,
// not the user's); each open file whose disk content the call changed is
// reloaded into the overlay when its buffer is clean (the read tool then
// sees the new content), and when its buffer holds unsaved changes the
// user is warned (their buffer and the file now differ; the buffer is
// kept). open is openDiskState from before the call.
func (s *Session) mcpAfterWrite(ctx context.Context, tool string, before *checkpoint.Before, open map[string]string) {
	s.afterCommand(ctx, before)
	ov := s.m.ws.Overlay()
	var dirty []string
	for p, was := range open {
		b, err := readCapped(p)
		if err != nil {
			continue
		}
		sum := sha256.Sum256(b)
		if string(sum[:]) == was {
			continue
		}
		if ov.IsDirty(p) {
			dirty = append(dirty, s.m.ws.RelOf(p))
			continue
		}
		ov.Reload(p, string(b))
	}
	if len(dirty) > 0 {
		s.m.notify(ctx, fmt.Sprintf("%s changed %s on disk while your editor holds unsaved changes to it: your buffer was kept; compare it with the file before saving.",
			tool, strings.Join(dirty, ", ")))
	}
}

// readCapped reads a file of at most maxReloadBytes.
func readCapped(p string) ([]byte, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxReloadBytes+1))
	if err != nil {
		return nil, err
	}
	if len(b) > maxReloadBytes {
		return nil, fmt.Errorf("%s is over %d bytes", p, maxReloadBytes)
	}
	return b, nil
}
