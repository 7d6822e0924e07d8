package openai

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	goopenai "github.com/sashabaranov/go-openai"

	"github.com/agentls/agentls/agent/llm"
)

// chatTools maps the tool specs to the request's tool definitions.
func chatTools(specs []llm.ToolSpec) ([]goopenai.Tool, error) {
	var out []goopenai.Tool
	for _, t := range specs {
		params := t.Parameters
		if len(params) == 0 {
			params = emptyParameters
		} else if !json.Valid(params) {
			return nil, fmt.Errorf("tool %s: parameters are not valid JSON", t.Name)
		}
		out = append(out, goopenai.Tool{
			Type: goopenai.ToolTypeFunction,
			Function: &goopenai.FunctionDefinition{
				Name:        t.Name,
				Description: t.Description,
				Parameters:  params,
			},
		})
	}
	return out, nil
}

// toolsJSONByEncoding is the "tools" array as go-openai and encoding/json
// encode it: what ToolsJSON must write, byte for byte.
func toolsJSONByEncoding(specs []llm.ToolSpec) ([]byte, error) {
	tools, err := chatTools(specs)
	if err != nil {
		return nil, err
	}
	return json.Marshal(tools)
}

// toolsJSONCases are tool sets whose names, descriptions and parameters
// take every path of ToolsJSON.
var toolsJSONCases = [][]llm.ToolSpec{
	nil,
	{{Name: "read", Description: "Read a file.", Parameters: json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"}}}`)}},
	{{Name: "none"}, {Name: "no_description", Parameters: json.RawMessage(`{}`)}},
	{{Name: "spaced", Description: "a <b> & \u2028 c", Parameters: json.RawMessage("{ \"type\" : \"object\",\n\t\"properties\": {\"q\": {\"description\": \"a \\\" quoted < and \\\\ slash \u2029 \"}} }")}},
	{{Name: "html in a string", Parameters: json.RawMessage(`{"description":"x<y && y>z"}`)}},
	{{Name: "escapes", Parameters: json.RawMessage(`{"d":"tab\t \" \\\\ \u00e9 \\u003c"}`)}},
	{{Name: "\u2028name<>&", Description: "\"quoted\"\n", Parameters: json.RawMessage(` [1, 2 ,3] `)}},
}

// TestToolsJSONIsWhatEncodingJSONWrites: the directly written array is
// byte for byte what encoding/json makes of go-openai's tools.
func TestToolsJSONIsWhatEncodingJSONWrites(t *testing.T) {
	for i, specs := range toolsJSONCases {
		want, err := toolsJSONByEncoding(specs)
		if err != nil {
			t.Fatal(err)
		}
		got, err := ToolsJSON(specs)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("case %d:\ngot  %s\nwant %s", i, got, want)
		}
	}
	if specs := toolsJSONCases[0]; specs != nil {
		t.Fatal("the first case is no tools")
	}
}

// FuzzToolsJSON: for any name, description and parameters, ToolsJSON
// writes what encoding/json does, or both refuse.
func FuzzToolsJSON(f *testing.F) {
	for _, specs := range toolsJSONCases {
		for _, s := range specs {
			f.Add(s.Name, s.Description, []byte(s.Parameters))
		}
	}
	f.Fuzz(func(t *testing.T, name, description string, params []byte) {
		specs := []llm.ToolSpec{{Name: name, Description: description, Parameters: params}, {Name: "second"}}
		want, werr := toolsJSONByEncoding(specs)
		got, gerr := ToolsJSON(specs)
		if (werr == nil) != (gerr == nil) {
			t.Fatalf("errors differ: %v vs %v", gerr, werr)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("\ngot  %s\nwant %s", got, want)
		}
	})
}

// BenchmarkToolsJSON compares writing the tools array directly with
// encoding go-openai's tools (a tool set the size of agentls's own).
func BenchmarkToolsJSON(b *testing.B) {
	var specs []llm.ToolSpec
	for i := range 16 {
		params, _ := json.Marshal(map[string]any{"type": "object", "properties": map[string]any{
			"path":    map[string]any{"type": "string", "description": "The file's path, relative to the workspace root."},
			"pattern": map[string]any{"type": "string", "description": "A regular expression (RE2) matched against each line."},
			"limit":   map[string]any{"type": "integer", "minimum": 0, "description": "At most this many results."},
		}, "required": []string{"path"}})
		specs = append(specs, llm.ToolSpec{Name: fmt.Sprintf("tool_%d", i), Description: strings.Repeat("Does one thing well. ", 20), Parameters: params})
	}
	b.Run("direct", func(b *testing.B) {
		for b.Loop() {
			_, _ = ToolsJSON(specs)
		}
	})
	b.Run("encoding/json", func(b *testing.B) {
		for b.Loop() {
			_, _ = toolsJSONByEncoding(specs)
		}
	})
}
