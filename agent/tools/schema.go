package tools

import (
	"encoding/json"
	"fmt"
)

// prop is the JSON Schema of one tool parameter.
type prop map[string]any

// object is the JSON Schema of a tool's parameters: an object with the given
// properties, the named ones required, and nothing else allowed.
func object(required []string, props map[string]prop) json.RawMessage {
	for _, r := range required {
		if _, ok := props[r]; !ok {
			panic(fmt.Sprintf("tools: required parameter %q has no schema", r))
		}
	}
	if required == nil {
		required = []string{}
	}
	b, err := json.Marshal(map[string]any{
		"type":                 "object",
		"properties":           props,
		"required":             required,
		"additionalProperties": false,
	})
	if err != nil {
		panic(fmt.Sprintf("tools: parameter schema: %v", err))
	}
	return b
}

// str is a string parameter.
func str(desc string) prop { return prop{"type": "string", "description": desc} }

// enum is a string parameter limited to values.
func enum(desc string, values ...string) prop {
	return prop{"type": "string", "description": desc, "enum": values}
}

// integer is an integer parameter with a minimum.
func integer(desc string, minimum int) prop {
	return prop{"type": "integer", "description": desc, "minimum": minimum}
}

// boolean is a boolean parameter.
func boolean(desc string) prop { return prop{"type": "boolean", "description": desc} }

// stringList is an array-of-strings parameter.
func stringList(desc string) prop {
	return prop{"type": "array", "description": desc, "items": prop{"type": "string"}}
}
