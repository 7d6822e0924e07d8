package guard

import "testing"

func TestIsAutoRun(t *testing.T) {
	for _, tc := range []struct {
		rel  string
		want bool
	}{
		{".vscode/tasks.json", true},
		{".vscode/settings.json", true},
		{".vscode", true},
		{"sub/.VSCode/launch.json", true},
		{".idea/workspace.xml", true},
		{".zed/tasks.json", true},
		{".helix/languages.toml", true},
		{".nvim.lua", true},
		{"pkg/.exrc", true},
		{".nvimrc", true},
		{"lisp/.dir-locals.el", true},
		{".dir-locals-2.el", true},
		{".envrc", true},
		{".envrc. ", true}, // trailing dots and spaces fold away (Windows)
		{"app.code-workspace", true},
		{"App.Code-Workspace", true},
		{".code-workspace", false},
		{"src/main.go", false},
		{"vscode/tasks.json", false},
		{"docs/envrc", false},
		{"x.envrc", false},
		{"src/../.vscode/tasks.json", true},
	} {
		if got := IsAutoRun(tc.rel); got != tc.want {
			t.Errorf("IsAutoRun(%q) = %v, want %v", tc.rel, got, tc.want)
		}
	}
	if IsAutoRunName(".envrc", true) || IsAutoRunName(".vscode", false) {
		t.Error("a folder named like an auto-run file (or the reverse) is not one")
	}
}
