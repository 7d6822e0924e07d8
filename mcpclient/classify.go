package mcpclient

import (
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Classifier decides which MCP tools are read-only: those the user lists
// (mcp.read_only: "server/tool" or "server/*"), and, for the servers in
// mcp.trust_hints only, those whose server says readOnlyHint. Every other
// tool is mutating: plan mode refuses it and build mode asks for each call.
type Classifier struct {
	ReadOnly   []string
	TrustHints []string
}

// IsReadOnly reports whether the tool of server counts as read-only.
func (c Classifier) IsReadOnly(server string, t *mcp.Tool) bool {
	for _, e := range c.ReadOnly {
		s, name, ok := strings.Cut(e, "/")
		if ok && s == server && (name == "*" || name == t.Name) {
			return true
		}
	}
	return t.Annotations != nil && t.Annotations.ReadOnlyHint && slices.Contains(c.TrustHints, server)
}

// hints describes a tool's own claims, for questions and descriptions.
func hints(t *mcp.Tool) string {
	a := t.Annotations
	if a == nil {
		return "none"
	}
	var out []string
	if a.ReadOnlyHint {
		out = append(out, "readOnlyHint")
	}
	if a.DestructiveHint != nil && *a.DestructiveHint {
		out = append(out, "destructiveHint")
	}
	if a.IdempotentHint {
		out = append(out, "idempotentHint")
	}
	if a.OpenWorldHint != nil && *a.OpenWorldHint {
		out = append(out, "openWorldHint")
	}
	if len(out) == 0 {
		return "none"
	}
	return strings.Join(out, ", ")
}
