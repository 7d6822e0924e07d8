package schemamsg

import (
	"net/url"
	"reflect"
	"strings"
	"testing"
)

// escapeAsValidator is how jsonschema/v5 writes one token of an instance
// location (schema.go, escape): ~ and / as ~0 and ~1, then URL-escaped.
func escapeAsValidator(token string) string {
	token = strings.ReplaceAll(token, "~", "~0")
	token = strings.ReplaceAll(token, "/", "~1")
	return url.PathEscape(token)
}

// FuzzTokensUndoTheValidatorsEscaping: a configuration key or an answer's
// property name can be any string; the location the validator reports for
// it must come back as exactly those names, so that a config diagnostic
// points at the key the user wrote and a question's error names the
// property the person typed. And Keyword never panics.
func FuzzTokensUndoTheValidatorsEscaping(f *testing.F) {
	f.Add("lsp\x00servers\x00go", "/properties/lsp/additionalProperties")
	f.Add("a/b\x00~0\x00%2F\x00 \x00~1", "")
	f.Add("caf\xe9\x00\x00x", "/$defs/x~1y/type")
	f.Fuzz(func(t *testing.T, keys, loc string) {
		_ = Keyword(loc)
		toks := strings.Split(keys, "\x00")
		var b strings.Builder
		for _, k := range toks {
			b.WriteString("/" + escapeAsValidator(k))
		}
		if got := Tokens(b.String()); !reflect.DeepEqual(got, toks) {
			t.Fatalf("the location %q of %q reads back as %q", b.String(), toks, got)
		}
	})
}
