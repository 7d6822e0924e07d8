package questions

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// chain is a schema whose $defs d0…d<n-1> each take anyOf two references to
// the next: small to write, 2^n subschemas once expanded.
func chain(n int) string {
	var defs []string
	for i := range n {
		defs = append(defs, fmt.Sprintf(`"d%d":{"anyOf":[{"$ref":"#/$defs/d%d"},{"$ref":"#/$defs/d%d"}]}`, i, i+1, i+1))
	}
	defs = append(defs, fmt.Sprintf(`"d%d":{"type":"string"}`, n))
	return `{"$ref":"#/$defs/d0","$defs":{` + strings.Join(defs, ",") + `}}`
}

// nested wraps {"type":"string"} in n levels of keyword.
func nested(keyword string, n int) string {
	return strings.Repeat(`{"`+keyword+`":`, n) + `{"type":"string"}` + strings.Repeat("}", n)
}

// refs is n references to one $defs entry, comma-separated.
func refs(name string, n int) string {
	r := make([]string, n)
	for i := range r {
		r[i] = `{"$ref":"#/$defs/` + name + `"}`
	}
	return strings.Join(r, ",")
}

// props is an object schema with n string properties.
func props(n int) string {
	var ps []string
	for i := range n {
		ps = append(ps, fmt.Sprintf(`"p%d":{"type":"string"}`, i))
	}
	return `{"type":"object","properties":{` + strings.Join(ps, ",") + `}}`
}

// fanout is a schema referencing one $defs entry of width properties n
// times.
func fanout(n, width int) string {
	var refs []string
	for range n {
		refs = append(refs, `{"$ref":"#/$defs/w"}`)
	}
	return `{"allOf":[` + strings.Join(refs, ",") + `],"$defs":{"w":` + props(width) + `}}`
}

