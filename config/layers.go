package config

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/agentls/agentls/internal/allowrule"
)

// Diagnostic severities.
const (
	SeverityError   = "error"
	SeverityWarning = "warning"
)

// Diagnostic is a problem found in a configuration layer. Line and Column
// are 1-based; 0 means unknown (always 0 for initializationOptions).
type Diagnostic struct {
	File     string
	Line     int
	Column   int
	Message  string
	Severity string // error | warning
}

// String renders the diagnostic as "file:line:col: severity: message".
func (d Diagnostic) String() string {
	loc := d.File
	if d.Line > 0 {
		loc = fmt.Sprintf("%s:%d:%d", d.File, d.Line, d.Column)
	}
	return fmt.Sprintf("%s: %s: %s", loc, d.Severity, d.Message)
}

// Source is one configuration layer: its name (a path, "env",
// "initializationOptions") and its data, shaped like the YAML file.
type Source struct {
	Name string
	Data map[string]any
}

// FileLayer reads a YAML config file. A missing file (or an empty path) is
// an empty layer. Syntax errors and schema violations come back as
// diagnostics with the line and column of the offending key or value; a
// layer with any error has no Data, and its error diagnostics make the
// configuration fail closed (LoadErrorOf: no model request until it
// loads). The error is for files that exist but cannot be read.
func FileLayer(path string) (Source, []Diagnostic, error) {
	src := Source{Name: path}
	if path == "" {
		return src, nil, nil
	}
	data, err := ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return src, nil, nil
	}
	if err != nil {
		return src, nil, fmt.Errorf("read config %s: %w", path, err)
	}
	src, diags := ParseLayer(path, data)
	return src, diags, nil
}

// ParseLayer is FileLayer on a file's text (an editor's unsaved buffer,
// say): the diagnostics carry path as their File, and a layer with any
// error has no Data.
func ParseLayer(path string, data []byte) (Source, []Diagnostic) {
	src := Source{Name: path}
	doc, syntax := parseYAML(data)
	if syntax != nil {
		syntax.File = path
		return src, []Diagnostic{*syntax}
	}
	c := &converter{}
	value := c.value(doc, 0)
	diags := c.diags
	for i := range diags {
		diags[i].File = path
	}
	if value == nil && len(diags) == 0 {
		return src, nil
	}
	if len(diags) == 0 {
		for _, v := range check(value) {
			n := locate(doc, v.location, v.unknown)
			d := Diagnostic{File: path, Message: v.message, Severity: SeverityError}
			if n != nil {
				d.Line, d.Column = n.Line, n.Column
				d.Message += quoteHint(v.message, n)
			}
			diags = append(diags, d)
		}
	}
	if hasErrors(diags) {
		sortDiagnostics(diags)
		return src, diags
	}
	src.Data, _ = value.(map[string]any)
	if m, ok := src.Data["model"].(map[string]any); ok {
		if _, set := m["api_key"]; set {
			d := Diagnostic{File: path, Severity: SeverityWarning,
				Message: "model.api_key: an API key in a file is easily leaked; prefer model.api_key_env"}
			if n := locate(doc, "/model", "api_key"); n != nil {
				d.Line, d.Column = n.Line, n.Column
			}
			diags = append(diags, d)
		}
	}
	diags = append(diags, allowRuleWarnings(path, doc, src.Data)...)
	diags = append(diags, plansDirWarnings(path, doc, src.Data)...)
	return src, diags
}

// plansDirWarnings flags a plan_mode.plans_dir that cannot hold plans (see
// CleanPlansDir): the layer still applies, the guard refuses every change
// in that folder and the plan listing reports the same error. An absolute
// path is judged only once the workspace is known.
func plansDirWarnings(path string, doc *yaml.Node, data map[string]any) []Diagnostic {
	pm, _ := data["plan_mode"].(map[string]any)
	dir, _ := pm["plans_dir"].(string)
	if dir == "" || filepath.IsAbs(filepath.FromSlash(strings.TrimSpace(dir))) {
		return nil
	}
	if _, err := CleanPlansDir("", dir); err != nil {
		d := Diagnostic{File: path, Severity: SeverityWarning, Message: err.Error()}
		if n := locate(doc, "/plan_mode/plans_dir", ""); n != nil {
			d.Line, d.Column = n.Line, n.Column
		}
		return []Diagnostic{d}
	}
	return nil
}

