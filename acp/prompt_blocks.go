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
// objects: the SDK answers those itself).
func promptBlocksProblem(line []byte) string {
	var m struct {
		Params struct {
			Prompt []struct {
				Type *string `json:"type"`
			} `json:"prompt"`
		} `json:"params"`
	}
	if json.Unmarshal(line, &m) != nil {
		return ""
	}
	for i, b := range m.Params.Prompt {
		switch {
		case b.Type == nil:
			return fmt.Sprintf("prompt[%d]: a content block needs a type (text, resource_link or resource)", i)
		case !contentBlockTypes[*b.Type]:
			return fmt.Sprintf("prompt[%d]: unknown content block type %q; agentls takes text, resource_link and resource", i, oneLine(*b.Type))
		}
	}
	return ""
}
