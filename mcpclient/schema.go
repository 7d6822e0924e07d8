package mcpclient

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/agentls/agentls/questions"
)

// Limits of what a server may declare about a tool. (The schema limits
// will be the shared ones of the questions schema once they land.)
const (
	maxSchemaBytes  = 16 << 10
	maxSchemaDepth  = 16
	maxDescription  = 1 << 10
	descriptionMore = "…"
)

// checkSchema returns the input schema as JSON when it is an object within
// the size and depth limits.
func checkSchema(schema any) (json.RawMessage, error) {
	if schema == nil {
		return json.RawMessage(`{"type":"object"}`), nil
	}
	b, err := json.Marshal(schema)
	if err != nil {
		return nil, fmt.Errorf("input schema: %w", err)
	}
	if len(b) > maxSchemaBytes {
		return nil, fmt.Errorf("input schema of %d bytes is over the %d-byte limit", len(b), maxSchemaBytes)
	}
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		return nil, fmt.Errorf("input schema: %w", err)
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("input schema is not a JSON object")
	}
	if t, ok := obj["type"]; ok && t != "object" {
		return nil, fmt.Errorf("input schema's type is %v, not object", t)
	}
	if d := questions.JSONDepth(v); d > maxSchemaDepth {
		return nil, fmt.Errorf("input schema nests %d levels, over the limit of %d", d, maxSchemaDepth)
	}
	return b, nil
}

// capDescription cuts a server's tool description to 1 KiB at a
// character boundary.
func capDescription(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	if len(s) <= maxDescription {
		return s
	}
	cut := maxDescription - len(descriptionMore)
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + descriptionMore
}