// allowRuleWarnings flags the run.allow entries that are not allow rules
// (one simple command, optionally ending in " *" or " --*"): they allow nothing.
func allowRuleWarnings(path string, doc *yaml.Node, data map[string]any) []Diagnostic {
	run, _ := data["run"].(map[string]any)
	rules, _ := run["allow"].([]any)
	var diags []Diagnostic
	for i, v := range rules {
		text, _ := v.(string)
		if _, err := allowrule.ParseRule(text); err != nil {
			d := Diagnostic{File: path, Severity: SeverityWarning, Message: fmt.Sprintf("run.allow[%d]: %v; it allows nothing", i, err)}
			if n := locate(doc, fmt.Sprintf("/run/allow/%d", i), ""); n != nil {
				d.Line, d.Column = n.Line, n.Column
			}
			diags = append(diags, d)
		}
	}
	return diags
}

// MapLayer is a layer from already-decoded JSON, such as the editor's
// initializationOptions, validated with the same schema. Diagnostics carry
// name as their File and no position; an invalid layer is dropped.
func MapLayer(name string, m map[string]any) (Source, []Diagnostic) {
	src := Source{Name: name}
	if len(m) == 0 {
		return src, nil
	}
	data, err := normalize(m)
	if err != nil {
		return src, []Diagnostic{{File: name, Severity: SeverityError, Message: err.Error()}}
	}
	var diags []Diagnostic
	for _, v := range check(data) {
		diags = append(diags, Diagnostic{File: name, Message: v.message, Severity: SeverityError})
	}
	if len(diags) > 0 {
		return src, diags
	}
	src.Data = data
	return src, nil
}

// EnvLayer reads the environment: AGENTLS_PROVIDER → model.provider,
// AGENTLS_MODEL → model.name, OPENAI_BASE_URL → model.base_url. The API
// key itself is never stored: it is read when needed through
// model.api_key_env (OPENAI_API_KEY by default). Its values are checked by
// Resolve.
func EnvLayer(getenv func(string) string) Source {
	model := map[string]any{}
	for env, key := range map[string]string{
		"AGENTLS_PROVIDER": "provider",
		"AGENTLS_MODEL":    "name",
		"OPENAI_BASE_URL":  "base_url",
	} {
		if v := getenv(env); v != "" {
			model[key] = v
		}
	}
	src := Source{Name: "env"}
	if len(model) > 0 {
		src.Data = map[string]any{"model": model}
	}
	return src
}

// UserFile is the user's config file: $XDG_CONFIG_HOME/agentls/config.yaml,
// else <home>/.config/agentls/config.yaml (Home); "" when no home is known.
func UserFile(getenv func(string) string) string {
	if dir := getenv("XDG_CONFIG_HOME"); filepath.IsAbs(dir) {
		return filepath.Join(dir, "agentls", "config.yaml")
	}
	if home := Home(getenv); home != "" {
		return filepath.Join(home, ".config", "agentls", "config.yaml")
	}
	return ""
}

// UserDirs are the folders agentls's user configuration may live in, as
// absolute paths: $XDG_CONFIG_HOME/agentls (when XDG_CONFIG_HOME is absolute)
// and <home>/.config/agentls (Home). UserFile is in one of them;
// the guard protects both.
func UserDirs(getenv func(string) string) []string {
	var dirs []string
	if dir := getenv("XDG_CONFIG_HOME"); filepath.IsAbs(dir) {
		dirs = append(dirs, filepath.Join(dir, "agentls"))
	}
	if home := Home(getenv); home != "" {
		if d := filepath.Join(home, ".config", "agentls"); filepath.IsAbs(d) && (len(dirs) == 0 || dirs[0] != d) {
			dirs = append(dirs, d)
		}
	}
	return dirs
}

// quoteHint suggests quotes when YAML read a number or a boolean where
// text was expected (name: 4.1, plan_name: yes).
func quoteHint(msg string, n *yaml.Node) string {
	if n.Kind != yaml.ScalarNode || n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle) != 0 {
		return ""
	}
	if strings.HasSuffix(msg, "expected string, but got number") || strings.HasSuffix(msg, "expected string, but got boolean") {
		return fmt.Sprintf(" (quote it: %q)", n.Value)
	}
	return ""
}

func hasErrors(diags []Diagnostic) bool {
	for _, d := range diags {
		if d.Severity == SeverityError {
			return true
		}
	}
	return false
}

func sortDiagnostics(diags []Diagnostic) {
	sort.SliceStable(diags, func(i, j int) bool {
		if diags[i].Line != diags[j].Line {
			return diags[i].Line < diags[j].Line
		}
		return diags[i].Column < diags[j].Column
	})
}
