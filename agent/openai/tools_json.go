package openai

import (
	"encoding/json"
	"fmt"

	"github.com/agentls/agentls/agent/llm"
	"github.com/agentls/agentls/internal/jsonw"
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
		b = jsonw.AppendMember(b, `{"function":{"name":`, t.Name)
		b = jsonw.AppendField(b, `,"description":`, t.Description)
		b = append(b, `,"parameters":`...)
		b = jsonw.AppendRaw(b, params)
		b = append(b, `},"type":"function"}`...)
	}
	return append(b, ']'), nil
}
