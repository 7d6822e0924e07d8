package agent

import (
	"strings"
	"testing"
)

// TestMCPMention: what in a prompt names an MCP resource.
func TestMCPMention(t *testing.T) {
	tests := []struct {
		text string
		want []string // server:uri
	}{
		{"read @every:demo://x/1 now", []string{"every:demo://x/1"}},
		{"@fs:file:///a and @gh:issue/3", []string{"fs:file:///a", "gh:issue/3"}},
		{"mail me at me@every:x", nil},
		{"no mention @ here", nil},
		{"@:nothing", nil},
	}
	for _, tc := range tests {
		var got []string
		for _, m := range mcpMention.FindAllStringSubmatch(tc.text, -1) {
			got = append(got, m[1]+":"+m[2])
		}
		if strings.Join(got, " ") != strings.Join(tc.want, " ") {
			t.Errorf("%q: %v, want %v", tc.text, got, tc.want)
		}
	}
}
