package questions

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// q builds one question object as JSON with the given schema and extra
// fields.
func q(name, schema, extra string) string {
	s := fmt.Sprintf(`{"name": %q, "question": "Which?", "schema": %s`, name, schema)
	if extra != "" {
		s += ", " + extra
	}
	return s + "}"
}

func batch(qs ...string) string { return `{"questions": [` + strings.Join(qs, ", ") + `]}` }

func TestParseValid(t *testing.T) {
	for _, file := range []string{"confirm", "environment", "branch_name", "components", "endpoint_config", "batch"} {
		t.Run(file, func(t *testing.T) {
			set := mustParseFile(t, file)
			if len(set.Questions) == 0 {
				t.Fatal("no questions")
			}
		})
	}
	set := mustParseFile(t, "batch")
	var names []string
	for _, q := range set.Questions {
		names = append(names, q.Name)
	}
	if want := []string{"environment", "region", "confirm"}; !reflect.DeepEqual(names, want) {
		t.Errorf("names = %v, want %v", names, want)
	}
	env := set.Questions[0]
	if env.Severity != "major" || len(env.Buttons) != 3 || env.Buttons[2] != (Button{Label: "Production", Value: "prod", Variant: "danger"}) {
		t.Errorf("environment question = %+v", env)
	}
	if set.Questions[1].Buttons != nil {
		t.Errorf("region buttons = %#v, want nil", set.Questions[1].Buttons)
	}
}

