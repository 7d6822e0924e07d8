package openai

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/agentls/agentls/agent/llm"
)

// ToolsJSON is the request's "tools" array exactly as the provider sends it
// for specs (what the tool definitions cost on every request; bench/tooldefs
// prints it): byte for byte what encoding/json makes of go-openai's Tool
// values (a map, so "function" before "type"; the parameters compacted and
// HTML-escaped), written directly. Through encoding/json the parameters
// were scanned three times (validated, compacted by the inner Marshal,
// compacted again by the outer one): a turn's first request paid that for
// every tool definition.
func ToolsJSON(specs []llm.ToolSpec) ([]byte, error) {
	if len(specs) == 0 {
		return []byte("null"), nil // a nil slice, as encoding/json writes it
	}
	size := 2
	for _, t := range specs {
		size += len(t.Name) + len(t.Description) + len(t.Parameters) + 80
	}
	b := make([]byte, 0, size)
	b = append(b, '[')
	for i, t := range specs {
		params := []byte(t.Parameters)
		if len(params) == 0 {
			params = emptyParameters
		} else if !json.Valid(params) {
			return nil, fmt.Errorf("tool %s: parameters are not valid JSON", t.Name)
		}
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"function":{"name":`...)
		b = appendString(b, t.Name)
		if t.Description != "" {
			b = append(b, `,"description":`...)
			b = appendString(b, t.Description)
		}
		b = append(b, `,"parameters":`...)
		b = appendCompactJSON(b, params)
		b = append(b, `},"type":"function"}`...)
	}
	return append(b, ']'), nil
}

// appendString appends s as encoding/json writes a string (HTML-escaped).
func appendString(b []byte, s string) []byte {
	q, err := json.Marshal(s)
	if err != nil { // a string always encodes
		panic(err)
	}
	return append(b, q...)
}

// appendCompactJSON appends valid JSON as encoding/json writes a
// json.RawMessage: compacted, with <, >, &, U+2028 and U+2029 escaped. JSON
// that is already so (a schema agentls encoded itself) is copied after
// one quick pass.
func appendCompactJSON(b, raw []byte) []byte {
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
