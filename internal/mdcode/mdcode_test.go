package mdcode

import (
	"slices"
	"testing"
)

func TestSplitAndFirst(t *testing.T) {
	for _, tc := range []struct {
		text    string
		spans   []string
		outside string
		first   string
		ok      bool
	}{
		{"a `b` c", []string{"b"}, "a  c", "b", true},
		{"``a`b`` and ` c `", []string{"a`b", "c"}, " and ", "a`b", true},
		{"`` ` `` x", []string{"`"}, " x", "`", true},
		{"open ` only", nil, "open ` only", "", false},
		{"``` a `` b ``` `x`", []string{"a `` b", "x"}, " ", "a `` b", true},
		{"`  `", []string{"  "}, "", "  ", true},
		{"none", nil, "none", "", false},
	} {
		spans, outside := Split(tc.text)
		if !slices.Equal(spans, tc.spans) || outside != tc.outside {
			t.Errorf("Split(%q) = %q, %q; want %q, %q", tc.text, spans, outside, tc.spans, tc.outside)
		}
		if first, ok := First(tc.text); first != tc.first || ok != tc.ok {
			t.Errorf("First(%q) = %q, %v; want %q, %v", tc.text, first, ok, tc.first, tc.ok)
		}
	}
}
