package acp

import (
	"encoding/json"
	"fmt"
)

// contentBlockTypes are the ACP content block types. The SDK decodes a
// block of any other type (or none) as an empty text block, so a block the
// agent does not know would vanish from the prompt unsaid.
var contentBlockTypes = map[string]bool{"text": true, "image": true, "audio": true, "resource_link": true, "resource": true}

// promptBlocksProblem says what is wrong with a session/prompt's content
// blocks' types ("" when nothing is, or when the params are not a list of
// objects: the SDK answers those itself). Each block's type is read as
// the SDK reads it (acp-go-sdk ContentBlock.UnmarshalJSON): from the key
// "type" exactly, of a map of the block's keys. encoding/json would match a
// struct field's key in any letter case, so {"Type":"resource",…} passed
// here as a resource while the SDK, finding no "type", made it an empty
// text block: the resource vanished without an error.
func promptBlocksProblem(line []byte) string {
	var m struct {
		Params struct {
			Prompt []json.RawMessage `json:"prompt"`
		} `json:"params"`
	}
	if json.Unmarshal(line, &m) != nil {
		return ""
	}
	for i, raw := range m.Params.Prompt {
		var block map[string]json.RawMessage
		if json.Unmarshal(raw, &block) != nil {
			return "" // not an object: the SDK refuses it
		}
		typ, ok := block["type"]
		if !ok {
			return fmt.Sprintf("prompt[%d]: a content block needs a type (text, resource_link or resource)", i)
		}
		var name string
		if json.Unmarshal(typ, &name) != nil {
			return fmt.Sprintf("prompt[%d]: a content block's type must be a string (text, resource_link or resource)", i)
		}
		if !contentBlockTypes[name] {
			return fmt.Sprintf("prompt[%d]: unknown content block type %q; agentls takes text, resource_link and resource", i, oneLine(name))
		}
	}
	return ""
}
