package questions

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
)

// Parse validates the ask_user tool's arguments, {"questions": [...]}, and
// compiles the schemas. Its errors are written for the model: each names the
// offending field (see InvalidError).
func Parse(args json.RawMessage) (*Set, error) {
	var p problems
	top, ok := decodeObject(&p, "arguments", args)
	if !ok {
		return nil, p.err()
	}
	unknownFields(&p, "arguments", top, "questions")
	raw, found := top["questions"]
	if !found {
		p.add("questions", "is required")
		return nil, p.err()
	}
	var items []json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil || items == nil {
		p.add("questions", "must be an array of question objects")
		return nil, p.err()
	}
	if err := p.err(); err != nil {
		return nil, err
	}
	if !checkCount(&p, len(items)) {
		return nil, p.err()
	}
	qs := make([]Question, len(items))
	missing := map[[2]int]bool{}
	for i, item := range items {
		qs[i] = parseQuestion(&p, i, item, missing)
	}
	if err := p.err(); err != nil {
		return nil, err
	}
	return build(qs, missing)
}

// parseQuestion decodes one question object, reporting type errors.
func parseQuestion(p *problems, i int, raw json.RawMessage, missing map[[2]int]bool) Question {
	at := fmt.Sprintf("questions[%d]", i)
	var q Question
	fields, ok := decodeObject(p, at, raw)
	if !ok {
		return q
	}
	unknownFields(p, at, fields, "name", "question", "schema", "buttons", "severity", "optional")
	decodeField(p, at, fields, "name", &q.Name, "a string")
	decodeField(p, at, fields, "question", &q.Question, "a string")
	decodeField(p, at, fields, "severity", &q.Severity, "a string")
	decodeField(p, at, fields, "optional", &q.Optional, "a boolean")
	if s, found := fields["schema"]; found && !isNull(s) {
		q.Schema = s
	}
	var buttons []json.RawMessage
	if decodeField(p, at, fields, "buttons", &buttons, "an array of button objects") {
		q.Buttons = make([]Button, len(buttons))
		for j, braw := range buttons {
			bat := fmt.Sprintf("%s.buttons[%d]", at, j)
			bf, ok := decodeObject(p, bat, braw)
			if !ok {
				continue
			}
			unknownFields(p, bat, bf, "label", "value", "variant")
			b := &q.Buttons[j]
			decodeField(p, bat, bf, "label", &b.Label, "a string")
			decodeField(p, bat, bf, "variant", &b.Variant, "a string")
			v, found := bf["value"]
			if !found {
				missing[[2]int{i, j}] = true
				continue
			}
			val, err := decodeJSON(v)
			if err != nil {
				p.add(bat+".value", "%v", err)
				continue
			}
			b.Value = val
		}
	}
	return q
}

// decodeObject decodes raw as a JSON object of raw fields.
func decodeObject(p *problems, at string, raw json.RawMessage) (map[string]json.RawMessage, bool) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil || m == nil {
		p.add(at, "must be a JSON object")
		return nil, false
	}
	return m, true
}

// decodeField decodes fields[name] into dst when present and not null; it
// reports whether a value was decoded.
func decodeField(p *problems, at string, fields map[string]json.RawMessage, name string, dst any, want string) bool {
	raw, found := fields[name]
	if !found || isNull(raw) {
		return false
	}
	if err := json.Unmarshal(raw, dst); err != nil {
		p.add(at+"."+name, "must be %s", want)
		return false
	}
	return true
}

// unknownFields reports fields not in allowed, in sorted order.
func unknownFields(p *problems, at string, fields map[string]json.RawMessage, allowed ...string) {
	var unknown []string
	for k := range fields {
		known := false
		for _, a := range allowed {
			if k == a {
				known = true
				break
			}
		}
		if !known {
			unknown = append(unknown, k)
		}
	}
	sort.Strings(unknown)
	for _, k := range unknown {
		p.add(at, "unknown field %q (allowed: %s)", k, strings.Join(allowed, ", "))
	}
}

func isNull(raw json.RawMessage) bool {
	return string(bytes.TrimSpace(raw)) == "null"
}

// decodeJSON decodes one JSON value with numbers as json.Number, the form
// jsonschema/v5 validates exactly.
func decodeJSON(b []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("invalid JSON: %w", err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("invalid JSON: unexpected data after the value")
	}
	return v, nil
}
