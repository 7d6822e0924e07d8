package mcpclient

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
	"unicode/utf8"
)

// maxToolName is the longest model-facing tool name.
const maxToolName = 64

// maxShownName is the longest server's own tool name shown whole (MCP's
// SEP-986: a tool's name SHOULD be at most 128 characters).
const maxShownName = 128

// shownName is a server's own tool name as a description, a title, a
// permission question or a status shows it: whole up to 128 characters,
// else its first 128, its length and a short hash (two long names of one
// server stay apart, in an "Always allow" too).
func shownName(name string) string {
	n := 0
	for i := range name {
		if n == maxShownName {
			sum := sha256.Sum256([]byte(name))
			return fmt.Sprintf("%s…[%d characters, sha256 %s]", name[:i], utf8.RuneCountInString(name), hex.EncodeToString(sum[:4]))
		}
		n++
	}
	return name
}

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
