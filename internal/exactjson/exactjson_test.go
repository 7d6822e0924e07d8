package exactjson

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// record is a file that holds each type.
type record struct {
	Path  String            `json:"path"`
	Paths Strings           `json:"paths,omitempty"`
	Env   Map[String]       `json:"env,omitempty"`
	Sums  Map[int]          `json:"sums,omitempty"`
	Opt   String            `json:"opt,omitempty"`
	Plain map[string]string `json:"plain,omitempty"`
	Vars  StringMap         `json:"vars,omitempty"`
}

// plainRecord is record as it was written before, with plain strings.
type plainRecord struct {
	Path  string            `json:"path"`
	Paths []string          `json:"paths,omitempty"`
	Env   map[string]string `json:"env,omitempty"`
	Sums  map[string]int    `json:"sums,omitempty"`
	Opt   string            `json:"opt,omitempty"`
	Plain map[string]string `json:"plain,omitempty"`
	Vars  map[string]string `json:"vars,omitempty"`
}

var utf8Cases = []string{"", "/home/jörg/.ssh", "quote \" back \\ <tag> & \u2028", "plans/café.plan", "base64:AAAA", "x\x00base64:AAAA"}

// TestValidUTF8IsWrittenAsBefore: a record whose strings are all valid
// UTF-8 (without a leading NUL) is written byte for byte as the same
// record of plain strings was, with and without HTML escaping, indented or
// not; and what was written before reads the same.
func TestValidUTF8IsWrittenAsBefore(t *testing.T) {
	t.Parallel()
	for _, s := range utf8Cases {
		plain := plainRecord{Path: s, Paths: []string{s, "/a"}, Env: map[string]string{s: s, "K": "v"}, Sums: map[string]int{s: 1}, Opt: s, Plain: map[string]string{"a": s}, Vars: map[string]string{s: s}}
		exact := record{Path: String(s), Paths: Strings{s, "/a"}, Env: Map[String]{s: String(s), "K": "v"}, Sums: Map[int]{s: 1}, Opt: String(s), Plain: map[string]string{"a": s}, Vars: StringMap{s: s}}
		for _, html := range []bool{true, false} {
			for _, indent := range []string{"", "  "} {
				if got, want := encodeWith(t, exact, html, indent), encodeWith(t, plain, html, indent); !bytes.Equal(got, want) {
					t.Errorf("%q (html %v, indent %q): written\n%s\nnot as before\n%s", s, html, indent, got, want)
				}
			}
		}
		old, err := json.Marshal(plain)
		if err != nil {
			t.Fatal(err)
		}
		var back record
		if err := json.Unmarshal(old, &back); err != nil {
			t.Fatalf("%s: %v", old, err)
		}
		if !reflect.DeepEqual(back, exact) {
			t.Errorf("%s read back as %+v, want %+v", old, back, exact)
		}
	}
}

func encodeWith(t *testing.T, v any, html bool, indent string) []byte {
	t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(html)
	enc.SetIndent("", indent)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestNotUTF8ComesBackExactly: a Latin-1 path, a lone continuation byte,
// a string that starts with NUL or with the escape itself come back byte
// for byte, as values, list items and keys, and the file holds valid
// UTF-8 JSON.
func TestNotUTF8ComesBackExactly(t *testing.T) {
	t.Parallel()
	for _, s := range []string{"/home/j\xf6rg/.ssh", "\xff", "a\xe2\x80", "\x00", "\x00base64:AAAA", "\x00base64:not base64!", escape} {
		in := record{Path: String(s), Paths: Strings{s, "/a"}, Env: Map[String]{s: String(s)}, Sums: Map[int]{s: 7}, Vars: StringMap{s: s, "k": s}}
		data, err := json.MarshalIndent(in, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		if !json.Valid(data) || strings.ContainsRune(string(data), '\ufffd') {
			t.Fatalf("%q written as %s", s, data)
		}
		var back record
		if err := json.Unmarshal(data, &back); err != nil {
			t.Fatalf("%q: %s: %v", s, data, err)
		}
		if !reflect.DeepEqual(back, in) {
			t.Errorf("%q written as %s read back as %+v", s, data, back)
		}
	}
}

// TestNullAndAbsentKeepTheZeroValue: null and a missing field read as
// for the plain types.
func TestNullAndAbsentKeepTheZeroValue(t *testing.T) {
	t.Parallel()
	var r record
	if err := json.Unmarshal([]byte(`{"path":null,"paths":null,"env":null,"vars":null}`), &r); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(r, record{}) {
		t.Fatalf("null read as %+v", r)
	}
	if b, _ := json.Marshal(record{}); string(b) != `{"path":""}` {
		t.Fatalf("the zero record written as %s", b)
	}
	if b, _ := json.Marshal(struct{ P Strings }{}); string(b) != `{"P":null}` {
		t.Fatalf("a nil list written as %s", b)
	}
}

// TestMalformedIsAnError: a broken escape, a key given twice (plain and
// escaped) and a value of the wrong JSON type are errors, not other
// strings.
func TestMalformedIsAnError(t *testing.T) {
	t.Parallel()
	for _, data := range []string{
		`{"path":"\u0000base64:%%%"}`,
		`{"paths":["\u0000base64:%%%"]}`,
		`{"env":{"\u0000base64:%%%":"v"}}`,
		`{"env":{"a":"1","\u0000base64:YQ==":"2"}}`,
		`{"vars":{"\u0000base64:YQ==":"1","a":"2"}}`,
		`{"vars":{"a":"\u0000base64:%%%"}}`,
		`{"path":7}`, `{"paths":"a"}`, `{"env":[]}`, `{"vars":{"a":1}}`,
	} {
		var r record
		if err := json.Unmarshal([]byte(data), &r); err == nil {
			t.Errorf("%s read as %+v, without an error", data, r)
		}
	}
}

// FuzzRoundTrip: every string, list and map comes back byte for byte;
// valid UTF-8 without a leading NUL is written as encoding/json writes a
// plain string.
func FuzzRoundTrip(f *testing.F) {
	f.Add("/home/j\xf6rg", "K")
	f.Add("\x00base64:", "\xff")
	f.Add("plain <&>", "")
	f.Fuzz(func(t *testing.T, a, b string) {
		in := record{Path: String(a), Paths: Strings{a, b}, Env: Map[String]{a: String(b), b: String(a)}, Sums: Map[int]{b: 1}, Vars: StringMap{b: a}}
		data, err := json.Marshal(in)
		if err != nil {
			t.Fatal(err)
		}
		var back record
		if err := json.Unmarshal(data, &back); err != nil {
			t.Fatalf("%s: %v", data, err)
		}
		if !reflect.DeepEqual(back, in) {
			t.Fatalf("%+v written as %s read back as %+v", in, data, back)
		}
		if encode(a) == a {
			want, _ := json.Marshal(a)
			got, _ := json.Marshal(String(a))
			if !bytes.Equal(got, want) {
				t.Fatalf("%q written as %s, not %s", a, got, want)
			}
		}
	})
}
