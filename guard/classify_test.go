package guard

import (
	"strings"
	"testing"
)

func TestClassifyEveryDesignTool(t *testing.T) {
	tests := []struct {
		tool  string
		class Class
		kind  Kind
	}{
		{"read", ClassReadOnly, KindReadOnly},
		{"ls", ClassReadOnly, KindReadOnly},
		{"glob", ClassReadOnly, KindReadOnly},
		{"grep", ClassReadOnly, KindReadOnly},
		{"ask_user", ClassReadOnly, KindReadOnly},
		{"enter_plan_mode", ClassReadOnly, KindReadOnly},
		{"exit_plan_mode", ClassReadOnly, KindReadOnly},
		{"plan_read", ClassReadOnly, KindReadOnly},
		{"plan_list", ClassReadOnly, KindReadOnly},
		{"write", ClassMutating, KindFileEdit},
		{"edit", ClassMutating, KindFileEdit},
		{"touch", ClassMutating, KindFileEdit},
		{"mv", ClassMutating, KindMove},
		{"rm", ClassMutating, KindDelete},
		{"mkdir", ClassMutating, KindMkdir},
		{"run", ClassMutating, KindExecute},
		{"plan_write", ClassPlanMutating, KindFileEdit},
		{"plan_edit", ClassPlanMutating, KindFileEdit},
	}
	if len(tests) != len(tools) {
		t.Errorf("the table classifies %d tools, DESIGN.md §Tools lists %d", len(tools), len(tests))
	}
	for _, tt := range tests {
		got, ok := Classify(tt.tool)
		if !ok || got.Class != tt.class || got.Kind != tt.kind {
			t.Errorf("Classify(%q) = %+v, %v; want {%v %v}", tt.tool, got, ok, tt.class, tt.kind)
		}
	}
	for _, unknown := range []string{"", "bash", "Write", "READ", " read", "read ", "apply_patch", "plan_delete"} {
		if got, ok := Classify(unknown); ok {
			t.Errorf("Classify(%q) = %+v, want unknown", unknown, got)
		}
	}
}

func TestCheckRegistry(t *testing.T) {
	tests := []struct {
		name    string
		tools   []string
		missing []string // each must be named; nil: no error
	}{
		{"every design tool", []string{"read", "ls", "glob", "grep", "write", "edit", "mv", "rm", "mkdir", "touch", "run",
			"ask_user", "enter_plan_mode", "exit_plan_mode", "plan_write", "plan_read", "plan_edit", "plan_list"}, nil},
		{"empty registry", nil, nil},
		{"one unknown", []string{"read", "bash"}, []string{`"bash"`}},
		{"several unknown, once each", []string{"bash", "write", "web_fetch", "bash", "Read"}, []string{`"bash"`, `"web_fetch"`, `"Read"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := CheckRegistry(tt.tools)
			if tt.missing == nil {
				if err != nil {
					t.Fatalf("CheckRegistry: %v", err)
				}
				return
			}
			if err == nil {
				t.Fatal("CheckRegistry: no error")
			}
			for _, m := range tt.missing {
				if strings.Count(err.Error(), m) != 1 {
					t.Errorf("error %q does not name %s exactly once", err, m)
				}
			}
			if strings.Contains(err.Error(), `"write"`) || strings.Contains(err.Error(), `"read"`) {
				t.Errorf("error %q names a classified tool", err)
			}
		})
	}
}

func TestClassString(t *testing.T) {
	for c, want := range map[Class]string{ClassReadOnly: "read_only", ClassMutating: "mutating", ClassPlanMutating: "plan_mutating", Class(9): "Class(9)"} {
		if got := c.String(); got != want {
			t.Errorf("%d.String() = %q, want %q", int(c), got, want)
		}
	}
}