func TestParseInvalid(t *testing.T) {
	envSchema := `{"type": "string", "enum": ["dev", "staging", "prod"]}`
	nine := make([]string, 9)
	for i := range nine {
		nine[i] = q(fmt.Sprintf("q%d", i), `{"type": "boolean"}`, "")
	}
	var bigEnum []string
	for i := range 51 {
		bigEnum = append(bigEnum, fmt.Sprintf(`"v%d"`, i))
	}
	tests := []struct {
		name string
		args string
		want string
	}{
		{"zero questions", batch(), "questions: at least 1 question is required"},
		{"nine questions", batch(nine...), "questions: at most 8 questions are allowed, got 9"},
		{"duplicate names", batch(q("env", envSchema, ""), q("region", envSchema, ""), q("env", envSchema, "")),
			`questions[2].name: duplicate name "env" (also questions[0])`},
		{"bad name", batch(q("my-name", envSchema, "")), `questions[0].name: "my-name" must match ^[a-zA-Z_][a-zA-Z0-9_]*$`},
		{"name starting with digit", batch(q("1st", envSchema, "")), `questions[0].name: "1st" must match ^[a-zA-Z_][a-zA-Z0-9_]*$`},
		{"missing name", batch(`{"question": "Which?", "schema": {"type": "boolean"}}`), "questions[0].name: is required"},
		{"name not a string", batch(`{"name": 3, "question": "Which?", "schema": {"type": "boolean"}}`), "questions[0].name: must be a string"},
		{"empty question text", batch(`{"name": "a", "question": "  ", "schema": {"type": "boolean"}}`), "questions[0].question: must not be empty"},
		{"missing schema", batch(`{"name": "a", "question": "Which?"}`), "questions[0].schema: is required"},
		{"null schema", batch(q("a", `null`, "")), "questions[0].schema: is required"},
		{"schema a string", batch(q("a", `"string"`, "")), "questions[0].schema: must be a JSON Schema (an object or a boolean)"},
		{"uncompilable schema", batch(q("a", `{"type": "strin"}`, "")),
			"questions[0].schema.type: expected array, but got string\nquestions[0].schema.type: must be one of array, boolean, integer, null, number, object, string"},
		{"bad regex", batch(q("a", `{"type": "string", "pattern": "(["}`, "")), "questions[0].schema.pattern: must be a valid regex"},
		{"nested schema error", batch(q("a", `{"type": "array", "items": {"minLength": -1}}`, "")),
			"questions[0].schema.items.minLength: must be >= 0 (got -1)"},
		{"file reference", batch(q("a", `{"$ref": "file:///etc/passwd"}`, "")),
			`questions[0].schema: schema of question "a" has "$ref": "file:///etc/passwd" at the root; only references to "#/$defs/<name>" (letters, digits, _ . -) are allowed`},
		{"remote reference", batch(q("a", `{"$ref": "https://example.com/s.json"}`, "")),
			`questions[0].schema: schema of question "a" has "$ref": "https://example.com/s.json" at the root; only references to "#/$defs/<name>" (letters, digits, _ . -) are allowed`},
		{"dangling reference", batch(q("a", `{"$ref": "#/$defs/nope"}`, "")), `questions[0].schema: schema of question "a" has "$ref": "#/$defs/nope" at the root, but its $defs has no entry "nope"`},
		{"enum too large", batch(q("a", `{"type": "string", "enum": [`+strings.Join(bigEnum, ",")+`]}`, "")),
			"questions[0].schema.enum: too many values (51, at most 50)"},
		{"nested enum too large", batch(q("a", `{"type": "object", "properties": {"env": {"enum": [`+strings.Join(bigEnum, ",")+`]}}}`, "")),
			"questions[0].schema.properties.env.enum: too many values (51, at most 50)"},
		{"button value not in enum", batch(q("confirm", `{"type": "boolean"}`, ""), q("environment", envSchema, `"buttons": [{"label": "QA", "value": "qa"}]`)),
			"questions[1].buttons[0].value: must be one of dev, staging, prod"},
		{"button of wrong type", batch(q("confirm", `{"type": "boolean"}`, `"buttons": [{"label": "Yes", "value": true}, {"label": "No", "value": "no"}]`)),
			"questions[0].buttons[1].value: expected boolean, but got string"},
		{"button value nested", batch(q("cfg", `{"type": "object", "properties": {"method": {"enum": ["GET", "POST"]}}}`, `"buttons": [{"label": "Put", "value": {"method": "PUT"}}]`)),
			"questions[0].buttons[0].value.method: must be one of GET, POST"},
		{"button without value", batch(q("confirm", `{"type": "boolean"}`, `"buttons": [{"label": "Yes"}]`)), "questions[0].buttons[0].value: is required"},
		{"button with null value", batch(q("confirm", `{"type": "boolean"}`, `"buttons": [{"label": "Yes", "value": null}]`)),
			"questions[0].buttons[0].value: expected boolean, but got null"},
		{"empty button label", batch(q("confirm", `{"type": "boolean"}`, `"buttons": [{"label": "", "value": true}]`)), "questions[0].buttons[0].label: must not be empty"},
		{"duplicate button labels", batch(q("confirm", `{"type": "boolean"}`, `"buttons": [{"label": "Yes", "value": true}, {"label": "Yes ", "value": false}]`)),
			`questions[0].buttons[1].label: duplicate label "Yes" (also buttons[0])`},
		// A zero-width space is shown escaped (\u200B), so the two labels read alike.
		{"labels alike once shown", batch(q("confirm", `{"type": "boolean"}`, `"buttons": [{"label": "Yes\u200b", "value": true}, {"label": "Yes\\u200B", "value": false}]`)),
			`questions[0].buttons[1].label: duplicate label "Yes\\u200B" (also buttons[0])`},
		{"bad variant", batch(q("confirm", `{"type": "boolean"}`, `"buttons": [{"label": "Yes", "value": true, "variant": "warning"}]`)),
			`questions[0].buttons[0].variant: must be one of primary, secondary, danger (got "warning")`},
		{"bad severity", batch(q("confirm", `{"type": "boolean"}`, `"severity": "blocker"`)),
			`questions[0].severity: must be one of critical, major, minor (got "blocker")`},
		{"buttons not an array", batch(q("confirm", `{"type": "boolean"}`, `"buttons": {"label": "Yes"}`)), "questions[0].buttons: must be an array of button objects"},
		{"button not an object", batch(q("confirm", `{"type": "boolean"}`, `"buttons": ["Yes"]`)), "questions[0].buttons[0]: must be a JSON object"},
		{"unknown question field", batch(q("confirm", `{"type": "boolean"}`, `"options": ["a"]`)),
			`questions[0]: unknown field "options" (allowed: name, question, schema, buttons, severity, optional)`},
		{"unknown button field", batch(q("confirm", `{"type": "boolean"}`, `"buttons": [{"label": "Yes", "value": true, "color": "red"}]`)),
			`questions[0].buttons[0]: unknown field "color" (allowed: label, value, variant)`},
		{"question not an object", batch(`"Which?"`), "questions[0]: must be a JSON object"},
		{"questions not an array", `{"questions": {"name": "a"}}`, "questions: must be an array of question objects"},
		{"questions missing", `{}`, "questions: is required"},
		{"questions null", `{"questions": null}`, "questions: must be an array of question objects"},
		{"unknown top-level field", `{"questions": [], "title": "x"}`, `arguments: unknown field "title" (allowed: questions)`},
		{"not an object", `[1]`, "arguments: must be a JSON object"},
		{"not JSON", `{"questions": [`, "arguments: must be a JSON object"},
		{"several problems", batch(q("a-b", `{"type": "boolean"}`, `"severity": "x"`), `{"name": "c", "question": "", "schema": {"type": "boolean"}}`),
			"questions[0].name: \"a-b\" must match ^[a-zA-Z_][a-zA-Z0-9_]*$\nquestions[0].severity: must be one of critical, major, minor (got \"x\")\nquestions[1].question: must not be empty"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			set, err := Parse(json.RawMessage(tt.args))
			if err == nil {
				t.Fatalf("Parse succeeded with %d questions, want error %q", len(set.Questions), tt.want)
			}
			if err.Error() != tt.want {
				t.Errorf("error:\n%s\nwant:\n%s", err, tt.want)
			}
			var inv *InvalidError
			if !errors.As(err, &inv) || len(inv.Problems) == 0 {
				t.Errorf("error %T is not an *InvalidError with problems", err)
			}
		})
	}
}

