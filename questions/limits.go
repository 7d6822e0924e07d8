package questions

import (
	"fmt"
	"regexp"
	"strings"
)

// Limits on one question's schema, checked before it is compiled, so that
// no schema (the model's or agentls's own) can make compiling or
// validating slow. See docs/protocol.md ("Question schemas").
const (
	MaxSchemaBytes    = 16 << 10 // most bytes of a schema's JSON text
	MaxSchemaDepth    = 16       // most nested subschema levels, $refs followed
	MaxSubschemas     = 256      // most subschemas written in one schema
	MaxExpandedNodes  = 4096     // most subschemas once every $ref is expanded
	maxJSONDepth      = 64       // most nested JSON objects/arrays anywhere in it
	schemaDraftURI    = "https://json-schema.org/draft/2020-12/schema"
	defsRefPrefix     = "#/$defs/"
	refNameDescriptor = "letters, digits, _ . -"
)

// refRE is the one form of $ref a question schema may use.
var refRE = regexp.MustCompile(`^#/\$defs/[A-Za-z0-9_.-]+$`)

// forbiddenKeywords change how references resolve or load other documents;
// a question schema is one self-contained document.
var forbiddenKeywords = []string{"$id", "$anchor", "$dynamicRef", "$dynamicAnchor", "$recursiveRef", "$recursiveAnchor", "$vocabulary"}

// LimitError is a schema refused by a limit. Its message names the
// question, the limit and what to do; it is written for the model.
type LimitError struct {
	Question string // the question's name
	Limit    string // "size", "depth", "subschemas", "ref", "cycle", "expanded", "keyword"
	Detail   string // what is wrong, e.g. "is nested 40 deep; the limit is 16"
}

// Error returns e.g. `schema of question "x" is nested 40 deep; the limit is 16`.
func (e *LimitError) Error() string {
	return fmt.Sprintf("schema of question %q %s", e.Question, e.Detail)
}

// CheckSchemaLimits checks a question's schema, the JSON text raw, against
// the limits before it is compiled. It returns nil or the first limit the
// schema breaks; text that is not JSON passes (the caller reports it).
func CheckSchemaLimits(name string, raw []byte) *LimitError {
	_, err := measureSchema(name, raw)
	return err
}

// measureSchema is CheckSchemaLimits that also returns the schema's
// subschemas once its $refs are expanded (its weight in validation work).
func measureSchema(name string, raw []byte) (int, *LimitError) {
	fail := func(limit, format string, args ...any) *LimitError {
		return &LimitError{Question: name, Limit: limit, Detail: fmt.Sprintf(format, args...)}
	}
	if n := len(raw); n > MaxSchemaBytes {
		return 0, fail("size", "is %d bytes of JSON; the limit is %d (16 KiB): ask for less in one question, or split it into several questions", n, MaxSchemaBytes)
	}
	doc, err := decodeJSON(raw)
	if err != nil {
		return 0, nil
	}
	if d := JSONDepth(doc); d > maxJSONDepth {
		return 0, fail("depth", "is nested %d deep as JSON; the limit is %d", d, maxJSONDepth)
	}
	root, ok := doc.(map[string]any)
	if !ok {
		return 1, nil // true or false
	}
	defs, _ := root["$defs"].(map[string]any)
	var bad *LimitError
	count := 0
	walkSchemas(doc, "", func(ptr string, m map[string]any) {
		count++
		if bad != nil {
			return
		}
		at := ptr
		if at == "" {
			at = "the root"
		}
		for _, k := range forbiddenKeywords {
			if _, ok := m[k]; ok {
				bad = fail("keyword", "uses %q at %s; question schemas are one self-contained document: use \"$ref\": \"#/$defs/<name>\" instead", k, at)
				return
			}
		}
		if s, ok := m["$schema"]; ok && strings.TrimSuffix(fmt.Sprint(s), "#") != schemaDraftURI {
			bad = fail("keyword", "has \"$schema\": %q at %s; only %q (or no $schema) is allowed", fmt.Sprint(s), at, schemaDraftURI)
			return
		}
		r, has := m["$ref"]
		if !has {
			return
		}
		ref, _ := r.(string)
		if !refRE.MatchString(ref) {
			bad = fail("ref", "has \"$ref\": %q at %s; only references to \"#/$defs/<name>\" (%s) are allowed", fmt.Sprint(r), at, refNameDescriptor)
			return
		}
		if _, ok := defs[strings.TrimPrefix(ref, defsRefPrefix)]; !ok {
			bad = fail("ref", "has \"$ref\": %q at %s, but its $defs has no entry %q", ref, at, strings.TrimPrefix(ref, defsRefPrefix))
		}
	})
	if bad != nil {
		return 0, bad
	}
	if count > MaxSubschemas {
		return 0, fail("subschemas", "has %d subschemas; the limit is %d: ask for less in one question, or split it into several questions", count, MaxSubschemas)
	}
	x := expander{defs: defs, memo: map[string]expansion{}, state: map[string]int{}}
	e := x.expand(doc)
	if x.cycle != nil {
		return 0, fail("cycle", "has a $ref cycle (%s); the limit is no cycles: question schemas describe finite answers", strings.Join(x.cycle, " → "))
	}
	if e.depth > MaxSchemaDepth {
		return 0, fail("depth", "is nested %d deep; the limit is %d", e.depth, MaxSchemaDepth)
	}
	if e.nodes > MaxExpandedNodes {
		return 0, fail("expanded", "expands to more than %d subschemas once its $refs are expanded; the limit is %d: reference each $defs entry fewer times", MaxExpandedNodes, MaxExpandedNodes)
	}
	return e.nodes, nil
}

