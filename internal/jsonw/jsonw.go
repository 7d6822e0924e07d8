// Package jsonw writes JSON values directly, byte for byte as
// encoding/json's Marshal writes them: for the encodings on a turn's path
// (request bodies, the session file's messages), where encoding/json's
// reflection cost a process's first turn the building of every type's
// encoder, and every value an extra pass.
package jsonw

import (
	"bytes"
	"encoding/json"
)

// AppendString appends s as encoding/json writes a string: quoted,
// HTML-escaped (<, >, &, U+2028, U+2029), invalid UTF-8 replaced by
// U+FFFD.
func AppendString(b []byte, s string) []byte {
	if plain(s) {
		b = append(b, '"')
		b = append(b, s...)
		return append(b, '"')
	}
	q, err := json.Marshal(s)
	if err != nil { // a string always encodes
		panic(err)
	}
	return append(b, q...)
}

// plain reports whether encoding/json writes s as it is between quotes:
// printable ASCII without a quote, a backslash or an HTML special.
func plain(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x80 || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			return false
		}
	}
	return true
}

// AppendRaw appends valid JSON as encoding/json writes a json.RawMessage:
// compacted, with <, >, &, U+2028 and U+2029 escaped. JSON that is already
// so (as agentls encodes it) is copied after one quick pass. raw must be
// valid (json.Valid): encoding/json refuses invalid JSON, and so must the
// caller.
func AppendRaw(b, raw []byte) []byte {
	if compactAndSafe(raw) {
		return append(b, raw...)
	}
	var compact, escaped bytes.Buffer
	if err := json.Compact(&compact, raw); err != nil { // raw is valid
		panic(err)
	}
	json.HTMLEscape(&escaped, compact.Bytes())
	return append(b, escaped.Bytes()...)
}

// compactAndSafe reports whether valid JSON has no white space outside its
// strings and nothing encoding/json's HTML escaping would change.
func compactAndSafe(raw []byte) bool {
	inString := false
	for i := 0; i < len(raw); i++ {
		switch c := raw[i]; {
		case c == '<' || c == '>' || c == '&':
			return false
		case c == 0xE2 && i+2 < len(raw) && raw[i+1] == 0x80 && (raw[i+2] == 0xA8 || raw[i+2] == 0xA9):
			return false // U+2028, U+2029
		case inString && c == '\\':
			i++ // the escaped byte (a quote or a backslash) is not special
		case c == '"':
			inString = !inString
		case !inString && (c == ' ' || c == '\t' || c == '\n' || c == '\r'):
			return false
		}
	}
	return true
}

// AppendMember appends key (`,"name":` or `"name":`) and s: a string
// field without omitempty.
func AppendMember(b []byte, key, s string) []byte {
	b = append(b, key...)
	return AppendString(b, s)
}

// AppendField appends key (`,"name":`) and s unless s is empty: a string
// field with omitempty.
func AppendField(b []byte, key, s string) []byte {
	if s == "" {
		return b
	}
	return AppendMember(b, key, s)
}

// AppendRawField appends key (`,"name":`) and raw (as AppendRaw) unless raw
// is empty: a json.RawMessage field with omitempty.
func AppendRawField(b []byte, key string, raw []byte) []byte {
	if len(raw) == 0 {
		return b
	}
	return AppendRaw(append(b, key...), raw)
}

// AppendArrayField appends key (`,"name":`) and items as a JSON array, each
// written by each, unless items is empty: a slice field with omitempty.
func AppendArrayField[T any](b []byte, key string, items []T, each func([]byte, T) []byte) []byte {
	if len(items) == 0 {
		return b
	}
	b = append(b, key...)
	b = append(b, '[')
	for i, it := range items {
		if i > 0 {
			b = append(b, ',')
		}
		b = each(b, it)
	}
	return append(b, ']')
}
