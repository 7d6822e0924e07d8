package config

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"strconv"

	"go.yaml.in/yaml/v3"

	"github.com/agentls/agentls/internal/schemamsg"
)

// maxNodes bounds the work of converting one file: the values it expands
// to, the mappings walked and the "<<" merge sources taken, aliases
// followed each time (alias and merge bombs).
const maxNodes = 100000

// maxDepth bounds the nesting of values and of merges within merges.
const maxDepth = 100

// yamlErrRE splits a yaml.v3 syntax error into its line and message.
var yamlErrRE = regexp.MustCompile(`^yaml: (?:line (\d+): )?(.*)$`)

// maxScanLines bounds the search for the real line of a syntax error.
const maxScanLines = 2000

// parseYAML parses a YAML document into its node tree. A syntax error is
// returned as a diagnostic (without File).
func parseYAML(data []byte) (*yaml.Node, *Diagnostic) {
	var doc yaml.Node
	err := yaml.Unmarshal(data, &doc)
	if err == nil {
		return &doc, nil
	}
	reported, msg := splitYAMLError(err)
	d := Diagnostic{Severity: SeverityError, Message: "YAML syntax error: " + msg}
	lines := bytes.SplitAfter(data, []byte("\n"))
	line := errorLine(lines, msg)
	if line == 0 && reported > 0 && reported <= len(lines) {
		line = reported
	}
	if line > 0 {
		d.Line = line
		d.Column = 1 + len(lines[line-1]) - len(bytes.TrimLeft(lines[line-1], " \t"))
	}
	return nil, &d
}

// splitYAMLError returns the line yaml.v3 reported (0 if none) and the
// message without it.
func splitYAMLError(err error) (int, string) {
	m := yamlErrRE.FindStringSubmatch(err.Error())
	if m == nil {
		return 0, err.Error()
	}
	line, _ := strconv.Atoi(m[1])
	return line, m[2]
}

// errorLine finds the first line at which the document fails with msg:
// the shortest prefix of lines that fails the same way. yaml.v3 reports
// the line of the parser's context (often a line or more too early) for
// many errors, and no line at all for some (unknown anchors).
func errorLine(lines [][]byte, msg string) int {
	if len(lines) > maxScanLines {
		return 0
	}
	var prefix []byte
	for i, l := range lines {
		prefix = append(prefix, l...)
		var n yaml.Node
		if err := yaml.Unmarshal(prefix, &n); err != nil {
			if _, m := splitYAMLError(err); m == msg {
				return i + 1
			}
		}
	}
	return 0
}

// converter turns a YAML node tree into JSON-like values (map[string]any,
// []any, string, bool, json.Number, nil), noting duplicate keys and
// runaway expansion by aliases and merges.
type converter struct {
	nodes    int
	overflow bool
	diags    []Diagnostic
}

// spend counts one step of the conversion at n (a value, a mapping walked
// or a merge source) and reports whether the budget still allows it. The
// first step over the budget adds the one diagnostic, at n's line.
func (c *converter) spend(n *yaml.Node, depth int) bool {
	c.nodes++
	if c.nodes <= maxNodes && depth <= maxDepth {
		return true
	}
	if !c.overflow {
		c.overflow = true
		c.diags = append(c.diags, Diagnostic{Line: n.Line, Column: n.Column, Severity: SeverityError,
			Message: fmt.Sprintf("the document is too large or nested too deeply: aliases and \"<<\" merges expand it to more than %d values and mappings, or more than %d levels", maxNodes, maxDepth)})
	}
	return false
}

func (c *converter) value(n *yaml.Node, depth int) any {
	if !c.spend(n, depth) {
		return nil
	}
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			return nil
		}
		return c.value(n.Content[0], depth+1)
	case yaml.AliasNode:
		return c.value(n.Alias, depth+1)
	case yaml.SequenceNode:
		out := make([]any, 0, len(n.Content))
		for _, item := range n.Content {
			out = append(out, c.value(item, depth+1))
		}
		return out
	case yaml.MappingNode:
		out := map[string]any{}
		c.mapping(n, out, map[string]*yaml.Node{}, depth)
		return out
	case yaml.ScalarNode:
		return scalar(n)
	}
	return nil
}

