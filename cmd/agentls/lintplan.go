package main

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/agentls/agentls/workspace"
)

// lintPlanUsage is printed for --help (stdout) and when lint-plan gets no
// file or an option it does not know (stderr).
const lintPlanUsage = `usage: agentls lint-plan [--] FILE...

Checks .plan files and prints one line per problem:
  file:line:col: severity: message
(line and column 1-based; columns count UTF-16 code units, as LSP does).
Exit status: 1 if any file has an error or cannot be read, else 0.
`

// runLintPlan is `agentls lint-plan FILE...`: the plan linter of the
// editor's diagnostics, on files. It returns the exit code.
func runLintPlan(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		switch a := args[0]; {
		case isHelpFlag(a):
			fmt.Fprint(stdout, lintPlanUsage)
			return 0
		case a == "--": // the files follow, whatever their names
			args = args[1:]
		case strings.HasPrefix(a, "-") && a != "-":
			fmt.Fprintf(stderr, "agentls lint-plan: unknown option %q (a file so named: -- %s)\n", a, a)
			fmt.Fprint(stderr, lintPlanUsage)
			return 2
		}
	}
	if len(args) == 0 {
		fmt.Fprint(stderr, lintPlanUsage)
		return 2
	}
	failed := false
	for _, file := range args {
		data, err := os.ReadFile(file)
		if err != nil {
			fmt.Fprintf(stdout, "%s: error: cannot read the plan: %v\n", file, err)
			failed = true
			continue
		}
		for _, d := range workspace.LintPlan(string(data)) {
			fmt.Fprintf(stdout, "%s:%d:%d: %s: %s\n", file, d.Range.Start.Line+1, d.Range.Start.Character+1, d.Severity, d.Message)
			if d.Severity == workspace.PlanSeverityError {
				failed = true
			}
		}
	}
	if failed {
		return 1
	}
	return 0
}
