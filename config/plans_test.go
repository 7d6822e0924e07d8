package config

import (
	"path/filepath"
	"strings"
	"testing"
)

func TestPlansDir(t *testing.T) {
	root := filepath.FromSlash("/work/project")
	tests := []struct {
		name, dir string
		want      string // the cleaned folder, returned with or without an error
		errHas    string // "" when the folder can hold plans
	}{
		{"unset", "", "plans", ""},
		{"blank", "  ", "plans", ""},
		{"default", "plans", "plans", ""},
		{"trailing slash", "plans/", "plans", ""},
		{"dot slash", "./docs//plans", "docs/plans", ""},
		{"dot-dot that stays inside", "docs/../plans", "plans", ""},
		{"spaces around", " docs/plans ", "docs/plans", ""},
		{"absolute inside the root", filepath.Join(root, "docs", "plans"), "docs/plans", ""},
		{"a name starting with dots", "..plans", "..plans", ""},
		{"climbs out", "../elsewhere", "../elsewhere", "outside the workspace"},
		{"climbs out after a folder", "docs/../../elsewhere", "../elsewhere", "outside the workspace"},
		{"the parent", "..", "..", "outside the workspace"},
		{"absolute outside the root", filepath.FromSlash("/etc/plans"), "/etc/plans", "outside the workspace"},
		{"absolute: a sibling sharing the prefix", root + "-other", filepath.ToSlash(root + "-other"), "outside the workspace"},
		{"the root itself", ".", ".", "whole workspace folder"},
		{"the root, absolute", root, ".", "whole workspace folder"},
		{"agentls state", ".agentls/plans", ".agentls/plans", "inside .agentls/"},
		{"git", ".git/plans", ".git/plans", "inside .git/"},
		{"git, letter case", ".GIT/plans", ".GIT/plans", "inside .git/"},
		{"git below a folder", "docs/.git/plans", "docs/.git/plans", "inside .git/"},
		{"git itself", ".git", ".git", "inside .git/"},
		{"jj", ".jj", ".jj", "inside .jj/"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := Default()
			cfg.PlanMode.PlansDir = tt.dir
			got, err := cfg.PlansDir(root)
			if filepath.Separator == '/' && got != tt.want {
				t.Errorf("PlansDir(%q) = %q, want %q", tt.dir, got, tt.want)
			}
			if (err == nil) != (tt.errHas == "") || err != nil && !strings.Contains(err.Error(), tt.errHas) {
				t.Errorf("PlansDir(%q) error = %v, want one containing %q", tt.dir, err, tt.errHas)
			}
			if err != nil && !strings.Contains(err.Error(), "plan_mode.plans_dir") {
				t.Errorf("error %q does not name the setting", err)
			}
		})
	}
}

// An absolute plans folder in another workspace folder (a multi-root
// workspace) is kept absolute, under the same rules as in the root.
func TestPlansDirInAnotherFolder(t *testing.T) {
	root, second := filepath.FromSlash("/work/project"), filepath.FromSlash("/work/second")
	tests := []struct {
		name, dir, want, errHas string
	}{
		{"inside the second folder", filepath.Join(second, "plans"), filepath.ToSlash(filepath.Join(second, "plans")), ""},
		{"inside the root still relative", filepath.Join(root, "plans"), "plans", ""},
		{"the second folder itself", second, filepath.ToSlash(second), "whole workspace folder"},
		{"git in the second folder", filepath.Join(second, ".git", "plans"), filepath.ToSlash(filepath.Join(second, ".git", "plans")), "inside .git/"},
		{"outside both", filepath.FromSlash("/work/third/plans"), "/work/third/plans", "outside the workspace"},
		{"relative is the root's", "plans", "plans", ""},
	}
	for _, tt := range tests {
		cfg := Default()
		cfg.PlanMode.PlansDir = tt.dir
		got, err := cfg.PlansDir(root, second)
		if filepath.Separator == '/' && got != tt.want {
			t.Errorf("%s: PlansDir(%q) = %q, want %q", tt.name, tt.dir, got, tt.want)
		}
		if (err == nil) != (tt.errHas == "") || err != nil && !strings.Contains(err.Error(), tt.errHas) {
			t.Errorf("%s: PlansDir(%q) error = %v, want one containing %q", tt.name, tt.dir, err, tt.errHas)
		}
	}
}

// TestDefaultPlansDir: the built-in configuration names DefaultPlansDir, the
// one default every user of the plans folder gets through PlansDir.
func TestDefaultPlansDir(t *testing.T) {
	if got := Default().PlanMode.PlansDir; got != DefaultPlansDir {
		t.Fatalf("Default().PlanMode.PlansDir = %q, want DefaultPlansDir %q", got, DefaultPlansDir)
	}
	if got, err := (Config{}).PlansDir("/w"); got != DefaultPlansDir || err != nil {
		t.Fatalf("PlansDir of an empty configuration = %q, %v", got, err)
	}
}
