package scripted

import (
	"path/filepath"
	"strings"
	"testing"
)

func TestParseInvalid(t *testing.T) {
	tests := []struct {
		file string
		want []string
	}{
		{"unknown_key.yaml", []string{"line 4", "field tool_call not found"}},
		{"unknown_call_key.yaml", []string{"line 5", "field arguments not found"}},
		{"no_steps.yaml", []string{"the script has no steps"}},
		{"empty.yaml", []string{"the document is empty"}},
		{"call_without_name.yaml", []string{"line 8: step 2: tool call 2 has no name"}},
		{"args_and_raw_args.yaml", []string{"line 3: step 1: tool call 1 (read_file): args and raw_args are exclusive"}},
		{"error_with_text.yaml", []string{"line 3: step 2: error excludes text, thought, tool_calls and finish_reason"}},
		{"empty_step.yaml", []string{"line 3: step 2 is empty"}},
		{"duplicate_id.yaml", []string{"line 4: step 1: tool call 2: duplicate id \"c1\""}},
		{"args_not_json.yaml", []string{"line 3: step 1: tool call 1 (grep): args cannot be written as JSON"}},
		{"syntax.yaml", []string{"yaml:", "line 2"}},
		{"steps_not_list.yaml", []string{"line 2", "cannot unmarshal"}},
		{"optional_without_expect.yaml", []string{"line 3: step 2: optional needs an expect"}},
		{"optional_last.yaml", []string{"line 3: step 2: optional needs a step after it"}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			path := filepath.Join("testdata", "invalid", tt.file)
			s, err := Load(path)
			if err == nil {
				t.Fatalf("Load(%s) = %+v, want an error", path, s)
			}
			if !strings.HasPrefix(err.Error(), "load script "+path+": parse script: ") {
				t.Errorf("error %q lacks the path and context", err)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not contain %q", err, w)
				}
			}
		})
	}
}

func TestLoad(t *testing.T) {
	s, err := Load(filepath.Join("testdata", "valid", "plan_flow.yaml"))
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	if s.Name != "plan-flow" || len(s.Steps) != 3 {
		t.Fatalf("got name %q with %d steps", s.Name, len(s.Steps))
	}
	s, err = Load(filepath.Join("testdata", "valid", "error_step.yaml"))
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	if s.Name != "error_step" {
		t.Errorf("name = %q, want the file name", s.Name)
	}
	if _, err := Load(filepath.Join("testdata", "missing.yaml")); err == nil || !strings.Contains(err.Error(), "load script: open testdata/missing.yaml") {
		t.Errorf("missing file: error = %v", err)
	}
}

func TestValidate(t *testing.T) {
	tests := []struct {
		name    string
		script  Script
		wantErr string
	}{
		{"ok", Script{Steps: []Step{{Text: "hi"}, {ToolCalls: []Call{{Name: "grep", Args: map[string]any{"pattern": "x"}}}}}}, ""},
		{"no steps", Script{}, "the script has no steps"},
		{"nameless call", Script{Steps: []Step{{ToolCalls: []Call{{Args: 1}}}}}, "step 1: tool call 1 has no name"},
		{"both args", Script{Steps: []Step{{ToolCalls: []Call{{Name: "grep", Args: 1, RawArgs: "1"}}}}}, "step 1: tool call 1 (grep): args and raw_args are exclusive"},
		{"unmarshallable args", Script{Steps: []Step{{ToolCalls: []Call{{Name: "grep", Args: func() {}}}}}}, "step 1: tool call 1 (grep): args cannot be written as JSON"},
		{"default id clash", Script{Steps: []Step{{ToolCalls: []Call{{Name: "a"}, {ID: "call_1_1", Name: "b"}}}}}, `step 1: tool call 2: duplicate id "call_1_1"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.script.Validate()
			switch {
			case tt.wantErr == "" && err != nil:
				t.Errorf("Validate: %v", err)
			case tt.wantErr != "" && (err == nil || !strings.HasPrefix(err.Error(), tt.wantErr)):
				t.Errorf("error = %v, want it to start with %q", err, tt.wantErr)
			}
		})
	}
}
