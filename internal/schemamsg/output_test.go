package schemamsg

import (
	"reflect"
	"testing"
)

func TestIsGrouping(t *testing.T) {
	tests := []struct {
		msg  string
		want bool
	}{
		{"", true},
		{"allOf failed", true},
		{"anyOf failed", true},
		{"oneOf failed", true},
		{"if-then failed", true},
		{"if-else failed", true},
		{"doesn't validate with 'mem://x.json#/$defs/a'", true},
		{"not failed", false},
		{"valid against schemas at indexes 0 and 1", false},
		{"expected string, but got number", false},
		{"enum failed", false},
	}
	for _, tt := range tests {
		if got := IsGrouping(tt.msg); got != tt.want {
			t.Errorf("IsGrouping(%q) = %v, want %v", tt.msg, got, tt.want)
		}
	}
}

func TestKeyword(t *testing.T) {
	tests := []struct{ loc, want string }{
		{"/properties/edits/enum", "enum"},
		{"/required", "required"},
		{"", ""},
		{"type", "type"},
		{"/items/", ""},
	}
	for _, tt := range tests {
		if got := Keyword(tt.loc); got != tt.want {
			t.Errorf("Keyword(%q) = %q, want %q", tt.loc, got, tt.want)
		}
	}
}

func TestTokens(t *testing.T) {
	tests := []struct {
		ptr  string
		want []string
	}{
		{"", nil},
		{"/", []string{""}},
		{"/run/allow/0", []string{"run", "allow", "0"}},
		{"/a~1b/c~0d/~01", []string{"a/b", "c~d", "~1"}},
		{"/odd%20key/%25", []string{"odd key", "%"}},
		{"/bad%zzescape", []string{"bad%zzescape"}},
		{"no-slash", []string{"no-slash"}},
	}
	for _, tt := range tests {
		if got := Tokens(tt.ptr); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Tokens(%q) = %q, want %q", tt.ptr, got, tt.want)
		}
	}
}
