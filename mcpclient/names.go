package mcpclient

import "strings"

// maxToolName is the longest model-facing tool name.
const maxToolName = 64

// ToolName is the model-facing name of a server's tool:
// mcp__<server>__<tool>, each part with every character outside
// [A-Za-z0-9_-] replaced by '_', cut to 64 characters.
func ToolName(server, tool string) string {
	n := "mcp__" + sanitize(server) + "__" + sanitize(tool)
	if len(n) > maxToolName {
		n = n[:maxToolName]
	}
	return n
}

func sanitize(s string) string {
	if s == "" {
		return "_"
	}
	return strings.Map(func(r rune) rune {
		if r == '_' || r == '-' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
			return r
		}
		return '_'
	}, s)
}
