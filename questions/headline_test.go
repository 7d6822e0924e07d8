package questions

import "testing"

// TestHeadline: a set is named by its first question's first line, whole.
func TestHeadline(t *testing.T) {
	tests := []struct {
		name string
		qs   []Question
		want string
	}{
		{"none", nil, ""},
		{"one line", []Question{{Name: "a", Question: "Run `make`?"}}, "Run `make`?"},
		{"the first line of several", []Question{{Name: "a", Question: "Allow the MCP call `w {\"p\": 1}`?\n\nNetwork: none"}}, "Allow the MCP call `w {\"p\": 1}`?"},
		{"the first question", []Question{{Name: "a", Question: "First?"}, {Name: "b", Question: "Second?"}}, "First?"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := &Set{Questions: tc.qs}
			if got := s.Headline(); got != tc.want {
				t.Errorf("Headline() = %q, want %q", got, tc.want)
			}
		})
	}
}
