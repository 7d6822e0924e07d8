package questions

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

func TestValidateSeedExamples(t *testing.T) {
	long := strings.Repeat("a", 51)
	tests := []struct {
		file    string
		answers string
		want    map[string]string
	}{
		// Confirmation (boolean)
		{"confirm", `{"confirm": true}`, nil},
		{"confirm", `{"confirm": false}`, nil},
		{"confirm", `{"confirm": "yes"}`, map[string]string{"confirm": "expected boolean, but got string"}},
		{"confirm", `{"confirm": null}`, map[string]string{"confirm": "expected boolean, but got null"}},
		{"confirm", `{}`, map[string]string{"confirm": "an answer is required"}},
		{"confirm", `{"confirm": true, "confrim": true}`, map[string]string{"confrim": "no such question"}},
		// Single choice (string enum)
		{"environment", `{"environment": "staging"}`, nil},
		{"environment", `{"environment": "qa"}`, map[string]string{"environment": "must be one of dev, staging, prod"}},
		{"environment", `{"environment": "Staging"}`, map[string]string{"environment": "must be one of dev, staging, prod"}},
		{"environment", `{"environment": 3}`, map[string]string{"environment": "expected string, but got number"}},
		// Text input (validated string)
		{"branch_name", `{"branch_name": "feature-login-2"}`, nil},
		{"branch_name", `{"branch_name": "abc"}`, nil},
		{"branch_name", `{"branch_name": "` + long[:50] + `"}`, nil},
		{"branch_name", `{"branch_name": "Feature_Login"}`, map[string]string{"branch_name": "must match ^[a-z0-9-]+$"}},
		{"branch_name", `{"branch_name": "ab"}`, map[string]string{"branch_name": "must be at least 3 characters long (got 2)"}},
		{"branch_name", `{"branch_name": "` + long + `"}`, map[string]string{"branch_name": "must be at most 50 characters long (got 51)"}},
		{"branch_name", `{"branch_name": "A"}`, map[string]string{"branch_name": "must be at least 3 characters long (got 1); must match ^[a-z0-9-]+$"}},
		{"branch_name", `{"branch_name": ["x"]}`, map[string]string{"branch_name": "expected string, but got array"}},
		// Multi-select (array)
		{"components", `{"components": ["frontend"]}`, nil},
		{"components", `{"components": ["frontend", "docs", "database"]}`, nil},
		{"components", `{"components": []}`, map[string]string{"components": "must have at least 1 item (got 0)"}},
		{"components", `{"components": ["frontend", "mobile"]}`, map[string]string{"components": "/1: must be one of frontend, backend, database, docs"}},
		{"components", `{"components": ["web", 2]}`, map[string]string{"components": "/0: must be one of frontend, backend, database, docs; /1: expected string, but got number"}},
		{"components", `{"components": "frontend"}`, map[string]string{"components": "expected array, but got string"}},
		// Structured input (object)
		{"endpoint_config", `{"endpoint_config": {"path": "/api/users", "method": "GET"}}`, nil},
		{"endpoint_config", `{"endpoint_config": {"path": "/api/v2/users", "method": "DELETE", "auth_required": false}}`, nil},
		{"endpoint_config", `{"endpoint_config": {"path": "/api/users"}}`, map[string]string{"endpoint_config": "missing required property: method"}},
		{"endpoint_config", `{"endpoint_config": {}}`, map[string]string{"endpoint_config": "missing required properties: path, method"}},
		{"endpoint_config", `{"endpoint_config": {"path": "api", "method": "PATCH", "auth_required": "yes"}}`, map[string]string{
			"endpoint_config": "/auth_required: expected boolean, but got string; /method: must be one of GET, POST, PUT, DELETE; /path: must match ^/[a-z0-9/-]+$",
		}},
		{"endpoint_config", `{"endpoint_config": "GET /api"}`, map[string]string{"endpoint_config": "expected object, but got string"}},
		// Batch
		{"batch", `{"environment": "staging", "region": "us-east-1", "confirm": true}`, nil},
		{"batch", `{"environment": "qa", "region": "mars-1", "confirm": true}`, map[string]string{
			"environment": "must be one of dev, staging, prod",
			"region":      "must be one of us-east-1, eu-west-1, ap-southeast-1",
		}},
		{"batch", `{"environment": "prod", "other": 1}`, map[string]string{
			"region":  "an answer is required",
			"confirm": "an answer is required",
			"other":   "no such question",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.file+" "+tt.answers, func(t *testing.T) {
			set := mustParseFile(t, tt.file)
			got := set.Validate(mustDecode(t, tt.answers))
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Validate = %#v\nwant      %#v", got, tt.want)
			}
		})
	}
}

