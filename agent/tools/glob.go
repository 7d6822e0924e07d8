package tools

import (
	"context"
	_ "embed"
	"encoding/json"
	"strings"

	"github.com/agentls/agentls/agent/llm"
	"github.com/agentls/agentls/guard"
)

//go:embed descriptions/glob.md
var globDescription string

// GlobParams are the arguments of glob.
type GlobParams struct {
	Pattern string `json:"pattern"`
	Path    string `json:"path,omitempty"`
}

// maxGlobMatches bounds the paths glob returns.
const maxGlobMatches = 1000

// GlobOutput is glob's result; Count is the number of matches before the cap.
type GlobOutput struct {
	Pattern   string   `json:"pattern"`
	Matches   []string `json:"matches"`
	Count     int      `json:"count"`
	Truncated bool     `json:"truncated"`
}

// GlobTool finds files by name pattern.
type GlobTool struct{}

// Spec implements Tool.
func (GlobTool) Spec() Spec {
	return Spec{ToolSpec: llm.ToolSpec{
		Name:        "glob",
		Description: globDescription,
		Parameters: object([]string{"pattern"}, map[string]prop{
			"pattern": str(""),
			"path":    str("Folder to search from (default: root)."),
		}),
	}, Guard: guard.Decl{
		Class: guard.ClassReadOnly, Kind: guard.KindReadOnly,
		Paths:       []guard.PathArg{{Name: "path", Role: guard.Source, Optional: true}},
		Interaction: guard.Unattended, Plan: guard.OfferedInPlan,
	}}
}

// Kind implements Tool.
func (GlobTool) Kind() string { return "search" }

// Title implements Tool.
func (GlobTool) Title(args json.RawMessage) string { return title("glob", argString(args, "pattern")) }

// Run implements Tool.
func (GlobTool) Run(ctx context.Context, env Env, args json.RawMessage) (Result, error) {
	var p GlobParams
	if err := parseArgs(args, &p); err != nil {
		return Failf("%v", err), nil
	}
	if strings.TrimSpace(p.Pattern) == "" {
		return Failf("pattern is required"), nil
	}
	if p.Path == "" {
		p.Path = "."
	}
	base, fail := resolve(env, "path", p.Path)
	if fail != nil {
		return *fail, nil
	}
	if !base.IsDir {
		return Failf("path %s is not an existing folder", p.Path), nil
	}
	matches, err := env.Workspace().GlobContext(ctx, p.Pattern, base)
	if err != nil {
		if ctx.Err() != nil {
			return Result{}, err
		}
		return Failf("%v", err), nil
	}
	out := GlobOutput{Pattern: p.Pattern, Matches: matches, Count: len(matches)}
	if len(matches) > maxGlobMatches {
		out.Matches, out.Truncated = matches[:maxGlobMatches], true
	}
	if out.Matches == nil {
		out.Matches = []string{}
	}
	return OK(out), nil
}