func TestCheckSchemaLimits(t *testing.T) {
	pad := `{"type":"string","description":"` + strings.Repeat("x", MaxSchemaBytes) + `"}`
	tests := []struct {
		name, schema string
		limit        string // "" when the schema is within the limits
		detail       string // part of the message
	}{
		{"boolean", `true`, "", ""},
		{"plain", `{"type":"string","enum":["a","b"]}`, "", ""},
		{"size at the limit", `{"description":"` + strings.Repeat("x", MaxSchemaBytes-18) + `"}`, "", ""},
		{"size above", pad, "size", "the limit is 16384"},
		{"depth at the limit", nested("not", MaxSchemaDepth-1), "", ""},
		{"depth above", nested("not", MaxSchemaDepth), "depth", "is nested 17 deep; the limit is 16"},
		{"depth 40", nested("not", 40), "depth", "is nested 41 deep; the limit is 16"},
		{"json depth of anyOf", strings.Repeat(`{"anyOf":[`, 40) + `true` + strings.Repeat("]}", 40), "depth", "is nested 80 deep as JSON; the limit is 64"},
		{"depth through refs", `{"$ref":"#/$defs/a","$defs":{"a":` + nested("not", 8) + `,"b":{"$ref":"#/$defs/a"}}}`, "", ""},
		{"depth above through refs", `{"not":{"$ref":"#/$defs/b"},"$defs":{"a":` + nested("not", 12) + `,"b":{"not":{"$ref":"#/$defs/a"}}}}`, "depth", "is nested 17 deep"},
		{"json depth", `{"const":` + strings.Repeat("[", 65) + strings.Repeat("]", 65) + `}`, "depth", "as JSON; the limit is 64"},
		{"deep 4000", nested("not", 4000), "size", "the limit is 16384"},
		{"subschemas at the limit", props(MaxSubschemas - 1), "", ""},
		{"subschemas above", props(MaxSubschemas), "subschemas", "has 257 subschemas; the limit is 256"},
		{"subschemas in $defs count", `{"$defs":{"a":` + props(MaxSubschemas) + `}}`, "subschemas", "has 258 subschemas"},
		{"ref to $defs", `{"$ref":"#/$defs/a","$defs":{"a":{"type":"string"}}}`, "", ""},
		{"ref to root", `{"properties":{"a":{"$ref":"#"}}}`, "ref", `has "$ref": "#" at /properties/a`},
		{"ref to a pointer", `{"$ref":"#/properties/a","properties":{"a":true}}`, "ref", "only references to"},
		{"ref into a def", `{"$ref":"#/$defs/a/properties/b","$defs":{"a":{"properties":{"b":true}}}}`, "ref", "only references to"},
		{"ref to definitions", `{"$ref":"#/definitions/a","definitions":{"a":true}}`, "ref", "only references to"},
		{"ref escaped", `{"$ref":"#/$defs/a%2Fb","$defs":{"a/b":true}}`, "ref", "only references to"},
		{"ref remote", `{"$ref":"https://example.com/s.json"}`, "ref", "only references to"},
		{"ref relative", `{"$ref":"other.json#/$defs/a"}`, "ref", "only references to"},
		{"ref not a string", `{"$ref":1}`, "ref", `has "$ref": "1"`},
		{"ref to nothing", `{"$ref":"#/$defs/x","$defs":{"a":true}}`, "ref", `has no entry "x"`},
		{"ref in dependencies", `{"dependencies":{"a":{"$ref":"#"}}}`, "ref", "only references to"},
		{"ref in contentSchema", `{"contentMediaType":"application/json","contentSchema":{"$ref":"#"}}`, "ref", "only references to"},
		{"self cycle", `{"$ref":"#/$defs/a","$defs":{"a":{"items":{"$ref":"#/$defs/a"}}}}`, "cycle", "#/$defs/a → #/$defs/a"},
		{"cycle of two", `{"$ref":"#/$defs/a","$defs":{"a":{"anyOf":[{"$ref":"#/$defs/b"}]},"b":{"not":{"$ref":"#/$defs/a"}}}}`, "cycle", "#/$defs/a → #/$defs/b → #/$defs/a"},
		{"unreferenced cycle", `{"$defs":{"a":{"$ref":"#/$defs/b"},"b":{"$ref":"#/$defs/a"}}}`, "", ""},
		{"expanded at the limit", fanout(20, 200), "", ""},
		{"expanded above", fanout(21, 200), "expanded", "expands to more than 4096 subschemas once its $refs are expanded; the limit is 4096"},
		{"three levels of 16 refs", `{"anyOf":[` + refs("a", 16) + `],"$defs":{"a":{"anyOf":[` + refs("b", 16) + `]},"b":{"anyOf":[` + refs("c", 16) + `]},"c":{"type":"string"}}}`, "expanded", "4096"},
		{"anyOf chain of 40", chain(40), "depth", "is nested 82 deep"},
		{"anyOf chain of 7", chain(7), "", ""},
		{"anyOf chain of 8", chain(8), "depth", "is nested 18 deep"},
		{"$id", `{"$id":"https://example.com/x","type":"string"}`, "keyword", `uses "$id" at the root`},
		{"$anchor", `{"properties":{"a":{"$anchor":"x"}}}`, "keyword", `uses "$anchor" at /properties/a`},
		{"$dynamicRef", `{"$dynamicRef":"#x"}`, "keyword", `uses "$dynamicRef"`},
		{"$recursiveRef", `{"$recursiveRef":"#"}`, "keyword", `uses "$recursiveRef"`},
		{"$schema 2020", `{"$schema":"https://json-schema.org/draft/2020-12/schema#","type":"string"}`, "", ""},
		{"$schema other", `{"$schema":"http://json-schema.org/draft-04/schema#"}`, "keyword", `has "$schema"`},
		{"not JSON", `{`, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := CheckSchemaLimits("x", []byte(tt.schema))
			if tt.limit == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				if json.Valid([]byte(tt.schema)) {
					if _, perr := New([]Question{{Name: "x", Question: "?", Schema: []byte(tt.schema)}}); perr != nil {
						t.Fatalf("within the limits but New fails: %v", perr)
					}
				}
				return
			}
			if err == nil {
				t.Fatalf("accepted, want the %s limit", tt.limit)
			}
			if err.Limit != tt.limit || !strings.Contains(err.Error(), tt.detail) || !strings.HasPrefix(err.Error(), `schema of question "x" `) {
				t.Errorf("error = [%s] %v\nwant [%s] containing %q", err.Limit, err, tt.limit, tt.detail)
			}
		})
	}
}

// TestStallSchemasRefused: the two schemas that stalled the server (a 2 KB
// chain of 40 anyOf/$ref levels, a 32 KB schema nested 4,000 deep) are
// refused with the limit, quickly.
func TestStallSchemasRefused(t *testing.T) {
	for file, want := range map[string]string{
		"stall_anyof_refs": `questions[0].schema: schema of question "nested" is nested 82 deep; the limit is 16`,
		"stall_deep":       `questions[0].schema: schema of question "deep" is 32017 bytes of JSON; the limit is 16384`,
	} {
		t.Run(file, func(t *testing.T) {
			b, err := os.ReadFile(filepath.Join("testdata", file+".json"))
			if err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { _, err := Parse(b); done <- err }()
			select {
			case err = <-done:
			case <-time.After(10 * time.Second):
				t.Fatal("Parse did not return within 10s") // the goroutine is abandoned: the test binary ends
			}
			if err == nil || !strings.HasPrefix(err.Error(), want) {
				t.Fatalf("Parse error = %v\nwant prefix %s", err, want)
			}
		})
	}
}

