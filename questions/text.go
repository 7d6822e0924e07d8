package questions

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
)

// IsSingleText tells whether s is one question whose answer is a string:
// a plain-text reply can then be its answer as it is.
func IsSingleText(s *Set) bool {
	return len(s.Questions) == 1 && schemaType(s.Questions[0].Schema) == "string"
}

// AnswersFromText reads a plain-text reply (the user typed it where a chat
// message goes) as the answers to s: for a single string question the text
// itself; otherwise a JSON object, or name=value pairs (one per line, or
// separated by ";"), every name one of the questions'. ok is false when the
// text has none of these shapes: it is then an ordinary message, not an
// answer. The answers are not validated.
func AnswersFromText(s *Set, text string) (answers map[string]any, ok bool) {
	text = strings.TrimSpace(text)
	if text == "" {
		return nil, false
	}
	if IsSingleText(s) {
		return map[string]any{s.Questions[0].Name: text}, true
	}
	if strings.HasPrefix(text, "{") {
		if a, err := DecodeAnswers(json.RawMessage(text)); err == nil && a != nil {
			return a, true
		}
		return nil, false
	}
	return namedValues(s, text)
}

// pairRE matches one name=value pair.
var pairRE = regexp.MustCompile(`^\s*([a-zA-Z_][a-zA-Z0-9_]*)\s*=\s*(.*?)\s*$`)

// namedValues parses name=value pairs. A value is taken as JSON (a number,
// true, a list) unless its question wants a string or it is not JSON.
func namedValues(s *Set, text string) (map[string]any, bool) {
	parts := strings.Split(text, "\n")
	if len(parts) == 1 {
		parts = strings.Split(text, ";")
	}
	answers := map[string]any{}
	for _, part := range parts {
		if strings.TrimSpace(part) == "" {
			continue
		}
		m := pairRE.FindStringSubmatch(part)
		if m == nil {
			return nil, false
		}
		i, known := s.index[m[1]]
		if !known {
			return nil, false
		}
		var v any = m[2]
		if schemaType(s.Questions[i].Schema) != "string" {
			var decoded any
			if err := json.Unmarshal([]byte(m[2]), &decoded); err == nil {
				v = decoded
			}
		}
		answers[m[1]] = v
	}
	return answers, len(answers) > 0
}

// schemaType is a schema's single "type" ("" when absent or several).
func schemaType(raw json.RawMessage) string {
	var schema struct {
		Type any `json:"type"`
	}
	if json.Unmarshal(raw, &schema) != nil {
		return ""
	}
	switch t := schema.Type.(type) {
	case string:
		return t
	case []any:
		if len(t) == 1 {
			s, _ := t[0].(string)
			return s
		}
	}
	return ""
}

// Constraints describes what a question's schema accepts, in words
// ("text, at most 80 characters", "one of: dev, staging"); "" when the schema
// says nothing a person needs.
func Constraints(q Question) string {
	var schema struct {
		Type      any     `json:"type"`
		Enum      []any   `json:"enum"`
		MinLength *int    `json:"minLength"`
		MaxLength *int    `json:"maxLength"`
		Pattern   string  `json:"pattern"`
		Minimum   *number `json:"minimum"`
		Maximum   *number `json:"maximum"`
		MinItems  *int    `json:"minItems"`
		MaxItems  *int    `json:"maxItems"`
		Items     *struct {
			Type any   `json:"type"`
			Enum []any `json:"enum"`
		} `json:"items"`
	}
	if json.Unmarshal(q.Schema, &schema) != nil {
		return ""
	}
	var parts []string
	kinds := map[string]string{"string": "text", "integer": "a whole number", "number": "a number", "boolean": "true or false", "array": "a list", "object": "an object"}
	if k, ok := kinds[schemaType(q.Schema)]; ok {
		parts = append(parts, k)
	}
	if len(schema.Enum) > 0 {
		parts = append(parts, "one of: "+joinValues(schema.Enum))
	}
	if schema.MinLength != nil && *schema.MinLength > 0 {
		parts = append(parts, fmt.Sprintf("at least %d characters", *schema.MinLength))
	}
	if schema.MaxLength != nil {
		parts = append(parts, fmt.Sprintf("at most %d characters", *schema.MaxLength))
	}
	if schema.Pattern != "" {
		parts = append(parts, "matching "+schema.Pattern)
	}
	if schema.Minimum != nil {
		parts = append(parts, "at least "+string(*schema.Minimum))
	}
	if schema.Maximum != nil {
		parts = append(parts, "at most "+string(*schema.Maximum))
	}
	if it := schema.Items; it != nil {
		if len(it.Enum) > 0 {
			parts = append(parts, "items from: "+joinValues(it.Enum))
		} else if k, ok := kinds[fmt.Sprint(it.Type)]; ok {
			parts = append(parts, "each item "+k)
		}
	}
	if schema.MinItems != nil && *schema.MinItems > 0 {
		parts = append(parts, fmt.Sprintf("at least %d items", *schema.MinItems))
	}
	if schema.MaxItems != nil {
		parts = append(parts, fmt.Sprintf("at most %d items", *schema.MaxItems))
	}
	if q.Optional {
		parts = append(parts, "optional")
	}
	return strings.Join(parts, ", ")
}

// number keeps a JSON number as written.
type number string

func (n *number) UnmarshalJSON(b []byte) error {
	*n = number(b)
	return nil
}

func joinValues(vs []any) string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = FormatValue(v)
	}
	return strings.Join(out, ", ")
}
