// Package exactjson carries strings through JSON byte for byte.
//
// encoding/json writes each byte of a string that is not UTF-8 as U+FFFD,
// so a path whose name is not UTF-8 (a Latin-1 home or project folder,
// "/home/j\xf6rg") reads back as another, missing, path, and a Latin-1 text
// as another text. The types here write a string that is valid UTF-8 as
// the very JSON string encoding/json writes (so the files written before
// them read the same, and are written the same), and any other string as
// an escape: a NUL byte, "base64:", then the string's bytes in standard
// base64 ("\u0000base64:L2hvbWUvavZyZw==" in the file). A string that
// starts with a NUL byte is escaped too, so every string comes back
// exactly. Nothing agentls stores starts with a NUL byte (a path cannot
// hold one; the workspace reads a file that holds one as binary), so no
// string written before is taken for an escape. A reader older than these
// types reads an escape as the text it is, not as the path: for such a
// string it read U+FFFD before, another path too.
package exactjson

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"
)

// escape starts the JSON form of a string that is not plain UTF-8.
const escape = "\x00base64:"

// String is a string that JSON carries byte for byte (see the package
// doc): a field of this type in place of a string.
type String string

// MarshalText is s itself when it is valid UTF-8 and does not start with
// a NUL byte, else its escape.
func (s String) MarshalText() ([]byte, error) {
	return []byte(encode(string(s))), nil
}

// UnmarshalText reads what MarshalText wrote, and any plain string.
func (s *String) UnmarshalText(text []byte) error {
	d, err := decode(string(text))
	if err != nil {
		return err
	}
	*s = String(d)
	return nil
}

// encode is s's text form.
func encode(s string) string {
	if utf8.ValidString(s) && !strings.HasPrefix(s, "\x00") {
		return s
	}
	return escape + base64.StdEncoding.EncodeToString([]byte(s))
}

// decode reads a text form.
func decode(text string) (string, error) {
	rest, ok := strings.CutPrefix(text, escape)
	if !ok {
		return text, nil
	}
	b, err := base64.StdEncoding.DecodeString(rest)
	if err != nil {
		return "", fmt.Errorf("exactjson: a string escaped as base64: %w", err)
	}
	return string(b), nil
}

// Strings is a list of strings that JSON carries byte for byte: a field of
// this type in place of a []string (a []string is assignable to it, and it
// to a []string).
type Strings []string

// MarshalJSON writes the list as a JSON array of String.
func (ss Strings) MarshalJSON() ([]byte, error) {
	if ss == nil {
		return []byte("null"), nil
	}
	out := make([]String, len(ss))
	for i, s := range ss {
		out[i] = String(s)
	}
	return marshal(out)
}

// UnmarshalJSON reads what MarshalJSON wrote, and any array of strings.
func (ss *Strings) UnmarshalJSON(data []byte) error {
	var in []String
	if err := json.Unmarshal(data, &in); err != nil {
		return err
	}
	if in == nil {
		*ss = nil
		return nil
	}
	out := make(Strings, len(in))
	for i, s := range in {
		out[i] = string(s)
	}
	*ss = out
	return nil
}

// Map is a JSON object whose keys JSON carries byte for byte: a field of
// this type in place of a map[string]V (a map[string]V is assignable to
// it, and it to a map[string]V). The values are V's own JSON: a Map[String]
// carries string values byte for byte too.
type Map[V any] map[string]V

// MarshalJSON writes the map as a JSON object, its keys in their String
// form.
func (m Map[V]) MarshalJSON() ([]byte, error) {
	return marshalMap(m, same[V])
}

// UnmarshalJSON reads what MarshalJSON wrote, and any JSON object.
func (m *Map[V]) UnmarshalJSON(data []byte) error {
	return unmarshalMap(data, (*map[string]V)(m), same[V])
}

// StringMap is a JSON object of strings whose keys and values JSON
// carries byte for byte: a field of this type in place of a
// map[string]string (assignable both ways, as Map). It is written and
// read as a Map[String].
type StringMap map[string]string

// MarshalJSON writes the map as a JSON object of String.
func (m StringMap) MarshalJSON() ([]byte, error) {
	return marshalMap(m, func(v string) String { return String(v) })
}

// UnmarshalJSON reads what MarshalJSON wrote, and any JSON object of
// strings.
func (m *StringMap) UnmarshalJSON(data []byte) error {
	return unmarshalMap(data, (*map[string]string)(m), func(v String) string { return string(v) })
}

// same is a value that JSON carries as it is.
func same[V any](v V) V { return v }

// marshalMap writes m as a JSON object: its keys in their String form,
// each value as JSON writes wire(value). A nil m is null.
func marshalMap[V, W any](m map[string]V, wire func(V) W) ([]byte, error) {
	if m == nil {
		return []byte("null"), nil
	}
	out := make(map[string]W, len(m))
	for k, v := range m {
		out[encode(k)] = wire(v)
	}
	return marshal(out)
}

// unmarshalMap reads into *m what marshalMap wrote, and any JSON object of
// W: each key decoded from its String form, each value value(w); null is
// a nil map. A key given twice, plain and escaped, is an error.
func unmarshalMap[V, W any](data []byte, m *map[string]V, value func(W) V) error {
	var in map[string]W
	if err := json.Unmarshal(data, &in); err != nil {
		return err
	}
	if in == nil {
		*m = nil
		return nil
	}
	out := make(map[string]V, len(in))
	for k, w := range in {
		d, err := decode(k)
		if err != nil {
			return err
		}
		if _, twice := out[d]; twice {
			return fmt.Errorf("exactjson: the key %q twice, plain and escaped", d)
		}
		out[d] = value(w)
	}
	*m = out
	return nil
}

// marshal is v's JSON without escaping HTML's characters: the encoder
// that calls a MarshalJSON escapes them in its output when it is asked to,
// so the output is what it writes for the plain type.
func marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}
