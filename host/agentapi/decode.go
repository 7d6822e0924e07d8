package agentapi

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
)

// DecodeParams decodes a request's params into v as both faces decode
// them: absent or null params are an empty object; params that do not
// decode are an error saying what is wrong in the user's terms
// (DescribeDecodeError), for the face to wrap in its invalid-params error.
func DecodeParams(params []byte, v any) error {
	if len(params) == 0 || string(params) == "null" {
		params = []byte("{}")
	}
	if err := json.Unmarshal(params, v); err != nil {
		return errors.New(DescribeDecodeError(err))
	}
	return nil
}

// DescribeDecodeError says what is wrong with a payload json.Unmarshal
// refused, in the user's terms (never Go type names): both faces' message
// for malformed params.
func DescribeDecodeError(err error) string {
	var te *json.UnmarshalTypeError
	var se *json.SyntaxError
	switch {
	case errors.As(err, &te):
		want := map[reflect.Kind]string{
			reflect.String: "text", reflect.Bool: "true or false", reflect.Struct: "an object", reflect.Map: "an object",
			reflect.Slice: "a list", reflect.Array: "a list", reflect.Int: "a whole number", reflect.Int32: "a whole number",
			reflect.Int64: "a whole number", reflect.Float64: "a number",
		}[te.Type.Kind()]
		if want == "" {
			want = "something else"
		}
		got := map[string]string{"string": "text", "number": "a number", "bool": "true or false", "array": "a list", "object": "an object"}[te.Value]
		if got == "" {
			got = te.Value
		}
		if te.Field == "" {
			return fmt.Sprintf("expected %s, got %s", want, got)
		}
		return fmt.Sprintf("%s should be %s, not %s", te.Field, want, got)
	case errors.As(err, &se):
		return fmt.Sprintf("not valid JSON (at byte %d)", se.Offset)
	}
	return "not valid JSON"
}