func TestValidateNumbers(t *testing.T) {
	set, err := New([]Question{
		{Name: "count", Question: "How many?", Schema: json.RawMessage(`{"type":"integer","minimum":1,"maximum":10}`)},
		{Name: "id", Question: "Which id?", Schema: json.RawMessage(`{"enum":[9007199254740993]}`), Optional: true},
	})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		answers string
		want    map[string]string
	}{
		{`{"count": 3}`, nil},
		{`{"count": 3.0}`, nil},
		{`{"count": 3.5}`, map[string]string{"count": "expected integer, but got number"}},
		{`{"count": 11}`, map[string]string{"count": "must be <= 10 (got 11)"}},
		{`{"count": 0}`, map[string]string{"count": "must be >= 1 (got 0)"}},
		// json.Number keeps integers beyond float64 precision exact.
		{`{"count": 1, "id": 9007199254740993}`, nil},
		{`{"count": 1, "id": 9007199254740992}`, map[string]string{"id": "must be 9007199254740993"}},
	}
	for _, tt := range tests {
		if got := set.Validate(mustDecode(t, tt.answers)); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Validate(%s) = %#v, want %#v", tt.answers, got, tt.want)
		}
	}
	// Go values (not decoded JSON) are accepted too.
	if got := set.Validate(map[string]any{"count": 4}); got != nil {
		t.Errorf("Validate(int) = %v", got)
	}
	if got := set.Validate(map[string]any{"count": 4.5}); !reflect.DeepEqual(got, map[string]string{"count": "expected integer, but got number"}) {
		t.Errorf("Validate(float64) = %v", got)
	}
	if got := set.Validate(map[string]any{"count": func() {}}); got == nil || !strings.HasPrefix(got["count"], "not a JSON value") {
		t.Errorf("Validate(func) = %v", got)
	}
}

