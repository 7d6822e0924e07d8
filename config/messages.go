package config

import (
	"regexp"
	"strings"

	"github.com/agentls/agentls/internal/schemamsg"
)

// unsignedRE matches a JSON pointer token that is an array index.
var unsignedRE = regexp.MustCompile(`^(0|[1-9][0-9]*)$`)

// pathOf renders an instance location as a dotted path ("run.allow[0]").
func pathOf(ptr string) string {
	var b strings.Builder
	for _, tok := range schemamsg.Tokens(ptr) {
		switch {
		case unsignedRE.MatchString(tok):
			b.WriteString("[" + tok + "]")
		case b.Len() == 0:
			b.WriteString(tok)
		default:
			b.WriteString("." + tok)
		}
	}
	return b.String()
}
