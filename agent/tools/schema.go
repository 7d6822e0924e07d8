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

// described adds desc to p unless it is empty: a parameter whose name says it
// all goes without a description, which every request would carry.
func described(p prop, desc string) prop {
	if desc != "" {
		p["description"] = desc
	}
	return p
}

// str is a string parameter.
func str(desc string) prop { return described(prop{"type": "string"}, desc) }

// enum is a string parameter limited to values.
func enum(desc string, values ...string) prop {
	return described(prop{"type": "string", "enum": values}, desc)
}

// integer is an integer parameter with a minimum.
func integer(desc string, minimum int) prop {
	return described(prop{"type": "integer", "minimum": minimum}, desc)
}

// boolean is a boolean parameter.
func boolean(desc string) prop { return described(prop{"type": "boolean"}, desc) }

// stringList is an array-of-strings parameter.
func stringList(desc string) prop {
	return described(prop{"type": "array", "items": prop{"type": "string"}}, desc)
}