func TestValidateOptional(t *testing.T) {
	set, err := New([]Question{
		{Name: "approve", Question: "Accept the plan?", Schema: json.RawMessage(`{"type":"boolean"}`)},
		{Name: "feedback", Question: "What should change?", Schema: json.RawMessage(`{"type":"string","maxLength":5}`), Optional: true},
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := set.Validate(map[string]any{"approve": true}); got != nil {
		t.Errorf("optional left out: %v", got)
	}
	want := map[string]string{"feedback": "must be at most 5 characters long (got 6)"}
	if got := set.Validate(map[string]any{"approve": false, "feedback": "longer"}); !reflect.DeepEqual(got, want) {
		t.Errorf("optional invalid: %v", got)
	}
	want = map[string]string{"approve": "an answer is required"}
	if got := set.Validate(map[string]any{"feedback": "ok"}); !reflect.DeepEqual(got, want) {
		t.Errorf("required missing: %v", got)
	}
}

func TestValidateOddKeysInLocation(t *testing.T) {
	set, err := New([]Question{{Name: "o", Question: "?", Schema: json.RawMessage(
		`{"type":"object","properties":{"a b":{"type":"string"},"x/y":{"type":"string"}}}`)}})
	if err != nil {
		t.Fatal(err)
	}
	got := set.Validate(map[string]any{"o": map[string]any{"a b": 1, "x/y": 2}})
	want := map[string]string{"o": "/a b: expected string, but got number; /x~1y: expected string, but got number"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %#v, want %#v", got, want)
	}
}

func TestValidationError(t *testing.T) {
	got := ValidationError(map[string]string{
		"region":      "must be one of us-east-1, eu-west-1",
		"branch_name": "must match ^[a-z0-9-]+$",
		"confirm":     "an answer is required",
	})
	want := "branch_name: must match ^[a-z0-9-]+$\nconfirm: an answer is required\nregion: must be one of us-east-1, eu-west-1"
	if got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if got := ValidationError(nil); got != "" {
		t.Errorf("empty: %q", got)
	}
}

func TestDecodeAnswers(t *testing.T) {
	got, err := DecodeAnswers([]byte(`{"a": 1.50, "b": [true, "x"], "c": {"d": null}}`))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"a": json.Number("1.50"), "b": []any{true, "x"}, "c": map[string]any{"d": nil}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %#v, want %#v", got, want)
	}
	for _, tt := range []struct{ raw, err string }{
		{`[]`, "decode answers: must be a JSON object keyed by question name, got an array"},
		{`null`, "decode answers: must be a JSON object keyed by question name, got null"},
		{`"x"`, "decode answers: must be a JSON object keyed by question name, got a string"},
		{`{"a": }`, "decode answers: invalid JSON: invalid character '}' looking for beginning of value"},
		{`{"a": 1} {}`, "decode answers: invalid JSON: unexpected data after the value"},
		{``, "decode answers: invalid JSON: EOF"},
	} {
		if _, err := DecodeAnswers([]byte(tt.raw)); err == nil || err.Error() != tt.err {
			t.Errorf("DecodeAnswers(%q) error = %v, want %q", tt.raw, err, tt.err)
		}
	}
}

func TestValidateConcurrently(t *testing.T) {
	set := mustParseFile(t, "batch")
	done := make(chan map[string]string)
	for i := range 8 {
		go func() {
			env := "staging"
			if i%2 == 1 {
				env = "qa"
			}
			done <- set.Validate(map[string]any{"environment": env, "region": "us-east-1", "confirm": true})
		}()
	}
	for range 8 {
		got := <-done
		if got != nil && got["environment"] != "must be one of dev, staging, prod" {
			t.Errorf("Validate = %v", got)
		}
	}
}

func TestValidateMessagesWithOddValues(t *testing.T) {
	set, err := New([]Question{
		{Name: "pick", Question: "?", Schema: json.RawMessage(`{"enum": ["a, b", "say \"hi\"", "it's", null, 2]}`)},
		{Name: "obj", Question: "?", Schema: json.RawMessage(`{"type": "object", "properties": {"x": {"const": "ok"}}, "additionalProperties": false}`)},
		{Name: "tags", Question: "?", Schema: json.RawMessage(`{"type": "array", "uniqueItems": true, "maxItems": 2}`)},
		{Name: "mail", Question: "?", Schema: json.RawMessage(`{"type": "string", "format": "email"}`)},
	})
	if err != nil {
		t.Fatal(err)
	}
	got := set.Validate(map[string]any{
		"pick": "x",
		"obj":  map[string]any{"x": "no", `it's "q"`: 1, "b": 2},
		"tags": []any{"a", "b", "a"},
		"mail": "not-an-address",
	})
	want := map[string]string{
		"pick": `must be one of a, b, say "hi", it's, null, 2`,
		"obj":  `unknown properties: b, it's "q"; /x: must be ok`,
		"tags": "must have at most 2 items (got 3); must not repeat items (items 0 and 2 are equal)",
		"mail": "must be a valid email",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got  %#v\nwant %#v", got, want)
	}
}

// TestValidationErrorSeedMessages: the lines a person reads for the seed's
// examples, as agent/answer and the askUser re-ask report them.
func TestValidationErrorSeedMessages(t *testing.T) {
	tests := []struct {
		file, answers, want string
	}{
		{"branch_name", `{"branch_name": "Feature_Login"}`, "branch_name: must match ^[a-z0-9-]+$"},
		{"confirm", `{"confirm": "yes"}`, "confirm: expected boolean, but got string"},
		{"environment", `{"environment": "qa"}`, "environment: must be one of dev, staging, prod"},
		{"components", `{"components": ["mobile"]}`, "components: /0: must be one of frontend, backend, database, docs"},
		{"endpoint_config", `{"endpoint_config": {"method": "GET"}}`, "endpoint_config: missing required property: path"},
		{"batch", `{"environment": "qa", "confirm": true}`, "environment: must be one of dev, staging, prod\nregion: an answer is required"},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			got := ValidationError(mustParseFile(t, tt.file).Validate(mustDecode(t, tt.answers)))
			if got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}
