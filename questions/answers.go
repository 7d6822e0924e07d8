package questions

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
)

// Validate checks answers (keyed by question name) against the questions'
// schemas. It returns nil when they are valid, else a human message per
// question name: "an answer is required" for a missing answer to a
// question that is not optional, "no such question" for an answer to an
// unknown name, otherwise the schema failures ("must match ^[a-z0-9-]+$",
// "/path: must match ...", several joined by "; "). Each validation is
// bounded (see ValidateContext).
func (s *Set) Validate(answers map[string]any) map[string]string {
	return s.ValidateContext(context.Background(), answers)
}

// ValidateContext is Validate under ctx: each answer is checked within
// ValidateBudget, and a cancelled ctx stops waiting at once (the answers
// then fail with the reason).
func (s *Set) ValidateContext(ctx context.Context, answers map[string]any) map[string]string {
	errs := map[string]string{}
	for name := range answers {
		if _, ok := s.index[name]; !ok {
			errs[name] = "no such question"
		}
	}
	for i, q := range s.Questions {
		v, found := answers[q.Name]
		if !found {
			if !q.Optional {
				errs[q.Name] = "an answer is required"
			}
			continue
		}
		v, err := canonical(v)
		if err != nil {
			errs[q.Name] = err.Error()
			continue
		}
		fs, err := validateBounded(ctx, s.schemas[i], v)
		if err != nil {
			errs[q.Name] = err.Error()
			continue
		}
		if len(fs) == 0 {
			continue
		}
		msgs := make([]string, len(fs))
		for j, f := range fs {
			msgs[j] = f.message
			if f.location != "" {
				msgs[j] = displayPointer(f.location) + ": " + f.message
			}
		}
		errs[q.Name] = strings.Join(msgs, "; ")
	}
	if len(errs) == 0 {
		return nil
	}
	return errs
}

// ValidationError renders the result of Validate, one "name: message" line
// per question name, sorted by name.
func ValidationError(errs map[string]string) string {
	names := make([]string, 0, len(errs))
	for name := range errs {
		names = append(names, name)
	}
	sort.Strings(names)
	lines := make([]string, len(names))
	for i, name := range names {
		lines[i] = name + ": " + errs[name]
	}
	return strings.Join(lines, "\n")
}

// DecodeAnswers decodes a JSON object of answers. Numbers become
// json.Number, which the validator compares exactly.
func DecodeAnswers(raw json.RawMessage) (map[string]any, error) {
	v, err := decodeJSON(raw)
	if err != nil {
		return nil, fmt.Errorf("decode answers: %w", err)
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("decode answers: must be a JSON object keyed by question name, got %s", jsonKind(v))
	}
	return m, nil
}

// jsonKind names the JSON type of a decoded value.
func jsonKind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case json.Number, float64:
		return "a number"
	case string:
		return "a string"
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("%T", v)
}
