package questions

import (
	"net/url"
	"regexp"
	"strconv"
	"strings"

	"github.com/agentls/agentls/internal/schemamsg"
)

// Tokens of the JSON pointers that locate failures.
var (
	identRE    = regexp.MustCompile(`^[a-zA-Z_][a-zA-Z0-9_]*$`)
	unsignedRE = regexp.MustCompile(`^(0|[1-9][0-9]*)$`)
)

// escapeToken escapes one JSON pointer token the way jsonschema/v5 does;
// schemamsg.Tokens undoes it.
func escapeToken(t string) string {
	t = strings.ReplaceAll(t, "~", "~0")
	t = strings.ReplaceAll(t, "/", "~1")
	return url.PathEscape(t)
}

// displayPointer undoes the URL escaping jsonschema/v5 applies to the
// tokens of an instance location; ~0 and ~1 stay as JSON pointer escapes.
func displayPointer(ptr string) string {
	toks := strings.Split(ptr, "/")
	for i, t := range toks {
		if u, err := url.PathUnescape(t); err == nil {
			toks[i] = u
		}
	}
	return strings.Join(toks, "/")
}

// jsonPath renders a JSON pointer into doc as a path suffix: ".key",
// "[2]" for an array index, `["odd key"]` for keys that are not
// identifiers. The empty pointer gives "".
func jsonPath(doc any, ptr string) string {
	var b strings.Builder
	cur := doc
	for _, tok := range schemamsg.Tokens(ptr) {
		switch c := cur.(type) {
		case []any:
			if unsignedRE.MatchString(tok) {
				b.WriteString("[" + tok + "]")
				if i, err := strconv.Atoi(tok); err == nil && i < len(c) {
					cur = c[i]
				} else {
					cur = nil
				}
				continue
			}
			cur = nil
		case map[string]any:
			cur = c[tok]
		default:
			cur = nil
		}
		if identRE.MatchString(tok) {
			b.WriteString("." + tok)
		} else {
			b.WriteString("[" + strconv.Quote(tok) + "]")
		}
	}
	return b.String()
}