// mapping adds the pairs of n to out. Explicit keys win over merged ones
// ("<<"); a key given twice is an error. Each merge source walked counts
// against the budget like a value: merges of empty mappings build no
// value, yet ten levels of ten merges each are 10^10 walks.
func (c *converter) mapping(n *yaml.Node, out map[string]any, at map[string]*yaml.Node, depth int) {
	var merges []*yaml.Node
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Kind == yaml.ScalarNode && k.ShortTag() == "!!merge" {
			merges = append(merges, v)
			continue
		}
		if k.Kind != yaml.ScalarNode {
			c.diags = append(c.diags, Diagnostic{Line: k.Line, Column: k.Column, Severity: SeverityError,
				Message: "keys must be plain strings"})
			continue
		}
		if first, dup := at[k.Value]; dup {
			c.diags = append(c.diags, Diagnostic{Line: k.Line, Column: k.Column, Severity: SeverityError,
				Message: fmt.Sprintf("duplicate key %q (first at line %d)", k.Value, first.Line)})
			continue
		}
		at[k.Value] = k
		out[k.Value] = c.value(v, depth+1)
	}
	for _, m := range merges {
		for _, src := range mergeSources(m) {
			if !c.spend(src, depth+1) {
				return
			}
			merged := map[string]any{}
			c.mapping(src, merged, map[string]*yaml.Node{}, depth+1)
			for key, val := range merged {
				if _, explicit := at[key]; !explicit {
					if _, taken := out[key]; !taken {
						out[key] = val
					}
				}
			}
		}
	}
}

// mergeSources are the mappings a "<<" value merges in: one mapping or a
// sequence of them (aliases resolved).
func mergeSources(v *yaml.Node) []*yaml.Node {
	v = resolveAlias(v)
	switch v.Kind {
	case yaml.MappingNode:
		return []*yaml.Node{v}
	case yaml.SequenceNode:
		var out []*yaml.Node
		for _, item := range v.Content {
			if item = resolveAlias(item); item.Kind == yaml.MappingNode {
				out = append(out, item)
			}
		}
		return out
	}
	return nil
}

func resolveAlias(n *yaml.Node) *yaml.Node {
	for i := 0; n.Kind == yaml.AliasNode && n.Alias != nil && i < 100; i++ {
		n = n.Alias
	}
	return n
}

// scalar converts a scalar by its resolved tag. Numbers become
// json.Number; timestamps and other tags stay the text as written, so the
// schema judges them as strings.
func scalar(n *yaml.Node) any {
	switch n.ShortTag() {
	case "!!null":
		return nil
	case "!!bool":
		var b bool
		if n.Decode(&b) == nil {
			return b
		}
	case "!!int":
		var i int64
		if n.Decode(&i) == nil {
			return json.Number(strconv.FormatInt(i, 10))
		}
	case "!!float":
		var f float64
		if n.Decode(&f) == nil && !math.IsInf(f, 0) && !math.IsNaN(f) {
			return json.Number(strconv.FormatFloat(f, 'g', -1, 64))
		}
	}
	return n.Value
}

// locate finds the node at a JSON pointer below root (the document's
// top-level value). With key set it returns the key node of the last
// token instead of its value. It returns the deepest node it reached.
func locate(root *yaml.Node, ptr string, key string) *yaml.Node {
	cur := root
	if cur != nil && cur.Kind == yaml.DocumentNode && len(cur.Content) > 0 {
		cur = cur.Content[0]
	}
	if cur == nil {
		return nil
	}
	toks := schemamsg.Tokens(ptr)
	if key != "" {
		toks = append(toks, key)
	}
	for i, tok := range toks {
		cur = resolveAlias(cur)
		var next *yaml.Node
		switch cur.Kind {
		case yaml.MappingNode:
			k, v := findKey(cur, tok)
			if k != nil && key != "" && i == len(toks)-1 {
				return k
			}
			next = v
		case yaml.SequenceNode:
			if idx, err := strconv.Atoi(tok); err == nil && idx >= 0 && idx < len(cur.Content) {
				next = cur.Content[idx]
			}
		}
		if next == nil {
			return cur
		}
		cur = next
	}
	return cur
}

// findKey finds key in a mapping, looking into merged mappings too, each
// mapping once: a merge source reached again (through other aliases) was
// already searched, and searching it again would make a document of
// nested merges cost a walk of every path through them per key located.
func findKey(m *yaml.Node, key string) (k, v *yaml.Node) {
	return findKeyIn(m, key, map[*yaml.Node]bool{}, 0)
}

func findKeyIn(m *yaml.Node, key string, searched map[*yaml.Node]bool, depth int) (k, v *yaml.Node) {
	searched[m] = true
	var merges []*yaml.Node
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].ShortTag() == "!!merge" {
			merges = append(merges, m.Content[i+1])
			continue
		}
		if m.Content[i].Value == key {
			return m.Content[i], m.Content[i+1]
		}
	}
	if depth > 10 {
		return nil, nil
	}
	for _, mv := range merges {
		for _, src := range mergeSources(mv) {
			if searched[src] {
				continue
			}
			if k, v := findKeyIn(src, key, searched, depth+1); k != nil {
				return k, v
			}
		}
	}
	return nil, nil
}