func TestNew(t *testing.T) {
	set, err := New([]Question{
		{
			Name: "approve", Question: "Review the plan. Accept it and start building?", Schema: json.RawMessage(`{"type":"boolean"}`),
			Buttons: []Button{
				{Label: "Accept & Build", Value: true, Variant: "primary"},
				{Label: "Keep Planning", Value: false, Variant: "secondary"},
			},
		},
		{Name: "feedback", Question: "What should change?", Schema: json.RawMessage(`{"type":"string","maxLength":4000}`), Optional: true},
		{Name: "level", Question: "Level?", Schema: json.RawMessage(`{"type":"integer","enum":[1,2]}`), Buttons: []Button{{Label: "Two", Value: 2}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := set.Questions[2].Buttons[0].Value; got != json.Number("2") {
		t.Errorf("button value kept as %#v, want json.Number(2)", got)
	}
	b, err := json.Marshal(set.Questions[0])
	if err != nil {
		t.Fatal(err)
	}
	want := `{"name":"approve","question":"Review the plan. Accept it and start building?","schema":{"type":"boolean"},` +
		`"buttons":[{"label":"Accept \u0026 Build","value":true,"variant":"primary"},{"label":"Keep Planning","value":false,"variant":"secondary"}]}`
	if string(b) != want {
		t.Errorf("JSON:\n%s\nwant:\n%s", b, want)
	}

	for _, tt := range []struct {
		name string
		qs   []Question
		want string
	}{
		{"none", nil, "questions: at least 1 question is required"},
		{"button value not JSON", []Question{{Name: "a", Question: "?", Schema: json.RawMessage(`true`), Buttons: []Button{{Label: "x", Value: func() {}}}}},
			"questions[0].buttons[0].value: not a JSON value: json: unsupported type: func()"},
		{"Go button value of the wrong type", []Question{{Name: "a", Question: "?", Schema: json.RawMessage(`{"type":"boolean"}`), Buttons: []Button{{Label: "x", Value: "true"}}}},
			"questions[0].buttons[0].value: expected boolean, but got string"},
		{"schema not JSON", []Question{{Name: "a", Question: "?", Schema: json.RawMessage(`{type}`)}},
			"questions[0].schema: invalid JSON: invalid character 't' looking for beginning of object key string"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := New(tt.qs)
			if err == nil || err.Error() != tt.want {
				t.Errorf("error = %v, want %q", err, tt.want)
			}
		})
	}
}

// TestParseLimits: the largest batch and the largest enum are accepted; one
// more is refused (TestParseInvalid).
func TestParseLimits(t *testing.T) {
	eight := make([]string, MaxQuestions)
	for i := range eight {
		eight[i] = q(fmt.Sprintf("q%d", i), `{"type": "boolean"}`, "")
	}
	var enum []string
	for i := range MaxEnum {
		enum = append(enum, fmt.Sprintf(`"v%d"`, i))
	}
	for name, args := range map[string]string{
		"eight questions":   batch(eight...),
		"enum of 50":        batch(q("a", `{"type": "string", "enum": [`+strings.Join(enum, ",")+`]}`, "")),
		"nested enum of 50": batch(q("a", `{"type": "array", "items": {"enum": [`+strings.Join(enum, ",")+`]}}`, "")),
	} {
		t.Run(name, func(t *testing.T) {
			if _, err := Parse(json.RawMessage(args)); err != nil {
				t.Fatalf("Parse: %v", err)
			}
		})
	}
}
