package fakeopenai

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
)

func post(t *testing.T, url string, body any) (int, string) {
	t.Helper()
	b, _ := json.Marshal(body)
	resp, err := http.Post(url+"/chat/completions", "application/json", bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(out)
}

func TestHistoryRules(t *testing.T) {
	call := map[string]any{"id": "c1", "type": "function", "function": map[string]string{"name": "read", "arguments": "{}"}}
	tests := []struct {
		name string
		msgs []map[string]any
		want string // "" → 200
	}{
		{"plain", []map[string]any{{"role": "user", "content": "hi"}}, ""},
		{"answered call", []map[string]any{{"role": "user", "content": "hi"}, {"role": "assistant", "tool_calls": []any{call}}, {"role": "tool", "tool_call_id": "c1", "content": "x"}}, ""},
		{"call without result", []map[string]any{{"role": "user", "content": "hi"}, {"role": "assistant", "tool_calls": []any{call}}}, "did not have response messages: c1"},
		{"call without result, then user", []map[string]any{{"role": "assistant", "tool_calls": []any{call}}, {"role": "user", "content": "again"}}, "did not have response messages: c1"},
		{"orphan result", []map[string]any{{"role": "user", "content": "hi"}, {"role": "tool", "tool_call_id": "c9", "content": "x"}}, "must be a response to a preceeding message"},
	}
	s := New(Options{})
	defer s.Close()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, body := post(t, s.URL, map[string]any{"model": "m", "messages": tt.msgs})
			if tt.want == "" {
				if code != 200 || !strings.Contains(body, `"content":"ok"`) {
					t.Fatalf("%d %s", code, body)
				}
				return
			}
			if code != 400 || !strings.Contains(body, tt.want) {
				t.Fatalf("%d %s, want 400 with %q", code, body, tt.want)
			}
		})
	}
}

func TestContextLimit(t *testing.T) {
	for _, tt := range []struct {
		style Overflow
		want  string
	}{
		{OverflowOpenAI, `"code":"context_length_exceeded"`},
		{OverflowVLLM, "maximum context length"},
		{OverflowLlamaCpp, "exceeds the available context size ("},
		{OverflowLlamaCppOld, "the request exceeds the available context size"},
		{OverflowLMStudio, "context length of only 50 tokens"},
	} {
		s := New(Options{MaxBytes: 200, Overflow: tt.style})
		code, body := post(t, s.URL, map[string]any{"model": "m", "messages": []any{map[string]string{"role": "user", "content": strings.Repeat("a", 300)}}})
		if code != 400 || !strings.Contains(body, tt.want) {
			t.Errorf("%s: %d %s", tt.style, code, body)
		}
		if code, _ := post(t, s.URL, map[string]any{"model": "m", "messages": []any{map[string]string{"role": "user", "content": "short"}}}); code != 200 {
			t.Errorf("%s: a short request got %d", tt.style, code)
		}
		s.Close()
	}
}
