package questions

import (
	"bytes"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v5"

	"github.com/agentls/agentls/internal/schemamsg"
)

// failure is one located validation message.
type failure struct {
	location string // JSON pointer into the validated value
	message  string
}

// compiled is a question's compiled schema and its weight: its subschemas
// once $refs are expanded, which bounds the work of validating one value
// (see validateBounded).
type compiled struct {
	schema *jsonschema.Schema
	nodes  int
}

// compileQuestion checks and compiles a question's schema; nil when it is
// unusable (the problems are recorded in p).
func compileQuestion(p *problems, at, name string, i int, raw []byte) *compiled {
	if len(bytes.TrimSpace(raw)) == 0 || isNull(raw) {
		p.add(at, "is required")
		return nil
	}
	nodes, lerr := measureSchema(name, raw)
	if lerr != nil {
		p.add(at, "%v", lerr)
		return nil
	}
	doc, err := decodeJSON(raw)
	if err != nil {
		p.add(at, "%v", err)
		return nil
	}
	switch doc.(type) {
	case map[string]any, bool:
	default:
		p.add(at, "must be a JSON Schema (an object or a boolean)")
		return nil
	}
	before := len(p.list)
	checkEnums(p, at, doc)
	checkSchemaText(p, at, doc) // schema_text.go
	if len(p.list) > before {
		return nil
	}
	url := fmt.Sprintf("mem://questions/%d.json", i)
	s, err := schemamsg.Compile(url, raw)
	if err != nil {
		for _, f := range compileFailures(err, url) {
			p.add(at+jsonPath(doc, f.location), "%s", f.message)
		}
		return nil
	}
	return &compiled{schema: s, nodes: max(nodes, 1)}
}

// compileFailures turns a compile error into located messages; locations
// are JSON pointers into the schema.
func compileFailures(err error, url string) []failure {
	var se *jsonschema.SchemaError
	if errors.As(err, &se) {
		var ve *jsonschema.ValidationError
		if errors.As(se.Err, &ve) {
			if fs := failures(ve); len(fs) > 0 {
				return fs
			}
		}
		if se.Err != nil {
			err = se.Err
		}
	}
	msg := strings.TrimPrefix(err.Error(), "jsonschema: ")
	msg = strings.ReplaceAll(msg, url+"#", "#")
	msg = strings.ReplaceAll(msg, url, "the schema")
	return []failure{{message: "invalid schema: " + msg}}
}

// validate validates v (a value as decoded by decodeJSON) against s.
func validate(s *jsonschema.Schema, v any) []failure {
	err := s.Validate(v)
	if err == nil {
		return nil
	}
	var ve *jsonschema.ValidationError
	if errors.As(err, &ve) {
		if fs := failures(ve); len(fs) > 0 {
			return fs
		}
	}
	return []failure{{message: strings.TrimPrefix(err.Error(), "jsonschema: ")}}
}

// failures flattens a validation error into its leaf messages, skipping the
// lines that only group others, sorted and without duplicates.
func failures(ve *jsonschema.ValidationError) []failure {
	var out []failure
	seen := map[failure]bool{}
	for _, e := range ve.BasicOutput().Errors {
		if schemamsg.IsGrouping(e.Error) {
			continue
		}
		f := failure{location: e.InstanceLocation, message: schemamsg.Humanize(schemamsg.Keyword(e.KeywordLocation), e.Error)}
		if !seen[f] {
			seen[f] = true
			out = append(out, f)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].location != out[j].location {
			return out[i].location < out[j].location
		}
		return out[i].message < out[j].message
	})
	return out
}

// checkEnums reports enums with more than MaxEnum values anywhere in a
// schema.
func checkEnums(p *problems, at string, schema any) {
	walkSchemas(schema, "", func(ptr string, m map[string]any) {
		if e, ok := m["enum"].([]any); ok && len(e) > MaxEnum {
			p.add(at+jsonPath(schema, ptr+"/enum"), "too many values (%d, at most %d)", len(e), MaxEnum)
		}
	})
}

// Keywords whose value is a subschema, an array of subschemas, or a map of
// subschemas.
var (
	subschemaKeywords = []string{"items", "additionalItems", "additionalProperties", "not", "if", "then", "else",
		"contains", "propertyNames", "unevaluatedItems", "unevaluatedProperties", "contentSchema"}
	subschemaArrayKeywords = []string{"allOf", "anyOf", "oneOf", "prefixItems", "items"}
	subschemaMapKeywords   = []string{"properties", "patternProperties", "$defs", "definitions", "dependentSchemas", "dependencies"}
)

// walkSchemas calls fn for every schema object in schema, with its JSON
// pointer.
func walkSchemas(schema any, ptr string, fn func(ptr string, m map[string]any)) {
	m, ok := schema.(map[string]any)
	if !ok {
		return
	}
	fn(ptr, m)
	for _, k := range subschemaKeywords {
		if sub, ok := m[k].(map[string]any); ok {
			walkSchemas(sub, ptr+"/"+escapeToken(k), fn)
		}
	}
	for _, k := range subschemaArrayKeywords {
		if subs, ok := m[k].([]any); ok {
			for i, sub := range subs {
				walkSchemas(sub, ptr+"/"+escapeToken(k)+"/"+strconv.Itoa(i), fn)
			}
		}
	}
	for _, k := range subschemaMapKeywords {
		if subs, ok := m[k].(map[string]any); ok {
			names := make([]string, 0, len(subs))
			for name := range subs {
				names = append(names, name)
			}
			sort.Strings(names)
			for _, name := range names {
				walkSchemas(subs[name], ptr+"/"+escapeToken(k)+"/"+escapeToken(name), fn)
			}
		}
	}
}
