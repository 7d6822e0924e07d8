package jsonw

import (
	"bytes"
	"encoding/json"
	"testing"
)

var stringCases = []string{
	"", "plain text 123 ~!@#$%^*()_+-=[]{}|;:',./?`", "\x7f", "quote \" backslash \\", "<tag> & amp",
	"\n\t\r\x00\x1f", "ünïcode ✓", "\u2028\u2029", "\xff\xfe invalid", "a\xe2\x80",
}

// TestAppendString: AppendString writes what json.Marshal writes.
func TestAppendString(t *testing.T) {
	t.Parallel()
	for _, s := range stringCases {
		want, _ := json.Marshal(s)
		if got := AppendString([]byte("x"), s); !bytes.Equal(got, append([]byte("x"), want...)) {
			t.Errorf("%q: got %s, want x%s", s, got, want)
		}
	}
}

// TestAppendRaw: AppendRaw writes what json.Marshal writes for a
// json.RawMessage.
func TestAppendRaw(t *testing.T) {
	t.Parallel()
	for _, raw := range []string{`{}`, `{"a":1}`, "{ \"a\" : [1, 2],\n \"b\": \"<&>\" }", `"\u2028"`, "\"\u2028\"", `[ "x y" ]`, `"a\"<"`} {
		want, err := json.Marshal(json.RawMessage(raw))
		if err != nil {
			t.Fatal(err)
		}
		if got := AppendRaw(nil, []byte(raw)); !bytes.Equal(got, want) {
			t.Errorf("%s: got %s, want %s", raw, got, want)
		}
	}
}

// FuzzAppendString: for any string, AppendString and json.Marshal agree.
func FuzzAppendString(f *testing.F) {
	for _, s := range stringCases {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want, _ := json.Marshal(s)
		if got := AppendString(nil, s); !bytes.Equal(got, want) {
			t.Fatalf("%q: got %s, want %s", s, got, want)
		}
	})
}

// TestAppendRawField: an empty raw value writes nothing (omitempty), any
// other its key and the value as AppendRaw writes it.
func TestAppendRawField(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ raw, want string }{
		{"", `{`},
		{`{"a": 1}`, `{,"x":{"a":1}`},
		{`"<"`, `{,"x":"\u003c"`},
	} {
		if got := string(AppendRawField([]byte("{"), `,"x":`, []byte(tc.raw))); got != tc.want {
			t.Errorf("%q: got %s, want %s", tc.raw, got, tc.want)
		}
	}
}

func TestAppendArrayField(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		items []string
		want  string
	}{
		{nil, `{`},
		{[]string{"a"}, `{,"x":["a"]`},
		{[]string{"a", "<b>"}, `{,"x":["a","\u003cb\u003e"]`},
	} {
		if got := string(AppendArrayField([]byte("{"), `,"x":`, tc.items, AppendString)); got != tc.want {
			t.Errorf("%q: got %s, want %s", tc.items, got, tc.want)
		}
	}
}
