package questions

import (
	"encoding/json"
	"testing"
)

func TestSummary(t *testing.T) {
	batchQs := mustParseFile(t, "batch").Questions
	tests := []struct {
		name    string
		file    string
		answers string
		want    string
	}{
		{"one", "environment", `{"environment": "staging"}`, "[Answered: staging]"},
		{"boolean", "confirm", `{"confirm": true}`, "[Answered: true]"},
		{"several in question order", "batch", `{"confirm": true, "region": "us-east-1", "environment": "staging"}`,
			"[Answers: environment=staging, region=us-east-1, confirm=true]"},
		{"unknown names left out", "batch", `{"region": "eu-west-1", "zone": "b"}`, "[Answered: eu-west-1]"},
		{"array", "components", `{"components": ["frontend", "docs"]}`, "[Answered: [frontend, docs]]"},
		{"object", "endpoint_config", `{"endpoint_config": {"path": "/api", "method": "GET", "auth_required": false}}`,
			`[Answered: {"auth_required":false,"method":"GET","path":"/api"}]`},
		{"none", "batch", `{}`, "[No answers]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			qs := batchQs
			if tt.file != "batch" {
				qs = mustParseFile(t, tt.file).Questions
			}
			if got := Summary(qs, mustDecode(t, tt.answers)); got != tt.want {
				t.Errorf("Summary = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestFormatValue(t *testing.T) {
	tests := []struct {
		v    any
		want string
	}{
		{"staging", "staging"},
		{true, "true"},
		{false, "false"},
		{nil, "null"},
		{json.Number("1.50"), "1.50"},
		{2.5, "2.5"},
		{float64(3), "3"},
		{7, "7"},
		{[]any{"a", json.Number("1"), []any{true}}, "[a, 1, [true]]"},
		{[]string{"x", "y"}, "[x, y]"},
		{[]any{map[string]any{"k": "v"}}, `[{"k":"v"}]`},
		{map[string]any{"b": []any{1.0}, "a": "x y"}, `{"a":"x y","b":[1]}`},
		{struct {
			N int `json:"n"`
		}{4}, `{"n":4}`},
		{complex(1, 2), "(1+2i)"},
	}
	for _, tt := range tests {
		if got := FormatValue(tt.v); got != tt.want {
			t.Errorf("FormatValue(%#v) = %q, want %q", tt.v, got, tt.want)
		}
	}
}
