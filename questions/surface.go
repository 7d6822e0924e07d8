package questions

import "encoding/json"

// Action is one choice of a window/showMessageRequest: its title and the
// answer it stands for.
type Action struct {
	Title string
	Value any
}

// LSP MessageType values (window/showMessageRequest).
const (
	MessageError   = 1
	MessageWarning = 2
	MessageInfo    = 3
)

// MessageActions gives the choices that show q as a message request
// (PROTOCOL.md §3): its buttons; else Yes/No for a boolean schema; else each
// value of a string enum as written. ok is false when q cannot be shown
// that way (free text, numbers, arrays, objects).
func MessageActions(q Question) (actions []Action, ok bool) {
	if len(q.Buttons) > 0 {
		for _, b := range q.Buttons {
			actions = append(actions, Action{Title: b.Label, Value: b.Value})
		}
		return actions, true
	}
	var schema struct {
		Type any   `json:"type"`
		Enum []any `json:"enum"`
	}
	if err := json.Unmarshal(q.Schema, &schema); err != nil {
		return nil, false
	}
	if len(schema.Enum) == 0 && hasOnlyType(schema.Type, "boolean") {
		return []Action{{Title: "Yes", Value: true}, {Title: "No", Value: false}}, true
	}
	if len(schema.Enum) == 0 || (schema.Type != nil && !hasOnlyType(schema.Type, "string")) {
		return nil, false
	}
	for _, e := range schema.Enum {
		s, isString := e.(string)
		if !isString {
			return nil, false
		}
		actions = append(actions, Action{Title: s, Value: s})
	}
	return actions, true
}

// hasOnlyType tells whether a schema's "type" is exactly want ("want" or
// ["want"]).
func hasOnlyType(t any, want string) bool {
	switch x := t.(type) {
	case string:
		return x == want
	case []any:
		return len(x) == 1 && x[0] == want
	}
	return false
}

// CanShowAsMessages tells whether every question of s (optional ones
// included) can be shown as a message request.
func CanShowAsMessages(s *Set) bool {
	for _, q := range s.Questions {
		if _, ok := MessageActions(q); !ok {
			return false
		}
	}
	return true
}

// MessageType maps a question's severity to the LSP MessageType:
// critical → Error, major → Warning, minor or none → Info.
func MessageType(severity string) int {
	switch severity {
	case "critical":
		return MessageError
	case "major":
		return MessageWarning
	}
	return MessageInfo
}
