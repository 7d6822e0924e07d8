package questions

import (
	"encoding/json"
	"reflect"
	"testing"
)

func TestMessageActions(t *testing.T) {
	tests := []struct {
		name   string
		q      Question
		want   []Action
		wantOK bool
	}{
		{"buttons", Question{Schema: json.RawMessage(`{"type":"boolean"}`), Buttons: []Button{{Label: "Yes, proceed", Value: true}, {Label: "No, cancel", Value: false}}},
			[]Action{{Title: "Yes, proceed", Value: true}, {Title: "No, cancel", Value: false}}, true},
		{"buttons on free text", Question{Schema: json.RawMessage(`{"type":"string"}`), Buttons: []Button{{Label: "Use main", Value: "main"}}},
			[]Action{{Title: "Use main", Value: "main"}}, true},
		{"boolean", Question{Schema: json.RawMessage(`{"type":"boolean","description":"Proceed?"}`)},
			[]Action{{Title: "Yes", Value: true}, {Title: "No", Value: false}}, true},
		{"boolean in a type array", Question{Schema: json.RawMessage(`{"type":["boolean"]}`)},
			[]Action{{Title: "Yes", Value: true}, {Title: "No", Value: false}}, true},
		{"string enum", Question{Schema: json.RawMessage(`{"type":"string","enum":["dev","staging","prod"]}`)},
			[]Action{{Title: "dev", Value: "dev"}, {Title: "staging", Value: "staging"}, {Title: "prod", Value: "prod"}}, true},
		{"enum without type", Question{Schema: json.RawMessage(`{"enum":["a","b"]}`)},
			[]Action{{Title: "a", Value: "a"}, {Title: "b", Value: "b"}}, true},
		{"free text", Question{Schema: json.RawMessage(`{"type":"string","pattern":"^[a-z]+$"}`)}, nil, false},
		{"array", Question{Schema: json.RawMessage(`{"type":"array","items":{"type":"string","enum":["a","b"]}}`)}, nil, false},
		{"object", Question{Schema: json.RawMessage(`{"type":"object"}`)}, nil, false},
		{"number", Question{Schema: json.RawMessage(`{"type":"integer"}`)}, nil, false},
		{"number enum", Question{Schema: json.RawMessage(`{"enum":[1,2]}`)}, nil, false},
		{"mixed enum", Question{Schema: json.RawMessage(`{"enum":["a",1]}`)}, nil, false},
		{"nullable string enum", Question{Schema: json.RawMessage(`{"type":["string","null"],"enum":["a",null]}`)}, nil, false},
		{"true schema", Question{Schema: json.RawMessage(`true`)}, nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := MessageActions(tt.q)
			if ok != tt.wantOK || !reflect.DeepEqual(got, tt.want) {
				t.Errorf("MessageActions = %#v, %v; want %#v, %v", got, ok, tt.want, tt.wantOK)
			}
		})
	}
}

func TestCanShowAsMessages(t *testing.T) {
	tests := []struct {
		files []string
		want  bool
	}{
		{[]string{"batch"}, true},
		{[]string{"confirm"}, true},
		{[]string{"environment"}, true},
		{[]string{"branch_name"}, false},
		{[]string{"components"}, false},
		{[]string{"endpoint_config"}, false},
	}
	for _, tt := range tests {
		set := mustParseFile(t, tt.files[0])
		if got := CanShowAsMessages(set); got != tt.want {
			t.Errorf("CanShowAsMessages(%v) = %v, want %v", tt.files, got, tt.want)
		}
	}
	approval, err := New([]Question{
		{Name: "approve", Question: "Accept?", Schema: json.RawMessage(`{"type":"boolean"}`)},
		{Name: "feedback", Question: "Why?", Schema: json.RawMessage(`{"type":"string"}`), Optional: true},
	})
	if err != nil {
		t.Fatal(err)
	}
	if CanShowAsMessages(approval) {
		t.Error("an optional free-text question cannot be shown as a message request")
	}
}

func TestMessageType(t *testing.T) {
	for sev, want := range map[string]int{"critical": 1, "major": 2, "minor": 3, "": 3, "other": 3} {
		if got := MessageType(sev); got != want {
			t.Errorf("MessageType(%q) = %d, want %d", sev, got, want)
		}
	}
}
