package schemamsg

import (
	"reflect"
	"testing"
)

func TestHumanize(t *testing.T) {
	tests := []struct {
		name, kw, msg, want string
	}{
		{"enum strings", "enum", `value must be one of "auto", "client", "disk"`, "must be one of auto, client, disk"},
		{"enum mixed", "enum", `value must be one of "a,b", 1, <nil>, true`, "must be one of a,b, 1, null, true"},
		{"enum escaped quote", "enum", `value must be one of "say \"hi\"", "x"`, `must be one of say "hi", x`},
		{"enum of one", "enum", `value must be "only"`, "must be only"},
		{"enum of objects", "enum", "enum failed", "must be one of the allowed values"},
		{"const", "const", `value must be "v1"`, "must be v1"},
		{"const number", "const", "value must be 9007199254740993", "must be 9007199254740993"},
		{"const object", "const", "const failed", "must be the allowed value"},
		{"pattern", "pattern", `does not match pattern '^[a-z0-9-]+$'`, "must match ^[a-z0-9-]+$"},
		{"pattern with quotes", "pattern", `does not match pattern '^"\'x\'"\\d$'`, `must match ^"'x'"\d$`},
		{"minLength", "minLength", "length must be >= 3, but got 2", "must be at least 3 characters long (got 2)"},
		{"minLength one", "minLength", "length must be >= 1, but got 0", "must be at least 1 character long (got 0)"},
		{"maxLength", "maxLength", "length must be <= 50, but got 51", "must be at most 50 characters long (got 51)"},
		{"minItems one", "minItems", "minimum 1 items required, but found 0 items", "must have at least 1 item (got 0)"},
		{"maxItems", "maxItems", "maximum 2 items required, but found 3 items", "must have at most 2 items (got 3)"},
		{"required one", "required", "missing properties: 'method'", "missing required property: method"},
		{"required two", "required", "missing properties: 'path', 'method'", "missing required properties: path, method"},
		{"additionalProperties sorted", "additionalProperties", "additionalProperties 'zz', 'a' not allowed", "unknown properties: a, zz"},
		{"additionalProperties one", "additionalProperties", "additionalProperties 'it\\'s' not allowed", "unknown property: it's"},
		{"format", "format", "x is not valid 'email'", "must be a valid email"},
		{"minimum", "minimum", "must be >= 1 but found 0", "must be >= 1 (got 0)"},
		{"maximum", "maximum", "must be <= 10 but found 11", "must be <= 10 (got 11)"},
		{"exclusiveMinimum", "exclusiveMinimum", "must be > 0 but found 0", "must be > 0 (got 0)"},
		{"exclusiveMaximum", "exclusiveMaximum", "must be < 1.5 but found 2", "must be < 1.5 (got 2)"},
		{"uniqueItems", "uniqueItems", "items at index 0 and 2 are equal", "must not repeat items (items 0 and 2 are equal)"},
		{"type passes through", "type", "expected string, but got number", "expected string, but got number"},
		{"unknown keyword passes through", "multipleOf", "3 not multipleOf 2", "3 not multipleOf 2"},
		{"unrecognised message passes through", "enum", "something else", "something else"},
		{"keyword and message mismatch", "minLength", "minimum 1 items required, but found 0 items", "minimum 1 items required, but found 0 items"},
		{"empty", "", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Humanize(tt.kw, tt.msg); got != tt.want {
				t.Errorf("Humanize(%q, %q) = %q, want %q", tt.kw, tt.msg, got, tt.want)
			}
		})
	}
}

func TestUnknownProperties(t *testing.T) {
	tests := []struct {
		msg    string
		want   []string
		wantOK bool
	}{
		{"additionalProperties 'modle' not allowed", []string{"modle"}, true},
		{"additionalProperties 'zz', 'a' not allowed", []string{"zz", "a"}, true},
		{`additionalProperties 'a, b', 'c"d', 'e\'f' not allowed`, []string{"a, b", `c"d`, "e'f"}, true},
		{`additionalProperties 'tab\there' not allowed`, []string{"tab\there"}, true},
		{"additionalProperties 'unterminated not allowed", []string{"unterminated"}, true},
		{"missing properties: 'a'", nil, false},
		{"", nil, false},
	}
	for _, tt := range tests {
		got, ok := UnknownProperties(tt.msg)
		if ok != tt.wantOK || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("UnknownProperties(%q) = %q, %v; want %q, %v", tt.msg, got, ok, tt.want, tt.wantOK)
		}
	}
}

func TestGoLiterals(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"", nil},
		{`"a"`, []string{"a"}},
		{`"a, b", 2.5, false, <nil>`, []string{"a, b", "2.5", "false", "null"}},
		{`"\u00e9\n"`, []string{"é\n"}},
		{`"unterminated`, []string{`"unterminated`}},
	}
	for _, tt := range tests {
		if got := goLiterals(tt.in); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("goLiterals(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestUnquoteSingle(t *testing.T) {
	tests := []struct{ in, want string }{
		{"'plain'", "plain"},
		{`'it\'s'`, "it's"},
		{`'say "x"'`, `say "x"`},
		{`'\u00e9'`, "é"},
		{`'bad \q escape'`, `'bad \q escape'`},
	}
	for _, tt := range tests {
		if got := unquoteSingle(tt.in); got != tt.want {
			t.Errorf("unquoteSingle(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
