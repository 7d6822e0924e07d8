// Package elicit turns an MCP server's elicitation (elicitation/create)
// into ask_user questions and the user's answers back into the server's
// reply: a form becomes one question per field, its schema within the
// limits of ask_user (questions.CheckSchemaLimits) and compiled like them;
// a URL is shown as a question with the URL, never opened. Asking is the
// session's (agent's mcp_elicit.go).
package elicit

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/agentls/agentls/agent/tools"
	"github.com/agentls/agentls/questions"
)

// Questions are req's questions, in batches asked one after the other;
// names maps each question of a form back to its field (nil for a URL).
func Questions(req tools.MCPElicitation) (sets []*questions.Set, names map[string]string, err error) {
	if req.Mode == "url" {
		set, err := urlElicitation(req)
		if err != nil {
			return nil, nil, err
		}
		return []*questions.Set{set}, nil, nil
	}
	return formElicitation(req)
}

// Reply is the server's reply to req once every batch was answered with
// answers: for a URL "accept" when the user went there, else "decline";
// for a form "accept" with the value of each field answered.
func Reply(req tools.MCPElicitation, answers map[string]any, names map[string]string) tools.MCPElicitReply {
	if req.Mode == "url" {
		if answers[urlQuestion] == "accept" {
			return tools.MCPElicitReply{Action: "accept"}
		}
		return tools.MCPElicitReply{Action: "decline"}
	}
	content := map[string]any{}
	for q, v := range answers {
		if field, ok := names[q]; ok && v != nil {
			content[field] = v
		}
	}
	return tools.MCPElicitReply{Action: "accept", Content: content}
}

// urlQuestion is the one question of a URL elicitation.
const urlQuestion = "url_elicitation"

// urlElicitation is a URL elicitation as one question: the server's
// message and the URL (shown, never opened), answered "accept" (the user
// went there and is done) or "decline".
func urlElicitation(req tools.MCPElicitation) (*questions.Set, error) {
	if req.URL == "" {
		return nil, errors.New("a URL elicitation without a URL")
	}
	text := fmt.Sprintf("MCP server `%s` asks you to open this URL yourself (agentls does not open it):\n\n`%s`\n\n%s\n\nAnswer once you are done there.",
		req.Server, strings.ReplaceAll(req.URL, "`", "%60"), req.Message)
	return questions.New([]questions.Question{{
		Name: urlQuestion, Question: text, Severity: "major",
		Schema: json.RawMessage(`{"type":"string","enum":["decline","accept"]}`),
		Buttons: []questions.Button{
			{Label: "Decline", Value: "decline", Variant: "danger"},
			{Label: "Done", Value: "accept", Variant: "primary"},
		},
	}})
}

// maxFormFields caps a form's fields (asked in batches of
// questions.MaxQuestions).
const maxFormFields = 32

// formField is one field of a form elicitation's flat object schema.
type formField struct {
	name   string
	schema json.RawMessage
}

// questionName is what a question's name must look like.
var questionName = regexp.MustCompile(`[^A-Za-z0-9_]`)

// formElicitation is a form elicitation as questions, one per field
// (required ones first), in batches of at most questions.MaxQuestions (asked one
// after the other): the server's message on the first of each; each
// field's title, description and default; optional unless required (a
// field left out gets its default from the SDK, SEP-1034). names maps each
// question back to its field.
func formElicitation(req tools.MCPElicitation) ([]*questions.Set, map[string]string, error) {
	if lim := questions.CheckSchemaLimits("elicitation", req.Schema); lim != nil {
		return nil, nil, lim
	}
	var root struct {
		Type       string          `json:"type"`
		Properties json.RawMessage `json:"properties"`
		Required   []string        `json:"required"`
	}
	if err := json.Unmarshal(req.Schema, &root); err != nil || root.Type != "object" {
		return nil, nil, fmt.Errorf("the requested schema is not a JSON object schema")
	}
	fields, err := orderedFields(root.Properties)
	if err != nil {
		return nil, nil, err
	}
	if len(fields) == 0 {
		return nil, nil, errors.New("the form has no fields")
	}
	if len(fields) > maxFormFields {
		return nil, nil, fmt.Errorf("the form has %d fields; at most %d are asked", len(fields), maxFormFields)
	}
	required := map[string]bool{}
	for _, r := range root.Required {
		required[r] = true
	}
	// Required fields first (the SDK hands the schema over as a map: the
	// server's order is lost, the rest come by name).
	sort.SliceStable(fields, func(i, j int) bool { return required[fields[i].name] && !required[fields[j].name] })
	names := map[string]string{}
	var qs []questions.Question
	for i, f := range fields {
		name := questionName.ReplaceAllString(f.name, "_")
		if name == "" || name[0] >= '0' && name[0] <= '9' {
			name = "f_" + name
		}
		for base, n := name, 2; names[name] != ""; n++ {
			name = fmt.Sprintf("%s_%d", base, n)
		}
		names[name] = f.name
		var meta struct {
			Title       string `json:"title"`
			Description string `json:"description"`
			Default     any    `json:"default"`
		}
		_ = json.Unmarshal(f.schema, &meta)
		var text strings.Builder
		if i%questions.MaxQuestions == 0 {
			fmt.Fprintf(&text, "MCP server `%s` asks: %s\n\n", req.Server, req.Message)
			if len(fields) > questions.MaxQuestions {
				fmt.Fprintf(&text, "(Part %d of %d.)\n\n", i/questions.MaxQuestions+1, (len(fields)+questions.MaxQuestions-1)/questions.MaxQuestions)
			}
		}
		label := meta.Title
		if label == "" {
			label = f.name
		}
		fmt.Fprintf(&text, "**%s**", label)
		if meta.Description != "" {
			text.WriteString(": " + meta.Description)
		}
		if meta.Default != nil {
			d, _ := json.Marshal(meta.Default)
			fmt.Fprintf(&text, " (default: %s)", d)
		}
		qs = append(qs, questions.Question{Name: name, Question: text.String(), Schema: f.schema,
			Optional: !required[f.name] || meta.Default != nil, Severity: "major"})
	}
	var sets []*questions.Set
	for start := 0; start < len(qs); start += questions.MaxQuestions {
		set, err := questions.New(qs[start:min(start+questions.MaxQuestions, len(qs))])
		if err != nil {
			return nil, nil, err
		}
		sets = append(sets, set)
	}
	return sets, names, nil
}

// orderedFields are the properties of a schema in their JSON order.
func orderedFields(raw json.RawMessage) ([]formField, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, errors.New("the requested schema's properties are not an object")
	}
	var out []formField
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, err
		}
		key, _ := t.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, err
		}
		out = append(out, formField{name: key, schema: v})
	}
	return out, nil
}
