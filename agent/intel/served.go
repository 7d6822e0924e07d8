package intel

import (
	"sort"
	"strings"
)

// TypeLister is a Source that lists the file types it serves cheaply
// (without Status, which may read the servers' memory): the agent asks at
// every model request.
type TypeLister interface {
	// ServedTypes are the served file types' configuration keys (go,
	// typescript, python, rust, c), sorted.
	ServedTypes() []string
}

// ServedTypes are the file types src serves (configuration keys, sorted):
// its own list when it keeps one, else those its Status names with a
// source other than "none". Nil for a nil source.
func ServedTypes(src Source) []string {
	if src == nil {
		return nil
	}
	if l, ok := src.(TypeLister); ok {
		return l.ServedTypes()
	}
	seen := map[string]bool{}
	var out []string
	for _, s := range src.Status() {
		t := Family(s.FileType)
		if s.Source != "none" && t != "" && !seen[t] {
			seen[t] = true
			out = append(out, t)
		}
	}
	sort.Strings(out)
	return out
}

// Extensions are the file extensions of a file type's family (".go"; for
// "typescript" also .tsx, .js, …), sorted.
func Extensions(family string) []string {
	var out []string
	for ext, id := range extTypes {
		if Family(id) == family {
			out = append(out, ext)
		}
	}
	sort.Strings(out)
	return out
}

// DescribeTypes names file types with their extensions, for the model and
// for messages: "go (.go); typescript (.cjs .cts .js …)".
func DescribeTypes(types []string) string {
	parts := make([]string, 0, len(types))
	for _, t := range types {
		parts = append(parts, t+" ("+strings.Join(Extensions(t), " ")+")")
	}
	return strings.Join(parts, "; ")
}
