package schemamsg

import (
	"errors"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v5"
)

// leaves validates instance against schema with jsonschema/v5 and renders
// each non-grouping unit of the basic output as "tokens: message", so the
// tests below check this package against the validator's real output.
func leaves(t *testing.T, schema string, instance any) []string {
	t.Helper()
	c := jsonschema.NewCompiler()
	c.Draft = jsonschema.Draft2020
	c.AssertFormat = true
	if err := c.AddResource("mem://test.json", strings.NewReader(schema)); err != nil {
		t.Fatalf("add schema: %v", err)
	}
	s, err := c.Compile("mem://test.json")
	if err != nil {
		t.Fatalf("compile schema: %v", err)
	}
	err = s.Validate(instance)
	if err == nil {
		return nil
	}
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		t.Fatalf("validate: %v is not a *jsonschema.ValidationError", err)
	}
	var out []string
	for _, e := range ve.BasicOutput().Errors {
		if IsGrouping(e.Error) {
			continue
		}
		out = append(out, strings.Join(Tokens(e.InstanceLocation), "|")+": "+Humanize(Keyword(e.KeywordLocation), e.Error))
	}
	sort.Strings(out)
	return out
}

func TestAgainstValidator(t *testing.T) {
	tests := []struct {
		name     string
		schema   string
		instance any
		want     []string
	}{
		{"valid", `{"type": "string"}`, "x", nil},
		{"enum", `{"properties": {"edits": {"enum": ["auto", "client", "disk"]}}}`,
			map[string]any{"edits": "sometimes"}, []string{"edits: must be one of auto, client, disk"}},
		{"enum of objects", `{"enum": [{"a": 1}]}`, "x", []string{": must be one of the allowed values"}},
		{"const", `{"const": "v1"}`, "v2", []string{": must be v1"}},
		{"pattern and length", `{"type": "string", "pattern": "^[a-z]+$", "minLength": 3}`, "A",
			[]string{": must be at least 3 characters long (got 1)", ": must match ^[a-z]+$"}},
		{"items", `{"type": "array", "minItems": 1}`, []any{}, []string{": must have at least 1 item (got 0)"}},
		{"unique", `{"uniqueItems": true}`, []any{"a", "b", "a"}, []string{": must not repeat items (items 0 and 2 are equal)"}},
		{"required", `{"required": ["path", "method"]}`, map[string]any{}, []string{": missing required properties: path, method"}},
		{"additionalProperties", `{"properties": {"a": {}}, "additionalProperties": false}`,
			map[string]any{"zz": 1, "b": 2, "a": 3}, []string{": unknown properties: b, zz"}},
		{"format", `{"format": "email"}`, "nope", []string{": must be a valid email"}},
		{"bounds", `{"minimum": 1, "exclusiveMaximum": 10}`, 10, []string{": must be < 10 (got 10)"}},
		{"grouping skipped", `{"anyOf": [{"type": "string"}, {"type": "integer"}]}`, true,
			[]string{": expected integer, but got boolean", ": expected string, but got boolean"}},
		{"ref skipped", `{"$defs": {"n": {"maximum": 2}}, "properties": {"n": {"$ref": "#/$defs/n"}}}`,
			map[string]any{"n": 3}, []string{"n: must be <= 2 (got 3)"}},
		{"odd keys located", `{"additionalProperties": {"type": "array", "items": {"type": "string"}}}`,
			map[string]any{"a/b ~c%": []any{"ok", 1}}, []string{"a/b ~c%|1: expected string, but got number"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := leaves(t, tt.schema, tt.instance); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got  %q\nwant %q", got, tt.want)
			}
		})
	}
}