func TestValidateContextCancelled(t *testing.T) {
	set, err := New([]Question{{Name: "a", Question: "?", Schema: []byte(`{"type":"string"}`)}})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	errs := set.ValidateContext(ctx, map[string]any{"a": "x"})
	if !strings.Contains(errs["a"], "canceled") {
		t.Errorf("errs = %v, want a cancelled check", errs)
	}
	if errs := set.ValidateContext(context.Background(), map[string]any{"a": "x"}); errs != nil {
		t.Errorf("errs = %v", errs)
	}
	big := strings.Repeat("x", MaxAnswerBytes)
	if errs := set.Validate(map[string]any{"a": big}); !strings.Contains(errs["a"], "the limit is 65536") {
		t.Errorf("big answer: errs = %v", errs)
	}
}

// wideSchema is within the limits but heavy to validate: an array whose
// items try 12×12×12 alternatives that all fail (about 3,800 subschemas
// once expanded).
func wideSchema() string {
	return `{"type":"array","items":{"anyOf":[` + refs("a", 12) + `]},"$defs":{"a":{"anyOf":[` + refs("b", 12) +
		`]},"b":{"anyOf":[` + refs("c", 12) + `]},"c":{"type":"string","pattern":"^(a|b)*c$"}}}`
}

// TestValidationWorkBounded: a schema within the limits with a large value
// (a button the model wrote, an answer) would keep a core busy for
// minutes; the value is refused before validation, at once.
func TestValidationWorkBounded(t *testing.T) {
	if err := CheckSchemaLimits("wide", []byte(wideSchema())); err != nil {
		t.Fatal(err)
	}
	big := `[` + strings.Repeat(`"ab",`, 13000) + `"ab"]`
	args := `{"questions":[{"name":"wide","question":"?","schema":` + wideSchema() + `,"buttons":[{"label":"Go","value":` + big + `}]}]}`
	start := time.Now()
	_, err := Parse([]byte(args))
	if err == nil || !strings.Contains(err.Error(), "questions[0].buttons[0].value: is too large to check against this question's schema (13002 values in 65006 bytes, for a schema of") {
		t.Fatalf("Parse = %v", err)
	}
	if d := time.Since(start); d > timeScale*time.Second {
		t.Fatalf("refusing took %v", d)
	}
	set, err := New([]Question{{Name: "wide", Question: "?", Schema: []byte(wideSchema())}})
	if err != nil {
		t.Fatal(err)
	}
	small, err := decodeJSON([]byte(`["ab","ab","ab"]`))
	if err != nil {
		t.Fatal(err)
	}
	start = time.Now()
	errs := set.Validate(map[string]any{"wide": small})
	if !strings.Contains(errs["wide"], "must match") && !strings.Contains(errs["wide"], "anyOf") && errs["wide"] == "" {
		t.Fatalf("errs = %v", errs)
	}
	if d := time.Since(start); d > timeScale*time.Second {
		t.Fatalf("a small answer took %v", d)
	}
}

// FuzzSchemaLimits: a schema within the limits compiles, and validating any
// instance against it finishes within a small time.
func FuzzSchemaLimits(f *testing.F) {
	for _, s := range []string{`true`, `{"type":"string"}`, chain(7), fanout(20, 200), props(20),
		`{"type":"array","items":{"anyOf":[{"$ref":"#/$defs/a"},{"type":"integer"}]},"uniqueItems":true,"$defs":{"a":{"type":"object","additionalProperties":{"$ref":"#/$defs/b"}},"b":{"type":"string","pattern":"^(a|b)*$"}}}`,
	} {
		f.Add(s, `["a",1,{"x":"ab"},[1,2,[3]]]`)
	}
	f.Add(wideSchema(), `[`+strings.Repeat(`"ab",`, 5)+`"ab"]`)
	f.Fuzz(func(t *testing.T, schema, instance string) {
		if CheckSchemaLimits("f", []byte(schema)) != nil {
			return
		}
		doc, err := decodeJSON([]byte(schema))
		if err != nil {
			return
		}
		if _, ok := doc.(map[string]any); !ok {
			if _, ok := doc.(bool); !ok {
				return
			}
		}
		v, err := decodeJSON([]byte(instance))
		if err != nil {
			v = instance
		}
		start := time.Now()
		set, err := New([]Question{{Name: "f", Question: "?", Schema: []byte(schema)}})
		if err != nil {
			var le *LimitError
			if errors.As(err, &le) {
				t.Fatalf("limit error from New after CheckSchemaLimits passed: %v", err)
			}
			return // not a valid schema: refused with a message
		}
		_ = set.Validate(map[string]any{"f": v})
		if d := time.Since(start); d > timeScale*time.Second {
			t.Fatalf("compile and validate took %v", d)
		}
	})
}
