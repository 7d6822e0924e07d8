package schemamsg

import (
	"net/url"
	"strings"
)

// IsGrouping reports whether msg, the Error of a jsonschema.BasicOutput
// unit, only wraps other failures (the top-level unit, allOf, anyOf, oneOf,
// if/then/else, $ref) and so says nothing of its own.
func IsGrouping(msg string) bool {
	switch msg {
	case "", "allOf failed", "anyOf failed", "oneOf failed", "if-then failed", "if-else failed":
		return true
	}
	return strings.HasPrefix(msg, "doesn't validate with ")
}

// Keyword returns the keyword that failed: the last segment of a keyword
// location such as "/properties/edits/enum".
func Keyword(loc string) string {
	return loc[strings.LastIndexByte(loc, '/')+1:]
}

// Tokens splits a JSON pointer as jsonschema/v5 writes it (an instance
// location, or the fragment of a keyword location) into its decoded
// tokens: URL escapes, ~1 and ~0 undone. The empty pointer has none.
func Tokens(ptr string) []string {
	if ptr == "" {
		return nil
	}
	toks := strings.Split(strings.TrimPrefix(ptr, "/"), "/")
	for i, t := range toks {
		toks[i] = unescapeToken(t)
	}
	return toks
}

// unescapeToken decodes one JSON pointer token as jsonschema/v5 writes it
// (URL-escaped, then ~1 and ~0).
func unescapeToken(t string) string {
	if u, err := url.PathUnescape(t); err == nil {
		t = u
	}
	t = strings.ReplaceAll(t, "~1", "/")
	return strings.ReplaceAll(t, "~0", "~")
}
