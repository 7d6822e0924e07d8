package schemamsg

import (
	"strconv"
	"strings"
)

// goLiterals splits a comma-separated list of values printed with %#v and
// returns them plainly: strings without quotes, nil as null.
func goLiterals(s string) []string {
	var out []string
	for s != "" {
		lit := goLiteralRE.FindString(s)
		s = strings.TrimPrefix(strings.TrimPrefix(s[len(lit):], ","), " ")
		switch {
		case strings.HasPrefix(lit, `"`):
			if u, err := strconv.Unquote(lit); err == nil {
				lit = u
			}
		case lit == "<nil>":
			lit = "null"
		}
		out = append(out, lit)
	}
	return out
}

// singleQuoted splits a comma-separated list of names quoted by the
// validator ('name') and unquotes them.
func singleQuoted(s string) []string {
	var out []string
	for {
		s = strings.TrimLeft(s, ", ")
		if !strings.HasPrefix(s, "'") {
			return out
		}
		end := 1
		for end < len(s) && s[end] != '\'' {
			if s[end] == '\\' {
				end++
			}
			end++
		}
		if end >= len(s) {
			return append(out, unquoteSingle(s))
		}
		out = append(out, unquoteSingle(s[:end+1]))
		s = s[end+1:]
	}
}

// unquoteSingle undoes the validator's quoting: %q with \" turned back into
// " and ' escaped, in single quotes.
func unquoteSingle(s string) string {
	inner := strings.TrimSuffix(strings.TrimPrefix(s, "'"), "'")
	inner = strings.ReplaceAll(inner, `\'`, `'`)
	inner = strings.ReplaceAll(inner, `"`, `\"`)
	if u, err := strconv.Unquote(`"` + inner + `"`); err == nil {
		return u
	}
	return s
}
