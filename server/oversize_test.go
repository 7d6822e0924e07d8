package server

import (
	"strings"
	"testing"

	"go.lsp.dev/jsonrpc2"
)

func TestRequestIDFromTheBodysStart(t *testing.T) {
	t.Parallel()
	big := strings.Repeat("x", 100)
	tests := []struct {
		name, prefix string
		want         jsonrpc2.ID
	}{
		{"number first", `{"jsonrpc":"2.0","id":7,"method":"agent/prompt","params":{"text":"` + big, jsonrpc2.NewNumberID(7)},
		{"string", `{"id":"req-1","params":{"text":"` + big, jsonrpc2.NewStringID("req-1")},
		{"after a whole member", `{"method":"x","params":{"a":1},"id":3}`, jsonrpc2.NewNumberID(3)},
		{"after the prefix ends", `{"jsonrpc":"2.0","params":{"text":"` + big, jsonrpc2.ID{}},
		{"null", `{"id":null,"method":"x"}`, jsonrpc2.ID{}},
		{"fraction", `{"id":1.5}`, jsonrpc2.ID{}},
		{"object", `{"id":{"a":1}}`, jsonrpc2.ID{}},
		{"not an object", `[{"id":1}]`, jsonrpc2.ID{}},
		{"not JSON", `Content-Length: 5`, jsonrpc2.ID{}},
		{"empty", ``, jsonrpc2.ID{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := requestID([]byte(tc.prefix)); got != tc.want {
				t.Errorf("requestID = %v, want %v", got, tc.want)
			}
		})
	}
}

// FuzzRequestID: any prefix gives an id or none, never a panic.
func FuzzRequestID(f *testing.F) {
	for _, s := range []string{`{"id":1`, `{"id":"a"}`, `{"params":`, `{`, `[`, `{"id":99999999999999999999}`} {
		f.Add(s)
	}
	f.Fuzz(func(_ *testing.T, prefix string) { _ = requestID([]byte(prefix)) })
}