// expansion is the size of a subschema with its $refs expanded: nodes
// (saturating just above MaxExpandedNodes) and depth (levels, itself
// included).
type expansion struct{ nodes, depth int }

// expander expands $refs into $defs, memoizing each entry and finding cycles.
type expander struct {
	defs  map[string]any
	memo  map[string]expansion
	state map[string]int // 1 while being expanded, 2 when done
	stack []string
	cycle []string // the first cycle found, as refs
}

// expand measures one subschema (a boolean schema is one node).
func (x *expander) expand(schema any) expansion {
	m, ok := schema.(map[string]any)
	if !ok || x.cycle != nil {
		return expansion{nodes: 1, depth: 1}
	}
	out := expansion{nodes: 1, depth: 1}
	add := func(e expansion) {
		out.nodes = min(out.nodes+e.nodes, MaxExpandedNodes+1)
		out.depth = max(out.depth, e.depth+1)
	}
	if ref, ok := m["$ref"].(string); ok {
		add(x.ref(ref))
	}
	eachSubschema(m, func(sub any) { add(x.expand(sub)) })
	return out
}

// ref expands one "#/$defs/<name>" reference (already checked to exist).
func (x *expander) ref(ref string) expansion {
	name := strings.TrimPrefix(ref, defsRefPrefix)
	switch x.state[name] {
	case 2:
		return x.memo[name]
	case 1:
		if x.cycle == nil {
			i := 0
			for i < len(x.stack) && x.stack[i] != name {
				i++
			}
			for _, n := range x.stack[i:] {
				x.cycle = append(x.cycle, defsRefPrefix+n)
			}
			x.cycle = append(x.cycle, ref)
		}
		return expansion{nodes: 1, depth: 1}
	}
	x.state[name] = 1
	x.stack = append(x.stack, name)
	e := x.expand(x.defs[name])
	x.stack = x.stack[:len(x.stack)-1]
	x.state[name] = 2
	x.memo[name] = e
	return e
}

// eachSubschema calls fn for each subschema a schema object applies (its
// $defs and definitions excluded: they apply only where referenced).
func eachSubschema(m map[string]any, fn func(any)) {
	for _, k := range subschemaKeywords {
		if sub, ok := m[k]; ok && isSchema(sub) {
			fn(sub)
		}
	}
	for _, k := range subschemaArrayKeywords {
		if subs, ok := m[k].([]any); ok {
			for _, sub := range subs {
				fn(sub)
			}
		}
	}
	for _, k := range subschemaMapKeywords {
		if k == "$defs" || k == "definitions" {
			continue
		}
		if subs, ok := m[k].(map[string]any); ok {
			for _, sub := range subs {
				if isSchema(sub) {
					fn(sub)
				}
			}
		}
	}
}

// isSchema reports whether v can be a subschema (an object or a boolean).
func isSchema(v any) bool {
	switch v.(type) {
	case map[string]any, bool:
		return true
	}
	return false
}

// JSONDepth is the nesting of objects and arrays in a decoded JSON value
// (a scalar is 0).
func JSONDepth(v any) int {
	d := 0
	switch c := v.(type) {
	case map[string]any:
		for _, e := range c {
			d = max(d, JSONDepth(e))
		}
		return d + 1
	case []any:
		for _, e := range c {
			d = max(d, JSONDepth(e))
		}
		return d + 1
	}
	return 0
}
